// cuwb merge: joins the results of a sweep's shards (`cuwb sweep --shard K/N --json`, or the
// task-K.json files of a Slurm job) into one result of the same form as a sweep run on one
// machine (sweepshard.h), prints its summary as `cuwb sweep` does, and writes it.
#include "argumentparser.h"
#include "commands.h"
#include "sweepreport.h"

#include "sweep/sweepjson.h"
#include "sweep/sweepshard.h"

#include <iostream>

namespace cuwb::cli {

void printMergeHelp(std::ostream &out)
{
    out << "Usage: cuwb merge SHARD.json... [-o FILE | --json] [--csv FILE] [--t4 FILE]\n"
           "\n"
           "Merges the results of every shard of one sweep ('cuwb sweep --shard K/N --json\n"
           "FILE' on each machine, or a Slurm job's task-K.json) into one sweep result,\n"
           "identical in form to a sweep run on one machine: the points in expansion order,\n"
           "the best point and the points tied with it computed the same way, the earliest\n"
           "start and the longest shard's wall time. The shards may be given in any order.\n"
           "Refused with the reason: shards of different sweeps (project, kernel, source,\n"
           "spec, device or shard count), a shard given twice or missing, a file that is not\n"
           "a shard or of another format version.\n"
           "\n"
           "  -o, --output FILE  write the merged result as JSON and print its summary\n"
           "  --json             print the merged result as JSON on stdout, nothing else\n"
           "  --csv FILE         also write one row per point as CSV\n"
           "  --t4 FILE          also write the T4 autotuning results format\n"
           "\n"
           "Without -o or --json the summary is printed and nothing is written.\n"
           "\n"
           "Exit status: 0 merged, 1 the shards cannot be merged, 2 usage error or a file\n"
           "that cannot be read or written.\n";
}

int runMerge(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--output", "-o"});
    parser.addFlag({"--json"});
    parser.addOption({"--csv"});
    parser.addOption({"--t4"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("merge", parser.error());
    }
    if (parser.isSet("--help")) {
        printMergeHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().empty()) {
        return usageError("merge", "no shard result given");
    }
    if (parser.isSet("--json") && parser.isSet("--output")) {
        return usageError("merge", "--json prints the result; -o writes it: give one");
    }
    for (const char *option : {"--output", "--csv", "--t4"}) {
        if (const auto path = parser.value(option)) {
            if (const std::string problem = checkWritable(*path); !problem.empty()) {
                return usageError("merge", std::string(option) + ": " + problem);
            }
        }
    }
    std::vector<ShardInput> shards;
    for (const std::string &path : parser.positionals()) {
        SweepResultLoad load = loadSweepResult(path);
        if (!load.result) {
            std::cerr << "cuwb merge: " << load.error << '\n';
            return ExitUsage;
        }
        shards.push_back({path, std::move(*load.result)});
    }
    const SweepMerge merge = mergeSweepShards(shards);
    if (!merge.result) {
        std::cerr << "cuwb merge: " << merge.error << '\n';
        return ExitFailure;
    }
    if (parser.isSet("--json")) {
        std::cout << serializeSweepResult(*merge.result);
        // Exports beside the JSON on stdout are written quietly.
        std::streambuf *saved = std::cout.rdbuf(nullptr);
        const bool written = writeSweepOutputs("merge", *merge.result, parser.value("--csv"),
                                               std::nullopt, parser.value("--t4"));
        std::cout.rdbuf(saved);
        return written ? ExitSuccess : ExitUsage;
    }
    printSweepSummary(std::cout, *merge.result);
    if (!writeSweepOutputs("merge", *merge.result, parser.value("--csv"), parser.value("--output"),
                           parser.value("--t4"))) {
        return ExitUsage;
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
