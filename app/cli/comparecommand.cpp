// cuwb compare: two variants side by side (issue 13's A/B comparison). Each project's kernel is
// measured, profiled (the metrics pass with speed of light and the roofline's counters) and
// inspected (counters per line) on one worker, one after the other; then the times, the
// metrics, the kernels' counters and the findings are compared, the differences that count
// marked (core/measure/comparison.h says when a difference counts).
#include "argumentparser.h"
#include "commands.h"
#include "diagnostictext.h"
#include "workeroptions.h"

#include "interruptcancels.h"

#include "compare/comparesequence.h"
#include "measure/comparison.h"
#include "measure/measurejson.h"
#include "measure/roofline.h"
#include "project/project.h"
#include "worker/workerclient.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cuwb::cli {

namespace {

struct Loaded
{
    std::string path;
    RunRequest request;
    SampleSettings settings;
    ThroughputExpressions throughput;
};

std::string comparedValue(double value)
{
    char text[48];
    std::snprintf(
        text, sizeof text,
        std::abs(value) >= 1e6 || (value != 0 && std::abs(value) < 1e-2) ? "%.4g" : "%.2f", value);
    return text;
}

void printDelta(std::ostream &out, const Delta &d)
{
    char line[200];
    const std::optional<double> ratio = d.ratio();
    std::snprintf(line, sizeof line, "  %-66s %14s %14s %8s %s\n", d.what.c_str(),
                  comparedValue(d.a).c_str(), comparedValue(d.b).c_str(),
                  ratio ? comparedValue(*ratio).c_str() : "-", d.significant ? "*" : "");
    out << line;
}

nlohmann::json deltaJson(const Delta &d)
{
    return {{"what", d.what}, {"a", d.a}, {"b", d.b}, {"significant", d.significant}};
}

} // namespace

void printCompareHelp(std::ostream &out)
{
    out << "Usage: cuwb compare A.cuwb B.cuwb [--json] [--cold|--hot] [--samples N]\n"
           "                    [--no-inspect] [--device N] [--worker CMD] [--on TARGET]\n"
           "\n"
           "Two variants side by side: each project's kernel is timed (as cuwb measure),\n"
           "profiled (the metrics pass, with speed of light and the roofline's counters) and\n"
           "inspected (counters per line, as cuwb inspect) on one worker, one after the\n"
           "other. Prints which is faster and by how much, each metric and counter of A and B\n"
           "with their ratio, '*' where the difference counts (a time beyond three times the\n"
           "noise, a counter by 10 % or more), and the findings only one of them has.\n"
           "\n"
           "  --json            print the comparison as JSON\n"
           "  --cold, --hot     sampling mode for both (default: each project's own)\n"
           "  --samples N       exactly N samples each\n"
           "  --no-inspect      leave out the counters per line (no profiling permission)\n"
           "  --device N        the GPU to run on (default 0)\n"
           "  --worker CMD      start the worker with CMD instead of 'cuwb worker'\n"
           "  --on TARGET       run on a remote GPU: user@host[:port] over ssh, a name from\n"
           "                    the targets file, or command:WORDS (docs/remote.md)\n"
           "\n"
           "Exit status: 0 compared, 1 a variant could not be measured, 2 usage error or a\n"
           "project that cannot be read.\n";
}

namespace {

// Both sides collected on one worker, one after the other (compare/comparesequence.h); what
// could not be inspected is said on stderr.
std::vector<ComparisonSide> measureSides(const std::vector<Loaded> &loaded,
                                         const WorkerProcess::Options &options, bool inspect)
{
    WorkerProcess worker(options);
    std::vector<ComparisonSide> sides;
    {
        const InterruptCancels interruptCancels(worker);
        for (const Loaded &l : loaded) {
            CompareSideInput side;
            side.side.name = std::filesystem::path(l.path).stem().string();
            WorkerClient client(worker);
            collectSide(side, client, l.request, l.settings, l.throughput, inspect);
            for (const std::string &missing : side.missing) {
                if (missing.rfind("inspection: ", 0) == 0) {
                    std::cerr << "cuwb compare: " << l.path
                              << ": not inspected: " << missing.substr(12) << '\n';
                }
            }
            sides.push_back(std::move(side.side));
        }
    }
    worker.stop();
    return sides;
}

void printComparisonJson(std::ostream &out, const std::vector<Loaded> &loaded,
                         const std::vector<ComparisonSide> &sides, const Comparison &comparison)
{
    nlohmann::json document = {{"a", loaded[0].path},
                               {"b", loaded[1].path},
                               {"verdict", comparison.verdict},
                               {"notes", comparison.notes}};
    if (comparison.time) {
        document["time"] = deltaJson(*comparison.time);
    }
    for (const char *key : {"metrics", "counters"}) {
        nlohmann::json list = nlohmann::json::array();
        for (const Delta &d :
             std::string(key) == "metrics" ? comparison.metrics : comparison.counters) {
            list.push_back(deltaJson(d));
        }
        document[key] = std::move(list);
    }
    nlohmann::json findings = nlohmann::json::array();
    for (const FindingDelta &f : comparison.findings) {
        findings.push_back({{"line", f.line}, {"message", f.message}, {"side", f.inA ? "a" : "b"}});
    }
    document["findings"] = std::move(findings);
    document["measurements"] = {*sides[0].measurement, *sides[1].measurement};
    out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void printComparisonText(std::ostream &out, const std::vector<Loaded> &loaded,
                         const Comparison &comparison)
{
    out << "A: " << loaded[0].path << "\nB: " << loaded[1].path << "\n";
    if (!comparison.verdict.empty()) {
        out << comparison.verdict << "\n";
    }
    char head[200];
    std::snprintf(head, sizeof head, "\n  %-66s %14s %14s %8s\n", "", "A", "B", "B/A");
    out << head;
    if (comparison.time) {
        printDelta(out, *comparison.time);
    }
    for (const Delta &d : comparison.metrics) {
        printDelta(out, d);
    }
    for (const Delta &d : comparison.counters) {
        printDelta(out, d);
    }
    for (const FindingDelta &f : comparison.findings) {
        out << "  only in " << (f.inA ? "A" : "B") << ", line " << f.line << ": " << f.message
            << "\n";
    }
    for (const std::string &note : comparison.notes) {
        out << "  note: " << note << "\n";
    }
    out << "  (* the difference counts: a time beyond three times the noise, a counter by "
           "10 % or more)\n";
}

} // namespace

int runCompare(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--cold"});
    parser.addFlag({"--hot"});
    parser.addOption({"--samples"});
    parser.addFlag({"--no-inspect"});
    addWorkerOptions(parser);
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("compare", parser.error());
    }
    if (parser.isSet("--help")) {
        printCompareHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 2) {
        return usageError("compare", "compare takes two projects, got " +
                                         std::to_string(parser.positionals().size()));
    }
    if (parser.isSet("--cold") && parser.isSet("--hot")) {
        return usageError("compare", "--cold and --hot exclude each other");
    }
    std::optional<long long> samples;
    if (const auto text = parser.value("--samples")) {
        samples = parseCount(*text);
        if (!samples || *samples < 1 || *samples > 10000000) {
            return usageError("compare",
                              "--samples needs a whole number of at least 1, got '" + *text + "'");
        }
    }
    const auto workerChoice = workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("compare", *problem);
    }

    std::vector<Loaded> loaded;
    for (const std::string &path : parser.positionals()) {
        std::optional<OpenedProject> opened = openProject("compare", path);
        if (!opened)
            return ExitUsage;
        Project &project = opened->project;
        std::string &source = opened->source;
        Loaded side{path, projectRunRequest(project, std::move(source)), project.measure.settings,
                    project.measure.throughput};
        if (parser.isSet("--hot")) {
            side.settings.mode = SampleMode::Hot;
        } else if (parser.isSet("--cold")) {
            side.settings.mode = SampleMode::Cold;
        }
        if (samples) {
            side.settings.fixedSamples = int(*samples);
        }
        loaded.push_back(std::move(side));
    }

    const std::vector<ComparisonSide> sides = measureSides(
        loaded, std::get<WorkerProcess::Options>(workerChoice), !parser.isSet("--no-inspect"));
    for (std::size_t k = 0; k < sides.size(); ++k) {
        const Measurement &m = *sides[k].measurement;
        if (!m.faultStatus.empty()) {
            std::cerr << "cuwb compare: " << loaded[k].path << ": " << m.faultStatus << ": "
                      << m.faultMessage << '\n';
            return ExitFailure;
        }
    }
    const Comparison comparison = compareSides(sides[0], sides[1]);
    if (parser.isSet("--json")) {
        printComparisonJson(std::cout, loaded, sides, comparison);
    } else {
        printComparisonText(std::cout, loaded, comparison);
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
