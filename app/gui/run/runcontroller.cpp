#include "gui/run/runcontroller.h"

#include "gui/common/cuwbcli.h"
#include "gui/common/qtconvert.h"
#include "gui/common/sharedworker.h"
#include "gui/run/runworker.h"

#include <QThread>

#include <utility>

namespace cuwb {

RunController::RunController(QObject *parent)
    : RunController(std::make_shared<SharedWorker>(), parent)
{}

RunController::RunController(std::shared_ptr<SharedWorker> worker, QObject *parent)
    : QObject(parent)
    , m_shared(worker ? std::move(worker) : std::make_shared<SharedWorker>())
    , m_thread(new QThread(this))
    , m_worker(new RunWorker(m_shared))
    , m_cliPath(findCuwbCli())
{
    qRegisterMetaType<cuwb::RunResult>();
    qRegisterMetaType<cuwb::Page>();
    qRegisterMetaType<cuwb::Measurement>();
    qRegisterMetaType<cuwb::HelloReply>();
    qRegisterMetaType<cuwb::MetricsResult>();
    qRegisterMetaType<cuwb::InspectResult>();
    m_thread->setObjectName(QStringLiteral("cuwb-run"));
    m_worker->setCliPath(m_cliPath);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &RunWorker::runDone, this, &RunController::onRunDone);
    connect(m_worker, &RunWorker::measureDone, this, &RunController::onMeasureDone);
    connect(m_worker, &RunWorker::metricsDone, this, &RunController::onMetricsDone);
    connect(m_worker, &RunWorker::inspectDone, this, &RunController::onInspectDone);
    connect(m_worker, &RunWorker::pageDone, this, &RunController::onPageDone);
    connect(m_worker, &RunWorker::exportDone, this, &RunController::onExportDone);
    connect(m_worker, &RunWorker::helloReceived, this, &RunController::onHello);
    m_cancelRepeat.setInterval(250);
    connect(&m_cancelRepeat, &QTimer::timeout, this, [this] {
        if (m_phase == Phase::Sampling && m_cancelRequested && m_currentRun)
            m_worker->requestCancel(m_currentRun->jobId);
        else
            m_cancelRepeat.stop();
    });
    m_thread->start();
}

RunController::~RunController()
{
    m_cancelRepeat.stop();
    m_pendingRun.reset();
    m_pendingPages.clear();
    m_pendingExports.clear();
    m_worker->disconnect(this);
    RunWorker *worker = m_worker;
    // Quitting must not wait for a run's deadline (or an export's), nor for a sweep that holds
    // the shared worker: the request in flight is cancelled and the worker killed, then the
    // worker's own thread cleans up.
    m_worker->abort();
    QMetaObject::invokeMethod(
        m_worker, [worker] { worker->shutdown(); }, Qt::QueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void RunController::setCliPath(const QString &path)
{
    m_cliPath = path;
    RunWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker, [worker, path] { worker->setCliPath(path); }, Qt::QueuedConnection);
}

void RunController::setAvailability(bool available, const QString &reason)
{
    m_available = available;
    m_unavailableReason = available ? QString() : reason;
}

QString RunController::unavailableReasonFor(const DeviceQuery &query)
{
    if (query.driverLoaded && !query.devices.empty())
        return {};
    QString detail = toQString(query.message);
    // The device query's message ends with what it means for the whole program.
    for (const QString &suffix :
         {QStringLiteral(" \u2014 compile-only mode"), QStringLiteral(" - compile-only mode")}) {
        if (detail.endsWith(suffix))
            detail.chop(suffix.size());
    }
    if (detail.isEmpty())
        detail = query.driverLoaded ? tr("no GPU found") : tr("No CUDA driver");
    return tr("Run needs a CUDA GPU: %1").arg(detail);
}

quint64 RunController::run(const RunRequest &request)
{
    const quint64 jobId = ++m_nextJobId;
    m_latestJobId = jobId;
    if (!m_available) {
        RunResult result;
        result.status = RunStatus::NoDevice;
        result.message = toStdString(m_unavailableReason);
        supersedeSampling();
        updateCancellable();
        Q_EMIT runStarted(jobId);
        Q_EMIT runFinished(jobId, result);
        return 0;
    }
    // The new run replaces the buffers pages would come from.
    for (const PageRequest &dropped : std::exchange(m_pendingPages, {}))
        Q_EMIT pageDropped(toQString(dropped.handle), dropped.first);
    m_pendingRun = RunTask{jobId, request, std::nullopt, {}, std::nullopt, std::nullopt};
    supersedeSampling();
    dispatch();
    updateCancellable();
    return jobId;
}

quint64 RunController::measure(const RunRequest &request, const SampleSettings &settings,
                               const ThroughputExpressions &throughput,
                               const std::optional<MetricsRequest> &metrics)
{
    const quint64 jobId = ++m_nextJobId;
    m_latestJobId = jobId;
    if (!m_available) {
        Measurement measurement;
        measurement.settings = settings;
        measurement.faultStatus = runStatusName(RunStatus::NoDevice);
        measurement.faultMessage = toStdString(m_unavailableReason);
        supersedeSampling();
        updateCancellable();
        Q_EMIT measurementStarted(jobId);
        Q_EMIT measurementFinished(jobId, measurement);
        return 0;
    }
    for (const PageRequest &dropped : std::exchange(m_pendingPages, {}))
        Q_EMIT pageDropped(toQString(dropped.handle), dropped.first);
    m_pendingRun = RunTask{jobId, request, settings, throughput, metrics, std::nullopt};
    supersedeSampling();
    dispatch();
    updateCancellable();
    return jobId;
}

quint64 RunController::inspect(const RunRequest &request, const InspectRequest &inspect)
{
    const quint64 jobId = ++m_nextJobId;
    m_latestJobId = jobId;
    if (!m_available) {
        InspectResult result;
        result.error = toStdString(m_unavailableReason);
        supersedeSampling();
        updateCancellable();
        Q_EMIT inspectStarted(jobId);
        Q_EMIT inspectFinished(jobId, result);
        return 0;
    }
    // The inspection replaces the buffers pages would come from.
    for (const PageRequest &dropped : std::exchange(m_pendingPages, {}))
        Q_EMIT pageDropped(toQString(dropped.handle), dropped.first);
    m_pendingRun = RunTask{jobId, request, std::nullopt, {}, std::nullopt, inspect};
    supersedeSampling();
    dispatch();
    updateCancellable();
    return jobId;
}

bool RunController::canCancelMeasurement() const
{
    if (m_pendingRun)
        return m_pendingRun->measure.has_value();
    return m_phase == Phase::Sampling && m_currentRun && m_currentRun->jobId == m_latestJobId &&
           !m_cancelRequested;
}

bool RunController::cancelMeasurement()
{
    if (!canCancelMeasurement())
        return false;
    if (m_pendingRun) {
        // Never sent: it finishes here, with no samples.
        const RunTask task = std::move(*m_pendingRun);
        m_pendingRun.reset();
        Measurement measurement;
        measurement.settings = *task.measure;
        measurement.stop = {true, StopReason::Cancelled,
                            toStdString(tr("cancelled before the first sample"))};
        updateCancellable();
        Q_EMIT measurementFinished(task.jobId, measurement);
        return true;
    }
    m_cancelRequested = true;
    m_worker->requestCancel(m_currentRun->jobId);
    m_cancelRepeat.start();
    updateCancellable();
    return true;
}

void RunController::supersedeSampling()
{
    // The result of a measurement that is no longer the newest job is dropped: stop sampling.
    if (m_phase != Phase::Sampling || !m_currentRun || m_currentRun->jobId == m_latestJobId ||
        m_cancelRequested)
        return;
    m_cancelRequested = true;
    m_worker->requestCancel(m_currentRun->jobId);
    m_cancelRepeat.start();
}

void RunController::updateCancellable()
{
    const bool cancellable = canCancelMeasurement();
    if (cancellable == m_cancellable)
        return;
    m_cancellable = cancellable;
    Q_EMIT measurementCancellableChanged(cancellable);
}

void RunController::requestPage(const PageRequest &request)
{
    // Drop a waiting duplicate, then keep only the newest few: those are what is on screen.
    for (auto it = m_pendingPages.begin(); it != m_pendingPages.end(); ++it) {
        if (it->handle == request.handle && it->first == request.first) {
            m_pendingPages.erase(it);
            break;
        }
    }
    m_pendingPages.push_back(request);
    while (m_pendingPages.size() > kMaxQueuedPages) {
        const PageRequest dropped = std::move(m_pendingPages.front());
        m_pendingPages.pop_front();
        Q_EMIT pageDropped(toQString(dropped.handle), dropped.first);
    }
    dispatch();
}

void RunController::exportBuffer(const QString &handle, const QString &path, ExportFormat format)
{
    m_pendingExports.push_back({handle, path, format});
    dispatch();
}

void RunController::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void RunController::dispatch()
{
    if (m_busy)
        return; // one request at a time; the next is sent when this one is answered
    RunWorker *worker = m_worker;
    if (m_pendingRun) {
        m_currentRun = std::move(*m_pendingRun);
        m_pendingRun.reset();
        const RunTask &task = *m_currentRun;
        m_runInFlight = true;
        m_cancelRequested = false;
        m_phase = task.measure ? Phase::Sampling : (task.inspect ? Phase::Inspect : Phase::Run);
        setBusy(true);
        const quint64 jobId = task.jobId;
        if (task.inspect) {
            Q_EMIT inspectStarted(jobId);
            QMetaObject::invokeMethod(
                m_worker,
                [worker, jobId, request = task.request, inspect = *task.inspect] {
                    worker->inspect(jobId, request, inspect);
                },
                Qt::QueuedConnection);
            updateCancellable();
            return;
        }
        if (task.measure) {
            Q_EMIT measurementStarted(jobId);
            QMetaObject::invokeMethod(
                m_worker,
                [worker, jobId, request = task.request, settings = *task.measure,
                 throughput = task.throughput] {
                    worker->measure(jobId, request, settings, throughput);
                },
                Qt::QueuedConnection);
            updateCancellable();
            return;
        }
        Q_EMIT runStarted(jobId);
        QMetaObject::invokeMethod(
            m_worker, [worker, jobId, request = task.request] { worker->run(jobId, request); },
            Qt::QueuedConnection);
        updateCancellable();
        return;
    }
    if (!m_pendingExports.empty()) {
        ExportTask task = std::move(m_pendingExports.front());
        m_pendingExports.pop_front();
        setBusy(true);
        QMetaObject::invokeMethod(
            m_worker, [worker, task] { worker->exportBuffer(task.handle, task.path, task.format); },
            Qt::QueuedConnection);
        return;
    }
    if (!m_pendingPages.empty()) {
        // Newest first: the rows the user looks at now.
        PageRequest request = std::move(m_pendingPages.back());
        m_pendingPages.pop_back();
        setBusy(true);
        QMetaObject::invokeMethod(
            m_worker, [worker, request] { worker->page(request); }, Qt::QueuedConnection);
    }
}

void RunController::onRunDone(quint64 jobId, const RunResult &result)
{
    m_phase = Phase::Idle;
    m_currentRun.reset();
    m_runInFlight = false;
    setBusy(false);
    if (jobId == m_latestJobId)
        Q_EMIT runFinished(jobId, result);
    else
        Q_EMIT runDiscarded(jobId);
    dispatch();
}

void RunController::onMeasureDone(quint64 jobId, const Measurement &measurement)
{
    m_cancelRepeat.stop();
    const bool cancelled = m_cancelRequested || measurement.stop.reason == StopReason::Cancelled;
    m_cancelRequested = false;
    std::optional<RunTask> task = std::move(m_currentRun);
    m_currentRun.reset();
    // Only after a complete, current measurement: a cancelled one was asked to stop, a faulted
    // one has nothing sound to profile (its worker may even be gone).
    const bool collect = jobId == m_latestJobId && task && task->metrics && !cancelled &&
                         measurement.faultStatus.empty() && measurement.statistics.count > 0;
    if (collect) {
        m_phase = Phase::Metrics; // still busy: the worker serves the pass next
        m_currentRun = std::move(task);
    } else {
        m_phase = Phase::Idle;
        m_runInFlight = false;
        setBusy(false);
    }
    updateCancellable();
    if (jobId == m_latestJobId)
        Q_EMIT measurementFinished(jobId, measurement);
    else
        Q_EMIT measurementDiscarded(jobId);
    if (!collect) {
        dispatch();
        return;
    }
    const RunTask &current = *m_currentRun;
    Q_EMIT metricsStarted(jobId, int(current.metrics->metrics.size()));
    RunWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker,
        [worker, jobId, request = current.request, metrics = *current.metrics] {
            worker->metrics(jobId, request, metrics);
        },
        Qt::QueuedConnection);
}

void RunController::onMetricsDone(quint64 jobId, const MetricsResult &result)
{
    m_phase = Phase::Idle;
    m_currentRun.reset();
    m_runInFlight = false;
    setBusy(false);
    if (jobId == m_latestJobId)
        Q_EMIT metricsFinished(jobId, result);
    else
        Q_EMIT metricsDiscarded(jobId);
    dispatch();
    updateCancellable();
}

void RunController::onInspectDone(quint64 jobId, const InspectResult &result)
{
    m_phase = Phase::Idle;
    m_currentRun.reset();
    m_runInFlight = false;
    setBusy(false);
    if (jobId == m_latestJobId)
        Q_EMIT inspectFinished(jobId, result);
    else
        Q_EMIT inspectDiscarded(jobId);
    dispatch();
    updateCancellable();
}

void RunController::onPageDone(const Page &page, const QString &error, const QString &handle,
                               quint64 first)
{
    setBusy(false);
    if (error.isEmpty())
        Q_EMIT pageReady(page);
    else
        Q_EMIT pageFailed(handle, first, error);
    dispatch();
}

void RunController::onExportDone(const QString &path, bool ok, const QString &message)
{
    setBusy(false);
    Q_EMIT exportFinished(path, ok, message);
    dispatch();
}

void RunController::onHello(const WorkerHello &hello)
{
    m_hello = hello;
    Q_EMIT helloReceived(hello);
}

} // namespace cuwb
