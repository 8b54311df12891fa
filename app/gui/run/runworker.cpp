#include "gui/run/runworker.h"

#include "gui/common/qtconvert.h"

#include <QCoreApplication>

#include <cmath>
#include <exception>
#include <mutex>

namespace cuwb {

namespace {

QString trWorker(const char *text)
{
    return QCoreApplication::translate("RunWorker", text);
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

void RunWorker::run(quint64 jobId, const RunRequest &request)
{
    RunResult result;
    try {
        result = WorkerClient(process()).run(request);
        reportHello();
    } catch (const std::exception &error) {
        result.status = RunStatus::WorkerCrashed;
        result.message =
            toStdString(trWorker("The run failed: %1").arg(QString::fromUtf8(error.what())));
    }
    Q_EMIT runDone(jobId, result);
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
        measurement = WorkerClient(process()).measure(request, settings, throughput);
        reportHello();
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

void RunWorker::metrics(quint64 jobId, const RunRequest &request, const MetricsRequest &metrics)
{
    MetricsResult result;
    try {
        result = WorkerClient(process()).metrics(request, metrics);
        reportHello();
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
        const WorkerClient::PageOutcome outcome = WorkerClient(process()).page(request);
        reportHello();
        Q_EMIT pageDone(outcome.page, toQString(outcome.error), handle, request.first);
    } catch (const std::exception &error) {
        Q_EMIT pageDone(Page{}, QString::fromUtf8(error.what()), handle, request.first);
    }
}

void RunWorker::exportBuffer(const QString &handle, const QString &path, ExportFormat format)
{
    try {
        const WorkerClient::ExportOutcome outcome =
            WorkerClient(process()).exportBuffer(toStdString(handle), toStdString(path), format);
        reportHello();
        if (!outcome.error.empty()) {
            Q_EMIT exportDone(path, false, toQString(outcome.error));
            return;
        }
        const ExportReply &exported = outcome.exported;
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
