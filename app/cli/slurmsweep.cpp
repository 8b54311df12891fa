#include "slurmsweep.h"

#include "commands.h"
#include "sweepreport.h"
#include "workeroptions.h"

#include "sweep/sweepexport.h"
#include "sweep/sweepjson.h"
#include "sweep/sweepshard.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cuwb::cli {

namespace {

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

} // namespace

namespace {

// The array script: task K sweeps shard K of the points into task-K.json.
ArrayScript sweepScript(const SlurmSweepRequest &request, const std::string &jobDir)
{
    const SlurmOptions &slurm = request.slurm;
    ArrayScript script;
    script.jobName = "cuwb-sweep-" + request.projectName;
    script.jobDir = jobDir;
    // The tasks start where the sweep was submitted, as sbatch's own default does, so that a
    // relative --worker path means what it meant here.
    std::error_code code;
    script.workingDir = std::filesystem::current_path(code).string();
    script.description = "cuwb sweep " + request.projectPath +
                         " through Slurm: " + std::to_string(request.totalPoints) + " points in " +
                         std::to_string(slurm.tasks) + " shards (round-robin by point index)";
    script.command = {selfExecutable(),
                      "sweep",
                      std::filesystem::absolute(request.projectPath).string(),
                      "--shard",
                      "{K}/" + std::to_string(slurm.tasks),
                      "--json",
                      jobDir + "/task-{K}.json",
                      "--yes"};
    script.command.insert(script.command.end(), request.forwarded.begin(), request.forwarded.end());
    return script;
}

// Each shard's result, or nullopt with every failed shard named and how to run them again.
std::optional<std::vector<ShardInput>> readShards(const std::vector<TaskOutcome> &outcomes,
                                                  const std::string &jobId,
                                                  const std::string &jobDir, int tasks,
                                                  const std::string &scriptPath)
{
    std::vector<ShardInput> shards;
    std::vector<std::string> failures;
    std::string again; // the failed shards, as sbatch's --array list
    for (const TaskOutcome &outcome : outcomes) {
        const std::string path = taskResultPath(jobDir, outcome.task);
        SweepResultLoad load;
        if (outcome.hasResult) {
            load = loadSweepResult(path);
        }
        if (!load.result) {
            again += (again.empty() ? "" : ",") + std::to_string(outcome.task);
            failures.push_back(describeFailedTask(jobId, jobDir, outcome, "shard") +
                               (load.error.empty() ? "" : "\n    " + load.error));
            continue;
        }
        shards.push_back({path, std::move(*load.result)});
    }
    if (!failures.empty()) {
        for (const std::string &failure : failures) {
            std::cerr << "cuwb sweep: " << failure << '\n';
        }
        std::cerr << "cuwb sweep: " << failures.size() << " of " << tasks
                  << " shards failed; run them again with: sbatch --array=" << again << ' '
                  << scriptPath << "\nthen merge: cuwb merge " << jobDir << "/task-*.json -o "
                  << mergedResultPath(jobDir) << '\n';
        return std::nullopt;
    }
    return shards;
}

// The merged result printed, kept in the job folder and written where asked.
int finishMerged(const SlurmSweepRequest &request, const std::string &jobDir,
                 const std::vector<ShardInput> &shards)
{
    SweepMerge merge = mergeSweepShards(shards);
    if (!merge.result) {
        std::cerr << "cuwb sweep: cannot merge the shards: " << merge.error << '\n';
        return ExitFailure;
    }
    const SweepResult &result = *merge.result;
    printSweepSummary(std::cout, result);
    const std::string merged = mergedResultPath(jobDir);
    if (const std::string problem = writeTextFile(merged, serializeSweepResult(result));
        !problem.empty()) {
        std::cerr << "cuwb sweep: " << problem << '\n';
        return ExitUsage;
    }
    std::cout << "merged result in " << merged << '\n';
    if (!writeSweepOutputs("sweep", result, request.csv, request.json, request.t4)) {
        return ExitUsage;
    }
    if (result.count(PointStatus::Measured) + result.count(PointStatus::Wrong) == 0) {
        std::cerr << "cuwb sweep: " << request.projectPath << ": nothing was measured\n";
        return ExitFailure;
    }
    return ExitSuccess;
}

} // namespace

int runSlurmSweep(const SlurmSweepRequest &request)
{
    const SlurmOptions &slurm = request.slurm;
    std::string error;
    const std::string jobDir =
        slurm.dryRun && !slurm.jobDir
            ? std::filesystem::absolute(request.projectPath).parent_path().string() +
                  "/cuwb-jobs/" + request.projectName + "-TIME"
            : makeJobDir(slurm.jobDir, request.projectPath, request.projectName, error);
    if (jobDir.empty()) {
        std::cerr << "cuwb sweep: " << error << '\n';
        return ExitUsage;
    }
    const std::string text = arrayScript(sweepScript(request, jobDir), slurm);
    if (slurm.dryRun) {
        std::cout << text;
        return ExitSuccess;
    }
    for (const auto &[option, path] :
         {std::pair{"--csv", request.csv}, {"--json", request.json}, {"--t4", request.t4}}) {
        if (path) {
            if (const std::string problem = checkWritable(*path); !problem.empty()) {
                return usageError("sweep", std::string(option) + ": " + problem);
            }
        }
    }
    const std::string scriptPath = jobDir + "/sweep.sh";
    if (const std::string problem = writeTextFile(scriptPath, text); !problem.empty()) {
        std::cerr << "cuwb sweep: " << problem << '\n';
        return ExitUsage;
    }
    const std::optional<std::string> jobId = submitArray(scriptPath, error);
    if (!jobId) {
        std::cerr << "cuwb sweep: " << error << '\n';
        return ExitUsage;
    }
    std::cout << "submitted job " << *jobId << ": " << slurm.tasks << " shards of "
              << request.totalPoints << " points; job folder " << jobDir << '\n'
              << std::flush;

    std::string last;
    const auto printProgress = [&](const ArrayProgress &progress) {
        std::size_t points = 0;
        for (int task = 1; task <= slurm.tasks; ++task) {
            points += pointsDone(taskLogPath(jobDir, task));
        }
        std::ostringstream line;
        line << "shards: " << progress.ended << " of " << slurm.tasks << " done, "
             << progress.running << " running, " << progress.pending
             << " pending; points: " << points << " of " << request.totalPoints << " done";
        if (line.str() != last) {
            last = line.str();
            std::cout << last << '\n' << std::flush;
        }
    };
    const std::optional<std::vector<TaskOutcome>> outcomes =
        followArray(*jobId, jobDir, slurm.tasks, printProgress, error);
    if (!outcomes) {
        std::cerr << "cuwb sweep: " << error << '\n';
        return 130;
    }

    const std::optional<std::vector<ShardInput>> shards =
        readShards(*outcomes, *jobId, jobDir, slurm.tasks, scriptPath);
    if (!shards) {
        return ExitFailure;
    }
    return finishMerged(request, jobDir, *shards);
}

} // namespace cuwb::cli
