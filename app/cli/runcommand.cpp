// cuwb run: runs projects headless — each through a `cuwb worker` child of this same
// executable, so that a kernel that faults or hangs ends one run, not the batch. Its options
// are read here; the run on this machine is localrun.h's, its reports runreport.h's; with
// --slurm the projects are graded by an array job whose tasks each run that on a shard.
#include "argumentparser.h"
#include "commands.h"
#include "interruptcancels.h"
#include "localrun.h"
#include "slurmarguments.h"
#include "workeroptions.h"

#include "grading/classreport.h"
#include "sweep/sweepexport.h" // writeTextFile
#include "sweep/sweepshard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cuwb::cli {

namespace {

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

// The array script: each task runs `cuwb run` on its shard of the projects, with what every
// task must do alike.
ArrayScript gradingScript(const ArgumentParser &parser, const SlurmOptions &slurm,
                          std::size_t projects, const std::string &name, const std::string &jobDir,
                          const std::string &here)
{
    ArrayScript script;
    script.jobName = "cuwb-" + name;
    script.jobDir = jobDir;
    script.description = "cuwb run: " + std::to_string(projects) + " projects graded in " +
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
    for (const char *flag : {"--measure", "--unconfined"}) {
        if (parser.isSet(flag)) {
            script.command.emplace_back(flag);
        }
    }
    script.stdoutPath = jobDir + "/task-{K}.json";
    return script;
}

// Each task's summary document, indexed by task; nullopt, with every failed task named, when a
// task has none with its shard's number of results.
std::optional<std::vector<nlohmann::json>>
readTaskDocuments(const std::vector<TaskOutcome> &outcomes, const std::string &jobId,
                  const std::string &jobDir, int tasks, std::size_t projects,
                  const std::string &scriptPath)
{
    std::vector<nlohmann::json> documents(std::size_t(tasks) + 1);
    std::string failures;
    for (const TaskOutcome &outcome : outcomes) {
        const ShardSelection shard{outcome.task, tasks};
        const std::size_t expected = shardSize(projects, shard);
        std::ifstream in(taskResultPath(jobDir, outcome.task));
        nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
        if (document.is_object() && document.contains("results") &&
            document["results"].is_array() && document["results"].size() == expected) {
            documents[std::size_t(outcome.task)] = std::move(document);
            continue;
        }
        failures += "cuwb run: " + describeFailedTask(jobId, jobDir, outcome, "task") + '\n';
    }
    if (!failures.empty()) {
        std::cerr << failures << "cuwb run: the grading is incomplete; run the failed tasks "
                  << "again with: sbatch --array=K " << scriptPath << '\n';
        return std::nullopt;
    }
    return documents;
}

// The tasks' documents merged in the projects' order, as one `--summary` document, and the
// exit status it means.
struct MergedGrading
{
    nlohmann::json summary;
    int status = ExitSuccess;
};

MergedGrading mergeTaskDocuments(const std::vector<nlohmann::json> &documents, int tasks,
                                 const std::vector<ProjectArgument> &projects)
{
    nlohmann::json results = nlohmann::json::array();
    nlohmann::json failed = nlohmann::json::array();
    std::size_t passed = 0;
    int status = ExitSuccess;
    for (std::size_t i = 0; i < projects.size(); ++i) {
        const int task = int(i % std::size_t(tasks)) + 1;
        const nlohmann::json &entry = documents[std::size_t(task)]["results"][i / tasks];
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
    return {{{"projects", projects.size()},
             {"passed", passed},
             {"failed", failed},
             {"results", results}},
            status};
}

// The merged grading as `cuwb run` prints it locally: the JSON asked for, or the summary and
// where every result is.
void printSlurmGrading(const ArgumentParser &parser, const nlohmann::json &summary,
                       const std::string &merged)
{
    const nlohmann::json &results = summary["results"];
    if (parser.isSet("--json")) {
        nlohmann::json document = parser.isSet("--summary") ? summary : results;
        if (!parser.isSet("--summary") && results.size() == 1) {
            document = results.front();
        }
        std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return;
    }
    const std::size_t projects = results.size();
    const std::size_t passed = summary["passed"].get<std::size_t>();
    std::cout << "summary: " << projects << (projects == 1 ? " project, " : " projects, ") << passed
              << " passed, " << projects - passed << " failed\n";
    for (const nlohmann::json &each : summary["failed"]) {
        std::cout << "  FAILED " << each.value("project", std::string()) << ": "
                  << each.value("reason", std::string()) << '\n';
    }
    std::cout << "every result in " << merged << '\n';
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
    const std::string text =
        arrayScript(gradingScript(parser, slurm, projects.size(), name, jobDir, here), slurm);
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
    std::ostream &info = parser.isSet("--json") ? std::cerr : std::cout;
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
    std::atomic<bool> cancel{false};
    std::optional<std::vector<TaskOutcome>> outcomes;
    {
        const InterruptCancels interruptCancels(cancel);
        outcomes = followArray(*jobId, jobDir, slurm.tasks, printProgress, cancel, error);
    }
    if (!outcomes) {
        std::cerr << "cuwb run: " << error << '\n';
        return 130;
    }
    const std::optional<std::vector<nlohmann::json>> documents =
        readTaskDocuments(*outcomes, *jobId, jobDir, slurm.tasks, projects.size(), scriptPath);
    if (!documents) {
        return ExitFailure;
    }
    const MergedGrading merged = mergeTaskDocuments(*documents, slurm.tasks, projects);
    const std::string mergedPath = jobDir + "/results.json";
    if (const std::string problem = writeTextFile(mergedPath, merged.summary.dump(2) + "\n");
        !problem.empty()) {
        std::cerr << "cuwb run: " << problem << '\n';
        return ExitUsage;
    }
    if (const auto folder = parser.value("--report")) {
        if (const std::string problem = writeClassReport(merged.summary, *folder);
            !problem.empty()) {
            std::cerr << "cuwb run: the report: " << problem << '\n';
            return ExitOutput;
        }
    }
    printSlurmGrading(parser, merged.summary, mergedPath);
    return merged.status;
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

namespace {

// --deadline and --devices (one worker per GPU, a project on each free one: docs/multigpu.md)
// into `settings`; an exit status when one is wrong.
std::optional<int> readDeadlineAndDevices(const ArgumentParser &parser, LocalRunSettings &settings)
{
    if (const auto text = parser.value("--deadline")) {
        char *end = nullptr;
        const double value = std::strtod(text->c_str(), &end);
        if (text->empty() || *end != '\0' || !std::isfinite(value) || value <= 0.0) {
            return usageError("run",
                              "--deadline needs a positive number of seconds, got '" + *text + "'");
        }
        settings.deadline = value;
    }
    if (parser.isSet("--devices")) {
        const auto chosen = selectedDevices(parser);
        if (const auto *problem = std::get_if<std::string>(&chosen)) {
            return usageError("run", *problem);
        }
        settings.devices = std::get<std::vector<int>>(chosen);
        const auto perDevice = workerOptionsPerDevice(parser);
        if (const auto *problem = std::get_if<std::string>(&perDevice)) {
            return usageError("run", *problem);
        }
        settings.optionsForDevice = std::get<WorkerOptionsForDevice>(perDevice);
    }
    return std::nullopt;
}

} // namespace

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
    // Where it runs, once: what cannot go together is the placement's to say.
    const auto placement = placementOf(parser);
    if (const auto *problem = std::get_if<std::string>(&placement)) {
        return usageError("run", *problem);
    }
    const std::optional<SlurmOptions> slurm = std::get<Placement>(placement).slurm;
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
    LocalRunSettings settings;
    if (const std::optional<int> status = readDeadlineAndDevices(parser, settings)) {
        return *status;
    }
    const auto workerChoice = settings.devices
                                  ? std::variant<WorkerProcess::Options, std::string>(
                                        settings.optionsForDevice(settings.devices->front()))
                                  : workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("run", *problem);
    }
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
    settings.options = std::get<WorkerProcess::Options>(workerChoice);
    settings.scratch = parser.value("--scratch");
    settings.report = parser.value("--report");
    settings.ownWorker = !parser.isSet("--worker") && !parser.isSet("--on");
    settings.unconfined = parser.isSet("--unconfined");
    settings.json = parser.isSet("--json");
    settings.summary = parser.isSet("--summary");
    settings.measure = parser.isSet("--measure");
    return runLocally(std::move(projects), std::move(settings));
}

} // namespace cuwb::cli
