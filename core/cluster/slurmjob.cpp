#include "cluster/slurmjob.h"

#include "util/toolprocess.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <unistd.h> // access

namespace cuwb {

namespace {

namespace fs = std::filesystem;

// How often squeue is asked; a scheduler tolerates one query a second from a user.
constexpr auto kPollInterval = std::chrono::milliseconds(1000);
// How long a task that left the queue may take to show its status file: a shared filesystem
// (NFS) can show another node's new file a few seconds late.
constexpr double kStatusGraceSeconds = 10.0;
// How long squeue may keep failing (other than for a job it no longer knows) before cuwb gives
// up following: a controller restart takes seconds.
constexpr double kSqueueFailureSeconds = 60.0;

// How long one Slurm command may take: they answer in well under a second unless the controller
// is restarting, which followArray() waits out by asking again.
constexpr int kCommandTimeoutMs = 60000;

struct CommandRun
{
    int exitStatus = -1; // -1: not found on PATH or could not be started; 124: timed out
    std::string out;
    std::string err;
};

// Runs a Slurm command (looked up on PATH) to its end or its time limit, and collects what it
// printed.
CommandRun runCommand(const std::vector<std::string> &words)
{
    CommandRun result;
    std::vector<std::string> argv = words;
    argv.front() = findOnPath(words.front());
    if (argv.front().find('/') == std::string::npos) {
        return result;
    }
    ToolLimits limits;
    limits.timeoutMs = kCommandTimeoutMs;
    limits.maxOutputBytes = std::size_t(16) << 20;
    ToolRun run = runTool(argv, limits);
    result.out = std::move(run.out);
    result.err = std::move(run.err);
    if (!run.started) {
        result.err = run.startError;
    } else if (run.timedOut || run.tooMuchOutput) {
        result.exitStatus = 124;
        result.err = run.failure(words.front());
    } else {
        result.exitStatus = run.signal != 0 ? 128 + run.signal : run.exitCode;
    }
    return result;
}

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) {
        text.pop_back();
    }
    return text;
}

std::string notInstalled(const std::string &tool)
{
    return tool + " is not installed or not on PATH; --slurm needs Slurm's client commands "
                  "(Debian: slurm-client) on this machine";
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string utcStamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &utc);
    return text;
}

} // namespace

std::string slurmOptionsProblem(const SlurmOptions &options)
{
    if (options.tasks < 1 || options.tasks > kMaxSlurmTasks) {
        return "--gpus needs a number of tasks from 1 to " + std::to_string(kMaxSlurmTasks) +
               ", got " + std::to_string(options.tasks);
    }
    for (const std::string &option : options.sbatchOptions) {
        if (option.empty() || option.front() != '-' ||
            option.find_first_of("\n\r") != std::string::npos) {
            return "--sbatch-option needs one sbatch option such as --mem=4G, got '" + option + "'";
        }
    }
    if (options.gres.empty() || options.gres.find_first_of(" \t\n'\"") != std::string::npos) {
        return "--gres needs a generic resource such as gpu:1 (or none), got '" + options.gres +
               "'";
    }
    for (const auto &value : {options.partition, options.timeLimit}) {
        if (value && (value->empty() || value->find_first_of(" \t\n'\"") != std::string::npos)) {
            return "--partition and --time take one word, got '" + *value + "'";
        }
    }
    return {};
}

std::string findOnPath(const std::string &command)
{
    if (command.empty() || command.find('/') != std::string::npos) {
        return command;
    }
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + command;
        if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) {
            return candidate;
        }
    }
    return command;
}

std::string slurmName(const std::string &text)
{
    std::string name;
    for (const char c : text.substr(0, 40)) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        name += plain ? c : '-';
    }
    return name.empty() ? std::string("cuwb") : name;
}

std::string shellQuote(const std::string &word)
{
    std::string quoted = "'";
    for (const char c : word) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

std::string makeJobDir(const std::optional<std::string> &jobDir, const std::string &beside,
                       const std::string &name, std::string &error)
{
    std::error_code code;
    fs::path dir =
        jobDir ? fs::path(*jobDir)
               : fs::absolute(beside, code).parent_path() / "cuwb-jobs" / (name + "-" + utcStamp());
    dir = fs::absolute(dir, code).lexically_normal();
    std::string text = dir.string();
    while (text.size() > 1 && text.back() == '/') {
        text.pop_back();
    }
    if (text.find_first_of(" \t\n'\"\\%") != std::string::npos) {
        error = "the job folder " + text +
                " contains a blank, a quote or %, which sbatch's #SBATCH lines cannot carry; "
                "choose another with --job-dir";
        return {};
    }
    fs::create_directories(dir, code);
    if (code || !fs::is_directory(dir)) {
        error = "cannot create the job folder " + text + ": " +
                (code ? code.message() : std::string("not a folder"));
        return {};
    }
    return text;
}

std::string arrayScript(const ArrayScript &script, const SlurmOptions &options)
{
    std::ostringstream out;
    out << "#!/bin/sh\n"
        << "# " << script.description << "\n"
        << "# Written by cuwb " << CUWB_VERSION << "; one array task per shard. Each task leaves\n"
        << "# task-K.log, task-K.json (its result) and task-K.status (its exit status) in\n"
        << "# " << script.jobDir << ".\n"
        << "#SBATCH --job-name=" << script.jobName << "\n"
        << "#SBATCH --array=1-" << options.tasks << "\n"
        << "#SBATCH --ntasks=1\n"
        << "#SBATCH --output=" << script.jobDir << "/task-%a.log\n";
    if (options.gres != "none") {
        out << "#SBATCH --gres=" << options.gres << "\n";
    }
    if (options.partition) {
        out << "#SBATCH --partition=" << *options.partition << "\n";
    }
    if (options.timeLimit) {
        out << "#SBATCH --time=" << *options.timeLimit << "\n";
    }
    for (const std::string &option : options.sbatchOptions) {
        out << "#SBATCH " << option << "\n";
    }
    const std::string k = "'\"$k\"'"; // the task number inside a single-quoted word
    const auto substitute = [&](const std::string &quoted) {
        std::string text = quoted;
        for (std::size_t at = text.find("{K}"); at != std::string::npos;
             at = text.find("{K}", at + k.size())) {
            text.replace(at, 3, k);
        }
        return text;
    };
    out << "k=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch, as an array job}\n";
    const std::string dir = script.workingDir.empty() ? script.jobDir : script.workingDir;
    // The folder the job was submitted from must exist on the node as it is (a shared
    // filesystem); the job folder is made if the node does not see it yet.
    if (script.workingDir.empty()) {
        out << "mkdir -p " << substitute(shellQuote(dir)) << " && ";
    }
    out << "cd " << substitute(shellQuote(dir)) << " || exit 2\n";
    for (std::size_t i = 0; i < script.command.size(); ++i) {
        out << (i == 0 ? "" : " \\\n    ") << substitute(shellQuote(script.command[i]));
    }
    if (!script.stdoutPath.empty()) {
        out << " \\\n    >" << substitute(shellQuote(script.stdoutPath));
    }
    out << "\nstatus=$?\n"
        << "# Written last and renamed into place: a task without it was killed.\n"
        << "echo \"$status\" >" << shellQuote(script.jobDir + "/task-") << "\"$k\".status.part && "
        << "mv " << shellQuote(script.jobDir + "/task-") << "\"$k\".status.part "
        << shellQuote(script.jobDir + "/task-") << "\"$k\".status\n"
        << "exit \"$status\"\n";
    return out.str();
}

std::optional<std::string> submitArray(const std::string &scriptPath, std::string &error)
{
    const CommandRun run = runCommand({"sbatch", "--parsable", scriptPath});
    if (run.exitStatus < 0) {
        error = notInstalled("sbatch");
        return std::nullopt;
    }
    if (run.exitStatus != 0) {
        error = "sbatch refused the job: " + trimmed(run.err.empty() ? run.out : run.err);
        return std::nullopt;
    }
    // "17" or "17;cluster"
    std::string id = trimmed(run.out);
    if (const std::size_t newline = id.rfind('\n'); newline != std::string::npos) {
        id = id.substr(newline + 1);
    }
    id = id.substr(0, id.find(';'));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        error = "sbatch did not print a job id: '" + trimmed(run.out) + "'";
        return std::nullopt;
    }
    return id;
}

namespace {

// squeue's "%K %t" lines: each array task's state; a pending remainder of the array may show
// as "3-4" or "3-4%2".
std::map<int, std::string> queuedTasks(const std::string &out)
{
    std::map<int, std::string> queued;
    std::istringstream lines(out);
    std::string taskText;
    std::string state;
    while (lines >> taskText >> state) {
        // A pending remainder of the array may show as "3-4" or "3-4%2".
        const std::size_t dash = taskText.find('-');
        const int from = std::atoi(taskText.c_str());
        const int to = dash == std::string::npos ? from : std::atoi(taskText.c_str() + dash + 1);
        for (int task = from; task <= to && task > 0; ++task) {
            queued[task] = state;
        }
    }
    return queued;
}

// Where the tasks stand: a task has ended once its status file is written and squeue no longer
// shows it running, or once it has been gone from the queue for the grace period without one.
// `known`: squeue answered (else nothing is concluded from a task's absence).
ArrayProgress countTasks(const std::map<int, std::string> &queued, bool known,
                         const std::string &jobDir, int tasks, std::vector<bool> &ended,
                         std::map<int, std::chrono::steady_clock::time_point> &leftQueue)
{
    using Clock = std::chrono::steady_clock;
    ArrayProgress now;
    for (int task = 1; task <= tasks; ++task) {
        if (ended[std::size_t(task)]) {
            ++now.ended;
            continue;
        }
        std::error_code code;
        const bool hasStatus = fs::exists(taskStatusPath(jobDir, task), code);
        const auto it = queued.find(task);
        if (hasStatus && (it == queued.end() || it->second != "R")) {
            ended[std::size_t(task)] = true;
            ++now.ended;
        } else if (it != queued.end()) {
            (it->second == "PD" ? now.pending : now.running) += 1;
        } else if (!known) {
            ++now.running; // squeue could not tell; nothing is concluded
        } else {
            const auto [gone, added] = leftQueue.emplace(task, Clock::now());
            if (std::chrono::duration<double>(Clock::now() - gone->second).count() >
                kStatusGraceSeconds) {
                ended[std::size_t(task)] = true;
                ++now.ended;
            } else {
                ++now.running; // finishing: its status file is on its way
            }
        }
    }
    return now;
}

// Each task's outcome from its files: a result or not, and its exit status.
std::vector<TaskOutcome> taskOutcomes(const std::string &jobDir, int tasks)
{
    std::vector<TaskOutcome> outcomes;
    for (int task = 1; task <= tasks; ++task) {
        TaskOutcome outcome;
        outcome.task = task;
        std::error_code code;
        outcome.hasResult = fs::exists(taskResultPath(jobDir, task), code);
        const std::string status = trimmed(readFile(taskStatusPath(jobDir, task)));
        if (!status.empty() && status.find_first_not_of("0123456789") == std::string::npos) {
            outcome.exitStatus = std::atoi(status.c_str());
        }
        outcomes.push_back(outcome);
    }
    return outcomes;
}

} // namespace

std::optional<std::vector<TaskOutcome>>
followArray(const std::string &jobId, const std::string &jobDir, int tasks,
            const std::function<void(const ArrayProgress &)> &progress,
            const std::atomic<bool> &cancel, std::string &error)
{
    using Clock = std::chrono::steady_clock;

    std::map<int, Clock::time_point> leftQueue; // tasks gone from squeue without a status yet
    // A flag and a time rather than an optional: GCC 12 sees the optional's time as maybe
    // uninitialised (-Wmaybe-uninitialized, an error in CI).
    bool squeueFailing = false;
    Clock::time_point squeueFailingSince{};
    std::vector<bool> ended(std::size_t(tasks) + 1, false);
    while (true) {
        if (cancel.load()) {
            runCommand({"scancel", jobId});
            error = "interrupted: job " + jobId + " was cancelled with scancel";
            return std::nullopt;
        }
        // "%K %t": the array task id and its state, one line per task (-r); PD pending, R
        // running, CG completing. A job that has left the queue is an error or an empty list.
        const CommandRun queue = runCommand({"squeue", "-h", "-r", "-j", jobId, "-o", "%K %t"});
        if (queue.exitStatus < 0) {
            error = notInstalled("squeue");
            return std::nullopt;
        }
        // A job that has left the queue for good is "Invalid job id"; any other failure (the
        // controller restarting) says nothing about the tasks, and is waited out for a while.
        const bool known =
            queue.exitStatus == 0 || queue.err.find("Invalid job id") != std::string::npos;
        if (!known) {
            if (!squeueFailing) {
                squeueFailing = true;
                squeueFailingSince = Clock::now();
            } else if (std::chrono::duration<double>(Clock::now() - squeueFailingSince).count() >
                       kSqueueFailureSeconds) {
                error = "squeue has failed for a minute: " + trimmed(queue.err) + "; the job " +
                        jobId + " may still run: see squeue -j " + jobId;
                return std::nullopt;
            }
        } else {
            squeueFailing = false;
        }
        const std::map<int, std::string> queued =
            queue.exitStatus == 0 ? queuedTasks(queue.out) : std::map<int, std::string>();
        const ArrayProgress now = countTasks(queued, known, jobDir, tasks, ended, leftQueue);
        progress(now);
        if (now.ended == tasks) {
            break;
        }
        const Clock::time_point wakeUp = Clock::now() + kPollInterval;
        while (Clock::now() < wakeUp && !cancel.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    return taskOutcomes(jobDir, tasks);
}

std::string describeFailedTask(const std::string &jobId, const std::string &jobDir,
                               const TaskOutcome &outcome, const char *what)
{
    const std::string taskId = jobId + "_" + std::to_string(outcome.task);
    std::string text =
        std::string(what) + " " + std::to_string(outcome.task) + " (job " + taskId + ") ";
    // No status, or a shell's status for a signal (143 for scancel's SIGTERM, recorded when the
    // task's script outlived its command for a moment): either way, the task was killed.
    const bool killed = !outcome.exitStatus || *outcome.exitStatus > 128;
    if (killed) {
        text += "was killed before it finished (";
        text += outcome.exitStatus ? "signal " + std::to_string(*outcome.exitStatus - 128)
                                   : std::string("no exit status recorded");
        // sacct knows why where accounting runs; without slurmdbd it says it is disabled.
        const CommandRun accounting =
            runCommand({"sacct", "-n", "-P", "-X", "-j", taskId, "-o", "State,ExitCode"});
        const std::string state = trimmed(accounting.out);
        if (accounting.exitStatus == 0 && !state.empty()) {
            text += "; sacct: " + state.substr(0, state.find('\n'));
        }
        text += ")";
    } else {
        text += "exited with status " + std::to_string(*outcome.exitStatus) + " and " +
                (outcome.hasResult ? "an unreadable result" : "no result");
    }
    const std::string log = taskLogPath(jobDir, outcome.task);
    text += "; log: " + log;
    // The log's last lines, which usually say why.
    std::istringstream lines(readFile(log));
    std::vector<std::string> tail;
    for (std::string line; std::getline(lines, line);) {
        tail.push_back(line);
        if (tail.size() > 5) {
            tail.erase(tail.begin());
        }
    }
    for (const std::string &line : tail) {
        text += "\n    " + line;
    }
    return text;
}

} // namespace cuwb
