// `cuwb run` on this machine: the projects read (a graded one in a confined process of its
// own, grading/submission.h), then run on one worker, or with --devices on one worker per GPU
// at once (docs/multigpu.md), each reported in order as soon as it and those before it are
// done; a graded project gets a worker of its own in its scratch folder, its compiles confined
// (docs/grading.md). The Slurm grading (runcommand.cpp) runs this in each array task.
#pragma once

#include "workeroptions.h"

#include "worker/workerprocess.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cuwb::cli {

// A project to run; `graded` when it was found in a folder of submissions (confined, see
// grading/confinement.h), not named by the user.
struct ProjectArgument
{
    std::string path;
    bool graded = false;
    std::size_t number = 0; // 1-based, in the whole sorted list (a shard keeps it)
};

// What `cuwb run` was asked for, its options checked (runcommand.cpp).
struct LocalRunSettings
{
    WorkerProcess::Options options; // the worker, or the first GPU's with --devices
    std::optional<std::vector<int>> devices;
    WorkerOptionsForDevice optionsForDevice; // with --devices
    std::optional<double> deadline;
    std::optional<std::string> scratch; // --scratch
    std::optional<std::string> report;  // --report
    bool ownWorker = true;              // no --worker or --on: this cuwb's worker
    bool unconfined = false;
    bool json = false;
    bool summary = false;
    bool measure = false;
};

// Runs and reports `projects`; the exit status: 0 all passed, 1 one failed, was refused or
// could not be read, 2 grading could not run or a project the user named is malformed, 5 the
// report could not be written.
int runLocally(std::vector<ProjectArgument> projects, LocalRunSettings settings);

} // namespace cuwb::cli
