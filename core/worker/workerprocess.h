// WorkerProcess: the client side of `cuwb worker` — starts the child, sends one request at a
// time and waits for its reply with a deadline. When the child crashes, hangs past the deadline
// or writes something that is not a reply, it is killed (SIGKILL) and the failure comes back as
// data; the next request starts a fresh worker. Synchronous and POSIX-only (fork/exec, pipes,
// poll): the GUI calls it from a thread of its own, `cuwb run` directly.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstddef>
#include <set>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cuwb {

class WorkerProcess
{
public:
    struct Options
    {
        std::string executable; // path of cuwb
        std::vector<std::string> arguments{"worker"};
        double startTimeoutSeconds = 60.0; // first reply (hello) after a start
        // A worker reached over a link (an ssh target, or a command that stands in for one,
        // worker/workertarget.h): its name for messages. Empty for a worker on this machine.
        // A remote worker's hello must name this program's cuwb version, its failures are
        // worded for the link, and WorkerClient sends it what it cannot read on its own.
        std::string remoteName;
        double linkSlackSeconds = 0.0; // added to every deadline (the link's own delays)
        // The worker's working directory; empty: the client's. Lets clients on several
        // threads start workers in folders of their own (the process has one cwd).
        std::string workingDirectory;
    };

    // A link's slack on every deadline: ssh's connection set-up and a slow network.
    static constexpr double kLinkSlackSeconds = 30.0;

    enum class Failure { None, StartFailed, Crashed, Timeout, Garbage, ErrorReply, Cancelled };

    struct Reply
    {
        Failure failure = Failure::None;
        nlohmann::json message; // the reply, when failure is None
        std::string error;      // a plain sentence otherwise
        bool linkLost = false;  // a remote worker's connection broke (error says so)
        bool notSent = false;   // the client refused to send it (error says why)
        [[nodiscard]] bool ok() const { return failure == Failure::None; }
    };

    explicit WorkerProcess(Options options);
    ~WorkerProcess();
    WorkerProcess(const WorkerProcess &) = delete;
    WorkerProcess &operator=(const WorkerProcess &) = delete;

    // Starts the worker if none runs (and performs the hello handshake), sends `request` with
    // a fresh id and waits up to timeoutSeconds for the reply with that id.
    Reply request(nlohmann::json request, double timeoutSeconds);
    // Starts the worker if none runs (the hello handshake); its failure, or an ok reply.
    Reply connect();

    // The compiled images the running worker has received (by the client's key): a remote
    // worker is sent each image once; a new worker has none.
    [[nodiscard]] bool hasImage(const std::string &key) const
    {
        return m_imagesSent.count(key) != 0;
    }
    void imageDelivered(const std::string &key) { m_imagesSent.insert(key); }

    // The hello reply of the running worker (device, versions); null when none runs.
    [[nodiscard]] const nlohmann::json &hello() const { return m_hello; }
    [[nodiscard]] const Options &options() const { return m_options; }
    [[nodiscard]] bool remote() const { return !m_options.remoteName.empty(); }
    [[nodiscard]] bool running() const { return m_pid > 0; }
    [[nodiscard]] int starts() const { return m_starts; } // how many workers were started
    [[nodiscard]] const std::string &stderrTail() const { return m_stderrTail; }
    [[nodiscard]] pid_t pid() const { return m_pid; } // of the running worker, -1 when none

    void stop(); // shutdown request, then SIGKILL if it does not exit promptly
    void kill(); // SIGKILL now (the worker's whole process group), then reaps it
    // Safe from any thread: the request in flight, and every later one, fails at once with
    // Cancelled and the worker is killed. For a client that quits while a run is in flight,
    // which must not wait for the run's deadline.
    void cancel();
    [[nodiscard]] bool cancelled() const { return m_cancelled.load(); }
    // Safe from any thread: asks the worker to end the request in flight early and answer
    // with what it has (a measurement stops sampling, with stop reason "cancelled"). The
    // worker is kept. The request thread writes {"type":"cancel"} after the request line, so
    // only one thread ever writes to the worker. A cancel that comes while the request is
    // still starting a worker, or before its line is written, applies to that request; one
    // that comes between requests applies to the next.
    void requestCancel();
    // Forgets a requestCancel() that no request has taken yet: for a worker shared by several
    // clients, when it passes to the next one (a late cancel of one client's measurement must
    // not cut short another's request).
    void clearCancelRequest() { m_cancelRequested.store(false); }
    // Safe from any thread: the request in flight fails at once with Cancelled and the worker
    // is killed (between requests: the next one fails unsent); unlike cancel(), the request
    // after it starts a fresh worker. For a worker whose request cannot stop early on its own (the
    // compile server: NVRTC has no cancel), superseded by a newer one.
    void stopRequest();
    void clearStopRequest() { m_stopRequested.store(false); }
    // The waitpid status of the last worker that ended (its signal, for a message).
    [[nodiscard]] int lastExitStatus() const { return m_exitStatus; }

    static constexpr std::size_t kStderrTailBytes = 8192;

private:
    Reply start();
    // Writes one request line and waits for the line with `id`; kills the worker on failure.
    Reply exchange(const nlohmann::json &message, long long id, double timeoutSeconds);
    Reply fail(Failure failure, std::string error); // kills the worker, returns the failure
    void appendStderr(const char *data, std::size_t size);
    bool drainStderr();    // reads what is there without blocking; false at EOF
    bool exitedOnItsOwn(); // reaps a worker that has already exited
    std::string waitForExit(double graceSeconds); // reaps, SIGKILL after the grace period
    void closePipes();
    int m_exitStatus = 0; // waitpid status of the last worker reaped
    Options m_options;
    pid_t m_pid = -1;
    int m_toChild = -1;
    int m_fromChild = -1;
    int m_errFromChild = -1;
    std::string m_buffer;     // bytes read but not yet a whole line
    std::string m_stderrTail; // last few KB of the child's stderr, for messages
    nlohmann::json m_hello;
    long long m_nextId = 1;
    int m_starts = 0;
    std::set<std::string> m_imagesSent;
    std::atomic<bool> m_cancelled{false};
    std::atomic<bool> m_cancelRequested{false};
    std::atomic<bool> m_stopRequested{false};
    int m_cancelPipe[2] = {-1, -1}; // cancel() writes a byte, exchange() polls for it
};

} // namespace cuwb
