// cuwb worker: pumps the worker protocol (core/worker/protocol.h) between stdin/stdout and
// the core's WorkerServer: one request per line in, one reply per line out. The only process
// of CUDA Workbench that touches the GPU, so a kernel that faults or never ends takes only it
// down.
#include "argumentparser.h"
#include "commands.h"

#include "compiler/kernelcompiler.h"
#include "util/sandbox.h"
#include "worker/protocol.h"
#include "worker/workerserver.h"

#include <cerrno>
#include <deque>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <unistd.h>

namespace cuwb::cli {

namespace {

bool writeAll(int fd, const std::string &text)
{
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        written += static_cast<std::size_t>(n);
    }
    return true;
}

// The worker's stdin as lines, read with read(2) rather than std::cin so that it can also be
// polled without blocking between measurement samples: a {"type":"cancel"} found then is
// taken as a cancel of the request in flight, and any other line is kept for the main loop.
class RequestLines
{
public:
    // The next request line, blocking; false at the end of input. Cancels are skipped: one
    // that arrives between requests came too late and has nothing to cancel.
    bool next(std::string &line)
    {
        for (;;) {
            while (m_lines.empty()) {
                if (m_ended) {
                    return false;
                }
                // At the end of input this still hands over a last line without a newline.
                (void)readSome(true);
            }
            line = std::move(m_lines.front());
            m_lines.pop_front();
            if (!isCancel(line)) {
                m_cancelled = false; // a new request starts uncancelled
                return true;
            }
        }
    }

    // Whether a cancel has arrived for the request in flight; never blocks.
    bool cancelRequested()
    {
        if (!m_ended) {
            pollfd fd{STDIN_FILENO, POLLIN, 0};
            if (::poll(&fd, 1, 0) > 0) {
                (void)readSome(false);
            }
        }
        for (auto it = m_lines.begin(); it != m_lines.end();) {
            if (isCancel(*it)) {
                m_cancelled = true;
                it = m_lines.erase(it);
            } else {
                ++it;
            }
        }
        // The end of input mid-request: the client has gone (a remote client's link
        // closed, or it was killed), so nobody waits for the rest of this request.
        return m_cancelled || m_ended;
    }

private:
    static bool isCancel(const std::string &line)
    {
        if (line.find("cancel") == std::string::npos) {
            return false;
        }
        return isCancelRequest(nlohmann::json::parse(line, nullptr, false));
    }

    // One read(2); splits whole lines off the buffer. False at the end of input or an error.
    bool readSome(bool blocking)
    {
        char chunk[65536];
        ssize_t n = 0;
        do {
            n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        } while (n < 0 && errno == EINTR);
        if (n <= 0) {
            if (n == 0 || blocking) {
                m_ended = true;
                if (!m_partial.empty()) {
                    m_lines.push_back(std::move(m_partial)); // a last line without a newline
                    m_partial.clear();
                }
            }
            return false;
        }
        m_partial.append(chunk, static_cast<std::size_t>(n));
        for (std::size_t newline = m_partial.find('\n'); newline != std::string::npos;
             newline = m_partial.find('\n')) {
            m_lines.push_back(m_partial.substr(0, newline));
            m_partial.erase(0, newline + 1);
        }
        return true;
    }

    std::string m_partial;
    std::deque<std::string> m_lines;
    bool m_ended = false;
    bool m_cancelled = false;
};

} // namespace

void printWorkerHelp(std::ostream &out)
{
    out << "Usage: cuwb worker [--device N]\n"
           "\n"
           "Serves the CUDA Workbench worker protocol on stdin/stdout: one JSON request per\n"
           "line in, one JSON reply per line out (hello, run, measure, metrics, page,\n"
           "export, release, shutdown; and cancel, which ends a measurement in flight). The\n"
           "GUI and 'cuwb run' start it; it owns the GPU's context, so a kernel that faults\n"
           "or never ends takes down only this process. Diagnostics go\n"
           "to stderr. Exits 0 at the end of input or on shutdown, 3 after a run that left\n"
           "the CUDA context unusable (the client starts a new worker).\n"
           "\n"
           "  --device N   the GPU to run on (default 0)\n"
           "  --confine-compiles FOLDER\n"
           "               compile in a sandbox that may read only FOLDER, the toolkit and\n"
           "               the system (what `cuwb run DIR` asks for a graded project)\n";
}

int runWorker(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--device"});
    parser.addOption({"--confine-compiles"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("worker", parser.error());
    }
    if (parser.isSet("--help")) {
        printWorkerHelp(std::cout);
        return ExitSuccess;
    }
    if (!parser.positionals().empty()) {
        return usageError("worker", "unexpected argument '" + parser.positionals().front() + "'");
    }
    int device = 0;
    if (const auto text = parser.value("--device")) {
        const std::optional<long long> parsed = parseCount(*text);
        if (!parsed || *parsed > 1024) {
            return usageError("worker", "--device needs a GPU number, got '" + *text + "'");
        }
        device = static_cast<int>(*parsed);
    }

    // A graded project's worker: every compile runs in a sandbox that reads only the project's
    // folder besides the system (compiler/kernelcompiler.h, confineCompiles).
    if (const auto folder = parser.value("--confine-compiles")) {
        if (const std::string why = sandboxUnavailableReason(); !why.empty()) {
            std::cerr << "cuwb worker: --confine-compiles: " << why << "\n";
            return ExitToolMissing;
        }
        confineCompiles({*folder});
    }

    // Replies go to a private copy of stdout, and stdout itself becomes stderr: whatever else
    // writes to stdout (a library's printf, a stray std::cout) cannot corrupt the replies.
    const int replyFd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (replyFd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        std::cerr << "cuwb worker: cannot set up its output\n";
        return ExitUsage;
    }

    RequestLines requests;
    WorkerServer server(device, [&requests] { return requests.cancelRequested(); });
    std::string line;
    while (requests.next(line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const WorkerServer::Served served = server.serve(line);
        if (!writeAll(replyFd, encodeLine(served.reply))) {
            return ExitFailure; // the client has gone
        }
        if (served.exit) {
            if (served.exitStatus == WorkerServer::kExitContextLost) {
                // Destructors would call into a dead context; the reply is already written.
                _exit(WorkerServer::kExitContextLost);
            }
            return served.exitStatus;
        }
    }
    return ExitSuccess; // end of input: the client closed our stdin
}

} // namespace cuwb::cli
