// SweepJob: the SweepController's half that lives on the sweep thread and, while a sweep runs,
// holds the worker it shares with the runs (SharedWorker) and owns the SweepRunner. run()
// blocks until the worker is free and the sweep has ended, which is why it must never be called
// on the GUI thread; the runner's callbacks become this object's signals, which reach the
// controller queued. Nothing escapes as an exception. The host's compiles of the sweep's
// variants (and a remote worker's images) run in a `cuwb compile-server` of the job's own
// (IsolatedCompiler), kept between sweeps on this thread, never in the GUI's process: a source
// that crashes NVRTC skips its points with that sentence.
//
// With GPUs other than the window's own GPU 0 (setDevices), run() hands the sweep to a
// MultiDeviceSweep instead: one worker per GPU, `COMMAND --device N`, each on a thread the
// MultiDeviceSweep starts and joins inside run(). The shared worker stays leased for the whole
// sweep all the same, so that a run started meanwhile waits rather than share a GPU's timings with
// the sweep.
#pragma once

#include "gui/common/sharedworker.h"
#include "sweep/sweeprunner.h"
#include "worker/workerprocess.h"

#include <QObject>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cuwb {

class IsolatedCompiler;
class MultiDeviceSweep;

class SweepJob : public QObject
{
    Q_OBJECT

public:
    explicit SweepJob(std::shared_ptr<SharedWorker> worker, QObject *parent = nullptr);
    ~SweepJob() override;

    // On the job's thread. The next sweep runs on a worker started by this command: a worker
    // started by another is stopped then.
    void setWorkerOptions(const WorkerProcess::Options &options);
    // On the job's thread. Empty or {0}: the next sweep runs on the shared worker; otherwise on
    // those GPUs at once (this machine's: refused while the shared worker has a remote target).
    void setDevices(const std::vector<int> &devices) { m_devices = devices; }
    // On the job's thread: expands and measures the sweep, emitting started, one point per
    // finished point and finished.
    void run(quint64 jobId, const cuwb::SweepSpec &spec, const cuwb::RunRequest &base,
             const cuwb::SweepContext &context);
    // On the job's thread: stops the shared worker politely unless a job holds it.
    void shutdown();

    // Safe from any thread: stops sweep `jobId` after its point in flight, whether it runs now
    // or has not begun yet. Anything else is left alone.
    void cancel(quint64 jobId);
    // Safe from any thread: the sweep in flight and every later one end at once and the
    // worker is killed (SharedWorker::abort, so a run on it ends too), so that the thread can
    // be joined without waiting for a deadline.
    void abort();

Q_SIGNALS:
    void started(quint64 jobId, const cuwb::SweepResult &skeleton);
    void pointDone(quint64 jobId, const cuwb::SweepPointResult &point,
                   const cuwb::SweepProgress &progress);
    void finished(quint64 jobId, const cuwb::SweepResult &result);
    // `starts`: the workers started since this sweep took the worker.
    void workerRestarted(quint64 jobId, int starts);

private:
    // The compile server, made on the job's thread (it lives as long as that thread does): the
    // cuwb beside this program, as for compiles as you type, since the worker's command may
    // name a stand-in.
    IsolatedCompiler &compiler();
    // Stops the host compile in flight, if any; m_mutex held.
    void stopCompile();
    // run()'s body for several GPUs, the lease held.
    SweepResult runOnDevices(quint64 jobId, const SweepSpec &spec, const RunRequest &base,
                             const SweepContext &context);

    std::shared_ptr<SharedWorker> m_worker;
    WorkerProcess::Options m_options;
    std::vector<int> m_devices;
    std::unique_ptr<IsolatedCompiler> m_compiler; // under m_mutex
    std::atomic<std::uint64_t> m_compileJob{0};   // the id of the latest host compile
    // Guards m_runner and the ids below against the calls from other threads.
    std::mutex m_mutex;
    SweepRunner *m_runner = nullptr;     // while run() runs on one GPU
    MultiDeviceSweep *m_multi = nullptr; // while run() runs on several
    quint64 m_runningJob = 0;
    quint64 m_cancelledJob = 0; // the newest sweep a cancel was asked for
    bool m_aborted = false;
};

} // namespace cuwb
