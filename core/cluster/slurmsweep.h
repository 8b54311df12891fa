// SlurmSweep: a sweep as one Slurm job array of N tasks (cluster/slurmjob.h), task K running
// `cuwb sweep PROJECT --shard K/N --json task-K.json` (sweep/sweepshard.h: round-robin by
// expansion index) on a GPU of its own. A SweepExecutor like the others: the expanded sweep is
// reported when the job is submitted, each shard's points as soon as that shard has ended (its
// status file is its last act), the job's queue as status lines ("shards: 1 of 4 done, 2
// running, 1 pending; points: 9 of 28 done"), and the result is the shards merged
// (mergeSweepShards), identical in form to a sweep measured on one worker and kept in the job
// folder as result.json. A shard that failed is named with its log and how to run it again;
// the points of the others are kept. cancel() cancels the job with scancel within a twentieth
// of a second and keeps the points of the shards that had ended.
//
// Used alike by `cuwb sweep --slurm` and the window's Sweep dock ("Through Slurm"), which runs
// it on its sweep thread. Nothing is measured or compiled here: no GPU is needed on the machine
// that submits.
#pragma once

#include "cluster/slurmjob.h"
#include "sweep/sweepexecutor.h"

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

namespace cuwb {

// What the tasks run and where the job's files go.
struct SlurmSweepJob
{
    std::string cuwb;        // the cuwb every task runs: the same path on the nodes
    std::string projectPath; // the project file each task sweeps, absolute
    std::string projectName; // the job's name: cuwb-sweep-NAME (slurmName)
    // Options every task's `cuwb sweep` takes after the shard's own, as they are given
    // (--preset P, --samples N, --worker COMMAND...).
    std::vector<std::string> taskOptions;
    std::string jobDir;     // exists (makeJobDir)
    std::string workingDir; // where the tasks start; empty: the job folder
    SlurmOptions slurm;
};

// The batch script of the job: task K sweeps shard K of `totalPoints` into task-K.json.
std::string slurmSweepScript(const SlurmSweepJob &job, std::size_t totalPoints);

class SlurmSweep final : public SweepExecutor
{
public:
    explicit SlurmSweep(SlurmSweepJob job);
    ~SlurmSweep() override;

    // Expands the spec against `base` with the limits of the project's architecture, writes the
    // script (sweep.sh in the job folder), submits it and follows it to its end. Slurm's
    // refusals, a failed shard and a merge that cannot be made come back in the result's error.
    SweepResult run(const SweepSpec &spec, const RunRequest &base,
                    const SweepContext &context) override;
    using SweepExecutor::run;

    void cancel() override { m_cancel.store(true); }
    void clearCancel() override { m_cancel.store(false); }
    [[nodiscard]] bool cancelRequested() const override { return m_cancel.load(); }

    [[nodiscard]] const SlurmSweepJob &job() const { return m_job; }
    // The job's id once submitted; empty before.
    [[nodiscard]] const std::string &jobId() const { return m_jobId; }

private:
    struct Follow; // the sweep as the shards end

    // Each shard that has ended and not been read yet: its points into the result, reported.
    void readEndedShards(Follow &follow);
    // The status line of the queue and the points the tasks' logs show done.
    void reportQueue(Follow &follow, const ArrayProgress &progress);
    // After the job: every shard's result, or the failed ones named in result.error.
    void finishFollowed(Follow &follow, const std::vector<TaskOutcome> &outcomes);

    SlurmSweepJob m_job;
    std::string m_jobId;
    std::atomic<bool> m_cancel{false};
};

} // namespace cuwb
