// cuwb run: runs projects headless — each through a `cuwb worker` child of this same
// executable, so that a kernel that faults or hangs ends one run, not the batch.
#include "argumentparser.h"
#include "commands.h"
#include "workeroptions.h"

#include "project/project.h"
#include "run/runjson.h"
#include "run/runoutcome.h"
#include "worker/protocol.h"
#include "worker/workerclient.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace cuwb::cli {

namespace {

// Time the worker gets beyond the kernel's deadline: NVRTC, context creation, allocation,
// initialisation and verification. Only a worker that is stuck outside the kernel hits it.

std::string number(double value)
{
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    char text[48];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string milliseconds(double value)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.4g ms", value);
    return text;
}

// One project's outcome: a RunResult, or why the project could not even be sent.
struct Outcome
{
    std::string project;
    std::string error; // malformed or unreadable project: exit status 2
    RunResult result;
    RunOutcome verdict; // what the result means, knowing whether the project verifies
    bool passed = false;
};

void printStderrTail(const WorkerProcess &worker)
{
    const std::string &tail = worker.stderrTail();
    if (tail.find_first_not_of(" \n") == std::string::npos) {
        return;
    }
    std::cerr << "cuwb run: the worker's last messages:\n" << tail;
    if (tail.back() != '\n') {
        std::cerr << '\n';
    }
}

void printIndented(std::ostream &out, const std::string &text, const char *indent)
{
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        out << indent << line << '\n';
    }
}

// The verdict first, with its reasons, then what the kernel did, the buffers and the checks,
// in the words of run/runoutcome.h.
void printReport(std::ostream &out, const Outcome &outcome, const Project &project)
{
    const RunResult &result = outcome.result;
    const RunOutcome &verdict = outcome.verdict;
    out << outcome.project << ": " << verdict.headline() << '\n';
    out << "  kernel " << project.launch.kernel << ": ";
    switch (verdict.kernel) {
    case KernelOutcome::Ran:
        out << "ran in " << milliseconds(result.kernelTimeMs) << " (whole run "
            << milliseconds(result.wallTimeMs) << ")";
        break;
    case KernelOutcome::Faulted:
        out << "faulted";
        break;
    case KernelOutcome::TimedOut:
        out << "timed out";
        break;
    case KernelOutcome::NotStarted:
        out << "could not start (" << runStatusName(result.status) << ")";
        break;
    }
    if (!result.device.empty()) {
        out << " on " << result.device;
    }
    out << '\n';
    if (verdict.kernel != KernelOutcome::Ran) {
        // The headline carries the message's first line; the rest follows here.
        const std::size_t firstBreak = result.message.find('\n');
        if (firstBreak != std::string::npos) {
            printIndented(out, result.message.substr(firstBreak + 1), "    ");
        }
        if (!result.deviceError.empty()) {
            out << "    device error: " << result.deviceError << '\n';
        }
        return;
    }
    const auto printSizeAndStats = [&](const char *what, const BufferReport &buffer) {
        out << "  " << what << ' ' << buffer.parameter << ": " << buffer.count << " elements, "
            << buffer.bytes << " bytes";
        if (buffer.stats.valid) {
            out << "; min " << number(buffer.stats.min) << ", max " << number(buffer.stats.max)
                << ", mean " << number(buffer.stats.mean);
            if (buffer.stats.nanCount > 0 || buffer.stats.infCount > 0) {
                out << "; " << buffer.stats.nanCount << " NaN, " << buffer.stats.infCount << " Inf";
            }
        }
        out << '\n';
    };
    for (const BufferReport &buffer : result.buffers) {
        printSizeAndStats("buffer", buffer);
        for (const GuardViolation &violation : buffer.guardViolations) {
            out << "    " << violation.message << '\n';
        }
        if (buffer.unwritten > 0) {
            out << "    " << buffer.unwritten << " elements never written, first at index "
                << buffer.firstUnwritten << '\n';
        }
    }
    for (const BufferReport &global : result.globals) {
        printSizeAndStats("global", global);
    }
    const VerificationResult &verification = result.verification;
    if (project.verification.kind != ReferenceKind::None || verification.ran) {
        out << "  verification of " << project.verification.output << ": ";
        if (!verification.ran) {
            out << "did not run";
        } else {
            out << (verification.passed ? "passed" : "FAILED") << " (" << verification.checked
                << " elements checked, largest error " << number(verification.maxError)
                << " at index " << verification.maxErrorIndex << ")";
        }
        out << '\n';
        if (!verification.message.empty()) {
            printIndented(out, verification.message, "    ");
        }
        for (const Mismatch &mismatch : verification.firstMismatches) {
            out << "    index " << mismatch.index << " (block " << mismatch.block[0] << ","
                << mismatch.block[1] << "," << mismatch.block[2] << ", thread "
                << mismatch.thread[0] << "," << mismatch.thread[1] << "," << mismatch.thread[2]
                << "): got " << number(mismatch.actual) << ", expected "
                << number(mismatch.expected) << ", error " << number(mismatch.error) << '\n';
        }
    }
    out << "  checks: " << verdict.checksLine() << '\n';
}

nlohmann::json outcomeJson(const Outcome &outcome)
{
    nlohmann::json entry{{"project", outcome.project}, {"passed", outcome.passed}};
    if (!outcome.error.empty()) {
        entry["error"] = outcome.error;
    } else {
        entry["result"] = outcome.result;
        // Read knowing whether the project asks for a verification, which the result alone
        // cannot tell: a requested one that did not run reads "not-run" and fails.
        entry["result"]["outcome"] = outcome.verdict;
    }
    return entry;
}

std::string firstLine(const std::string &text)
{
    const std::size_t start = text.find_first_not_of(" \n");
    if (start == std::string::npos) {
        return {};
    }
    return text.substr(start, text.find('\n', start) - start);
}

// Why a project did not pass, in one line, for the grading summary.
std::string failureReason(const Outcome &outcome)
{
    if (!outcome.error.empty()) {
        return "cannot be read: " + firstLine(outcome.error);
    }
    std::string reason;
    for (const std::string &each : outcome.verdict.reasons) {
        reason += (reason.empty() ? "" : "; ") + each;
    }
    return reason.empty() ? std::string("failed") : reason;
}

struct GradedOutcome
{
    Outcome outcome;
    std::string reason; // empty when it passed
};

nlohmann::json summaryJson(const std::vector<GradedOutcome> &graded)
{
    nlohmann::json failed = nlohmann::json::array();
    std::size_t passed = 0;
    for (const GradedOutcome &entry : graded) {
        if (entry.outcome.passed) {
            ++passed;
        } else {
            failed.push_back({{"project", entry.outcome.project}, {"reason", entry.reason}});
        }
    }
    return {{"projects", graded.size()}, {"passed", passed}, {"failed", std::move(failed)}};
}

void printSummary(std::ostream &out, const std::vector<GradedOutcome> &graded)
{
    std::size_t passed = 0;
    for (const GradedOutcome &entry : graded) {
        passed += entry.outcome.passed ? 1 : 0;
    }
    out << "summary: " << graded.size() << (graded.size() == 1 ? " project, " : " projects, ")
        << passed << " passed, " << graded.size() - passed << " failed\n";
    for (const GradedOutcome &entry : graded) {
        if (!entry.outcome.passed) {
            out << "  FAILED " << entry.outcome.project << ": " << entry.reason << '\n';
        }
    }
}

// The projects the arguments name: a file as given, a folder as every *.cuwb file under it
// (recursively, sorted). Empty with `error` set when a folder holds none or cannot be read.
std::vector<std::string> expandProjectArguments(const std::vector<std::string> &arguments,
                                                std::string &error)
{
    namespace fs = std::filesystem;
    std::vector<std::string> projects;
    for (const std::string &argument : arguments) {
        std::error_code code;
        if (!fs::is_directory(argument, code)) {
            projects.push_back(argument);
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(argument, fs::directory_options::skip_permission_denied,
                                            code);
        for (; !code && it != fs::recursive_directory_iterator(); it.increment(code)) {
            std::error_code fileCode;
            if (it->path().extension() == ".cuwb" && it->is_regular_file(fileCode)) {
                found.push_back(it->path().string());
            }
        }
        if (code) {
            error = "cannot read the folder " + argument + ": " + code.message();
            return {};
        }
        if (found.empty()) {
            error = "the folder " + argument + " holds no .cuwb project";
            return {};
        }
        std::sort(found.begin(), found.end());
        projects.insert(projects.end(), found.begin(), found.end());
    }
    return projects;
}

} // namespace

void printRunHelp(std::ostream &out)
{
    out << "Usage: cuwb run PROJECT.cuwb|FOLDER... [--json] [--summary] [--deadline S]\n"
           "                [--device N | --worker COMMAND]\n"
           "\n"
           "Runs each project's kernel on the GPU as the GUI would: compiles it for the\n"
           "device, allocates the buffers with guard bands, initialises them, launches,\n"
           "checks the guards and unwritten outputs, and verifies the output against the\n"
           "project's reference. Each run happens in a 'cuwb worker' child process, so a\n"
           "kernel that faults or hangs ends its own run only; the next project gets a\n"
           "fresh worker.\n"
           "\n"
           "A FOLDER stands for every *.cuwb file under it, searched recursively and run\n"
           "in sorted order; a folder that holds none is a usage error. To grade a folder\n"
           "of student projects: cuwb run submissions/ --json --summary\n"
           "\n"
           "  --json         print one JSON document: for each project \"project\", \"passed\"\n"
           "                 and \"result\" (an array when several projects are given)\n"
           "  --summary      add a grading summary after the runs. Without --json, a\n"
           "                 closing 'summary:' line and one 'FAILED PROJECT: reason' line\n"
           "                 per failure. With --json, the document becomes one object:\n"
           "                 {\"projects\": N, \"passed\": K, \"failed\": [{\"project\",\n"
           "                 \"reason\"}...], \"results\": [the array above, always an\n"
           "                 array]}. Without --summary the --json format is unchanged.\n"
           "  --deadline S   stop a kernel that runs longer than S seconds (default: the\n"
           "                 project's, 10 s unless it says otherwise)\n"
           "  --device N     the GPU to run on (default 0)\n"
           "  --worker COMMAND  the worker to run instead of 'cuwb worker', e.g.\n"
           "                 'ssh gpu-host cuwb worker'\n"
           "\n"
           "Each run reads PASSED, or FAILED with its reasons first. Then what the kernel\n"
           "did (ran, faulted, timed out, could not start) and, when it ran, the checks:\n"
           "verification passed, FAILED, not configured or did not run; out-of-bounds\n"
           "writes found in the guard bands; output elements never written. A kernel that\n"
           "ran but wrote out of bounds, or whose output is wrong, FAILED. With --json the\n"
           "same reading is each result's \"outcome\" (docs/projects.md).\n"
           "\n"
           "Exit status: 0 every run succeeded and verified, 1 a run failed, did not verify\n"
           "or there is no GPU to run on, 2 usage error or a project that cannot be read.\n";
}

int runRun(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--summary"});
    parser.addOption({"--deadline"});
    addWorkerOptions(parser);
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("run", parser.error());
    }
    if (parser.isSet("--help")) {
        printRunHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().empty()) {
        return usageError("run", "no project given");
    }
    std::string expandError;
    const std::vector<std::string> projects =
        expandProjectArguments(parser.positionals(), expandError);
    if (projects.empty()) {
        return usageError("run",
                          expandError.empty() ? std::string("no project given") : expandError);
    }
    std::optional<double> deadline;
    if (const auto text = parser.value("--deadline")) {
        char *end = nullptr;
        const double value = std::strtod(text->c_str(), &end);
        if (text->empty() || *end != '\0' || !std::isfinite(value) || value <= 0.0) {
            return usageError("run",
                              "--deadline needs a positive number of seconds, got '" + *text + "'");
        }
        deadline = value;
    }
    const auto workerChoice = workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("run", *problem);
    }
    const WorkerProcess::Options options = std::get<WorkerProcess::Options>(workerChoice);
    const bool json = parser.isSet("--json");
    const bool summary = parser.isSet("--summary");

    WorkerProcess worker(options);
    std::vector<GradedOutcome> outcomes;
    int status = ExitSuccess;
    for (const std::string &path : projects) {
        Outcome outcome;
        outcome.project = path;
        const ProjectLoad load = loadProject(path);
        std::string source;
        std::string error;
        if (!load.project) {
            outcome.error = load.error;
        } else if (!readProjectSource(*load.project, path, source, error)) {
            outcome.error = error;
        }
        if (!outcome.error.empty()) {
            std::cerr << "cuwb run: " << path << ": " << outcome.error << '\n';
            status = ExitUsage;
            std::string reason = failureReason(outcome);
            outcomes.push_back({std::move(outcome), std::move(reason)});
            continue;
        }
        Project project = *load.project;
        resolveProjectPaths(project, path);
        RunRequest request;
        request.source = std::move(source);
        request.fileName =
            project.sourcePath.empty()
                ? (project.name.empty() ? std::string("kernel") : project.name) + ".cu"
                : std::filesystem::path(project.sourcePath).filename().string();
        request.options = project.options;
        request.launch = project.launch;
        if (deadline) {
            request.launch.deadlineSeconds = *deadline;
        }
        request.verification = project.verification;

        outcome.result = WorkerClient(worker).run(request);
        // A requested verification that did not run is no pass.
        outcome.verdict =
            describeRun(outcome.result, project.verification.kind != ReferenceKind::None);
        outcome.passed = outcome.verdict.passed;
        if (outcome.result.status == RunStatus::WorkerCrashed ||
            outcome.result.status == RunStatus::Timeout) {
            printStderrTail(worker);
        }
        if (!outcome.passed && status == ExitSuccess) {
            status = ExitFailure;
        }
        if (!json) {
            printReport(std::cout, outcome, project);
        }
        std::string reason;
        if (!outcome.passed) {
            reason = failureReason(outcome);
        }
        outcomes.push_back({std::move(outcome), std::move(reason)});
    }
    worker.stop();

    if (json) {
        nlohmann::json document = nlohmann::json::array();
        for (const GradedOutcome &entry : outcomes) {
            document.push_back(outcomeJson(entry.outcome));
        }
        if (summary) {
            nlohmann::json object = summaryJson(outcomes);
            object["results"] = std::move(document);
            document = std::move(object);
        } else if (outcomes.size() == 1) {
            document = nlohmann::json(document.front());
        }
        std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else if (summary) {
        printSummary(std::cout, outcomes);
    }
    return status;
}

} // namespace cuwb::cli
