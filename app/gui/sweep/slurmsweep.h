// A sweep from the window as a Slurm job array: `cuwb sweep PROJECT --slurm ...` run as a child
// process (the same submission, following, cancelling and merging as on the command line,
// docs/slurm.md), while the job folder (util/jobfolder.h) is watched for shards that have ended.
// Each finished shard's points are shown as soon as its status file is there, so a sweep of
// 4 shards fills in by quarters; the merged result that cuwb writes at the end replaces them,
// identical in form to a sweep measured here. Cancel interrupts cuwb as Ctrl+C does: it
// cancels the job with scancel, and the points of the shards that had finished are kept.
//
// Nothing here blocks the GUI thread: the process is asynchronous, the folder is polled twice
// a second (a stat per unfinished shard), and shard results are parsed on the thread pool.
#pragma once

#include "sweep/sweep.h"
#include "sweep/sweepjson.h"
#include "sweep/sweeprunner.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <vector>

class QSettings;

namespace cuwb {

// What the user asks of Slurm in the Sweep dock; remembered in QSettings ("sweep/slurm/...").
struct SlurmSweepSettings
{
    int shards = 4;                         // --gpus: array tasks, one GPU each
    QString partition;                      // empty: the cluster's default
    QString timeLimit;                      // sbatch's spelling ("00:30:00"); empty: default
    QString gres = QStringLiteral("gpu:1"); // per task; "none" asks for no GPU
    QString sbatchOptions;                  // more sbatch options, split at blanks
    // Where the job folders go; it must be on a filesystem the compute nodes share. Empty:
    // "cuwb-jobs" beside the project file.
    QString jobFolder;

    static SlurmSweepSettings load(const QSettings &settings);
    void save(QSettings &settings) const;
    // The options of `cuwb sweep PROJECT` after the project: --slurm --gpus N ...
    [[nodiscard]] QStringList arguments() const;
    bool operator==(const SlurmSweepSettings &) const = default;
};

class SlurmSweepRun : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QString cli;     // the cuwb that submits; the tasks run the same program
        QString project; // the project file the tasks sweep (a snapshot in the job folder)
        QString jobDir;  // exists; the job's files go here
        SlurmSweepSettings settings;
        QString worker;       // --worker for the tasks; empty: `cuwb worker` on the node
        SweepResult skeleton; // the expanded points, pending or skipped, for the progress
    };

    explicit SlurmSweepRun(QObject *parent = nullptr);
    // A job still running is cancelled (cuwb interrupted, and given a few seconds to scancel).
    ~SlurmSweepRun() override;

    void start(const Request &request);
    // Interrupts cuwb, which cancels the job; finished() follows with what had finished.
    void cancel();
    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] const QString &jobDir() const { return m_request.jobDir; }

Q_SIGNALS:
    void pointFinished(const cuwb::SweepPointResult &point, const cuwb::SweepProgress &progress);
    // cuwb's last line: "submitted job 17: ...", "shards: 1 of 4 done, ...".
    void statusChanged(const QString &status);
    void finished(const cuwb::SweepResult &result);

private:
    void poll();
    void load(int shard, const QString &path);
    void onLoaded(int shard, const SweepResultLoad &load);
    void onOutput();
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void finishIfDone();
    void finish(SweepResult result);
    [[nodiscard]] SweepProgress progress() const;

    Request m_request;
    QProcess m_process;
    QTimer m_poll;
    QElapsedTimer m_clock;
    SweepResult m_result;     // the skeleton with the finished shards' points
    std::vector<char> m_seen; // per shard: its result is loaded or being loaded
    int m_loading = 0;        // shard (or merged) results being parsed
    bool m_running = false;
    bool m_processDone = false;
    int m_exitCode = 0;
    bool m_crashed = false;
    bool m_mergedLoading = false;
    QString m_stderr;         // the last 64 KB cuwb wrote to it: failed shards, Slurm's refusals
    QByteArray m_partial;     // stdout not yet ended by a newline
    quint64 m_generation = 0; // results of an earlier start are dropped
};

} // namespace cuwb
