// cuwb run: runs projects headless — each through a `cuwb worker` child of this same
// executable, so that a kernel that faults or hangs ends one run, not the batch. With --devices,
// one worker per GPU runs the projects at once, each on the next free GPU (docs/multigpu.md).
#include "argumentparser.h"

#include "commands.h"
#include "slurmjob.h"
#include "util/tempfolder.h"
#include "workeroptions.h"

#include "grading/classreport.h"
#include "grading/submission.h"
#include "measure/measurejson.h"
#include "sweep/sweepexport.h" // writeTextFile
#include "sweep/sweepshard.h"
#include "util/boundedfile.h"
#include "util/format.h"
#include "util/toolprocess.h"

#include "project/project.h"
#include "run/runjson.h"
#include "run/runoutcome.h"
#include "util/sandbox.h"
#include "worker/protocol.h"
#include "worker/workerclient.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdlib.h>
#include <thread>
#include <unistd.h>

namespace cuwb::cli {

namespace {

// Time the worker gets beyond the kernel's deadline: NVRTC, context creation, allocation,
// initialisation and verification. Only a worker that is stuck outside the kernel hits it.

std::string valueText(double value)
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
    std::string error;   // malformed or unreadable project: exit status 2
    std::string refused; // a graded project that names a file outside its folder: exit 1
    RunResult result;
    RunOutcome verdict;     // what the result means, knowing whether the project verifies
    std::optional<int> gpu; // with --devices: the GPU it ran on
    bool passed = false;
    std::optional<Measurement> measurement; // with --measure, of a run that passed
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
    if (project.launch.then.empty()) {
        out << "  kernel " << project.launch.kernel << ": ";
    } else {
        out << "  kernels " << project.launch.kernel;
        for (const KernelStep &step : project.launch.then) {
            out << ", " << step.kernel;
        }
        out << ": ";
    }
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
    if (outcome.gpu) {
        out << " (GPU " << *outcome.gpu << ")";
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
            out << "; min " << valueText(buffer.stats.min) << ", max "
                << valueText(buffer.stats.max) << ", mean " << valueText(buffer.stats.mean);
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
    // A sequence: each kernel's time, as the events between them measured it.
    for (const KernelRunTime &time : result.kernelTimes) {
        out << "    " << time.kernel << ": " << milliseconds(time.timeMs) << '\n';
    }
    // Each check, in the project's order (one result with an older worker).
    std::vector<VerificationResult> checks = result.checks;
    if (checks.empty() && (project.verification.configured() || result.verification.ran)) {
        checks.push_back(result.verification);
        if (checks.back().output.empty() && project.verification.configured()) {
            checks.back().output = project.verification.checks.front().output;
        }
    }
    for (const VerificationResult &verification : checks) {
        out << "  verification of " << verification.output << ": ";
        if (!verification.ran) {
            out << "did not run";
        } else {
            out << (verification.passed ? "passed" : "FAILED") << " (" << verification.checked
                << " elements checked, largest error " << valueText(verification.maxError)
                << " at index " << verification.maxErrorIndex;
            if (const std::string errors = largestErrorText(verification); !errors.empty()) {
                out << "; " << errors;
            }
            out << ")";
        }
        out << '\n';
        if (!verification.message.empty()) {
            printIndented(out, verification.message, "    ");
        }
        for (const Mismatch &mismatch : verification.firstMismatches) {
            out << "    index " << mismatch.index << " (block " << mismatch.block[0] << ","
                << mismatch.block[1] << "," << mismatch.block[2] << ", thread "
                << mismatch.thread[0] << "," << mismatch.thread[1] << "," << mismatch.thread[2]
                << "): got " << valueText(mismatch.actual) << ", expected "
                << valueText(mismatch.expected) << ", error " << valueText(mismatch.error) << '\n';
        }
    }
    out << "  checks: " << verdict.checksLine() << '\n';
    if (const std::optional<Measurement> &m = outcome.measurement) {
        if (!m->faultStatus.empty()) {
            out << "  measured: failed (" << m->faultStatus << "): " << m->faultMessage << '\n';
        } else {
            char noise[32];
            std::snprintf(noise, sizeof noise, "%.2f %%", m->statistics.relativeNoise * 100.0);
            out << "  measured: median " << formatMicroseconds(m->statistics.medianNs) << " over "
                << plural(m->statistics.count, "sample") << ", noise " << noise << " ("
                << m->stop.message << ")\n";
        }
    }
}

nlohmann::json outcomeJson(const Outcome &outcome)
{
    nlohmann::json entry{{"project", outcome.project}, {"passed", outcome.passed}};
    if (!outcome.refused.empty()) {
        entry["refused"] = outcome.refused;
    } else if (!outcome.error.empty()) {
        entry["error"] = outcome.error;
    } else {
        entry["result"] = outcome.result;
        // Read knowing whether the project asks for a verification, which the result alone
        // cannot tell: a requested one that did not run reads "not-run" and fails.
        entry["result"]["outcome"] = outcome.verdict;
    }
    if (outcome.gpu) {
        entry["device"] = *outcome.gpu;
    }
    if (outcome.measurement) {
        entry["measurement"] = *outcome.measurement;
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
    if (!outcome.refused.empty()) {
        return "refused: " + outcome.refused;
    }
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

// A project to run; `graded` when it was found in a folder of submissions (confined, see
// grading/confinement.h), not named by the user.
struct ProjectArgument
{
    std::string path;
    bool graded = false;
    std::size_t number = 0; // 1-based, in the whole sorted list (a shard keeps it)
};

// The projects the arguments name: a file as given, a folder as every *.cuwb file under it
// (recursively, sorted). Empty with `error` set when a folder holds none or cannot be read.
std::vector<ProjectArgument> expandProjectArguments(const std::vector<std::string> &arguments,
                                                    std::string &error)
{
    namespace fs = std::filesystem;
    std::vector<ProjectArgument> projects;
    for (const std::string &argument : arguments) {
        std::error_code code;
        if (!fs::is_directory(argument, code)) {
            projects.push_back({argument, false, 0});
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(argument, fs::directory_options::skip_permission_denied,
                                            code);
        for (; !code && it != fs::recursive_directory_iterator(); it.increment(code)) {
            std::error_code fileCode;
            // A symlinked .cuwb is listed too, so that confinement can refuse it by name.
            if (it->path().extension() == ".cuwb" &&
                (it->is_regular_file(fileCode) || it->is_symlink(fileCode))) {
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
        for (std::string &path : found) {
            projects.push_back({std::move(path), true, 0});
        }
    }
    return projects;
}

} // namespace

namespace {

// A graded project, read by `cuwb read-submission` in a process of its own, confined to the
// project's folder when `confine`: a file that crashes, hangs or exhausts the reader fails this
// submission alone, and nothing outside the folder is read on its say-so.
SubmissionRead readGradedProject(const std::string &path, bool confine)
{
    std::vector<std::string> argv = {selfExecutable(), "read-submission", path};
    if (confine) {
        argv.push_back("--confine");
    }
    ToolLimits limits;
    limits.timeoutMs = 30000;
    // The reply: the project and its source (twice when inline), each escaped at worst 6 times.
    limits.maxOutputBytes = 6 * (kMaxProjectFileBytes + 2 * kMaxSourceFileBytes) + (1u << 20);
    const ToolRun run = runTool(argv, limits);
    if (!run.succeeded()) {
        SubmissionRead read;
        read.error = run.failure("reading the submission");
        return read;
    }
    return submissionReadFromJson(run.out);
}

// `cuwb run FOLDER --slurm`: the projects graded by an array job, task K grading shard K of
// the sorted project list (round-robin) with --json --summary into task-K.json, in its own
// scratch folders; the tasks' documents put back together in the order a local run gives.
int runSlurmGrading(const ArgumentParser &parser, const SlurmOptions &slurm,
                    const std::vector<ProjectArgument> &projects)
{
    namespace fs = std::filesystem;
    std::string error;
    const std::string first = parser.positionals().front();
    const std::string name = slurmName("grade-" + fs::path(first).filename().string());
    std::error_code code;
    const std::string here = fs::current_path(code).string();
    const std::string jobDir = slurm.dryRun && !slurm.jobDir
                                   ? here + "/cuwb-jobs/" + name + "-TIME"
                                   : makeJobDir(slurm.jobDir, here + "/" + name, name, error);
    if (jobDir.empty()) {
        std::cerr << "cuwb run: " << error << '\n';
        return ExitUsage;
    }
    ArrayScript script;
    script.jobName = "cuwb-" + name;
    script.jobDir = jobDir;
    script.description = "cuwb run: " + std::to_string(projects.size()) + " projects graded in " +
                         std::to_string(slurm.tasks) + " tasks (round-robin by sorted project)";
    script.workingDir = here; // the projects are named as the user named them
    script.command = {selfExecutable(), "run"};
    script.command.insert(script.command.end(), parser.positionals().begin(),
                          parser.positionals().end());
    script.command.insert(script.command.end(),
                          {"--shard", "{K}/" + std::to_string(slurm.tasks), "--json", "--summary",
                           "--scratch", jobDir + "/scratch-{K}"});
    for (const char *option : {"--deadline", "--device", "--worker", "--on"}) {
        if (const auto value = parser.value(option)) {
            script.command.insert(script.command.end(), {option, *value});
        }
    }
    if (parser.isSet("--measure")) {
        script.command.emplace_back("--measure");
    }
    if (parser.isSet("--unconfined")) {
        script.command.emplace_back("--unconfined");
    }
    script.stdoutPath = jobDir + "/task-{K}.json";
    const std::string text = arrayScript(script, slurm);
    if (slurm.dryRun) {
        std::cout << text;
        return ExitSuccess;
    }
    const std::string scriptPath = jobDir + "/grade.sh";
    if (const std::string problem = writeTextFile(scriptPath, text); !problem.empty()) {
        std::cerr << "cuwb run: " << problem << '\n';
        return ExitUsage;
    }
    const std::optional<std::string> jobId = submitArray(scriptPath, error);
    if (!jobId) {
        std::cerr << "cuwb run: " << error << '\n';
        return ExitUsage;
    }
    const bool json = parser.isSet("--json");
    std::ostream &info = json ? std::cerr : std::cout;
    info << "submitted job " << *jobId << ": " << projects.size() << " projects in " << slurm.tasks
         << " tasks; job folder " << jobDir << '\n'
         << std::flush;
    std::string last;
    const auto printProgress = [&](const ArrayProgress &progress) {
        std::ostringstream line;
        line << "tasks: " << progress.ended << " of " << slurm.tasks << " done, "
             << progress.running << " running, " << progress.pending << " pending";
        if (line.str() != last) {
            last = line.str();
            info << last << '\n' << std::flush;
        }
    };
    const std::optional<std::vector<TaskOutcome>> outcomes =
        followArray(*jobId, jobDir, slurm.tasks, printProgress, error);
    if (!outcomes) {
        std::cerr << "cuwb run: " << error << '\n';
        return 130;
    }

    // Each task's summary document; a task without a readable one failed.
    std::vector<nlohmann::json> documents(std::size_t(slurm.tasks) + 1);
    std::string failures;
    for (const TaskOutcome &outcome : *outcomes) {
        const ShardSelection shard{outcome.task, slurm.tasks};
        const std::size_t expected = shardSize(projects.size(), shard);
        std::ifstream in(taskResultPath(jobDir, outcome.task));
        nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
        if (document.is_object() && document.contains("results") &&
            document["results"].is_array() && document["results"].size() == expected) {
            documents[std::size_t(outcome.task)] = std::move(document);
            continue;
        }
        failures += "cuwb run: " + describeFailedTask(*jobId, jobDir, outcome, "task") + '\n';
    }
    if (!failures.empty()) {
        std::cerr << failures << "cuwb run: the grading is incomplete; run the failed tasks "
                  << "again with: sbatch --array=K " << scriptPath << '\n';
        return ExitFailure;
    }
    nlohmann::json results = nlohmann::json::array();
    nlohmann::json failed = nlohmann::json::array();
    std::size_t passed = 0;
    int status = ExitSuccess;
    for (std::size_t i = 0; i < projects.size(); ++i) {
        const int task = int(i % std::size_t(slurm.tasks)) + 1;
        const nlohmann::json &entry = documents[std::size_t(task)]["results"][i / slurm.tasks];
        results.push_back(entry);
        if (entry.value("passed", false)) {
            ++passed;
            continue;
        }
        // A submission that cannot be read failed; a project the user named is a usage error.
        status = entry.contains("error") && !projects[i].graded
                     ? ExitUsage
                     : std::max(status, int(ExitFailure));
        for (const nlohmann::json &each : documents[std::size_t(task)]["failed"]) {
            if (each.value("project", std::string()) == entry.value("project", std::string())) {
                failed.push_back(each);
                break;
            }
        }
    }
    nlohmann::json summary{{"projects", projects.size()},
                           {"passed", passed},
                           {"failed", failed},
                           {"results", results}};
    const std::string merged = jobDir + "/results.json";
    if (const std::string problem = writeTextFile(merged, summary.dump(2) + "\n");
        !problem.empty()) {
        std::cerr << "cuwb run: " << problem << '\n';
        return ExitUsage;
    }
    if (const auto folder = parser.value("--report")) {
        if (const std::string problem = writeClassReport(summary, *folder); !problem.empty()) {
            std::cerr << "cuwb run: the report: " << problem << '\n';
            return ExitOutput;
        }
    }
    if (json) {
        nlohmann::json document = parser.isSet("--summary") ? summary : results;
        if (!parser.isSet("--summary") && results.size() == 1) {
            document = results.front();
        }
        std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::cout << "summary: " << projects.size()
                  << (projects.size() == 1 ? " project, " : " projects, ") << passed << " passed, "
                  << projects.size() - passed << " failed\n";
        for (const nlohmann::json &each : failed) {
            std::cout << "  FAILED " << each.value("project", std::string()) << ": "
                      << each.value("reason", std::string()) << '\n';
        }
        std::cout << "every result in " << merged << '\n';
    }
    return status;
}

} // namespace

void printRunHelp(std::ostream &out)
{
    out << "Usage: cuwb run PROJECT.cuwb|FOLDER... [--json] [--summary] [--deadline S]\n"
           "                [--device N | --worker COMMAND | --on TARGET] [--shard K/N]\n"
           "                [--devices all|N,M,...]\n"
           "                [--scratch DIR] [--measure] [--report DIR]\n"
           "                [--slurm [--gpus N] [--partition P] [--time T]\n"
           "                 [--sbatch-option OPT]... [--gres SPEC] [--job-dir DIR]\n"
           "                 [--dry-run]]\n"
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
           "Projects found in a FOLDER are graded as untrusted: each may read only inside\n"
           "its own folder (an absolute path, '..' or a symlink out, in any file it names\n"
           "or #includes, refuses it with the reason), and its worker runs in a scratch\n"
           "folder of its own; its compiles run in a sandbox that may read only its folder,\n"
           "the toolkit and the system; it is read in a process confined to its folder\n"
           "(docs/grading.md: the threat model, and what is not yet defended).\n"
           "\n"
           "  --json         print one JSON document: for each project \"project\", \"passed\"\n"
           "                 and \"result\" (an array when several projects are given)\n"
           "  --summary      add a grading summary after the runs. Without --json, a\n"
           "                 closing 'summary:' line and one 'FAILED PROJECT: reason' line\n"
           "                 per failure. With --json, the document becomes one object:\n"
           "                 {\"projects\": N, \"passed\": K, \"failed\": [{\"project\",\n"
           "                 \"reason\"}...], \"results\": [the array above, always an\n"
           "                 array]}. Without --summary the --json format is unchanged.\n"
           "  --measure      time the kernel of every project that passed, as 'cuwb measure'\n"
           "                 does with the project's settings (\"measurement\" in the JSON)\n"
           "  --report DIR   write the class report there: class.json (the --summary\n"
           "                 document), class.csv, class.html and students/NN-NAME.txt and\n"
           "                 .json; with --measure ranked by median time, submissions that do\n"
           "                 not differ beyond the noise sharing a rank\n"
           "  --deadline S   stop a kernel that runs longer than S seconds (default: the\n"
           "                 project's, 10 s unless it says otherwise)\n"
           "  --device N     the GPU to run on (default 0)\n"
           "  --devices LIST run on several GPUs at once, one worker each: 'all' or GPU\n"
           "                 numbers such as 0,2; each project goes to the next free GPU,\n"
           "                 and the reports still come in order (docs/multigpu.md)\n"
           "  --worker COMMAND  the worker to run instead of 'cuwb worker', e.g.\n"
           "                 'ssh gpu-host cuwb worker'\n"
           "  --on TARGET    run on a remote GPU or a named target (docs/remote.md)\n"
           "  --shard K/N    run only the projects whose index i (in the sorted list) has\n"
           "                 i mod N = K-1\n"
           "  --scratch DIR  the folder under which graded projects get their scratch\n"
           "                 folders (default: a new one in $TMPDIR, named on stderr)\n"
           "  --unconfined   grade on a machine whose kernel cannot confine the compiles\n"
           "                 (no Landlock): only the text check of what a project names\n"
           "                 and #includes then keeps it in its folder\n"
        << slurmOptionsHelp()
        << "\n"
           "Each run reads PASSED, or FAILED with its reasons first. Then what the kernel\n"
           "did (ran, faulted, timed out, could not start) and, when it ran, the checks:\n"
           "verification passed, FAILED, not configured or did not run; out-of-bounds\n"
           "writes found in the guard bands; output elements never written. A kernel that\n"
           "ran but wrote out of bounds, or whose output is wrong, FAILED. With --json the\n"
           "same reading is each result's \"outcome\" (docs/projects.md).\n"
           "\n"
           "Exit status: 0 every run succeeded and verified, 1 a run failed, did not verify,\n"
           "was refused, or there is no GPU to run on (a graded project that cannot be read\n"
           "included: the others were graded), 2 usage error, a project named on the command\n"
           "line that cannot be read, or grading that could not start, 5 the report could\n"
           "not be written.\n";
}

int runRun(const std::vector<std::string> &arguments)
{
    namespace fs = std::filesystem;
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--summary"});
    parser.addOption({"--deadline"});
    parser.addOption({"--shard"});
    parser.addOption({"--scratch"});
    parser.addFlag({"--unconfined"});
    parser.addFlag({"--measure"});
    parser.addOption({"--report"});
    addWorkerOptions(parser);
    parser.addOption({"--devices"});
    addSlurmOptions(parser);
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
    std::optional<ShardSelection> shard;
    if (const auto text = parser.value("--shard")) {
        std::string problem;
        shard = parseShardSelection(*text, problem);
        if (!shard) {
            return usageError("run", problem);
        }
    }
    const auto slurmChoice = slurmOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&slurmChoice)) {
        return usageError("run", *problem);
    }
    const std::optional<SlurmOptions> slurm = std::get<std::optional<SlurmOptions>>(slurmChoice);
    if (slurm && (shard || parser.isSet("--scratch"))) {
        return usageError("run", std::string(shard ? "--shard" : "--scratch") +
                                     " and --slurm exclude each other: --slurm gives each task "
                                     "its shard and scratch folder");
    }
    std::string expandError;
    std::vector<ProjectArgument> projects =
        expandProjectArguments(parser.positionals(), expandError);
    if (projects.empty()) {
        return usageError("run",
                          expandError.empty() ? std::string("no project given") : expandError);
    }
    for (std::size_t i = 0; i < projects.size(); ++i) {
        projects[i].number = i + 1;
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
    // --devices: one worker per GPU, a project on each free one (docs/multigpu.md).
    std::optional<std::vector<int>> devices;
    WorkerOptionsForDevice optionsForDevice;
    if (parser.isSet("--devices")) {
        if (slurm) {
            return usageError("run", "--devices and --slurm exclude each other");
        }
        const auto chosen = selectedDevices(parser);
        if (const auto *problem = std::get_if<std::string>(&chosen)) {
            return usageError("run", *problem);
        }
        devices = std::get<std::vector<int>>(chosen);
        const auto perDevice = workerOptionsPerDevice(parser);
        if (const auto *problem = std::get_if<std::string>(&perDevice)) {
            return usageError("run", *problem);
        }
        optionsForDevice = std::get<WorkerOptionsForDevice>(perDevice);
    }
    const auto workerChoice =
        devices
            ? std::variant<WorkerProcess::Options, std::string>(optionsForDevice(devices->front()))
            : workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("run", *problem);
    }
    WorkerProcess::Options options = std::get<WorkerProcess::Options>(workerChoice);
    if (slurm) {
        return runSlurmGrading(parser, *slurm, projects);
    }
    if (shard) {
        std::vector<ProjectArgument> mine;
        for (std::size_t i = 0; i < projects.size(); ++i) {
            if (inShard(i, *shard)) {
                mine.push_back(std::move(projects[i]));
            }
        }
        projects = std::move(mine);
    }
    const bool json = parser.isSet("--json");
    const bool summary = parser.isSet("--summary");
    const bool measure = parser.isSet("--measure");

    // Graded projects run with a scratch folder as the working directory, so the worker, not
    // started from the project's folder, is named by an absolute path.
    std::error_code code;
    const fs::path here = fs::current_path(code);
    options.executable = findOnPath(options.executable);
    if (options.executable.find('/') != std::string::npos &&
        fs::path(options.executable).is_relative()) {
        options.executable = (here / options.executable).lexically_normal().string();
    }
    std::string scratchRoot;
    const bool anyGraded = std::any_of(projects.begin(), projects.end(),
                                       [](const ProjectArgument &p) { return p.graded; });
    // A graded project's compiles run in a sandbox (Landlock) when its worker is this cuwb's;
    // a machine that cannot make one grades only when the grader says so.
    const bool ownWorker = !parser.isSet("--worker") && !parser.isSet("--on");
    const bool confine = anyGraded && ownWorker && !parser.isSet("--unconfined");
    if (confine) {
        if (const std::string why = sandboxUnavailableReason(); !why.empty()) {
            std::cerr << "cuwb run: cannot confine the graded projects' compiles: " << why
                      << ". Grade them with --unconfined to rely on the text check of what each "
                         "project names and #includes alone.\n";
            return ExitUsage;
        }
    }
    // A graded project is read in a process of its own, confined wherever a sandbox can be made
    // (with --worker or --on too: the reading is this machine's).
    const bool confineReading = anyGraded && !parser.isSet("--unconfined") &&
                                (confine || sandboxUnavailableReason().empty());
    if (anyGraded) {
        if (const auto dir = parser.value("--scratch")) {
            fs::create_directories(*dir, code);
            scratchRoot = fs::absolute(*dir, code).lexically_normal().string();
            if (!fs::is_directory(scratchRoot, code)) {
                return usageError("run", "--scratch: cannot create the folder " + *dir);
            }
        } else {
            std::string pattern = temporaryPattern("cuwb-grading");
            if (::mkdtemp(pattern.data()) == nullptr) {
                std::cerr << "cuwb run: cannot create a scratch folder in " << temporaryFolder()
                          << ": " << std::strerror(errno) << '\n';
                return ExitUsage;
            }
            scratchRoot = pattern;
            std::cerr << "cuwb run: graded projects run in scratch folders under " << scratchRoot
                      << '\n';
        }
    }

    // First every project is read and checked, in order; then the runnable ones run, on one
    // worker or, with --devices, on one worker per GPU at once; each is reported in order.
    struct Job
    {
        Outcome outcome;
        std::optional<Project> project;
        RunRequest request;
        std::string scratch; // a graded project's working directory
        std::string folder;  // a graded project's own folder, all its compiles may read
        bool runs = false;   // read, confined and ready for the worker
        bool done = false;
    };
    std::vector<Job> jobs(projects.size());
    int status = ExitSuccess;
    for (std::size_t index = 0; index < projects.size(); ++index) {
        Job &job = jobs[index];
        Outcome &outcome = job.outcome;
        const std::string &path = projects[index].path;
        const bool graded = projects[index].graded;
        const std::string absolute = fs::absolute(path, code).lexically_normal().string();
        outcome.project = path;
        // A graded project is read in a process of its own, confined to its folder; a project
        // the user named, here.
        SubmissionRead read;
        if (graded) {
            read = readGradedProject(absolute, confineReading);
        } else if (ProjectLoad load = loadProject(absolute); !load.project) {
            read.error = load.error;
        } else if (readProjectSource(*load.project, absolute, read.source, read.error)) {
            read.project = std::move(load.project);
        }
        outcome.refused = read.refused;
        outcome.error = read.error;
        if (!read.ok()) {
            job.done = true;
            continue;
        }
        std::string source = std::move(read.source);
        Project project = std::move(*read.project);
        resolveProjectPaths(project, absolute);
        RunRequest &request = job.request;
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
        job.project = std::move(project);
        if (graded) {
            // A worker of its own, started in the project's scratch folder.
            const fs::path scratch =
                fs::path(scratchRoot) /
                (std::to_string(projects[index].number) + "-" + fs::path(path).stem().string());
            fs::create_directories(scratch, code);
            job.scratch = scratch.string();
            job.folder = fs::path(absolute).parent_path().string();
        }
        job.runs = true;
    }

    std::vector<GradedOutcome> outcomes;
    std::size_t reported = 0;
    // Reports the finished jobs at the front of the list, in order.
    const auto reportReady = [&] {
        for (; reported < jobs.size() && jobs[reported].done; ++reported) {
            Outcome &outcome = jobs[reported].outcome;
            const std::string &path = outcome.project;
            if (!outcome.refused.empty()) {
                if (!json) {
                    std::cout << path << ": REFUSED: " << outcome.refused << '\n';
                }
                status = status == ExitSuccess ? ExitFailure : status;
            } else if (!outcome.error.empty()) {
                std::cerr << "cuwb run: " << path << ": " << outcome.error << '\n';
                // A submission that cannot be read failed; grading itself went on. A project
                // the user named is a usage error.
                if (!projects[reported].graded)
                    status = ExitUsage;
                else if (status == ExitSuccess)
                    status = ExitFailure;
            } else {
                const Project &project = *jobs[reported].project;
                // A requested verification that did not run is no pass.
                outcome.verdict = describeRun(outcome.result, project.verification.configured());
                outcome.passed = outcome.verdict.passed;
                if (!outcome.passed && status == ExitSuccess) {
                    status = ExitFailure;
                }
                if (!json) {
                    printReport(std::cout, outcome, project);
                }
            }
            std::string reason;
            if (!outcome.passed) {
                reason = failureReason(outcome);
            }
            outcomes.push_back({outcome, std::move(reason)});
        }
        std::cout << std::flush;
    };
    // One job on `shared` (a project of the command line) or on a worker of its own in its
    // scratch folder (a graded one), started from `options`.
    std::mutex output; // stderr and the reports, with --devices
    const auto execute = [&](Job &job, WorkerProcess &shared,
                             const WorkerProcess::Options &options) {
        std::unique_ptr<WorkerProcess> own;
        if (!job.scratch.empty()) {
            WorkerProcess::Options inScratch = options;
            inScratch.workingDirectory = job.scratch;
            if (confine) {
                inScratch.arguments.insert(inScratch.arguments.end(),
                                           {"--confine-compiles", job.folder});
            }
            own = std::make_unique<WorkerProcess>(inScratch);
        }
        WorkerProcess &worker = own ? *own : shared;
        job.outcome.result = WorkerClient(worker).run(job.request);
        // --measure: the kernel of a run that passed, timed as `cuwb measure` times it.
        if (measure &&
            describeRun(job.outcome.result, job.project->verification.configured()).passed) {
            job.outcome.measurement = WorkerClient(worker).measure(
                job.request, job.project->measure.settings, job.project->measure.throughput);
        }
        if (job.outcome.result.status == RunStatus::WorkerCrashed ||
            job.outcome.result.status == RunStatus::Timeout) {
            const std::lock_guard<std::mutex> lock(output);
            printStderrTail(worker);
        }
        if (own) {
            own->stop();
        }
    };

    if (!devices) {
        WorkerProcess worker(options);
        reportReady();
        for (Job &job : jobs) {
            if (job.runs) {
                execute(job, worker, options);
                job.done = true;
            }
            reportReady();
        }
        worker.stop();
    } else {
        // One project per free GPU: each GPU's thread starts its workers (a worker dies with
        // the thread that started it) and takes the next project when it is done with one.
        std::size_t next = 0;
        {
            const std::lock_guard<std::mutex> lock(output);
            reportReady();
        }
        std::vector<std::thread> threads;
        for (const int device : *devices) {
            threads.emplace_back([&, device] {
                WorkerProcess::Options forDevice = optionsForDevice(device);
                forDevice.executable = options.executable;
                WorkerProcess worker(forDevice);
                for (;;) {
                    Job *job = nullptr;
                    {
                        const std::lock_guard<std::mutex> lock(output);
                        while (next < jobs.size() && !jobs[next].runs) {
                            ++next;
                        }
                        if (next == jobs.size()) {
                            break;
                        }
                        job = &jobs[next++];
                    }
                    job->outcome.gpu = device;
                    execute(*job, worker, forDevice);
                    const std::lock_guard<std::mutex> lock(output);
                    job->done = true;
                    reportReady();
                }
                worker.stop();
            });
        }
        for (std::thread &thread : threads) {
            thread.join();
        }
    }

    const auto report = parser.value("--report");
    if (json || report) {
        nlohmann::json results = nlohmann::json::array();
        for (const GradedOutcome &entry : outcomes) {
            results.push_back(outcomeJson(entry.outcome));
        }
        nlohmann::json object = summaryJson(outcomes);
        object["results"] = results;
        if (report) {
            if (const std::string problem = writeClassReport(object, *report); !problem.empty()) {
                std::cerr << "cuwb run: the report: " << problem << '\n';
                status = ExitOutput;
            }
        }
        if (json) {
            const nlohmann::json &document =
                summary ? object : (outcomes.size() == 1 ? results.front() : results);
            std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                      << '\n';
        }
    }
    if (!json && summary) {
        printSummary(std::cout, outcomes);
    }
    return status;
}

} // namespace cuwb::cli
