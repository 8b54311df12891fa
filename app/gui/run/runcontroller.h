// RunController: runs kernels through a `cuwb worker` child process, never on the GUI thread.
// A thread of its own sends one request at a time to the worker it shares with the sweeps
// (SharedWorker; a controller made without one has its own): runs, pages of a kept buffer and
// exports. A newer run supersedes an older one (the older result is dropped by job id); page
// requests are coalesced so that a fast-scrolling table asks only for what is on screen now. A
// crash, a hang past the deadline or garbage from the worker comes back as a RunResult;
// WorkerProcess starts a fresh worker for the next request. The worker keeps one request's
// buffers: after a measurement or a sweep, a page or an export of the last run's buffers fails
// with a sentence that says so.
//
// A measurement may be followed by a metrics pass (a separate `metrics` request to the same
// worker, never mixed into the timed samples) and can be cancelled while it samples: the worker
// stops and answers with the samples taken, and the metrics pass is then skipped. An inspection
// (counters per instruction and PC samples, `inspect`) is a job of the same sequence as runs and
// measurements; it is not cancellable.
#pragma once

#include "device/deviceinfo.h"
#include "gui/common/metatypes.h"
#include "worker/protocol.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>

class QThread;

namespace cuwb {

class RunWorker;
class SharedWorker;

// What the worker said about itself when it started (device, free memory, versions).
using WorkerHello = HelloReply;

class RunController : public QObject
{
    Q_OBJECT

public:
    // With a worker of its own.
    explicit RunController(QObject *parent = nullptr);
    // With the worker it shares with the sweeps. Destroying the controller aborts that worker
    // (SharedWorker::abort): the window destroys both controllers together when it closes.
    explicit RunController(std::shared_ptr<SharedWorker> worker, QObject *parent = nullptr);
    ~RunController() override;

    [[nodiscard]] const std::shared_ptr<SharedWorker> &sharedWorker() const { return m_shared; }

    // The cuwb executable; takes effect at the next request, which stops a worker started
    // from another one.
    void setCliPath(const QString &path);
    [[nodiscard]] QString cliPath() const { return m_cliPath; }

    // Whether runs are possible at all (a GPU and a driver), and why not.
    void setAvailability(bool available, const QString &reason);
    [[nodiscard]] bool isAvailable() const { return m_available; }
    [[nodiscard]] QString unavailableReason() const { return m_unavailableReason; }
    // The reason for a DeviceQuery, empty when it found a GPU.
    static QString unavailableReasonFor(const DeviceQuery &query);

    // Queues a run; returns its job id (0 when runs are unavailable: runFinished then reports
    // NoDevice right away).
    quint64 run(const RunRequest &request);
    // Queues a measurement (warm-up, then samples until the settings' stopping criteria hold).
    // Runs and measurements share one job sequence: the newest of either supersedes the older
    // (a superseded measurement that is sampling is cancelled: its result would be dropped).
    // With `metrics`, a metrics pass follows a measurement that ended without a fault or a
    // cancel (metricsStarted, then metricsFinished). Returns 0 when runs are unavailable:
    // measurementFinished then reports it right away.
    quint64 measure(const RunRequest &request, const SampleSettings &settings,
                    const ThroughputExpressions &throughput = {},
                    const std::optional<MetricsRequest> &metrics = std::nullopt);
    // Queues an inspection of the launch (core/inspect: counters per machine instruction, then
    // where the warps waited). It shares the job sequence of runs and measurements: the newest
    // supersedes the older. Returns 0 when runs are unavailable: inspectFinished then reports
    // it right away.
    quint64 inspect(const RunRequest &request, const InspectRequest &inspect = {});
    // Stops the newest measurement's sampling early; it finishes with the samples taken and
    // stop reason "cancelled" (one still waiting to be sent finishes with none). Not a kill:
    // the worker stays. Returns false, changing nothing, when no measurement is sampling or
    // waiting (a run, a metrics pass, a page or an export is never cancelled by this).
    bool cancelMeasurement();
    [[nodiscard]] bool canCancelMeasurement() const;
    [[nodiscard]] bool isCancellingMeasurement() const { return m_cancelRequested; }
    // A metrics pass is in flight (after measurementFinished, before metricsFinished).
    [[nodiscard]] bool isCollectingMetrics() const { return m_phase == Phase::Metrics; }
    [[nodiscard]] bool isInspecting() const { return m_phase == Phase::Inspect; }
    // Asks for elements of a kept buffer; an older request for the same handle that has not
    // been sent yet may be dropped in favour of this one.
    void requestPage(const PageRequest &request);
    void exportBuffer(const QString &handle, const QString &path, ExportFormat format);

    [[nodiscard]] bool isRunning() const { return m_runInFlight; }
    [[nodiscard]] bool isBusy() const { return m_busy; }
    [[nodiscard]] quint64 latestJobId() const { return m_latestJobId; }
    [[nodiscard]] const std::optional<WorkerHello> &hello() const { return m_hello; }

    // How many page requests may wait; older ones beyond this are dropped.
    static constexpr std::size_t kMaxQueuedPages = 6;

Q_SIGNALS:
    void runStarted(quint64 jobId);
    void runFinished(quint64 jobId, const cuwb::RunResult &result);
    void runDiscarded(quint64 jobId);
    void measurementStarted(quint64 jobId);
    // A measurement that could not run or stopped early says why in faultStatus/faultMessage.
    void measurementFinished(quint64 jobId, const cuwb::Measurement &measurement);
    void measurementDiscarded(quint64 jobId);
    // Whether cancelMeasurement() would do something now.
    void measurementCancellableChanged(bool cancellable);
    void metricsStarted(quint64 jobId, int metricCount);
    // A refused or failed pass says why in result.error; the measurement is unaffected.
    void metricsFinished(quint64 jobId, const cuwb::MetricsResult &result);
    void metricsDiscarded(quint64 jobId);
    void inspectStarted(quint64 jobId);
    // A refused or failed inspection says why in result.error (permissionDenied for a refusal
    // of the performance counters).
    void inspectFinished(quint64 jobId, const cuwb::InspectResult &result);
    void inspectDiscarded(quint64 jobId);
    void pageReady(const cuwb::Page &page);
    void pageFailed(const QString &handle, quint64 first, const QString &message);
    // A waiting page request was dropped for newer ones; it was never sent.
    void pageDropped(const QString &handle, quint64 first);
    void exportFinished(const QString &path, bool ok, const QString &message);
    void helloReceived(const cuwb::HelloReply &hello);
    void busyChanged(bool busy);

private:
    enum class TaskKind { Run, Page, Export };
    struct ExportTask
    {
        QString handle;
        QString path;
        ExportFormat format = ExportFormat::Npy;
    };

    struct RunTask
    {
        quint64 jobId = 0;
        RunRequest request;
        std::optional<SampleSettings> measure; // set: a measurement, else a run
        ThroughputExpressions throughput;
        std::optional<MetricsRequest> metrics; // set: a metrics pass follows the measurement
        std::optional<InspectRequest> inspect; // set: an inspection, not a run
    };
    // What the request in flight is doing, as far as runs and measurements go.
    enum class Phase { Idle, Run, Sampling, Metrics, Inspect };

    void dispatch();
    void supersedeSampling();
    void updateCancellable();
    void onMeasureDone(quint64 jobId, const cuwb::Measurement &measurement);
    void onMetricsDone(quint64 jobId, const cuwb::MetricsResult &result);
    void onInspectDone(quint64 jobId, const cuwb::InspectResult &result);
    void onRunDone(quint64 jobId, const cuwb::RunResult &result);
    void onPageDone(const cuwb::Page &page, const QString &error, const QString &handle,
                    quint64 first);
    void onExportDone(const QString &path, bool ok, const QString &message);
    void onHello(const cuwb::HelloReply &hello);
    void setBusy(bool busy);

    std::shared_ptr<SharedWorker> m_shared;
    QThread *m_thread = nullptr;
    RunWorker *m_worker = nullptr;
    QString m_cliPath;
    bool m_available = true;
    QString m_unavailableReason;
    bool m_busy = false;
    bool m_runInFlight = false;
    std::optional<RunTask> m_pendingRun;
    std::optional<RunTask> m_currentRun; // the run or measurement in flight
    Phase m_phase = Phase::Idle;
    bool m_cancelRequested = false; // for the measurement in flight
    bool m_cancellable = false;     // as last reported by measurementCancellableChanged
    // WorkerProcess forgets a cancel that arrives while the worker starts or before the request
    // line is written; repeating it until the measurement answers makes it stick.
    QTimer m_cancelRepeat;
    std::deque<PageRequest> m_pendingPages;
    std::deque<ExportTask> m_pendingExports;
    quint64 m_nextJobId = 0;
    quint64 m_latestJobId = 0;
    std::optional<WorkerHello> m_hello;
};

} // namespace cuwb
