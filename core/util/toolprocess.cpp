#include "util/toolprocess.h"

#include "util/sandbox.h"
#include "util/text.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace cuwb {

namespace {

class Pipe
{
public:
    Pipe()
    {
        if (pipe2(m_fds, O_CLOEXEC) != 0)
            m_fds[0] = m_fds[1] = -1;
    }
    ~Pipe()
    {
        closeRead();
        closeWrite();
    }
    Pipe(const Pipe &) = delete;
    Pipe &operator=(const Pipe &) = delete;
    [[nodiscard]] bool ok() const { return m_fds[0] >= 0; }
    [[nodiscard]] int read() const { return m_fds[0]; }
    [[nodiscard]] int write() const { return m_fds[1]; }
    void closeRead() { closeFd(m_fds[0]); }
    void closeWrite() { closeFd(m_fds[1]); }

private:
    static void closeFd(int &fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    int m_fds[2] = {-1, -1};
};

// The last `count` lines of a tool's standard error, joined, for a message.
std::string lastLines(const std::string &text, std::size_t count)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        if (const std::string_view line =
                trimmed(std::string_view(text).substr(start, end - start));
            !line.empty())
            lines.push_back(line);
        start = end + 1;
    }
    std::string joined;
    for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        joined += (joined.empty() ? "" : "; ") + std::string(lines[i]);
    return joined;
}

// Every process below `root`, from /proc: pid -> parent pid of every process, then the tree.
std::vector<pid_t> descendants(pid_t root)
{
    std::multimap<pid_t, pid_t> children;
    if (DIR *proc = ::opendir("/proc")) {
        while (const dirent *entry = ::readdir(proc)) {
            char *end = nullptr;
            const long pid = std::strtol(entry->d_name, &end, 10);
            if (pid <= 0 || *end != '\0')
                continue;
            std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
            std::string text;
            std::getline(stat, text);
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
            const std::size_t close = text.rfind(')');
            if (close == std::string::npos)
                continue;
            char state = 0;
            long parent = 0;
            if (std::sscanf(text.c_str() + close + 1, " %c %ld", &state, &parent) == 2)
                children.emplace(pid_t(parent), pid_t(pid));
        }
        ::closedir(proc);
    }
    std::vector<pid_t> found;
    std::vector<pid_t> queue{root};
    while (!queue.empty()) {
        const pid_t parent = queue.back();
        queue.pop_back();
        const auto [first, last] = children.equal_range(parent);
        for (auto it = first; it != last; ++it) {
            found.push_back(it->second);
            queue.push_back(it->second);
        }
    }
    return found;
}

// Stops the tool and what it started: the tree is frozen first, so that no process forks a new
// child between the listing and the kill.
void killTree(pid_t pid)
{
    ::kill(pid, SIGSTOP);
    std::vector<pid_t> tree = descendants(pid);
    for (pid_t child : tree)
        ::kill(child, SIGSTOP);
    for (pid_t child : descendants(pid))
        if (std::find(tree.begin(), tree.end(), child) == tree.end())
            tree.push_back(child);
    ::kill(pid, SIGKILL);
    for (pid_t child : tree)
        ::kill(child, SIGKILL);
}

} // namespace

std::string ToolRun::failure(const std::string &name) const
{
    std::string text;
    if (!started)
        text = name + " could not be started: " + startError;
    else if (timedOut)
        text = name + " did not finish in time and was stopped";
    else if (tooMuchOutput)
        text = name + " printed more than the limit and was stopped";
    else if (signal != 0)
        text = name + " crashed (signal " + std::to_string(signal) + ", " + strsignal(signal) + ")";
    else if (exitCode != 0)
        text = name + " failed with exit status " + std::to_string(exitCode);
    else
        return {};
    if (const std::string tail = lastLines(err, 3); !tail.empty())
        text += ": " + tail;
    return text;
}

namespace {

// The caller's environment with `overrides` ("NAME=value") replacing or added to it.
std::vector<std::string> environmentWith(const std::vector<std::string> &overrides)
{
    std::vector<std::string> entries;
    for (char **entry = environ; *entry; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        const bool replaced =
            std::any_of(overrides.begin(), overrides.end(), [&](const std::string &o) {
                return std::string_view(o).substr(0, o.find('=')) == name;
            });
        if (!replaced)
            entries.emplace_back(text);
    }
    entries.insert(entries.end(), overrides.begin(), overrides.end());
    return entries;
}

// Starts a tool in `sandbox`: fork, then only async-signal-safe calls until exec. A pipe that
// closes on exec tells the parent whether the child got that far, and if not, what failed.
pid_t forkConfined(const Sandbox &sandbox, char *const *arguments, char *const *environment,
                   const ToolLimits &limits, int outFd, int errFd, std::string &error)
{
    int status[2];
    if (pipe2(status, O_CLOEXEC) != 0) {
        error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return -1;
    }
    const char *const directory =
        limits.workingDirectory.empty() ? nullptr : limits.workingDirectory.c_str();
    const pid_t pid = ::fork();
    if (pid == 0) {
        // phase 1: setting up, 2: the sandbox, 3: exec; then the errno.
        const auto fail = [&](int phase) {
            const int report[2] = {phase, errno};
            [[maybe_unused]] const ssize_t ignored = ::write(status[1], report, sizeof report);
            ::_exit(127);
        };
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        struct sigaction byDefault = {};
        byDefault.sa_handler = SIG_DFL;
        for (int signal = 1; signal < NSIG; ++signal) {
            if (signal != SIGKILL && signal != SIGSTOP)
                ::sigaction(signal, &byDefault, nullptr);
        }
        const int input = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (input < 0 || ::dup2(input, 0) < 0 || ::dup2(outFd, 1) < 0 || ::dup2(errFd, 2) < 0)
            fail(1);
        if (directory && ::chdir(directory) != 0)
            fail(1);
        if (const int applied = sandbox.applyInChild(); applied != 0) {
            errno = applied;
            fail(2);
        }
        ::execve(arguments[0], arguments, environment);
        fail(3);
    }
    ::close(status[1]);
    if (pid < 0) {
        error = std::string("cannot fork: ") + std::strerror(errno);
        ::close(status[0]);
        return -1;
    }
    int report[2] = {0, 0};
    ssize_t got = 0;
    do {
        got = ::read(status[0], report, sizeof report);
    } while (got < 0 && errno == EINTR);
    ::close(status[0]);
    if (got == sizeof report) {
        int ignored = 0;
        while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
        }
        const char *const phases[] = {
            "", "cannot set up the tool's process: ", "cannot confine the tool: ", ""};
        error = std::string(phases[std::clamp(report[0], 0, 3)]) + std::strerror(report[1]);
        return -1;
    }
    return pid;
}

} // namespace

namespace {

// The tool started with its standard output and error into the pipes, confined when the
// limits ask for it; its pid, or -1 with run.startError saying why it did not start.
pid_t spawnTool(const std::vector<std::string> &argv, const ToolLimits &limits, const Pipe &out,
                const Pipe &err, ToolRun &run)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out.write(), 1);
    posix_spawn_file_actions_adddup2(&actions, err.write(), 2);
    if (!limits.workingDirectory.empty())
        posix_spawn_file_actions_addchdir_np(&actions, limits.workingDirectory.c_str());
    // The child starts with the default signal dispositions and mask, whatever the caller set.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigset_t all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<char *> arguments;
    for (const std::string &argument : argv)
        arguments.push_back(const_cast<char *>(argument.c_str()));
    arguments.push_back(nullptr);
    const std::vector<std::string> environmentEntries = limits.environment.empty()
                                                            ? std::vector<std::string>()
                                                            : environmentWith(limits.environment);
    std::vector<char *> environment;
    for (const std::string &entry : environmentEntries)
        environment.push_back(const_cast<char *>(entry.c_str()));
    environment.push_back(nullptr);
    char *const *const envp = limits.environment.empty() ? environ : environment.data();
    pid_t pid = -1;
    if (limits.sandbox) {
        pid = forkConfined(*limits.sandbox, arguments.data(), envp, limits, out.write(),
                           err.write(), run.startError);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (pid < 0)
            return -1;
    } else {
        const int spawned =
            posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, arguments.data(), envp);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (spawned != 0) {
            run.startError = std::strerror(spawned);
            return -1;
        }
    }
    return pid;
}

// What the tool prints until it closes both outputs, its deadline passes or it prints more than
// the cap (run.timedOut, run.tooMuchOutput).
void collectOutput(const Pipe &out, const Pipe &err, std::chrono::steady_clock::time_point deadline,
                   const ToolLimits &limits, ToolRun &run)
{
    bool outOpen = true;
    bool errOpen = true;
    char buffer[65536];
    while (outOpen || errOpen) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            run.timedOut = true;
            break;
        }
        pollfd fds[2] = {{outOpen ? out.read() : -1, POLLIN, 0},
                         {errOpen ? err.read() : -1, POLLIN, 0}};
        const int ready = ::poll(fds, 2, int(std::min<long long>(left, INT_MAX)));
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                (i == 0 ? outOpen : errOpen) = false;
                continue;
            }
            (i == 0 ? run.out : run.err).append(buffer, std::size_t(n));
        }
        if (run.out.size() + run.err.size() > limits.maxOutputBytes) {
            run.tooMuchOutput = true;
            break;
        }
    }
}

// The tool's exit status once it has ended; a tool past its deadline or its output cap is
// killed with everything it started. False when it cannot be waited for.
bool waitForTool(pid_t pid, std::chrono::steady_clock::time_point deadline, ToolRun &run,
                 int &status)
{
    // A tool that closed its output but goes on running still meets the deadline.
    while (!run.timedOut && !run.tooMuchOutput) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            run.exitCode = -1;
            return false;
        }
        if (std::chrono::steady_clock::now() >= deadline)
            run.timedOut = true;
        else
            ::usleep(2000);
    }
    if (run.timedOut || run.tooMuchOutput) {
        killTree(pid);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    return true;
}

} // namespace

ToolRun runTool(const std::vector<std::string> &argv, const ToolLimits &limits)
{
    ToolRun run;
    if (argv.empty()) {
        run.startError = "no program";
        return run;
    }
    Pipe out;
    Pipe err;
    if (!out.ok() || !err.ok()) {
        run.startError = std::string("cannot create a pipe: ") + std::strerror(errno);
        return run;
    }
    const pid_t pid = spawnTool(argv, limits, out, err, run);
    if (pid < 0)
        return run;
    run.started = true;
    out.closeWrite();
    err.closeWrite();

    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeoutMs);
    collectOutput(out, err, deadline, limits, run);
    int status = 0;
    if (!waitForTool(pid, deadline, run, status))
        return run;
    if (WIFEXITED(status))
        run.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status) && !run.timedOut && !run.tooMuchOutput)
        run.signal = WTERMSIG(status);
    return run;
}

} // namespace cuwb
