// CompileServer: the far side of the compile process, `cuwb compile-server`. NVRTC runs in
// this disposable process rather than in the GUI, because NVRTC can die on hostile input — a
// pasted 100,000-character identifier corrupts its heap, 20,000 nested braces overflow a
// thread's stack, a 10 MB expression grows it past 4 GB — and an editor must not lose unsaved
// text because its compiler crashed. The client (isolatedcompiler.h) kills this process at the
// time limit or when a newer edit supersedes the compile, and starts a new one when needed.
//
// Containment on this side: an address-space limit (RLIMIT_AS) so that a runaway compile fails
// here instead of taking the machine's memory; compiles on a thread with a large stack, so that
// deep nesting compiles as it would on the CLI's main thread; and a line on stderr when a fatal
// signal arrives, with the address space then in use, so that the client can tell "ran out of
// its memory limit" from a crash. No results are cached here: the client's cache outlives this
// process. Requests are the compile protocol's (compileprotocol.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuwb {

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow
// memory, so under them no address-space limit can hold: the server ignores it (and says so).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerReservesAddressSpace = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerReservesAddressSpace = true;
#else
inline constexpr bool kSanitizerReservesAddressSpace = false;
#endif
#else
inline constexpr bool kSanitizerReservesAddressSpace = false;
#endif

struct CompileServerOptions
{
    // RLIMIT_AS of the whole process (NVRTC's libraries and the compile stack included);
    // 0: no limit.
    std::uint64_t memoryLimitBytes = 0;
    // The compile thread's stack: address space only, touched pages are what costs.
    std::size_t stackBytes = std::size_t(256) << 20;
    int replyFd = 1; // where replies go (requests come from stdin)
};

// Serves compile requests from stdin to stdout until the end of input or a shutdown request;
// returns the process exit status.
int serveCompileRequests(const CompileServerOptions &options);

// What the server writes on stderr as it dies of a signal, read back by the client.
struct FatalSignalReport
{
    int signal = 0;
    std::uint64_t addressSpaceBytes = 0; // in use when the signal came; 0 if unknown
};
std::optional<FatalSignalReport> findFatalSignalReport(std::string_view stderrText);

// "4 GiB", "512 MiB": a memory limit for messages.
std::string describeBytes(std::uint64_t bytes);
// The message of a compile that ran out of its memory limit.
std::string memoryLimitMessage(std::uint64_t limitBytes);

} // namespace cuwb
