// The files of a Slurm job folder, as `cuwb sweep --slurm` and `cuwb run --slurm` lay it out and
// the workbench's window reads it while the job runs: each array task K writes its log
// (task-K.log, Slurm's --output), its result (task-K.json) and, as its last act, its exit
// status (task-K.status); a sweep's merged result is result.json. A task whose status file
// exists has finished writing its result.
#pragma once

#include <string>

namespace cuwb {

std::string taskLogPath(const std::string &jobDir, int task);
std::string taskResultPath(const std::string &jobDir, int task);
std::string taskStatusPath(const std::string &jobDir, int task);
// The shards of a sweep merged into one result.
std::string mergedResultPath(const std::string &jobDir);

} // namespace cuwb
