// One handler for the signals a crash raises (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE): it runs
// on the alternate signal stack when one is set (a stack overflow leaves no other), once
// (SA_RESETHAND), and is expected to write its last words and re-raise the signal, so that the
// parent still sees the process die of it. Used by `cuwb` around NVRTC and by the compile server.
#pragma once

#include <csignal>
#include <initializer_list>

namespace cuwb {

inline void installFatalSignalHandler(void (*handler)(int))
{
    struct sigaction action = {};
    action.sa_handler = handler;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (const int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE})
        sigaction(signal, &action, nullptr);
}

} // namespace cuwb
