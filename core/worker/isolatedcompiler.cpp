#include "worker/isolatedcompiler.h"
#include "util/format.h"

#include "worker/compileprotocol.h"
#include "worker/compileserver.h"
#include "worker/workerprocess.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <string>
#include <sys/wait.h>

namespace cuwb {

namespace {

// How long the server may take to start and answer its hello (a cold NVRTC load from disk).
constexpr double kStartTimeoutSeconds = 30.0;

// A number from the environment, or nullopt when the variable is absent or not a number.
std::optional<double> environmentNumber(const char *name)
{
    const char *text = std::getenv(name);
    if (!text || !*text)
        return std::nullopt;
    char *end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(value >= 0))
        return std::nullopt;
    return value;
}

std::string signalName(int signal)
{
    switch (signal) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGILL:
        return "SIGILL";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    default:
        return "signal " + std::to_string(signal);
    }
}

// What decides a compile's result, length-prefixed so that no field can imitate another.
std::string cacheKey(std::string_view source, std::string_view fileName,
                     const CompileOptions &options)
{
    std::string key = std::to_string(fileName.size()) + ":" + std::string(fileName);
    key += std::to_string(source.size()) + ":" + std::string(source);
    key += options.canonicalText();
    return key;
}

CompileResult failed(std::string_view fileName, const CompileOptions &options, std::string message)
{
    CompileResult result;
    result.fileName = std::string(fileName);
    result.options = options;
    result.failureMessage = std::move(message);
    return result;
}

} // namespace

IsolatedCompiler::Limits IsolatedCompiler::defaultLimits()
{
    Limits limits;
    if (const auto seconds = environmentNumber("CUWB_COMPILE_TIME_LIMIT"); seconds && *seconds > 0)
        limits.timeSeconds = *seconds;
    if (const auto mib = environmentNumber("CUWB_COMPILE_MEMORY_LIMIT_MB"))
        limits.memoryBytes = std::uint64_t(*mib) << 20;
    return limits;
}

IsolatedCompiler::IsolatedCompiler(std::string cuwbPath, Limits limits)
    : m_cuwbPath(std::move(cuwbPath))
    , m_limits(limits)
{
    makeProcess();
}

IsolatedCompiler::~IsolatedCompiler() = default;

void IsolatedCompiler::makeProcess()
{
    WorkerProcess::Options options;
    options.executable = m_cuwbPath;
    options.arguments = {"compile-server", "--memory-limit-mb",
                         std::to_string(m_limits.memoryBytes >> 20)};
    options.startTimeoutSeconds = kStartTimeoutSeconds;
    m_process = std::make_unique<WorkerProcess>(std::move(options));
}

void IsolatedCompiler::setLimits(const Limits &limits)
{
    const std::lock_guard lock(m_mutex);
    if (limits.memoryBytes != m_limits.memoryBytes)
        m_restart = true;
    m_limits = limits;
}

void IsolatedCompiler::setCuwbPath(std::string cuwbPath)
{
    const std::lock_guard lock(m_mutex);
    if (cuwbPath != m_cuwbPath)
        m_restart = true;
    m_cuwbPath = std::move(cuwbPath);
}

std::string IsolatedCompiler::cuwbPath() const
{
    const std::lock_guard lock(m_mutex);
    return m_cuwbPath;
}

IsolatedCompiler::Limits IsolatedCompiler::limits() const
{
    const std::lock_guard lock(m_mutex);
    return m_limits;
}

int IsolatedCompiler::serverStarts() const
{
    const std::lock_guard lock(m_mutex);
    return m_starts;
}

void IsolatedCompiler::stopUpTo(std::uint64_t job)
{
    const std::lock_guard lock(m_mutex);
    if (job > m_stoppedUpTo)
        m_stoppedUpTo = job;
    if (m_running != 0 && m_running <= job)
        m_process->stopRequest();
}

CompileResult IsolatedCompiler::compile(std::string_view source, std::string_view fileName,
                                        const CompileOptions &options, std::uint64_t job)
{
    const std::string stopped =
        "The compile was stopped: a newer edit or Build > Stop Compile ended it.";
    double timeSeconds = 0;
    std::uint64_t memoryBytes = 0;
    std::string cuwb;
    const std::string key = cacheKey(source, fileName, options);
    {
        const std::lock_guard lock(m_mutex);
        if (job != 0 && job <= m_stoppedUpTo)
            return failed(fileName, options, stopped);
        const auto it = std::find_if(m_cache.begin(), m_cache.end(),
                                     [&key](const auto &entry) { return entry.first == key; });
        if (it != m_cache.end()) {
            m_cache.splice(m_cache.begin(), m_cache, it);
            CompileResult hit = it->second;
            hit.fromCache = true;
            return hit;
        }
        if (m_restart) {
            m_previousStarts += m_process->starts();
            m_process.reset(); // the old server is shut down here, on the thread that started it
            makeProcess();
            m_restart = false;
        }
        m_running = job;
        m_process->clearStopRequest();
        timeSeconds = m_limits.timeSeconds;
        memoryBytes = m_limits.memoryBytes;
        cuwb = m_cuwbPath;
    }

    WorkerProcess::Reply reply;
    try {
        reply = m_process->request(makeCompileRequest(source, fileName, options), timeSeconds);
    } catch (const std::exception &error) {
        reply = WorkerProcess::Reply{WorkerProcess::Failure::Crashed, {}, error.what()};
    }

    {
        const std::lock_guard lock(m_mutex);
        m_running = 0;
        m_starts = m_previousStarts + m_process->starts();
    }

    using Failure = WorkerProcess::Failure;
    switch (reply.failure) {
    case Failure::None:
        try {
            CompileResult result = parseCompiledReply(reply.message);
            // Option problems and faults are not what this input compiles to (KernelCompiler).
            if (result.failureMessage.empty()) {
                const std::lock_guard lock(m_mutex);
                m_cache.emplace_front(key, result);
                while (m_cache.size() > kCacheCapacity)
                    m_cache.pop_back();
            }
            return result;
        } catch (const std::exception &error) {
            return failed(fileName, options,
                          std::string("The compile server's reply could not be read: ") +
                              error.what());
        }
    case Failure::Cancelled:
        return failed(fileName, options, stopped);
    case Failure::Timeout:
        return failed(fileName, options,
                      "The compile was stopped after " + formatSeconds(timeSeconds) +
                          " s (the time limit; CUWB_COMPILE_TIME_LIMIT sets it); your text is "
                          "untouched.");
    case Failure::Crashed: {
        const auto report = findFatalSignalReport(m_process->stderrTail());
        // An allocation that failed near the limit ends in an abort or a fault, not a message.
        // A sanitizer build's server has no limit (and a huge address space): never this.
        if (memoryBytes > 0 && !kSanitizerReservesAddressSpace && report &&
            report->addressSpaceBytes >= memoryBytes / 10 * 8)
            return failed(fileName, options, memoryLimitMessage(memoryBytes));
        return failed(fileName, options, describeCrash());
    }
    case Failure::StartFailed:
        return failed(fileName, options,
                      "Could not start the compiler process (" + cuwb +
                          " compile-server): " + reply.error);
    case Failure::Garbage:
    case Failure::ErrorReply:
        break;
    }
    return failed(fileName, options, "The compiler process failed: " + reply.error);
}

std::string IsolatedCompiler::describeCrash() const
{
    const int status = m_process->lastExitStatus();
    std::string what = "The compiler crashed";
    if (WIFSIGNALED(status))
        what += " (" + signalName(WTERMSIG(status)) + ")";
    else if (WIFEXITED(status))
        what += " (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    what += " on this source; your text is untouched and the next compile starts a new "
            "compiler process.";
    // NVRTC's own last words, when it left any: "malloc(): invalid size (unsorted)".
    const std::string &tail = m_process->stderrTail();
    if (const std::size_t at = tail.find("malloc"); at != std::string::npos) {
        const std::size_t end = tail.find('\n', at);
        what += " It said: " + tail.substr(at, end == std::string::npos ? 120 : end - at);
    }
    return what;
}

} // namespace cuwb
