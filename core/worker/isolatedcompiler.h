// IsolatedCompiler: KernelCompiler's compile() in a disposable process, `cuwb compile-server`
// (compileserver.h), for the GUI, which must outlive whatever NVRTC does with the user's text.
// One server is kept between compiles (as-you-type stays fast: no process start and NVRTC
// load per keystroke). Recent results are cached here, in the caller's process, keyed like
// KernelCompiler's cache, so a repeat (an undo, a tab switch) costs no round trip and survives
// a server that was killed. A compile that crashes the
// server, runs past the time limit, hits the memory limit or is stopped by a newer edit comes
// back as a CompileResult with a failureMessage that says which; the next compile starts a new
// server. Synchronous: call compile() always from the same long-lived thread (the server dies
// with the thread that started it, worker/workerprocess.h); stopUpTo() from any thread.
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace cuwb {

class WorkerProcess;

class IsolatedCompiler
{
public:
    struct Limits
    {
        double timeSeconds = 180.0;                         // per compile; the server is killed
        std::uint64_t memoryBytes = std::uint64_t(4) << 30; // the server's RLIMIT_AS; 0: none
    };
    // The defaults, or CUWB_COMPILE_TIME_LIMIT (seconds) and CUWB_COMPILE_MEMORY_LIMIT_MB
    // (MiB; 0 lifts the limit) from the environment when they hold a number.
    static Limits defaultLimits();

    // cuwbPath: the cuwb executable that serves `compile-server`.
    explicit IsolatedCompiler(std::string cuwbPath, Limits limits = defaultLimits());
    ~IsolatedCompiler();
    IsolatedCompiler(const IsolatedCompiler &) = delete;
    IsolatedCompiler &operator=(const IsolatedCompiler &) = delete;

    // `job`: the caller's increasing id of this compile, which stopUpTo() names; never throws.
    CompileResult compile(std::string_view source, std::string_view fileName,
                          const CompileOptions &options, std::uint64_t job = 0);
    // Safe from any thread: the compile of every job up to and including `job` stops (the one
    // running is killed, later calls for such jobs return at once) with a "stopped" result.
    void stopUpTo(std::uint64_t job);

    // A changed memory limit takes effect with the next server (the running one is stopped).
    void setLimits(const Limits &limits);
    [[nodiscard]] Limits limits() const;
    // How many servers were started: a crash, timeout or stop costs one.
    [[nodiscard]] int serverStarts() const;
    // Another cuwb for the next server (the running one is stopped).
    void setCuwbPath(std::string cuwbPath);
    [[nodiscard]] std::string cuwbPath() const;

private:
    [[nodiscard]] std::string describeCrash() const;
    void makeProcess(); // with the current memory limit; m_mutex held

    static constexpr std::size_t kCacheCapacity = 32;

    std::string m_cuwbPath;
    mutable std::mutex m_mutex; // guards the members below
    Limits m_limits;
    std::unique_ptr<WorkerProcess> m_process;
    bool m_restart = false;   // the memory limit or cuwb changed: a new server for the next compile
    int m_previousStarts = 0; // of processes replaced after a limit change
    int m_starts = 0;         // servers started, as of the last compile
    std::uint64_t m_running = 0; // the job whose compile is in flight, 0 when none
    std::uint64_t m_stoppedUpTo = 0;
    std::list<std::pair<std::string, CompileResult>> m_cache; // most recent first
};

} // namespace cuwb
