// A Slurm job array run by cuwb: the batch script, `sbatch --parsable`, following the tasks with
// `squeue` (and `sacct` where accounting exists) until every one has ended, and what each task
// left behind. Used by a sweep through Slurm (one task per shard, cluster/slurmsweep.h: `cuwb
// sweep --slurm` and the window's Sweep dock) and `cuwb run --slurm` (grading). Every task writes
// into the job folder: its log (task-K.log, Slurm's
// --output), its result (task-K.json) and, as its last act, its exit status (task-K.status).
// A task that left the queue without a status file was killed (scancel, time limit, node
// failure); one with a status but no result failed on its own. The job folder must be on a
// filesystem the compute nodes share with the machine that submits. No Slurm library is
// linked: only the sbatch, squeue, sacct and scancel commands, found on PATH, with SLURM_CONF
// passed through as the user set it; each runs as a child process with a time limit
// (util/toolprocess.h).
#pragma once

#include "cluster/jobfolder.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// What the user asks of Slurm: on the command line (cuwb's --slurm options, app/cli) or in the
// Sweep dock's "Through Slurm" group.
struct SlurmOptions
{
    int tasks = 1;                          // --gpus N: array tasks (shards), one GPU each
    std::optional<std::string> partition;   // --partition P
    std::optional<std::string> timeLimit;   // --time T, in sbatch's spelling
    std::vector<std::string> sbatchOptions; // --sbatch-option OPT, repeatable, as written
    std::string gres = "gpu:1";             // --gres SPEC per task; "none" asks for no GPU
    std::optional<std::string> jobDir;      // --job-dir DIR
    bool dryRun = false;                    // --dry-run: print the script, submit nothing

    bool operator==(const SlurmOptions &) const = default;
};

// The most array tasks cuwb submits in one job.
constexpr int kMaxSlurmTasks = 1000;

// Why `options` cannot be submitted, in the command line's words ("--gpus needs a number of
// tasks from 1 to 1000, got 0"); empty when they can.
std::string slurmOptionsProblem(const SlurmOptions &options);

// A name Slurm and a folder can carry: letters, digits, '.', '_' and '-' kept, anything else
// replaced by '-', at most 40 characters ("my kernel.cuwb" stem "my kernel" -> "my-kernel").
std::string slurmName(const std::string &text);

// `command` looked up on PATH when it has no '/' (the worker is started with execv, which does
// not search PATH: `--worker 'srun ... cuwb worker'` names srun by itself); unchanged when it
// is not found there, so the start fails with its own message.
std::string findOnPath(const std::string &command);

// One shell word, quoted for /bin/sh: 'it'\''s'.
std::string shellQuote(const std::string &word);

// The job folder: `jobDir` when given, else "<folder of beside>/cuwb-jobs/<name>-<UTC time>";
// made absolute and created. Empty with `error` set when it cannot be created or contains
// blanks or quotes (Slurm's #SBATCH lines cannot quote them).
std::string makeJobDir(const std::optional<std::string> &jobDir, const std::string &beside,
                       const std::string &name, std::string &error);

struct ArrayScript
{
    std::string jobName;
    std::string jobDir;
    std::string description; // a comment line: what the job does
    // The command of task K, one word each; "{K}" in a word stands for the task's number.
    std::vector<std::string> command;
    // The folder each task starts in ("{K}" allowed), which must exist on the node; empty: the
    // job folder, created by the task when the node does not see it yet.
    std::string workingDir;
    // Where the command's standard output goes ("{K}" allowed); empty: the task's log.
    std::string stdoutPath;
};

// The batch script of the array (#!/bin/sh, #SBATCH lines, the command, the status file).
std::string arrayScript(const ArrayScript &script, const SlurmOptions &options);

// The outcome of one task after the job ended.
struct TaskOutcome
{
    int task = 0;
    std::optional<int> exitStatus; // from the status file; absent when the task was killed
    bool hasResult = false;        // task-K.json exists
    std::string state;             // sacct's state where accounting exists ("CANCELLED by 0")
};

struct ArrayProgress
{
    int pending = 0;
    int running = 0;
    int ended = 0;
};

// Submits `scriptPath` with sbatch --parsable; the job id, or nullopt with `error` set
// ("sbatch is not installed...", sbatch's own message).
std::optional<std::string> submitArray(const std::string &scriptPath, std::string &error);

// Follows the array until every task has ended, calling `progress` after each look at the
// queue (about once a second). `cancel` set (from any thread, or a signal handler) cancels the
// job with scancel and returns nullopt with `error` saying so, within a twentieth of a second.
std::optional<std::vector<TaskOutcome>>
followArray(const std::string &jobId, const std::string &jobDir, int tasks,
            const std::function<void(const ArrayProgress &)> &progress,
            const std::atomic<bool> &cancel, std::string &error);

// "task 2 (job 17_2): killed (CANCELLED by 0); log: /jobs/x/task-2.log" plus the log's last
// lines, indented; for a task without a usable result.
std::string describeFailedTask(const std::string &jobId, const std::string &jobDir,
                               const TaskOutcome &outcome, const char *what);

} // namespace cuwb
