// `cuwb sweep PROJECT --slurm`: the sweep as one Slurm job array of N tasks, task K running
// `cuwb sweep PROJECT --shard K/N --json task-K.json` (sweepshard.h: round-robin by expansion
// index) on a GPU of its own; followed until every shard has ended, with the shards and points
// done; a failed shard named with its log; the shards merged (mergeSweepShards) and printed,
// exported and saved as a local sweep would be. --dry-run prints the script only.
#pragma once

#include "slurmjob.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cuwb::cli {

struct SlurmSweepRequest
{
    std::string projectPath; // as the user gave it
    std::string projectName;
    std::size_t totalPoints = 0;        // of the whole sweep, skipped ones included
    std::vector<std::string> forwarded; // the sweep options every shard takes (--preset...)
    SlurmOptions slurm;
    std::optional<std::string> csv;
    std::optional<std::string> json;
    std::optional<std::string> t4;
};

// The exit status of `cuwb sweep`: 0 measured, 1 a shard failed or nothing was measured,
// 2 usage, Slurm refused the job or a file could not be written, 130 interrupted.
int runSlurmSweep(const SlurmSweepRequest &request);

} // namespace cuwb::cli
