// cuwb worker: the GPU side of the worker protocol (core/worker/protocol.h). Reads one request
// per line from stdin and writes one reply per line to stdout; the only process of CUDA
// Workbench that touches the GPU, so a kernel that faults or never ends takes only it down.
#include "argumentparser.h"
#include "commands.h"

#include "compiler/nvrtcinfo.h"
#include "cuda/driverapi.h"
#include "device/deviceinfo.h"
#include "launch/launchjson.h"
#include "run/runner.h"
#include "worker/protocol.h"

#include <cerrno>
#include <deque>
#include <fcntl.h>
#include <functional>
#include <iostream>
#include <memory>
#include <poll.h>
#include <unistd.h>

namespace cuwb::cli {

namespace {

// Exit status after a run that lost the CUDA context (MEASUREMENT.md, Faults): the client has
// the reply already and starts a new worker.
constexpr int kExitContextLost = 3;

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
                if (m_ended || !readSome(true)) {
                    return false;
                }
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
        return m_cancelled;
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

class WorkerSession
{
public:
    WorkerSession(int deviceOrdinal, std::function<bool()> cancelCheck)
        : m_deviceOrdinal(deviceOrdinal)
        , m_cancelCheck(std::move(cancelCheck))
    {}

    // Opens the device once; without a driver or a GPU remembers why, for every reply.
    void initialise()
    {
        if (m_initialised) {
            return;
        }
        m_initialised = true;
        const DeviceQuery query = queryDevices();
        if (query.devices.empty()) {
            m_noDeviceReason = query.message.empty() ? "no GPU found" : query.message;
            return;
        }
        if (m_deviceOrdinal >= static_cast<int>(query.devices.size())) {
            m_noDeviceReason = "there is no GPU " + std::to_string(m_deviceOrdinal) +
                               " (this machine has " + std::to_string(query.devices.size()) + ")";
            return;
        }
        try {
            m_runner = std::make_unique<Runner>(m_deviceOrdinal);
            m_runner->setCancelCheck(m_cancelCheck);
        } catch (const std::exception &error) {
            m_noDeviceReason =
                "could not open GPU " + std::to_string(m_deviceOrdinal) + ": " + error.what();
        }
    }

    HelloReply hello() const
    {
        HelloReply hello;
        hello.worker = CUWB_VERSION;
        hello.driverVersion = DriverApi::instance().driverVersion();
        hello.nvrtcVersion = nvrtcVersion();
        if (m_runner) {
            hello.device = m_runner->device();
            hello.freeMemoryBytes = m_runner->freeMemoryBytes();
        } else {
            hello.message = m_noDeviceReason;
        }
        return hello;
    }

    Runner &runner()
    {
        if (!m_runner) {
            throw std::runtime_error("no GPU: " + m_noDeviceReason);
        }
        return *m_runner;
    }

    [[nodiscard]] bool hasRunner() const { return m_runner != nullptr; }
    [[nodiscard]] const std::string &noDeviceReason() const { return m_noDeviceReason; }

private:
    int m_deviceOrdinal = 0;
    std::function<bool()> m_cancelCheck;
    bool m_initialised = false;
    std::unique_ptr<Runner> m_runner;
    std::string m_noDeviceReason;
};

struct Served
{
    nlohmann::json reply;
    bool exit = false;
    int exitStatus = ExitSuccess;
};

Served serve(WorkerSession &session, const std::string &line)
{
    nlohmann::json id; // null until the request's own id is known
    try {
        const nlohmann::json message = nlohmann::json::parse(line);
        if (message.is_object() && message.contains("id")) {
            id = message["id"];
        }
        const WorkerRequest request = parseRequest(message);
        session.initialise();
        switch (request.type) {
        case WorkerRequest::Type::Hello:
            return {makeHelloReply(id, session.hello())};
        case WorkerRequest::Type::Run: {
            if (!session.hasRunner()) {
                RunResult result;
                result.status = RunStatus::NoDevice;
                result.message = "cannot run the kernel: " + session.noDeviceReason();
                return {makeRunResultReply(id, result)};
            }
            const RunResult result = session.runner().run(request.run);
            const bool lost = session.runner().contextLost();
            return {makeRunResultReply(id, result, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Measure: {
            if (!session.hasRunner()) {
                Measurement measurement;
                measurement.settings = request.settings;
                measurement.faultStatus = runStatusName(RunStatus::NoDevice);
                measurement.faultMessage = "cannot measure the kernel: " + session.noDeviceReason();
                return {makeMeasurementReply(id, measurement)};
            }
            const Measurement measurement =
                session.runner().measure(request.run, request.settings, request.throughput);
            const bool lost = session.runner().contextLost();
            return {makeMeasurementReply(id, measurement, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Metrics: {
            if (!session.hasRunner()) {
                MetricsResult result;
                result.error = "cannot collect metrics: " + session.noDeviceReason();
                return {makeMetricsReply(id, result)};
            }
            const MetricsResult result =
                session.runner().profileMetrics(request.run, request.metrics);
            const bool lost = session.runner().contextLost();
            return {makeMetricsReply(id, result, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Page:
            return {makePageReply(id, session.runner().page(request.page))};
        case WorkerRequest::Type::Export: {
            const std::uint64_t bytes =
                session.runner().exportBuffer(request.handle, request.path, request.format);
            return {makeExportedReply(id, ExportReply{request.path, bytes})};
        }
        case WorkerRequest::Type::Release:
            if (session.hasRunner()) {
                session.runner().release();
            }
            return {makeReleasedReply(id)};
        case WorkerRequest::Type::Shutdown:
            return {makeByeReply(id), true, ExitSuccess};
        }
        return {makeErrorReply(id, "unknown request")};
    } catch (const nlohmann::json::exception &error) {
        return {makeErrorReply(id, "malformed request: " + plainJsonError(error))};
    } catch (const std::exception &error) {
        // An infrastructure fault (ApiError) may leave the context unusable: then say so and go.
        const bool lost = session.hasRunner() && session.runner().contextLost();
        return {makeErrorReply(id, error.what(), lost), lost, kExitContextLost};
    } catch (...) {
        return {makeErrorReply(id, "internal error in the worker")};
    }
}

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
           "  --device N   the GPU to run on (default 0)\n";
}

int runWorker(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--device"});
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

    // Replies go to a private copy of stdout, and stdout itself becomes stderr: whatever else
    // writes to stdout (a library's printf, a stray std::cout) cannot corrupt the replies.
    const int replyFd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (replyFd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        std::cerr << "cuwb worker: cannot set up its output\n";
        return ExitUsage;
    }

    RequestLines requests;
    WorkerSession session(device, [&requests] { return requests.cancelRequested(); });
    std::string line;
    while (requests.next(line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const Served served = serve(session, line);
        if (!writeAll(replyFd, encodeLine(served.reply))) {
            return ExitFailure; // the client has gone
        }
        if (served.exit) {
            if (served.exitStatus == kExitContextLost) {
                // Destructors would call into a dead context; the reply is already written.
                _exit(kExitContextLost);
            }
            return served.exitStatus;
        }
    }
    return ExitSuccess; // end of input: the client closed our stdin
}

} // namespace cuwb::cli
