#include "worker/compileserver.h"

#include "compiler/kernelcompiler.h"
#include "cuda/nvrtcinfo.h"
#include "util/fatalsignal.h"
#include "worker/compileprotocol.h"
#include "worker/protocol.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <new>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace cuwb {

namespace {

constexpr const char *kMarker = "cuwb compile-server: fatal signal ";

long g_pageBytes = 4096;

// Async-signal-safe: the first field of /proc/self/statm (pages of address space).
std::uint64_t addressSpaceBytes()
{
    const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char text[64];
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0)
        return 0;
    std::uint64_t pages = 0;
    for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; ++i)
        pages = pages * 10 + std::uint64_t(text[i] - '0');
    return pages * std::uint64_t(g_pageBytes);
}

// Async-signal-safe decimal formatting into `out` (at least 21 bytes); returns the length.
std::size_t formatDecimal(std::uint64_t value, char *out)
{
    char reversed[24];
    std::size_t length = 0;
    do {
        reversed[length++] = char('0' + value % 10);
        value /= 10;
    } while (value != 0);
    for (std::size_t i = 0; i < length; ++i)
        out[i] = reversed[length - 1 - i];
    return length;
}

// The last words of a dying server: "cuwb compile-server: fatal signal 11, address space N\n".
// Then the signal's default action, so that the parent sees the signal itself.
void onFatalSignal(int signal)
{
    char line[128];
    std::size_t length = std::strlen(kMarker);
    std::memcpy(line, kMarker, length);
    length += formatDecimal(std::uint64_t(signal), line + length);
    const char middle[] = ", address space ";
    std::memcpy(line + length, middle, sizeof middle - 1);
    length += sizeof middle - 1;
    length += formatDecimal(addressSpaceBytes(), line + length);
    line[length++] = '\n';
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, line, length);
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

void installFatalSignalHandlers()
{
    installFatalSignalHandler(onFatalSignal);
}

// A stack overflow leaves no stack for the handler: each thread that compiles gets its own.
// (Called once per thread for the life of the process, so the stack is never freed.)
void installAlternateSignalStack()
{
    constexpr std::size_t kBytes = 64 * 1024;
    stack_t alternate = {};
    alternate.ss_sp = new char[kBytes];
    alternate.ss_size = kBytes;
    sigaltstack(&alternate, nullptr);
}

bool writeLine(int fd, const nlohmann::json &message)
{
    const std::string line = encodeLine(message);
    std::size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        written += std::size_t(n);
    }
    return true;
}

CompileResult compileContained(KernelCompiler &compiler, const CompileJob &job,
                               const CompileServerOptions &options)
{
    CompileResult result;
    try {
        result = compiler.compile(job.source, job.fileName, job.options);
    } catch (const std::bad_alloc &) {
        result = CompileResult{};
        result.failureMessage = options.memoryLimitBytes > 0
                                    ? memoryLimitMessage(options.memoryLimitBytes)
                                    : std::string("The compiler ran out of memory on this source.");
    } catch (const std::exception &error) {
        result = CompileResult{};
        result.failureMessage = std::string("The compiler failed: ") + error.what();
    }
    result.fileName = job.fileName;
    result.options = job.options;
    // NVRTC's status, or nvcc's child dying of the limit ("LLVM ERROR: out of memory").
    if (options.memoryLimitBytes > 0 &&
        (result.failureMessage.find("OUT_OF_MEMORY") != std::string::npos ||
         result.failureMessage.find("out of memory") != std::string::npos ||
         result.failureMessage.find("std::bad_alloc") != std::string::npos))
        result.failureMessage = memoryLimitMessage(options.memoryLimitBytes);
    return result;
}

struct ServeContext
{
    CompileServerOptions options;
    int status = 0;
};

void serve(ServeContext &context)
{
    installAlternateSignalStack();
    if (context.options.memoryLimitBytes > 0 && kSanitizerReservesAddressSpace) {
        std::fputs("cuwb compile-server: built with a sanitizer, so no memory limit\n", stderr);
        context.options.memoryLimitBytes = 0;
    }
    if (context.options.memoryLimitBytes > 0) {
        const rlimit limit{context.options.memoryLimitBytes, context.options.memoryLimitBytes};
        if (setrlimit(RLIMIT_AS, &limit) != 0)
            std::perror("cuwb compile-server: could not set the memory limit");
    }
    // No cache here: the client keeps one that outlives this process (isolatedcompiler.h).
    KernelCompiler compiler(0);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty())
            continue;
        const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
        const nlohmann::json id =
            request.is_object() && request.contains("id") ? request["id"] : nlohmann::json(nullptr);
        const std::string type =
            request.is_object() && request.contains("type") && request["type"].is_string()
                ? request["type"].get<std::string>()
                : std::string();
        nlohmann::json reply;
        bool done = false;
        try {
            if (type == message::kHello) {
                HelloReply hello;
                hello.worker = workbenchVersion();
                hello.message = "a compile server: no device";
                hello.nvrtcVersion = nvrtcVersion();
                reply = makeHelloReply(id, hello);
            } else if (type == message::kCompile) {
                reply = makeCompiledReply(
                    id, compileContained(compiler, parseCompileRequest(request), context.options));
            } else if (type == message::kShutdown) {
                reply = makeByeReply(id);
                done = true;
            } else if (type == message::kCancel) {
                continue; // nothing to cancel: the client stops a compile by killing this process
            } else {
                reply = makeErrorReply(id, "the compile server does not serve '" + type + "'");
            }
        } catch (const nlohmann::json::exception &error) {
            reply = makeErrorReply(id, std::string("malformed request: ") + error.what());
        } catch (const std::bad_alloc &) {
            reply = makeErrorReply(id, memoryLimitMessage(context.options.memoryLimitBytes));
        }
        if (!writeLine(context.options.replyFd, reply)) {
            context.status = 1;
            return;
        }
        if (done)
            return;
    }
}

void *serveThread(void *context)
{
    serve(*static_cast<ServeContext *>(context));
    return nullptr;
}

} // namespace

int serveCompileRequests(const CompileServerOptions &options)
{
    g_pageBytes = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
    std::ios::sync_with_stdio(false);
    installFatalSignalHandlers();
    installAlternateSignalStack();
    ServeContext context{options, 0};
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_t thread;
    const bool sized = pthread_attr_setstacksize(&attributes, options.stackBytes) == 0;
    if (!sized || pthread_create(&thread, &attributes, serveThread, &context) != 0) {
        // No large stack to be had: serve on this thread, deep nesting fails sooner.
        pthread_attr_destroy(&attributes);
        serve(context);
        return context.status;
    }
    pthread_attr_destroy(&attributes);
    pthread_join(thread, nullptr);
    return context.status;
}

std::optional<FatalSignalReport> findFatalSignalReport(std::string_view stderrText)
{
    const std::size_t at = stderrText.rfind(kMarker);
    if (at == std::string_view::npos)
        return std::nullopt;
    FatalSignalReport report;
    unsigned long long signal = 0;
    unsigned long long bytes = 0;
    const std::string line(stderrText.substr(at + std::strlen(kMarker), 64));
    if (std::sscanf(line.c_str(), "%llu, address space %llu", &signal, &bytes) < 1)
        return std::nullopt;
    report.signal = int(signal);
    report.addressSpaceBytes = bytes;
    return report;
}

std::string describeBytes(std::uint64_t bytes)
{
    constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
    constexpr std::uint64_t kGiB = std::uint64_t(1) << 30;
    char text[32];
    if (bytes >= kGiB && bytes % kGiB == 0)
        std::snprintf(text, sizeof text, "%llu GiB", static_cast<unsigned long long>(bytes / kGiB));
    else if (bytes >= kGiB)
        std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(kGiB));
    else
        std::snprintf(text, sizeof text, "%llu MiB", static_cast<unsigned long long>(bytes / kMiB));
    return text;
}

std::string memoryLimitMessage(std::uint64_t limitBytes)
{
    return "The compiler ran out of its " + describeBytes(limitBytes) +
           " memory limit on this source and was stopped; your text is untouched "
           "(CUWB_COMPILE_MEMORY_LIMIT_MB sets the limit).";
}

} // namespace cuwb
