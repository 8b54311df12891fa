#include "worker/workerprocess.h"
#include "util/format.h"

#include "worker/protocol.h"
#include "worker/workertarget.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

// A reply longer than this without a newline is not a reply (pages are far smaller).
constexpr std::size_t kMaxLineBytes = std::size_t(256) << 20;

// Now plus `seconds`, which may be huge or infinite (a project may ask for a deadline of 1e300 s):
// converting that to the clock's 64-bit nanoseconds would overflow, so it is capped at about 30
// years; NaN and negative values mean now.
Clock::time_point deadlineAfter(double seconds)
{
    constexpr double kMaxSeconds = 1e9;
    const double capped = seconds > 0 ? std::min(seconds, kMaxSeconds) : 0.0;
    return Clock::now() +
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(capped));
}

std::string errnoText(int error)
{
    return std::system_category().message(error);
}

// "the worker crashed (signal 11, Segmentation fault)", "the worker exited with status 3".
std::string describeExit(int status)
{
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const char *name = strsignal(signal);
        return "the worker crashed (signal " + std::to_string(signal) + ", " +
               (name ? name : "unknown signal") + ")";
    }
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 0) {
            return "the worker exited without answering";
        }
        return "the worker exited with status " + std::to_string(WEXITSTATUS(status)) +
               " without answering";
    }
    return "the worker stopped unexpectedly";
}

// The start of a line for a message: at most 200 characters, control characters as '?'.
std::string excerpt(const std::string &line)
{
    constexpr std::size_t kLimit = 200;
    std::string text = line.substr(0, kLimit);
    for (char &c : text) {
        if (static_cast<unsigned char>(c) < 0x20) {
            c = '?';
        }
    }
    if (line.size() > kLimit) {
        text += "...";
    }
    return text;
}

// write() with SIGPIPE blocked in this thread, so a worker that closed its stdin gives EPIPE
// instead of killing us; a SIGPIPE raised by this write is consumed before unblocking. (The
// process-wide disposition is left alone: this is a library, the GUI owns its signals.)
ssize_t writeWithoutSigpipe(int fd, const char *data, std::size_t size)
{
    sigset_t pipeSet;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    const bool wasPending = sigismember(&pending, SIGPIPE) == 1;
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
    ssize_t written;
    do {
        written = ::write(fd, data, size);
    } while (written < 0 && errno == EINTR);
    const int error = errno;
    if (written < 0 && error == EPIPE && !wasPending) {
        const timespec zero{};
        while (sigtimedwait(&pipeSet, nullptr, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = error;
    return written;
}

void setNonBlocking(int fd)
{
    const int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) {
        fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    }
}

void closeFd(int &fd)
{
    if (fd >= 0) {
        ::close(fd); // not retried on EINTR: on Linux the descriptor is closed either way
        fd = -1;
    }
}

// In the child between fork and exec: only async-signal-safe calls. Puts `fd` on `target`
// with close-on-exec cleared (dup2 onto itself would keep the flag).
void moveFd(int fd, int target)
{
    if (fd == target) {
        fcntl(fd, F_SETFD, 0);
    } else {
        dup2(fd, target);
    }
}

} // namespace

WorkerProcess::WorkerProcess(Options options)
    : m_options(std::move(options))
{
    // Without it cancel() still works, only at the next poll timeout instead of at once.
    if (pipe2(m_cancelPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        m_cancelPipe[0] = m_cancelPipe[1] = -1;
    }
}

WorkerProcess::~WorkerProcess()
{
    try {
        stop();
    } catch (...) {
        kill();
    }
    closeFd(m_cancelPipe[0]);
    closeFd(m_cancelPipe[1]);
}

void WorkerProcess::cancel()
{
    m_cancelled.store(true);
    if (m_cancelPipe[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t ignored = ::write(m_cancelPipe[1], &byte, 1);
    }
}

void WorkerProcess::requestCancel()
{
    m_cancelRequested.store(true);
    if (m_cancelPipe[1] >= 0) {
        const char byte = 2;
        [[maybe_unused]] const ssize_t ignored = ::write(m_cancelPipe[1], &byte, 1);
    }
}

void WorkerProcess::stopRequest()
{
    m_stopRequested.store(true);
    if (m_cancelPipe[1] >= 0) {
        const char byte = 3;
        [[maybe_unused]] const ssize_t ignored = ::write(m_cancelPipe[1], &byte, 1);
    }
}

WorkerProcess::Reply WorkerProcess::request(nlohmann::json request, double timeoutSeconds)
{
    if (m_cancelled.load()) {
        kill();
        return Reply{Failure::Cancelled, {}, "the request was cancelled"};
    }
    if (m_stopRequested.exchange(false)) {
        return Reply{Failure::Cancelled, {}, "the request was stopped"};
    }
    // A worker that exited after its last reply (context lost) is replaced silently.
    if (running()) {
        exitedOnItsOwn();
    }
    if (!running()) {
        Reply started = start();
        if (!started.ok()) {
            return started;
        }
    }
    const long long id = m_nextId++;
    request["id"] = id;
    Reply reply = exchange(request, id, timeoutSeconds + m_options.linkSlackSeconds);
    m_cancelRequested.store(false); // served: it must not cancel the next request
    if (remote() && reply.failure == Failure::Crashed) {
        // ssh's exit status and its last words tell a broken link from a worker that died.
        reply.error = describeRemoteFailure(m_options, m_exitStatus, m_stderrTail, true);
        reply.linkLost = reply.error.rfind("the connection to", 0) == 0;
    }
    return reply;
}

WorkerProcess::Reply WorkerProcess::connect()
{
    if (m_cancelled.load()) {
        kill();
        return Reply{Failure::Cancelled, {}, "the request was cancelled"};
    }
    if (running()) {
        exitedOnItsOwn();
    }
    return running() ? Reply{Failure::None, m_hello, {}} : start();
}

WorkerProcess::Reply WorkerProcess::start()
{
    m_imagesSent.clear();
    m_buffer.clear();
    m_stderrTail.clear();
    m_hello = nullptr;

    // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
    std::vector<std::string> arguments;
    arguments.push_back(m_options.executable);
    arguments.insert(arguments.end(), m_options.arguments.begin(), m_options.arguments.end());
    std::vector<char *> argv;
    for (std::string &argument : arguments) {
        argv.push_back(argument.data());
    }
    argv.push_back(nullptr);

    int toChild[2] = {-1, -1};
    int fromChild[2] = {-1, -1};
    int errFromChild[2] = {-1, -1};
    int execStatus[2] = {-1, -1};
    const auto closeAll = [&] {
        for (int *pair : {toChild, fromChild, errFromChild, execStatus}) {
            closeFd(pair[0]);
            closeFd(pair[1]);
        }
    };
    if (pipe2(toChild, O_CLOEXEC) != 0 || pipe2(fromChild, O_CLOEXEC) != 0 ||
        pipe2(errFromChild, O_CLOEXEC) != 0 || pipe2(execStatus, O_CLOEXEC) != 0) {
        const int error = errno;
        closeAll();
        return Reply{Failure::StartFailed, {}, "could not start the worker: " + errnoText(error)};
    }

    const char *workingDirectory =
        m_options.workingDirectory.empty() ? nullptr : m_options.workingDirectory.c_str();
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        closeAll();
        return Reply{Failure::StartFailed, {}, "could not start the worker: " + errnoText(error)};
    }
    if (pid == 0) {
        // Own process group: a terminal's Ctrl-C goes to the client, which decides, and
        // SIGKILL to the group also ends anything the worker started.
        setpgid(0, 0);
        // A worker whose client died (a GUI crash, a killed `cuwb run`) must not keep the GPU.
        // The signal follows the forking thread, so clients keep WorkerProcess on one
        // long-lived thread.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127); // the client died before prctl took effect
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        struct sigaction defaultAction = {};
        defaultAction.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &defaultAction, nullptr);
        moveFd(toChild[0], STDIN_FILENO);
        moveFd(fromChild[1], STDOUT_FILENO);
        moveFd(errFromChild[1], STDERR_FILENO);
        if (workingDirectory != nullptr && ::chdir(workingDirectory) != 0) {
            const int error = errno;
            [[maybe_unused]] const ssize_t ignored = ::write(execStatus[1], &error, sizeof error);
            _exit(127);
        }
        execv(argv[0], argv.data());
        const int error = errno;
        [[maybe_unused]] const ssize_t ignored = ::write(execStatus[1], &error, sizeof error);
        _exit(127);
    }

    setpgid(pid, pid); // also from this side, so kill(-pid) works even before the child runs
    closeFd(toChild[0]);
    closeFd(fromChild[1]);
    closeFd(errFromChild[1]);
    closeFd(execStatus[1]);
    // The status pipe closes on a successful exec; an errno arrives when exec failed.
    int execError = 0;
    ssize_t got;
    do {
        got = ::read(execStatus[0], &execError, sizeof execError);
    } while (got < 0 && errno == EINTR);
    closeFd(execStatus[0]);
    if (got == static_cast<ssize_t>(sizeof execError)) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        closeAll();
        return Reply{Failure::StartFailed,
                     {},
                     "could not start the worker " + m_options.executable + ": " +
                         errnoText(execError)};
    }

    m_pid = pid;
    m_toChild = toChild[1];
    m_fromChild = fromChild[0];
    m_errFromChild = errFromChild[0];
    setNonBlocking(m_toChild);
    setNonBlocking(m_fromChild);
    setNonBlocking(m_errFromChild);
    ++m_starts;

    const long long id = m_nextId++;
    nlohmann::json hello = makeHelloRequest();
    hello["id"] = id;
    Reply reply = exchange(hello, id, m_options.startTimeoutSeconds + m_options.linkSlackSeconds);
    if (reply.failure == Failure::Cancelled) {
        return reply; // stopped while starting: not a failure to start
    }
    if (!reply.ok()) {
        kill();
        if (remote() && reply.failure == Failure::Crashed) {
            return Reply{Failure::StartFailed,
                         {},
                         "could not start the worker: " +
                             describeRemoteFailure(m_options, m_exitStatus, m_stderrTail, false)};
        }
        return Reply{Failure::StartFailed, {}, "could not start the worker: " + reply.error};
    }
    HelloReply parsed;
    try {
        parsed = parseHelloReply(reply.message);
    } catch (const nlohmann::json::exception &error) {
        return fail(Failure::StartFailed,
                    std::string("could not start the worker: its hello is malformed: ") +
                        error.what());
    }
    const std::string where = remote() ? " on " + m_options.remoteName : std::string();
    const std::string theirs = parsed.worker.empty() ? "an older cuwb" : "cuwb " + parsed.worker;
    if (parsed.protocol != kWorkerProtocolVersion) {
        return fail(Failure::StartFailed,
                    "the worker" + where + " (" + theirs + ") speaks protocol version " +
                        std::to_string(parsed.protocol) + " but this program (cuwb " +
                        workbenchVersion() + ") speaks version " +
                        std::to_string(kWorkerProtocolVersion) + "; " +
                        (remote() ? "install cuwb " + workbenchVersion() + " there"
                                  : "use the cuwb that came with this program"));
    }
    // Over a link the two ends are installed apart and drift: the same release on both sides,
    // or a refusal that says what to install. (A local worker is this very executable.)
    if (remote() && parsed.worker != workbenchVersion()) {
        return fail(Failure::StartFailed,
                    "the worker" + where + " is " + theirs + " but this program is cuwb " +
                        workbenchVersion() + "; install cuwb " + workbenchVersion() +
                        " there (or run the matching cuwb here), so that both ends speak the "
                        "same protocol");
    }
    m_hello = reply.message;
    return reply;
}

WorkerProcess::Reply WorkerProcess::exchange(const nlohmann::json &message, long long id,
                                             double timeoutSeconds)
{
    std::string line = encodeLine(message);
    bool cancelSent = false;
    std::size_t written = 0;
    const auto deadline = deadlineAfter(timeoutSeconds);
    bool stdoutEnded = false;

    for (;;) {
        // Whole lines first: a reply may already be buffered.
        for (std::size_t newline = m_buffer.find('\n'); newline != std::string::npos;
             newline = m_buffer.find('\n')) {
            std::string text = m_buffer.substr(0, newline);
            m_buffer.erase(0, newline + 1);
            if (!text.empty() && text.back() == '\r') {
                text.pop_back();
            }
            if (text.empty()) {
                continue;
            }
            nlohmann::json reply = nlohmann::json::parse(text, nullptr, false);
            if (reply.is_discarded() || !reply.is_object()) {
                return fail(Failure::Garbage,
                            "the worker wrote something that is not a reply: " + excerpt(text));
            }
            const auto replyId = reply.find("id");
            if (replyId == reply.end() || !replyId->is_number_integer() ||
                !reply.contains("type") || !reply["type"].is_string()) {
                return fail(Failure::Garbage,
                            "the worker wrote something that is not a reply: " + excerpt(text));
            }
            if (replyId->get<long long>() != id || written < line.size()) {
                return fail(Failure::Garbage, "the worker wrote a reply to request " +
                                                  replyId->dump() + " while request " +
                                                  std::to_string(id) + " was waiting");
            }
            if (replyIsExiting(reply)) {
                // Its context is lost and it exits now: reap it, the next request starts anew.
                waitForExit(5.0);
            }
            if (reply["type"] == message::kError) {
                const auto messageText = reply.find("message");
                std::string error = messageText != reply.end() && messageText->is_string()
                                        ? messageText->get<std::string>()
                                        : std::string("the worker refused the request");
                return Reply{Failure::ErrorReply, std::move(reply), std::move(error)};
            }
            return Reply{Failure::None, std::move(reply), {}};
        }
        if (m_buffer.size() > kMaxLineBytes) {
            return fail(Failure::Garbage,
                        "the worker wrote something that is not a reply: " + excerpt(m_buffer));
        }
        if (stdoutEnded) {
            const std::string description = waitForExit(1.0);
            return fail(Failure::Crashed, description);
        }

        if (m_cancelled.load()) {
            return fail(Failure::Cancelled, "the request was cancelled");
        }
        if (m_stopRequested.exchange(false)) {
            return fail(Failure::Cancelled, "the request was stopped");
        }
        const auto left = deadline - Clock::now();
        if (left <= Clock::duration::zero()) {
            return fail(Failure::Timeout, "the worker did not answer within " +
                                              formatSeconds(timeoutSeconds) + " s and was stopped");
        }
        const long long leftMs = std::chrono::ceil<std::chrono::milliseconds>(left).count();
        pollfd fds[4] = {
            {m_fromChild, POLLIN, 0},
            {m_errFromChild, POLLIN, 0},
            {written < line.size() ? m_toChild : -1, POLLOUT, 0},
            {m_cancelPipe[0], POLLIN, 0},
        };
        // Without a cancel pipe, a cancel is noticed within 100 ms.
        const long long waitMs = m_cancelPipe[0] >= 0 ? leftMs : std::min(leftMs, 100LL);
        const int ready = ::poll(fds, 4, static_cast<int>(std::min<long long>(waitMs, INT_MAX)));
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            return fail(Failure::Crashed, "could not wait for the worker: " + errnoText(errno));
        }

        if (fds[3].revents != 0) {
            char bytes[64];
            while (::read(m_cancelPipe[0], bytes, sizeof bytes) > 0) {
            }
        }
        // Without a cancel pipe, the flag alone is seen within 100 ms.
        if (!cancelSent && m_cancelRequested.load() && m_toChild >= 0) {
            line += encodeLine(makeCancelRequest());
            cancelSent = true;
        }
        if (fds[1].revents != 0 && !drainStderr()) {
            closeFd(m_errFromChild);
        }
        if (fds[2].revents != 0) {
            const ssize_t n =
                writeWithoutSigpipe(m_toChild, line.data() + written, line.size() - written);
            if (n > 0) {
                written += static_cast<std::size_t>(n);
            } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                // It closed its stdin (EPIPE): it is going away; its stdout says how.
                closeFd(m_toChild);
                written = line.size();
            }
        }
        if (fds[0].revents != 0) {
            char chunk[65536];
            for (;;) {
                const ssize_t n = ::read(m_fromChild, chunk, sizeof chunk);
                if (n > 0) {
                    m_buffer.append(chunk, static_cast<std::size_t>(n));
                    if (m_buffer.size() > kMaxLineBytes) {
                        break;
                    }
                    continue;
                }
                if (n == 0) {
                    stdoutEnded = true;
                } else if (errno == EINTR) {
                    continue;
                } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
                    stdoutEnded = true;
                }
                break;
            }
        }
    }
}

WorkerProcess::Reply WorkerProcess::fail(Failure failure, std::string error)
{
    kill();
    return Reply{failure, {}, std::move(error)};
}

void WorkerProcess::appendStderr(const char *data, std::size_t size)
{
    if (size >= kStderrTailBytes) {
        m_stderrTail.assign(data + size - kStderrTailBytes, kStderrTailBytes);
        return;
    }
    m_stderrTail.append(data, size);
    if (m_stderrTail.size() > kStderrTailBytes) {
        m_stderrTail.erase(0, m_stderrTail.size() - kStderrTailBytes);
    }
}

bool WorkerProcess::drainStderr()
{
    if (m_errFromChild < 0) {
        return false;
    }
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(m_errFromChild, chunk, sizeof chunk);
        if (n > 0) {
            appendStderr(chunk, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        // 0: end of file; EAGAIN: nothing more for now; anything else: give up on it.
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
}

bool WorkerProcess::exitedOnItsOwn()
{
    if (m_pid <= 0) {
        return false;
    }
    int status = 0;
    pid_t result;
    do {
        result = waitpid(m_pid, &status, WNOHANG);
    } while (result < 0 && errno == EINTR);
    if (result == 0) {
        return false;
    }
    m_exitStatus = status;
    drainStderr();
    closePipes();
    m_pid = -1;
    m_buffer.clear();
    m_hello = nullptr;
    return true;
}

std::string WorkerProcess::waitForExit(double graceSeconds)
{
    const auto deadline = deadlineAfter(graceSeconds);
    while (running()) {
        if (exitedOnItsOwn()) {
            return describeExit(m_exitStatus);
        }
        if (Clock::now() >= deadline) {
            kill();
            return describeExit(m_exitStatus);
        }
        drainStderr();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return describeExit(m_exitStatus);
}

void WorkerProcess::closePipes()
{
    closeFd(m_toChild);
    closeFd(m_fromChild);
    closeFd(m_errFromChild);
}

void WorkerProcess::stop()
{
    if (!running() || exitedOnItsOwn()) {
        return;
    }
    if (m_cancelled.load()) {
        kill(); // no time for a polite shutdown
        return;
    }
    nlohmann::json shutdown = makeShutdownRequest();
    const long long id = m_nextId++;
    shutdown["id"] = id;
    exchange(shutdown, id, 2.0); // kills it on any failure
    if (running()) {
        waitForExit(2.0);
    }
}

void WorkerProcess::kill()
{
    if (m_pid <= 0) {
        return;
    }
    ::kill(-m_pid, SIGKILL); // the whole group: anything the worker started goes too
    ::kill(m_pid, SIGKILL);
    int status = 0;
    while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_exitStatus = status;
    drainStderr(); // its last words, for the message
    closePipes();
    m_pid = -1;
    m_buffer.clear();
    m_hello = nullptr;
}

} // namespace cuwb
