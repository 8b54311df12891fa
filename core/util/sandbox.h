// Sandbox: a child process confined by the kernel, not by reading what it will open. Landlock
// (Linux 5.13+, no root needed) limits the files the process and everything it starts may
// read, write and execute to a list of folders; a seccomp filter refuses every socket but a
// local (AF_UNIX) one and io_uring, so nothing reaches the network; no_new_privs keeps a
// set-uid program from lifting either; resource limits cap file size, CPU time and memory.
// The rules are built in the parent (paths opened, the ruleset made, the filter assembled) and
// applied in the child between fork and exec with async-signal-safe calls only, so a
// multi-threaded parent may use it. runTool (util/toolprocess.h) applies one to the tools it
// starts; graded compiles use it so that no spelling of `#include` reaches a file outside the
// submission, and `cuwb read-submission` confines itself with one (docs/grading.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuwb {

struct SandboxPolicy
{
    // Folders (or files) the process may read and execute from, with everything below them.
    std::vector<std::string> readable;
    // Folders (or files) it may also write, create and remove in.
    std::vector<std::string> writable;
    bool network = false;              // false: sockets other than AF_UNIX are refused
    std::uint64_t maxFileBytes = 0;    // RLIMIT_FSIZE; 0 leaves it
    std::uint64_t cpuSeconds = 0;      // RLIMIT_CPU; 0 leaves it
    std::uint64_t maxAddressBytes = 0; // RLIMIT_AS of each process; 0 leaves it
    // How many more processes and threads the confined process may start than its user runs
    // when the sandbox is made (RLIMIT_NPROC counts all of the user's tasks, so the limit is
    // that count plus this); 0 leaves it. The kernel does not hold root to it.
    std::uint64_t moreProcesses = 0;
};

// What a compiler needs of the system to run, and nothing of anyone's home: the system's
// programs, libraries, headers and configuration (/usr, /lib, /lib64, /bin, /sbin, /etc, /opt),
// /proc and /dev (read), /dev/null (write), and the CUDA toolkit at `toolkitRoot` when it lies
// elsewhere.
SandboxPolicy compilerSandboxPolicy(const std::string &toolkitRoot);

class Sandbox
{
public:
    // Builds the rules of `policy`; throws std::runtime_error with a sentence when the kernel
    // offers no Landlock (sandboxUnavailableReason()) or a rule cannot be made. A path of the
    // policy that does not exist is left out.
    explicit Sandbox(const SandboxPolicy &policy);
    ~Sandbox();
    Sandbox(const Sandbox &) = delete;
    Sandbox &operator=(const Sandbox &) = delete;

    // In the child, after fork and before exec: restricts the calling process for good.
    // Returns 0, or the errno of the call that failed (the child should then exit without
    // running the program). Async-signal-safe.
    [[nodiscard]] int applyInChild() const noexcept;

    // The Landlock ABI version the rules were made for (1, 2, 3...).
    [[nodiscard]] int abi() const { return m_abi; }

private:
    struct Filter;
    int m_rulesetFd = -1;
    int m_abi = 0;
    std::uint64_t m_maxFileBytes = 0;
    std::uint64_t m_cpuSeconds = 0;
    std::uint64_t m_maxAddressBytes = 0;
    std::uint64_t m_maxProcesses = 0;
    bool m_network = false;
    std::unique_ptr<Filter> m_filter;
};

// How many tasks (processes and their threads) the user of this process runs now, from /proc.
std::uint64_t userTaskCount();

// Empty when this kernel can confine a process with Landlock; otherwise why not ("the kernel
// has no Landlock (Linux 5.13 or newer with landlock among its security modules)").
std::string sandboxUnavailableReason();

} // namespace cuwb
