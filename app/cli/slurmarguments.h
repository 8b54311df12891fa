// The command line's Slurm options (docs/slurm.md): --slurm and what goes with it, read into the
// core's SlurmOptions (cluster/slurmjob.h) by `cuwb sweep` and `cuwb run`.
#pragma once

#include "argumentparser.h"

#include "cluster/slurmjob.h"

#include <optional>
#include <string>
#include <variant>

namespace cuwb::cli {

// Declares --slurm, --gpus, --partition, --time, --sbatch-option, --gres, --job-dir, --dry-run.
void addSlurmOptions(ArgumentParser &parser);
// nullopt without --slurm; the options, or the sentence of a usage error ("--gpus needs a
// number of tasks from 1 to 1000, got '0'", "--dry-run goes with --slurm").
std::variant<std::optional<SlurmOptions>, std::string> slurmOptions(const ArgumentParser &parser);
// The lines of the Slurm options for a command's help text.
const char *slurmOptionsHelp();

} // namespace cuwb::cli
