// RunWorker: the RunController's half that lives on its own thread and sends its requests to
// the worker it shares with the sweeps (SharedWorker), holding it for one request at a time.
// Every call blocks until the worker is free and has answered or its deadline passes, which is
// why it must never run on the GUI thread. The replies are read by the core's WorkerClient (its
// timeouts, its sentences for a failed worker); nothing escapes as an exception: failures
// become data in the signals. The image a remote worker needs is compiled in a `cuwb
// compile-server` of this object's own (IsolatedCompiler, started on first need on this
// thread), never in the GUI's process.
#pragma once

#include "gui/common/metatypes.h"
#include "gui/common/sharedworker.h"
#include "worker/workerclient.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

namespace cuwb {

class IsolatedCompiler;

class RunWorker : public QObject
{
    Q_OBJECT

public:
    explicit RunWorker(std::shared_ptr<SharedWorker> worker, QObject *parent = nullptr);
    ~RunWorker() override;

    void setCliPath(const QString &path);
    void run(quint64 jobId, const cuwb::RunRequest &request);
    void measure(quint64 jobId, const cuwb::RunRequest &request,
                 const cuwb::SampleSettings &settings,
                 const cuwb::ThroughputExpressions &throughput = {});
    // The metrics pass of a launch: a request of its own, after the measurement, never timed.
    void metrics(quint64 jobId, const cuwb::RunRequest &request,
                 const cuwb::MetricsRequest &metrics);
    // The inspection pass (counters per instruction and PC samples): a request of its own, never
    // timed.
    void inspect(quint64 jobId, const cuwb::RunRequest &request,
                 const cuwb::InspectRequest &inspect);
    void page(const cuwb::PageRequest &request);
    void exportBuffer(const QString &handle, const QString &path, cuwb::ExportFormat format);
    // Stops the shared worker politely unless a job holds it.
    void shutdown();
    // Safe from any thread: the request in flight and every later one fail at once and the
    // worker is killed (SharedWorker::abort, so a sweep on it ends too), so that the thread can
    // be joined without waiting for a run's deadline.
    void abort();
    // Safe from any thread: asks the worker to stop sampling measurement `jobId` and answer
    // with the samples taken (WorkerProcess::requestCancel; the worker is kept). A measurement
    // not yet sent is answered at once with no samples. Anything else is left alone.
    void requestCancel(quint64 jobId);

Q_SIGNALS:
    void runDone(quint64 jobId, const cuwb::RunResult &result);
    void measureDone(quint64 jobId, const cuwb::Measurement &measurement);
    void metricsDone(quint64 jobId, const cuwb::MetricsResult &result);
    void inspectDone(quint64 jobId, const cuwb::InspectResult &result);
    // error is empty on success; handle and first name the request either way.
    void pageDone(const cuwb::Page &page, const QString &error, const QString &handle,
                  quint64 first);
    void exportDone(const QString &path, bool ok, const QString &message);
    void helloReceived(const cuwb::HelloReply &hello);

private:
    // A client of `process` whose remote images are compiled in the compile server.
    WorkerClient client(WorkerProcess &process);
    // Waits for the shared worker and notes what another job did with it meanwhile.
    SharedWorker::Lease lease();
    void reportHello(const SharedWorker::Lease &lease);
    // After a request of this worker's own that replaced the kept buffers (a measurement, a
    // metrics pass): pages of the last run's buffers can no longer be served.
    void buffersReleased(const QString &why);
    // A refused page or export of the last run's buffers, said plainly when this worker knows
    // that they are gone and why; the worker's own sentence otherwise.
    QString refusal(const SharedWorker::Lease &lease, const std::string &error) const;

    std::shared_ptr<SharedWorker> m_worker;
    WorkerProcess::Options m_options;
    // The compile server of remote images: made on this object's thread when first needed.
    std::mutex m_compilerMutex; // guards m_compiler against abort() from other threads
    std::unique_ptr<IsolatedCompiler> m_compiler;
    std::atomic<std::uint64_t> m_compileJob{0};
    std::uint64_t m_reportedGeneration = 0;
    int m_reportedStarts = 0;
    std::uint64_t m_lastSerial = 0; // of this worker's last lease
    // The process (generation, starts) whose worker holds the last run's buffers, and why they
    // are gone when this worker knows (empty while they are kept).
    std::uint64_t m_keptGeneration = 0;
    int m_keptStarts = 0;
    QString m_buffersGone;

    // Guards the measurement in flight against requestCancel() from other threads.
    std::mutex m_cancelMutex;
    WorkerProcess *m_measuringProcess = nullptr; // while the measurement holds the worker
    quint64 m_measuringJob = 0;                  // the measurement in flight, 0 when none
    quint64 m_cancelledJob = 0;                  // the newest measurement a cancel was asked for
};

} // namespace cuwb
