// cuwb compile-server: the GUI's compiler process (core/worker/compileserver.h). It pumps
// compile requests from stdin to NVRTC and replies to stdout, within a memory limit, so that
// a compile that crashes or runs away takes down only this process.
#include "argumentparser.h"
#include "commands.h"

#include "worker/compileserver.h"

#include <fcntl.h>
#include <iostream>
#include <unistd.h>

namespace cuwb::cli {

void printCompileServerHelp(std::ostream &out)
{
    out << "Usage: cuwb compile-server [--memory-limit-mb N]\n"
           "\n"
           "Serves compile requests on stdin/stdout for the GUI: one JSON request per line\n"
           "in (hello, compile, shutdown), one JSON reply per line out. NVRTC runs here, on a\n"
           "thread with a 256 MiB stack, so that a compile that crashes, hangs or grows without\n"
           "bound takes down only this process; the GUI kills it at its time limit and starts\n"
           "another. Exits 0 at the end of input or on shutdown.\n"
           "\n"
           "  --memory-limit-mb N   the process's address-space limit in MiB (0: none;\n"
           "                        the GUI passes 4096, or CUWB_COMPILE_MEMORY_LIMIT_MB)\n";
}

int runCompileServer(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--memory-limit-mb"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments))
        return usageError("compile-server", parser.error());
    if (parser.isSet("--help")) {
        printCompileServerHelp(std::cout);
        return ExitSuccess;
    }
    if (!parser.positionals().empty())
        return usageError("compile-server",
                          "unexpected argument '" + parser.positionals().front() + "'");
    CompileServerOptions options;
    if (const auto text = parser.value("--memory-limit-mb")) {
        const std::optional<long long> mib = parseCount(*text);
        if (!mib || *mib > (1LL << 30))
            return usageError("compile-server",
                              "--memory-limit-mb needs a number of MiB, got '" + *text + "'");
        options.memoryLimitBytes = std::uint64_t(*mib) << 20;
    }
    // Replies go to a private copy of stdout, and stdout itself becomes stderr: whatever else
    // writes to stdout (a library's printf) cannot corrupt the replies.
    options.replyFd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (options.replyFd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        std::cerr << "cuwb compile-server: cannot set up its output\n";
        return ExitUsage;
    }
    return serveCompileRequests(options);
}

} // namespace cuwb::cli
