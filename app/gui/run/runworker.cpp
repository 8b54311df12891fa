#include "gui/run/runworker.h"

#include "gui/common/cuwbcli.h"
#include "gui/common/qtconvert.h"
#include "worker/isolatedcompiler.h"

#include <QCoreApplication>

#include <cmath>
#include <exception>
#include <mutex>
#include <utility>

namespace cuwb {

namespace {

QString trWorker(const char *text)
{
    return QCoreApplication::translate("RunWorker", text);
}

// Why the last run's buffers are gone: the worker keeps one request's buffers.
QString releasedBySweep()
{
    return trWorker("the worker released this run's buffers when a sweep ran (it keeps only the "
                    "last request's buffers)");
}

QString releasedByMeasurement()
{
    return trWorker("the worker released this run's buffers when a measurement ran (it keeps "
                    "only the last request's buffers)");
}

QString releasedByInspection()
{
    return trWorker("the worker released this run's buffers when the kernel was inspected (it "
                    "keeps only the last request's buffers)");
}

} // namespace

RunWorker::RunWorker(std::shared_ptr<SharedWorker> worker, QObject *parent)
    : QObject(parent)
    , m_worker(std::move(worker))
{}

// The shared worker outlives this object when a sweep still uses it; the last owner stops it.
RunWorker::~RunWorker() = default;

void RunWorker::setCliPath(const QString &path)
{
    // The next request's lease replaces a worker started from another executable.
    m_options.executable = toStdString(path);
}

SharedWorker::Lease RunWorker::lease()
{
    SharedWorker::Lease held = m_worker->acquire(m_options);
    // Another job held the worker since this one's last request: the only other job on the
    // shared worker is the sweep, whose requests replaced the buffers that were kept.
    if (m_lastSerial != 0 && held.serial() != m_lastSerial + 1)
        buffersReleased(releasedBySweep());
    m_lastSerial = held.serial();
    return held;
}

void RunWorker::abort()
{
    {
        const std::lock_guard lock(m_compilerMutex);
        if (m_compiler)
            m_compiler->stopUpTo(m_compileJob.load());
    }
    m_worker->abort();
}

WorkerClient RunWorker::client(WorkerProcess &process)
{
    return WorkerClient(process, [this](std::string_view source, std::string_view fileName,
                                        const CompileOptions &options) {
        IsolatedCompiler *compiler = nullptr;
        {
            const std::lock_guard lock(m_compilerMutex);
            // The cuwb beside this program, as for compiles as you type: the worker's command
            // may name a stand-in.
            if (!m_compiler)
                m_compiler = std::make_unique<IsolatedCompiler>(toStdString(findCuwbCli()));
            compiler = m_compiler.get();
        }
        return compiler->compile(source, fileName, options, ++m_compileJob);
    });
}

void RunWorker::reportHello(const SharedWorker::Lease &lease)
{
    const WorkerProcess &process = lease.process();
    // A new process, or a new worker in it (after a crash, or started by a sweep): a new hello.
    if (process.hello().is_null() ||
        (lease.generation() == m_reportedGeneration && process.starts() == m_reportedStarts))
        return;
    m_reportedGeneration = lease.generation();
    m_reportedStarts = process.starts();
    try {
        Q_EMIT helloReceived(parseHelloReply(process.hello()));
    } catch (const std::exception &) {
        // A hello we cannot read still let the worker start; the device panel keeps the probe's.
    }
}

void RunWorker::buffersReleased(const QString &why)
{
    if (m_buffersGone.isEmpty())
        m_buffersGone = why;
}

QString RunWorker::refusal(const SharedWorker::Lease &lease, const std::string &error) const
{
    if (!m_buffersGone.isEmpty())
        return trWorker("%1; run again to get them back").arg(m_buffersGone);
    if (m_keptGeneration != 0 &&
        (lease.generation() != m_keptGeneration || lease.process().starts() != m_keptStarts))
        return trWorker("the worker was restarted since this run and its buffers went with it; "
                        "run again to get them back");
    return toQString(error);
}

void RunWorker::run(quint64 jobId, const RunRequest &request)
{
    RunResult result;
    try {
        const SharedWorker::Lease held = lease();
        result = client(held.process()).run(request);
        // Pages and exports read this run's buffers from now on.
        m_keptGeneration = held.generation();
        m_keptStarts = held.process().starts();
        m_buffersGone.clear();
        reportHello(held);
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
    // Cancelled before it was sent (before or while it waited for the worker): nothing to stop,
    // nothing sampled.
    const auto cancelledBeforeSending = [&] {
        measurement.stop = {true, StopReason::Cancelled,
                            toStdString(trWorker("cancelled before the first sample"))};
        Q_EMIT measureDone(jobId, measurement);
    };
    {
        const std::lock_guard lock(m_cancelMutex);
        if (m_cancelledJob == jobId) {
            cancelledBeforeSending();
            return;
        }
        m_measuringJob = jobId;
    }
    // Declared after the lease, so it ends first: requestCancel() reaches the process only
    // while this measurement holds it.
    struct Measuring
    {
        RunWorker *worker;
        ~Measuring()
        {
            const std::lock_guard lock(worker->m_cancelMutex);
            worker->m_measuringProcess = nullptr;
            worker->m_measuringJob = 0;
        }
    };
    try {
        const SharedWorker::Lease held = lease();
        const Measuring measuring{this};
        bool send = false;
        {
            const std::lock_guard lock(m_cancelMutex);
            send = m_cancelledJob != jobId;
            if (send)
                m_measuringProcess = &held.process();
        }
        if (!send) {
            cancelledBeforeSending();
            return;
        }
        buffersReleased(releasedByMeasurement());
        measurement = client(held.process()).measure(request, settings, throughput);
        reportHello(held);
    } catch (const std::exception &error) {
        measurement.faultStatus = runStatusName(RunStatus::WorkerCrashed);
        measurement.faultMessage = toStdString(
            trWorker("The measurement failed: %1").arg(QString::fromUtf8(error.what())));
    }
    Q_EMIT measureDone(jobId, measurement);
}

void RunWorker::requestCancel(quint64 jobId)
{
    const std::lock_guard lock(m_cancelMutex);
    m_cancelledJob = jobId;
    // Only the measurement it is meant for: a cancel must never end a run, a page, an export
    // or a sweep's request on the shared worker.
    if (m_measuringProcess && m_measuringJob == jobId)
        m_measuringProcess->requestCancel();
}

void RunWorker::metrics(quint64 jobId, const RunRequest &request, const MetricsRequest &metrics)
{
    MetricsResult result;
    try {
        const SharedWorker::Lease held = lease();
        buffersReleased(releasedByMeasurement());
        result = client(held.process()).metrics(request, metrics);
        reportHello(held);
    } catch (const std::exception &error) {
        result.error = toStdString(
            trWorker("the metrics pass failed: %1").arg(QString::fromUtf8(error.what())));
    }
    Q_EMIT metricsDone(jobId, result);
}

void RunWorker::inspect(quint64 jobId, const RunRequest &request, const InspectRequest &inspect)
{
    InspectResult result;
    try {
        const SharedWorker::Lease held = lease();
        buffersReleased(releasedByInspection());
        result = client(held.process()).inspect(request, inspect);
        reportHello(held);
    } catch (const std::exception &error) {
        result.error =
            toStdString(trWorker("the inspection failed: %1").arg(QString::fromUtf8(error.what())));
    }
    Q_EMIT inspectDone(jobId, result);
}

void RunWorker::page(const PageRequest &request)
{
    const QString handle = toQString(request.handle);
    try {
        const SharedWorker::Lease held = lease();
        const WorkerClient::PageOutcome outcome = WorkerClient(held.process()).page(request);
        reportHello(held);
        const QString error = outcome.error.empty() ? QString() : refusal(held, outcome.error);
        Q_EMIT pageDone(outcome.page, error, handle, request.first);
    } catch (const std::exception &error) {
        Q_EMIT pageDone(Page{}, QString::fromUtf8(error.what()), handle, request.first);
    }
}

void RunWorker::exportBuffer(const QString &handle, const QString &path, ExportFormat format)
{
    try {
        const SharedWorker::Lease held = lease();
        const WorkerClient::ExportOutcome outcome =
            WorkerClient(held.process())
                .exportBuffer(toStdString(handle), toStdString(path), format);
        reportHello(held);
        if (!outcome.error.empty()) {
            Q_EMIT exportDone(path, false, refusal(held, outcome.error));
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
    m_worker->shutdown();
}

} // namespace cuwb
