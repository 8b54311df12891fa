#include "cluster/slurmsweep.h"

#include "cluster/jobfolder.h"
#include "device/archlimits.h"
#include "sweep/sweepexport.h"
#include "sweep/sweepjson.h"
#include "sweep/sweeprunner.h"
#include "sweep/sweepshard.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

// The points a shard has finished, from its log: every "[k/n] label: ..." line.
std::size_t pointsDone(const std::string &log)
{
    std::ifstream in(log);
    std::size_t done = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.size() > 3 && line.front() == '[' && line.find('/') != std::string::npos &&
            line.find("] ") != std::string::npos) {
            ++done;
        }
    }
    return done;
}

bool exists(const std::string &path)
{
    std::error_code code;
    return std::filesystem::exists(path, code);
}

} // namespace

std::string slurmSweepScript(const SlurmSweepJob &job, std::size_t totalPoints)
{
    const int tasks = job.slurm.tasks;
    ArrayScript script;
    script.jobName = "cuwb-sweep-" + slurmName(job.projectName);
    script.jobDir = job.jobDir;
    script.workingDir = job.workingDir;
    script.description = "cuwb sweep " + job.projectPath +
                         " through Slurm: " + std::to_string(totalPoints) + " points in " +
                         std::to_string(tasks) + " shards (round-robin by point index)";
    script.command = {job.cuwb,
                      "sweep",
                      job.projectPath,
                      "--shard",
                      "{K}/" + std::to_string(tasks),
                      "--json",
                      job.jobDir + "/task-{K}.json",
                      "--yes"};
    script.command.insert(script.command.end(), job.taskOptions.begin(), job.taskOptions.end());
    return arrayScript(script, job.slurm);
}

struct SlurmSweep::Follow
{
    SweepResult result;                // the skeleton with the ended shards' points
    std::vector<bool> read;            // per task (1-based): its result has been read
    std::vector<ShardInput> shards;    // the results read, in the order they ended
    std::vector<std::string> failures; // the shards whose result could not be read
    std::string lastStatus;
    Clock::time_point startedAt = Clock::now();

    [[nodiscard]] SweepProgress progress() const
    {
        SweepProgress p;
        p.total = result.points.size();
        for (const SweepPointResult &point : result.points) {
            p.done += point.status != PointStatus::Pending ? 1 : 0;
            p.measured +=
                point.status == PointStatus::Measured || point.status == PointStatus::Wrong ? 1 : 0;
        }
        p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - startedAt).count();
        return p;
    }
};

SlurmSweep::SlurmSweep(SlurmSweepJob job)
    : m_job(std::move(job))
{}

SlurmSweep::~SlurmSweep() = default;

void SlurmSweep::readEndedShards(Follow &follow)
{
    for (int task = 1; task <= m_job.slurm.tasks; ++task) {
        // The status file is each task's last act: its result is complete once it is there.
        if (follow.read[std::size_t(task)] || !exists(taskStatusPath(m_job.jobDir, task)))
            continue;
        follow.read[std::size_t(task)] = true;
        const std::string path = taskResultPath(m_job.jobDir, task);
        if (!exists(path))
            continue; // failed: named with its log once the job has ended
        SweepResultLoad load = loadSweepResult(path);
        if (!load.result) {
            follow.failures.push_back("shard " + std::to_string(task) + ": " + load.error);
            continue;
        }
        SweepResult &result = follow.result;
        if (result.deviceName.empty()) {
            result.deviceName = load.result->deviceName;
            result.device = load.result->device;
        }
        for (const SweepPointResult &point : load.result->points) {
            const std::size_t index = point.point.index;
            if (index >= result.points.size() ||
                result.points[index].status != PointStatus::Pending)
                continue;
            result.points[index] = point;
            reportPoint(point, follow.progress());
        }
        follow.shards.push_back({path, std::move(*load.result)});
    }
}

void SlurmSweep::reportQueue(Follow &follow, const ArrayProgress &progress)
{
    std::size_t points = 0;
    for (int task = 1; task <= m_job.slurm.tasks; ++task)
        points += pointsDone(taskLogPath(m_job.jobDir, task));
    std::ostringstream line;
    line << "shards: " << progress.ended << " of " << m_job.slurm.tasks << " done, "
         << progress.running << " running, " << progress.pending << " pending; points: " << points
         << " of " << follow.result.points.size() << " done";
    if (line.str() != follow.lastStatus) {
        follow.lastStatus = line.str();
        reportStatus(follow.lastStatus);
    }
}

void SlurmSweep::finishFollowed(Follow &follow, const std::vector<TaskOutcome> &outcomes)
{
    readEndedShards(follow); // a status file a shared filesystem showed late
    std::string again;       // the failed shards, as sbatch's --array list
    std::vector<std::string> failures = follow.failures;
    for (const TaskOutcome &outcome : outcomes) {
        const std::string path = taskResultPath(m_job.jobDir, outcome.task);
        const bool read = std::any_of(follow.shards.begin(), follow.shards.end(),
                                      [&](const ShardInput &shard) { return shard.name == path; });
        if (read)
            continue;
        again += (again.empty() ? "" : ",") + std::to_string(outcome.task);
        failures.push_back(describeFailedTask(m_jobId, m_job.jobDir, outcome, "shard"));
    }
    if (!failures.empty()) {
        std::string error;
        for (const std::string &failure : failures)
            error += failure + "\n";
        error += std::to_string(failures.size()) + " of " + std::to_string(m_job.slurm.tasks) +
                 " shards failed; run them again with: sbatch --array=" + again + " " +
                 m_job.jobDir + "/sweep.sh\nthen merge: cuwb merge " + m_job.jobDir +
                 "/task-*.json -o " + mergedResultPath(m_job.jobDir);
        follow.result.error = error;
        return;
    }
    SweepMerge merge = mergeSweepShards(follow.shards);
    if (!merge.result) {
        follow.result.error = "cannot merge the shards: " + merge.error;
        return;
    }
    const std::string merged = mergedResultPath(m_job.jobDir);
    if (std::string problem = writeTextFile(merged, serializeSweepResult(*merge.result));
        !problem.empty()) {
        follow.result = std::move(*merge.result);
        follow.result.error = problem;
        return;
    }
    follow.result = std::move(*merge.result);
}

SweepResult SlurmSweep::run(const SweepSpec &spec, const RunRequest &base,
                            const SweepContext &context)
{
    m_jobId.clear();
    const std::optional<ArchLimits> limits = archLimits(base.options.arch);
    Follow follow;
    follow.result = sweepSkeleton(spec, base, context, limits ? &*limits : nullptr);
    const auto finish = [&]() -> SweepResult {
        follow.result.wallSeconds =
            std::chrono::duration<double>(Clock::now() - follow.startedAt).count();
        return std::move(follow.result);
    };
    if (!follow.result.error.empty())
        return finish();
    const std::size_t total = follow.result.points.size();
    if (follow.result.count(PointStatus::Skipped) == total) {
        follow.result.error = "nothing to measure: all " + std::to_string(total) +
                              " points are skipped (cuwb sweep --list says why)";
        return finish();
    }
    if (std::string problem = slurmOptionsProblem(m_job.slurm); !problem.empty()) {
        follow.result.error = problem;
        return finish();
    }
    const std::string scriptPath = m_job.jobDir + "/sweep.sh";
    if (std::string problem = writeTextFile(scriptPath, slurmSweepScript(m_job, total));
        !problem.empty()) {
        follow.result.error = problem;
        return finish();
    }
    reportStarted(follow.result);
    if (m_cancel.load()) {
        follow.result.cancelled = true;
        return finish();
    }
    std::string error;
    const std::optional<std::string> jobId = submitArray(scriptPath, error);
    if (!jobId) {
        follow.result.error = error;
        return finish();
    }
    m_jobId = *jobId;
    reportStatus("submitted job " + m_jobId + ": " + std::to_string(m_job.slurm.tasks) +
                 " shards of " + std::to_string(total) + " points; job folder " + m_job.jobDir);

    follow.read.assign(std::size_t(m_job.slurm.tasks) + 1, false);
    const std::optional<std::vector<TaskOutcome>> outcomes = followArray(
        m_jobId, m_job.jobDir, m_job.slurm.tasks,
        [&](const ArrayProgress &progress) {
            readEndedShards(follow);
            reportQueue(follow, progress);
        },
        m_cancel, error);
    if (!outcomes) {
        readEndedShards(follow);
        if (m_cancel.load()) {
            follow.result.cancelled = true;
            follow.result.notes.push_back(error + "; the points of the shards that had ended are "
                                                  "kept");
        } else {
            follow.result.error = error;
        }
        return finish();
    }
    finishFollowed(follow, *outcomes);
    return finish();
}

} // namespace cuwb
