// cuwb inspect: why a kernel is slow, line by line. One launch of the project's kernel in a
// `cuwb worker` child with CUPTI counting per machine instruction (never timed), the counts
// placed on the source lines, and what stands out on each line said in words: uncoalesced
// loads and stores, shared-memory bank conflicts, local memory, divergent branches.
#include "argumentparser.h"
#include "commands.h"
#include "diagnostictext.h"
#include "workeroptions.h"

#include "interruptcancels.h"

#include "inspect/instructioncountersjson.h"
#include "inspect/linecounters.h"
#include "project/project.h"
#include "util/text.h"
#include "worker/workerclient.h"

#include <cstdio>
#include <iostream>

namespace cuwb::cli {

namespace {

constexpr std::size_t kHotLines = 5;

std::string formattedValue(double value, const char *pattern = "%.0f")
{
    char text[48];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// The source text of `line` when it is in the project's own file (not a header).
std::string sourceText(const LineCounters &line, const std::string &fileName,
                       const std::vector<std::string> &source)
{
    const bool own =
        line.file.empty() || line.file == fileName ||
        (line.file.size() > fileName.size() &&
         line.file.compare(line.file.size() - fileName.size(), fileName.size(), fileName) == 0);
    if (!own || line.line < 1 || std::size_t(line.line) > source.size()) {
        return line.file.empty() ? std::string() : "(" + line.file + ")";
    }
    return std::string(trimmed(source[std::size_t(line.line) - 1]));
}

void printSummary(std::ostream &out, const std::string &path, const InspectSummary &summary,
                  const std::string &fileName, const std::vector<std::string> &source)
{
    const CounterTotals &t = summary.totals;
    out << path << ": " << summary.kernel << "\n";
    out << "  " << formattedValue(double(t.instructions)) << " warp instructions executed";
    if (t.instructions > 0) {
        out << ", "
            << formattedValue(100.0 * double(t.predicatedOnThreads) / double(t.instructions * 32),
                              "%.1f")
            << " % of their threads active";
    }
    out << "\n";
    if (t.globalRequests > 0) {
        out << "  global memory: " << formattedValue(double(t.globalRequests)) << " requests, "
            << formattedValue(double(t.globalSectors)) << " sectors ("
            << formattedValue(t.sectorsPerRequest(), "%.1f") << " per request, "
            << formattedValue(t.idealSectorsPerRequest(), "%.1f") << " ideal)\n";
    }
    if (t.sharedRequests > 0) {
        out << "  shared memory: " << formattedValue(double(t.sharedRequests)) << " requests, "
            << formattedValue(double(t.sharedWavefronts)) << " wavefronts ("
            << formattedValue(double(t.sharedWavefrontsIdeal)) << " ideal)\n";
    }
    if (t.localRequests > 0) {
        out << "  local memory: " << formattedValue(double(t.localRequests)) << " requests, "
            << formattedValue(double(t.localSectors)) << " sectors\n";
    }

    out << "\n  line  stalls  share  warp inst  sectors/req  source\n";
    for (const LineCounters &line : summary.lines) {
        char head[96];
        std::snprintf(head, sizeof head, "  %4d %5.1f%% %5.1f%% %10.0f  ", line.line,
                      100.0 * line.stallShare, 100.0 * line.share,
                      double(line.totals.instructions));
        out << head;
        out << (line.totals.globalRequests > 0
                    ? formattedValue(line.totals.sectorsPerRequest(), "%11.1f")
                    : std::string(11, ' '));
        out << "  " << sourceText(line, fileName, source) << "\n";
        for (const Finding &finding : line.findings) {
            out << "                                               ^ " << finding.message << "\n";
        }
    }
    const std::vector<const LineCounters *> stalled = stalledLines(summary, kHotLines);
    if (!stalled.empty()) {
        out << "\n  where the warps spent their time ("
            << formattedValue(double(summary.stallSamples))
            << " PC samples: " << topReasons(summary.stallReasons, 3) << "):\n";
        for (const LineCounters *line : stalled) {
            out << "    line " << line->line << ": "
                << formattedValue(100.0 * line->stallShare, "%.1f") << " % ("
                << topReasons(line->stallReasons, 3) << ")\n";
        }
    }
    const std::vector<const LineCounters *> hot = hottestLines(summary, kHotLines);
    if (!hot.empty()) {
        out << "  most instructions executed:";
        for (const LineCounters *line : hot) {
            out << " line " << line->line << " (" << formattedValue(100.0 * line->share, "%.1f")
                << " %)";
        }
        out << "\n";
    }
    for (const std::string &note : summary.notes) {
        out << "  note: " << note << "\n";
    }
}

nlohmann::json summaryJson(const InspectResult &result, const InspectSummary &summary)
{
    nlohmann::json lines = nlohmann::json::array();
    for (const LineCounters &line : summary.lines) {
        nlohmann::json findings = nlohmann::json::array();
        for (const Finding &finding : line.findings) {
            findings.push_back(
                {{"kind", findingKindName(finding.kind)}, {"message", finding.message}});
        }
        const CounterTotals &t = line.totals;
        lines.push_back({{"file", line.file},
                         {"line", line.line},
                         {"share", line.share},
                         {"instructions", t.instructions},
                         {"threadInstructions", t.threadInstructions},
                         {"predicatedOnThreads", t.predicatedOnThreads},
                         {"globalRequests", t.globalRequests},
                         {"globalTagLookups", t.globalTagLookups},
                         {"globalSectors", t.globalSectors},
                         {"globalSectorsIdeal", t.globalSectorsIdeal},
                         {"sharedRequests", t.sharedRequests},
                         {"sharedWavefronts", t.sharedWavefronts},
                         {"sharedWavefrontsIdeal", t.sharedWavefrontsIdeal},
                         {"localRequests", t.localRequests},
                         {"localSectors", t.localSectors},
                         {"divergentBranches", t.divergentBranches},
                         {"uniformBranches", t.uniformBranches},
                         {"stallSamples", line.stallSamples},
                         {"stallShare", line.stallShare},
                         {"stallReasons", line.stallReasons},
                         {"findings", std::move(findings)}});
    }
    return {{"result", result}, {"lines", std::move(lines)}, {"notes", summary.notes}};
}

} // namespace

void printInspectHelp(std::ostream &out)
{
    out << "Usage: cuwb inspect PROJECT.cuwb [--json] [--metric NAME]... [--no-stalls]\n"
           "                    [--device N] [--worker CMD] [--on TARGET]\n"
           "\n"
           "Runs the project's kernel once in a 'cuwb worker' child with CUPTI counting per\n"
           "machine instruction (SASS metrics; the patched kernel is slower and never\n"
           "timed), places the counts on the source lines (compile with -lineinfo, the\n"
           "projects' default) and says what stands out on each line: uncoalesced loads\n"
           "and stores (global sectors per request against the ideal), shared-memory bank\n"
           "conflicts (wavefronts against the ideal), local memory (spills), divergent\n"
           "branches and idle threads. A launch of its own before that one, unpatched and\n"
           "at full speed, samples the warps' program counters to show where they waited\n"
           "and why (stall reasons). Needs permission to use the GPU's performance\n"
           "counters; without it the message says how to get it.\n"
           "\n"
           "  --json            print the instructions' counters and the lines as JSON\n"
           "  --metric NAME     count NAME (a CUPTI SASS metric such as\n"
           "                    smsp__sass_sectors_mem_global) instead of the default set;\n"
           "                    repeat for several\n"
           "  --no-stalls       leave the stall samples out (the sampling launch still\n"
           "                    runs: counting needs it; docs/inspect.md)\n"
           "  --device N        the GPU to inspect on (default 0)\n"
           "  --worker CMD      start the worker with CMD instead of 'cuwb worker'\n"
           "  --on TARGET       run on a remote GPU: user@host[:port] over ssh, a name from\n"
           "                    the targets file, or command:WORDS (docs/remote.md)\n"
           "\n"
           "Exit status: 0 inspected, 1 the kernel could not be inspected (compile error,\n"
           "fault, no GPU, no permission; the reason is printed), 2 usage error or a project\n"
           "that cannot be read.\n";
}

int runInspect(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--no-stalls"});
    parser.addOption({"--metric"});
    addWorkerOptions(parser);
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("inspect", parser.error());
    }
    if (parser.isSet("--help")) {
        printInspectHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1) {
        return usageError("inspect", parser.positionals().empty()
                                         ? "no project given"
                                         : "inspect takes one project, got " +
                                               std::to_string(parser.positionals().size()));
    }
    const std::string &path = parser.positionals().front();
    std::optional<OpenedProject> opened = openProject("inspect", path);
    if (!opened)
        return ExitUsage;
    Project &project = opened->project;
    std::string &source = opened->source;

    InspectRequest inspect;
    const std::vector<std::string> metricNames = parser.values("--metric");
    for (const std::string &name : metricNames) {
        if (name.empty() || name.find_first_of(" \t") != std::string::npos) {
            return usageError("inspect", "--metric needs a SASS metric name such as "
                                         "smsp__sass_inst_executed, got '" +
                                             name + "'");
        }
    }
    if (!metricNames.empty()) {
        inspect.metrics = metricNames;
    }
    inspect.sampleStalls = !parser.isSet("--no-stalls");
    const auto workerChoice = workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("inspect", *problem);
    }

    const std::vector<std::string> sourceLines = splitLines(source);
    const RunRequest request = projectRunRequest(project, std::move(source));
    WorkerProcess worker(std::get<WorkerProcess::Options>(workerChoice));
    InspectResult result;
    {
        const InterruptCancels interruptCancels(worker);
        result = WorkerClient(worker).inspect(request, inspect);
    }
    worker.stop();
    if (!result.ok()) {
        std::cerr << "cuwb inspect: " << path << ": " << result.error << '\n';
        return ExitFailure;
    }
    const InspectSummary summary = summarise(result);
    if (parser.isSet("--json")) {
        std::cout << summaryJson(result, summary)
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << '\n';
    } else {
        printSummary(std::cout, path, summary, request.fileName, sourceLines);
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
