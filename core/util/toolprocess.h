// runTool: runs a command-line tool of the toolkit (nvdisasm, nvcc) to completion as a child
// process, with its standard output and error captured, a time limit and a cap on what it may
// print. A tool stopped at a limit is killed with every process it started (nvcc's cicc, ptxas
// and host preprocessor), so nothing it left behind goes on using the machine.
// Whatever the tool does — crash, hang, flood, fail to start — comes back as data; nothing
// here throws or waits forever. Qt-free (posix_spawn; fork and exec for a tool run in a
// sandbox, util/sandbox.h), so the CLI, the GUI's threads and the tests share it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cuwb {

class Sandbox;

struct ToolLimits
{
    int timeoutMs = 60000;
    std::size_t maxOutputBytes = std::size_t(64) << 20; // standard output and error together
    std::string workingDirectory;                       // empty: the caller's
    // "NAME=value" entries that replace or add to the caller's environment for the tool.
    std::vector<std::string> environment;
    // Confines the tool and everything it starts (util/sandbox.h); null: not confined. A tool
    // the sandbox cannot be applied to does not run (startError says why).
    const Sandbox *sandbox = nullptr;
};

struct ToolRun
{
    bool started = false;
    std::string startError;     // why it did not start (no such file, not executable)
    int exitCode = -1;          // when it exited
    int signal = 0;             // the signal that ended it, when one did
    bool timedOut = false;      // killed at the time limit
    bool tooMuchOutput = false; // killed at the output cap
    std::string out;
    std::string err;

    [[nodiscard]] bool succeeded() const
    {
        return started && exitCode == 0 && signal == 0 && !timedOut && !tooMuchOutput;
    }
    // "nvdisasm was killed after 60 s" and the like, for a run that did not succeed; the last
    // lines of its standard error are part of it.
    [[nodiscard]] std::string failure(const std::string &name) const;
};

// argv[0] is the program's path; no shell, no PATH search.
ToolRun runTool(const std::vector<std::string> &argv, const ToolLimits &limits = {});

} // namespace cuwb
