#include "slurmarguments.h"

#include "argumentparser.h" // parseCount

namespace cuwb::cli {

void addSlurmOptions(ArgumentParser &parser)
{
    parser.addFlag({"--slurm"});
    parser.addOption({"--gpus"});
    parser.addOption({"--partition"});
    parser.addOption({"--time"});
    parser.addOption({"--sbatch-option"});
    parser.addOption({"--gres"});
    parser.addOption({"--job-dir"});
    parser.addFlag({"--dry-run"});
}

std::variant<std::optional<SlurmOptions>, std::string> slurmOptions(const ArgumentParser &parser)
{
    if (!parser.isSet("--slurm")) {
        for (const char *option : {"--gpus", "--partition", "--time", "--sbatch-option", "--gres",
                                   "--job-dir", "--dry-run"}) {
            if (parser.isSet(option)) {
                return std::string(option) + " goes with --slurm";
            }
        }
        return std::optional<SlurmOptions>();
    }
    SlurmOptions options;
    if (const auto text = parser.value("--gpus")) {
        const std::optional<long long> tasks = parseCount(*text);
        if (!tasks || *tasks < 1 || *tasks > kMaxSlurmTasks) {
            return "--gpus needs a number of tasks from 1 to " + std::to_string(kMaxSlurmTasks) +
                   ", got '" + *text + "'";
        }
        options.tasks = int(*tasks);
    }
    options.partition = parser.value("--partition");
    options.timeLimit = parser.value("--time");
    options.sbatchOptions = parser.values("--sbatch-option");
    if (const auto gres = parser.value("--gres")) {
        options.gres = *gres;
    }
    options.jobDir = parser.value("--job-dir");
    options.dryRun = parser.isSet("--dry-run");
    if (std::string problem = slurmOptionsProblem(options); !problem.empty()) {
        return problem;
    }
    return std::optional<SlurmOptions>(std::move(options));
}

const char *slurmOptionsHelp()
{
    return "  --slurm           run as a Slurm job array (docs/slurm.md): one task per\n"
           "                    shard, submitted with sbatch, followed with squeue, merged\n"
           "  --gpus N          with --slurm: N array tasks, one GPU each (default 1)\n"
           "  --partition P     with --slurm: the partition to run in\n"
           "  --time T          with --slurm: each task's time limit (sbatch's --time)\n"
           "  --sbatch-option OPT  with --slurm: one more sbatch option, e.g. --mem=8G\n"
           "                    (repeatable)\n"
           "  --gres SPEC       with --slurm: what each task asks for (default gpu:1;\n"
           "                    none: no --gres line)\n"
           "  --job-dir DIR     with --slurm: the job folder (scripts, logs, shard results);\n"
           "                    default cuwb-jobs/NAME-TIME beside the project. It must be\n"
           "                    on a filesystem the compute nodes share\n"
           "  --dry-run         with --slurm: print the batch script, submit nothing\n";
}

} // namespace cuwb::cli
