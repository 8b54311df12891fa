// SweepJob: the SweepController's half that lives on the sweep thread. run() makes the
// SweepExecutor the placement asks for and follows it to its end, the same way for all three:
//   - one GPU (the window's, or a remote target's): a SweepRunner on the worker it shares with
//     the runs (SharedWorker), held for the whole sweep;
//   - several GPUs of this machine (setDevices): a MultiDeviceSweep, one worker per GPU,
//     `COMMAND --device N`, on threads it starts and joins inside run(); the shared worker is
//     leased all the same, so that a run started meanwhile waits rather than share a GPU's
//     timings with the sweep;
//   - a Slurm job array (setSlurm): a SlurmSweep, which submits, follows and merges the job as
//     `cuwb sweep --slurm` does; no worker of this machine is held.
// run() blocks until the sweep has ended, which is why it must never be called on the GUI
// thread; the executor's callbacks become this object's signals, which reach the controller
// queued. Nothing escapes as an exception. The host's compiles of the sweep's variants (and a
// remote worker's images) run in a `cuwb compile-server` of the job's own (IsolatedCompiler),
// kept between sweeps on this thread, never in the GUI's process: a source that crashes NVRTC
// skips its points with that sentence.
#pragma once

#include "cluster/slurmsweep.h"
#include "gui/common/sharedworker.h"
#include "sweep/sweepexecutor.h"
#include "worker/workerprocess.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

class IsolatedCompiler;

class SweepJob : public QObject
{
    Q_OBJECT

public:
    explicit SweepJob(std::shared_ptr<SharedWorker> worker, QObject *parent = nullptr);
    ~SweepJob() override;

    // Where the next sweep runs; each on the job's thread, before run().
    // The worker command: a worker started by another command is stopped at the next sweep.
    void setWorkerOptions(const WorkerProcess::Options &options);
    // Empty or {0}: on the shared worker; otherwise on those GPUs at once (this machine's:
    // refused while the shared worker has a remote target).
    void setDevices(const std::vector<int> &devices) { m_devices = devices; }
    // A Slurm job array instead of this machine's GPUs; nullopt: on this machine.
    void setSlurm(std::optional<SlurmSweepJob> job) { m_slurm = std::move(job); }

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
    // How a Slurm job stands: "submitted job 17: ...", "shards: 1 of 4 done, ...".
    void status(quint64 jobId, const QString &line);

private:
    // The compile server, made on the job's thread (it lives as long as that thread does): the
    // cuwb beside this program, as for compiles as you type, since the worker's command may
    // name a stand-in.
    IsolatedCompiler &compiler();
    // Stops the host compile in flight, if any; m_mutex held.
    void stopCompile();
    // The sweep on this machine's GPUs, the shared worker leased.
    SweepResult runHere(quint64 jobId, WorkerProcess &worker, const SweepSpec &spec,
                        const RunRequest &base, const SweepContext &context);
    // Follows `executor` to its end with its callbacks as signals. `watched`: the one worker
    // whose restarts are reported (workerRestarted).
    SweepResult follow(quint64 jobId, SweepExecutor &executor, const SweepSpec &spec,
                       const RunRequest &base, const SweepContext &context,
                       const WorkerProcess *watched);

    std::shared_ptr<SharedWorker> m_worker;
    WorkerProcess::Options m_options;
    std::vector<int> m_devices;
    std::optional<SlurmSweepJob> m_slurm;
    std::unique_ptr<IsolatedCompiler> m_compiler; // under m_mutex
    std::atomic<std::uint64_t> m_compileJob{0};   // the id of the latest host compile
    // Guards m_executor and the ids below against the calls from other threads.
    std::mutex m_mutex;
    SweepExecutor *m_executor = nullptr; // while run() runs
    quint64 m_runningJob = 0;
    quint64 m_cancelledJob = 0; // the newest sweep a cancel was asked for
    bool m_aborted = false;
};

} // namespace cuwb
