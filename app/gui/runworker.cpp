#include "runworker.h"

#include "qtconvert.h"

#include <QCoreApplication>

#include <cmath>
#include <exception>
#include <mutex>

namespace cuwb {

namespace {

constexpr double PageTimeoutSeconds = 30.0;
constexpr double ExportTimeoutSeconds = 600.0;
constexpr double RunSlackSeconds = 60.0;

QString trWorker(const char *text)
{
    return QCoreApplication::translate("RunWorker", text);
}

QString secondsText(double seconds)
{
    return QString::number(seconds, 'g', 3);
}

} // namespace

RunWorker::RunWorker(QObject *parent)
    : QObject(parent)
{}

RunWorker::~RunWorker()
{
    shutdown();
}

void RunWorker::setCliPath(const QString &path)
{
    const std::string cli = toStdString(path);
    if (cli == m_cliPath)
        return;
    m_cliPath = cli;
    shutdown(); // the next request starts the new executable
}

WorkerProcess &RunWorker::process()
{
    if (!m_process) {
        WorkerProcess::Options options;
        options.executable = m_cliPath;
        auto created = std::make_unique<WorkerProcess>(options);
        const std::lock_guard lock(m_processMutex);
        if (m_aborted)
            created->cancel();
        m_process = std::move(created);
        m_reportedStarts = 0;
    }
    return *m_process;
}

void RunWorker::abort()
{
    const std::lock_guard lock(m_processMutex);
    m_aborted = true;
    if (m_process)
        m_process->cancel();
}

void RunWorker::reportHello()
{
    if (!m_process || m_process->starts() == m_reportedStarts || m_process->hello().is_null())
        return;
    m_reportedStarts = m_process->starts();
    try {
        Q_EMIT helloReceived(parseHelloReply(m_process->hello()));
    } catch (const std::exception &) {
        // A hello we cannot read still let the worker start; the device panel keeps the probe's.
    }
}

double RunWorker::runTimeoutSeconds(double deadlineSeconds)
{
    const double deadline =
        std::isfinite(deadlineSeconds) && deadlineSeconds > 0 ? deadlineSeconds : 10.0;
    return deadline + RunSlackSeconds;
}

RunResult RunWorker::resultFromReply(const WorkerProcess::Reply &reply, double deadlineSeconds)
{
    RunResult result;
    switch (reply.failure) {
    case WorkerProcess::Failure::None:
        try {
            return parseRunResultReply(reply.message);
        } catch (const std::exception &error) {
            result.status = RunStatus::WorkerCrashed;
            result.message = toStdString(trWorker("The worker's answer could not be read: %1")
                                             .arg(QString::fromUtf8(error.what())));
        }
        return result;
    case WorkerProcess::Failure::Timeout:
        result.status = RunStatus::Timeout;
        result.message = toStdString(
            trWorker("The run did not finish within %1 s; the worker was stopped and starts "
                     "afresh for the next run.")
                .arg(secondsText(deadlineSeconds)));
        break;
    case WorkerProcess::Failure::StartFailed:
        result.status = RunStatus::WorkerCrashed;
        result.message =
            toStdString(trWorker("The worker could not start: %1").arg(toQString(reply.error)));
        break;
    case WorkerProcess::Failure::Crashed:
    case WorkerProcess::Failure::Garbage:
        result.status = RunStatus::WorkerCrashed;
        result.message = toStdString(
            trWorker("The worker stopped unexpectedly: %1 It starts afresh for the next run.")
                .arg(toQString(reply.error)));
        break;
    case WorkerProcess::Failure::ErrorReply:
        result.status = RunStatus::WorkerCrashed;
        result.message =
            toStdString(trWorker("The worker refused the run: %1").arg(toQString(reply.error)));
        break;
    case WorkerProcess::Failure::Cancelled:
        result.status = RunStatus::WorkerCrashed;
        result.message = toStdString(trWorker("The run was cancelled; the worker was stopped."));
        break;
    }
    return result;
}

void RunWorker::run(quint64 jobId, const RunRequest &request)
{
    RunResult result;
    try {
        nlohmann::json message = makeRunRequest(request);
        const double deadline = request.launch.deadlineSeconds;
        const WorkerProcess::Reply reply =
            process().request(std::move(message), runTimeoutSeconds(deadline));
        reportHello();
        result = resultFromReply(reply, deadline);
    } catch (const std::exception &error) {
        result.status = RunStatus::WorkerCrashed;
        result.message =
            toStdString(trWorker("The run failed: %1").arg(QString::fromUtf8(error.what())));
    }
    Q_EMIT runDone(jobId, result);
}

double RunWorker::measureTimeoutSeconds(double deadlineSeconds, const SampleSettings &settings)
{
    const double cap = std::isfinite(settings.timeCapSeconds) && settings.timeCapSeconds > 0
                           ? settings.timeCapSeconds
                           : 0.0;
    return cap + runTimeoutSeconds(deadlineSeconds);
}

Measurement RunWorker::measurementFromReply(const WorkerProcess::Reply &reply,
                                            double deadlineSeconds, const SampleSettings &settings)
{
    Measurement measurement;
    measurement.settings = settings;
    if (reply.failure == WorkerProcess::Failure::None) {
        try {
            return parseMeasurementReply(reply.message);
        } catch (const std::exception &error) {
            measurement.faultStatus = runStatusName(RunStatus::WorkerCrashed);
            measurement.faultMessage =
                toStdString(trWorker("The worker's answer could not be read: %1")
                                .arg(QString::fromUtf8(error.what())));
            return measurement;
        }
    }
    // Failures of the worker read the same as for a run.
    const RunResult failed = resultFromReply(reply, deadlineSeconds);
    measurement.faultStatus = runStatusName(failed.status);
    measurement.faultMessage = failed.message;
    return measurement;
}

void RunWorker::measure(quint64 jobId, const RunRequest &request, const SampleSettings &settings,
                        const ThroughputExpressions &throughput)
{
    Measurement measurement;
    measurement.settings = settings;
    m_measuringJob.store(jobId);
    if (m_cancelledJob.load() == jobId) {
        // Cancelled before it was sent: nothing to stop, nothing sampled.
        m_measuringJob.store(0);
        measurement.stop = {true, StopReason::Cancelled,
                            toStdString(trWorker("cancelled before the first sample"))};
        Q_EMIT measureDone(jobId, measurement);
        return;
    }
    try {
        nlohmann::json message = makeMeasureRequest(request, settings, throughput);
        const double deadline = request.launch.deadlineSeconds;
        const WorkerProcess::Reply reply =
            process().request(std::move(message), measureTimeoutSeconds(deadline, settings));
        reportHello();
        measurement = measurementFromReply(reply, deadline, settings);
    } catch (const std::exception &error) {
        measurement.faultStatus = runStatusName(RunStatus::WorkerCrashed);
        measurement.faultMessage = toStdString(
            trWorker("The measurement failed: %1").arg(QString::fromUtf8(error.what())));
    }
    m_measuringJob.store(0);
    Q_EMIT measureDone(jobId, measurement);
}

void RunWorker::requestCancel(quint64 jobId)
{
    m_cancelledJob.store(jobId);
    const std::lock_guard lock(m_processMutex);
    // Only the measurement it is meant for: a cancel must never end a run, a page or an export.
    if (m_process && m_measuringJob.load() == jobId)
        m_process->requestCancel();
}

double RunWorker::metricsTimeoutSeconds(double deadlineSeconds)
{
    const double deadline =
        std::isfinite(deadlineSeconds) && deadlineSeconds > 0 ? deadlineSeconds : 10.0;
    return deadline * MaxReplayPasses + RunSlackSeconds;
}

MetricsResult RunWorker::metricsFromReply(const WorkerProcess::Reply &reply, double deadlineSeconds)
{
    MetricsResult result;
    if (reply.failure == WorkerProcess::Failure::None) {
        try {
            return parseMetricsReply(reply.message);
        } catch (const std::exception &error) {
            result.error = toStdString(trWorker("the worker's answer could not be read: %1")
                                           .arg(QString::fromUtf8(error.what())));
            return result;
        }
    }
    const RunResult failed = resultFromReply(reply, deadlineSeconds);
    result.error = toStdString(
        trWorker("the worker could not collect the metrics: %1").arg(toQString(failed.message)));
    return result;
}

void RunWorker::metrics(quint64 jobId, const RunRequest &request, const MetricsRequest &metrics)
{
    MetricsResult result;
    try {
        nlohmann::json message = makeMetricsRequest(request, metrics);
        const double deadline = request.launch.deadlineSeconds;
        const WorkerProcess::Reply reply =
            process().request(std::move(message), metricsTimeoutSeconds(deadline));
        reportHello();
        result = metricsFromReply(reply, deadline);
    } catch (const std::exception &error) {
        result.error = toStdString(
            trWorker("the metrics pass failed: %1").arg(QString::fromUtf8(error.what())));
    }
    Q_EMIT metricsDone(jobId, result);
}

void RunWorker::page(const PageRequest &request)
{
    const QString handle = toQString(request.handle);
    try {
        nlohmann::json message = makePageRequest(request);
        const WorkerProcess::Reply reply =
            process().request(std::move(message), PageTimeoutSeconds);
        reportHello();
        if (!reply.ok()) {
            Q_EMIT pageDone(Page{}, toQString(reply.error), handle, request.first);
            return;
        }
        Q_EMIT pageDone(parsePageReply(reply.message), QString(), handle, request.first);
    } catch (const std::exception &error) {
        Q_EMIT pageDone(Page{}, QString::fromUtf8(error.what()), handle, request.first);
    }
}

void RunWorker::exportBuffer(const QString &handle, const QString &path, ExportFormat format)
{
    try {
        nlohmann::json message = makeExportRequest(toStdString(handle), toStdString(path), format);
        const WorkerProcess::Reply reply =
            process().request(std::move(message), ExportTimeoutSeconds);
        reportHello();
        if (!reply.ok()) {
            Q_EMIT exportDone(path, false, toQString(reply.error));
            return;
        }
        const ExportReply exported = parseExportedReply(reply.message);
        Q_EMIT exportDone(
            path, true,
            trWorker("Wrote %1 bytes to %2").arg(exported.bytes).arg(toQString(exported.path)));
    } catch (const std::exception &error) {
        Q_EMIT exportDone(path, false, QString::fromUtf8(error.what()));
    }
}

void RunWorker::shutdown()
{
    if (!m_process)
        return;
    try {
        m_process->stop();
    } catch (...) {
        // A worker that cannot even be stopped politely is killed by the destructor.
    }
    std::unique_ptr<WorkerProcess> stopped;
    {
        const std::lock_guard lock(m_processMutex);
        stopped = std::move(m_process);
    }
}

} // namespace cuwb
