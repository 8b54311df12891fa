// SweepController: runs sweeps on a `cuwb worker` child through the core's SweepRunner, never
// on the GUI thread. The runner lives on a thread of its own and holds the worker it shares
// with the runs (SharedWorker; a controller made without one has its own) for the whole sweep,
// after any run in flight; the runner's callbacks post every result to the GUI thread as
// signals: sweepStarted with the expanded sweep (every point pending or skipped), pointFinished
// for each point as it completes, in sweep order, and sweepFinished with the whole result. One
// sweep at a time.
//
// Where a sweep runs is the placement (setPlacement, the Workspace's: cluster/placement.h). With
// GPUs other than GPU 0 alone, a sweep runs on all of them at once through the
// core's MultiDeviceSweep (docs/multigpu.md): one worker per GPU, started with `--device N` added
// to the worker command, on threads of the MultiDeviceSweep's own inside the sweep thread's run;
// the points then come as they finish, in no particular order, each with its GPU
// (SweepPointResult::deviceIndex), and the result lists the GPUs (SweepResult::devices). The
// shared worker is held meanwhile, so runs wait for the sweep.
//
// With Slurm in the placement, a sweep goes to the cluster instead: the project as it is in
// the window (setProjectSnapshot) is written into a new job folder (under setSlurmJobFolder's), and
// the core's SlurmSweep (cluster/slurmsweep.h) submits, follows and merges it on the sweep thread
// as `cuwb sweep
// --slurm` does; the points come shard by shard, in no particular order, with the same signals;
// statusMessage carries the job's progress. No GPU is needed here for that.
//
// cancel() stops after the point in flight (its sampling is cut short and it stays pending);
// the points measured before are kept and sweepFinished still comes, marked cancelled. A
// worker that crashes or hangs at a point fails that point only: WorkerProcess starts a fresh
// worker for the next one (workerRestarted says so) and the sweep goes on. The worker is kept
// between sweeps and runs, so its context and copy ceiling are set up once; a sweep releases
// the buffers the last run kept for paging. Destroying the controller kills the worker rather
// than wait for a point's deadline.
#pragma once

#include "cluster/placement.h"
#include "cluster/slurmsweep.h"
#include "sweep/sweepexecutor.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace cuwb {

class SharedWorker;
class SweepJob;

class SweepController : public QObject
{
    Q_OBJECT

public:
    // With a worker of its own.
    explicit SweepController(QObject *parent = nullptr);
    // With the worker it shares with the runs. Destroying the controller aborts that worker
    // (SharedWorker::abort): the window destroys both controllers together when it closes.
    explicit SweepController(std::shared_ptr<SharedWorker> worker, QObject *parent = nullptr);
    ~SweepController() override;

    [[nodiscard]] const std::shared_ptr<SharedWorker> &sharedWorker() const { return m_shared; }

    // The cuwb executable whose `worker` command measures; findCuwbCli() by default.
    void setCliPath(const QString &path);
    // Another worker command instead of `CLI worker` (a stand-in worker in tests, `ssh host
    // cuwb worker`); an empty program returns to the CLI's. Takes effect at the next sweep,
    // which stops the shared worker if another command started it (and the next run stops
    // this one).
    void setWorkerCommand(const QString &program, const QStringList &arguments);
    [[nodiscard]] QString workerProgram() const { return m_program; }
    [[nodiscard]] QStringList workerArguments() const { return m_arguments; }

    // Where the next sweeps run: its GPUs, as `--device N` names them (none or {0}: on the
    // shared worker, the window's GPU; otherwise on all of them at once, one worker each), or
    // a Slurm job array. A placement that cannot be refuses the sweep with placementProblem's
    // sentence.
    void setPlacement(const Placement &placement) { m_placement = placement; }
    [[nodiscard]] const Placement &placement() const { return m_placement; }

    // Whether sweeps can run at all (a GPU and a driver), and why not. Unavailable: start()
    // finishes at once with the reason as the result's error, and no worker is started.
    void setAvailability(bool available, const QString &reason);
    [[nodiscard]] bool isAvailable() const { return m_available; }
    [[nodiscard]] QString unavailableReason() const { return m_unavailableReason; }

    // Where a Slurm sweep's job folders go (each sweep gets one of its own inside); empty:
    // "cuwb-jobs" beside the project file.
    void setSlurmJobFolder(const QString &folder) { m_slurmJobFolder = folder; }
    // The project as a Slurm sweep's tasks will run it: its name, the folder of its file (the
    // job folders go beside it unless the settings name another) and the project file's text,
    // self-contained (the editor's source inline, paths made absolute, `spec` as its sweep);
    // or the sentence that says why there is none.
    struct ProjectSnapshot
    {
        QString error;
        QString name;
        QString folder;
        std::string json;
    };
    using SnapshotSource =
        std::function<ProjectSnapshot(const SweepSpec &spec, const RunRequest &base)>;
    void setProjectSnapshot(SnapshotSource source) { m_snapshot = std::move(source); }
    // The job folder of the last Slurm sweep; empty before one.
    [[nodiscard]] QString slurmJobDir() const { return m_slurmJobDir; }

    // Starts a sweep; false, changing nothing, while one is running.
    bool start(const SweepSpec &spec, const RunRequest &base, const SweepContext &context = {});
    // Safe from any thread. Stops the running sweep after its point in flight; nothing when
    // none runs.
    void cancel();

    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] bool isCancelling() const { return m_running && m_cancelRequested; }
    // The sweep as far as it has come: the expanded points with the finished ones filled in;
    // the final result once sweepFinished has come. Empty before the first sweep.
    [[nodiscard]] const SweepResult &result() const { return m_result; }
    [[nodiscard]] const std::optional<SweepProgress> &progress() const { return m_progress; }

Q_SIGNALS:
    void sweepStarted(const cuwb::SweepResult &skeleton);
    void pointFinished(const cuwb::SweepPointResult &point, const cuwb::SweepProgress &progress);
    void sweepFinished(const cuwb::SweepResult &result);
    // A worker died at a point (the point is failed with the reason) and a fresh one took over
    // for the next; `starts` counts the workers this sweep started.
    void workerRestarted(int starts);
    void runningChanged(bool running);
    // How a Slurm sweep stands: "submitted job 17: ...", "shards: 1 of 4 done, ...".
    void statusMessage(const QString &message);

private:
    void onStarted(quint64 jobId, const cuwb::SweepResult &skeleton);
    void onPoint(quint64 jobId, const cuwb::SweepPointResult &point,
                 const cuwb::SweepProgress &progress);
    void onFinished(quint64 jobId, const cuwb::SweepResult &result);
    void onRestarted(quint64 jobId, int starts);
    void setRunning(bool running);
    // The job of a Slurm sweep: its folder made and the project written into it; nullopt
    // when it cannot be (sweepFinished has said why).
    std::optional<SlurmSweepJob> slurmJobFor(const SweepSpec &spec, const RunRequest &base);
    void failAtStart(const QString &reason);

    std::shared_ptr<SharedWorker> m_shared;
    QThread *m_thread = nullptr;
    SweepJob *m_job = nullptr;
    QString m_program;
    QStringList m_arguments;
    Placement m_placement;
    QString m_cli; // the cuwb the Slurm tasks run
    QString m_slurmJobFolder;
    SnapshotSource m_snapshot;
    QString m_slurmJobDir;
    bool m_available = true;
    QString m_unavailableReason;
    bool m_running = false;
    bool m_cancelRequested = false;
    std::atomic<quint64> m_jobId{0}; // read by cancel() from any thread
    SweepResult m_result;
    std::optional<SweepProgress> m_progress;
};

} // namespace cuwb
