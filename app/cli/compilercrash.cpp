#include "compilercrash.h"

#include "util/fatalsignal.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace cuwb::cli {

namespace {

// Written by the handler, so prepared before any signal (async-signal-safe: write only).
char g_message[512];
std::size_t g_length = 0;

void onFatalSignal(int signal)
{
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, g_message, g_length);
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

} // namespace

void explainCompilerCrashes(const char *command)
{
    const char *parts[] = {
        "cuwb ", command,
        ": the process died of a fatal signal. Where NVRTC compiles in this process, it is "
        "the usual cause: it crashes on some sources (a pasted identifier of 100,000 "
        "characters, say), and the GUI, which compiles in a separate process, shows such a "
        "crash as a diagnostic. Otherwise it is a bug in cuwb: please report it with the "
        "project.\n"};
    g_length = 0;
    for (const char *part : parts) {
        const std::size_t n = std::min(std::strlen(part), sizeof g_message - g_length);
        std::memcpy(g_message + g_length, part, n);
        g_length += n;
    }
    // A stack overflow leaves no stack for the handler: it runs on one of its own.
    static char alternate[64 * 1024];
    stack_t stack = {};
    stack.ss_sp = alternate;
    stack.ss_size = sizeof alternate;
    sigaltstack(&stack, nullptr);
    installFatalSignalHandler(onFatalSignal);
}

} // namespace cuwb::cli
