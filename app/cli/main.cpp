// cuwb: the command-line front end of CUDA Workbench. Compiles kernels, computes occupancy
// and lists GPUs with the same core library the GUI uses, so CI, scripts and classrooms get
// the GUI's answers without a display.
#include "commands.h"
#include "compilercrash.h"

#include "cuda/driverapi.h"
#include "cuda/nvrtcinfo.h"

#include <cstdio>
#include <exception>
#include <iostream>

namespace {

using namespace cuwb::cli;

void printUsage(std::ostream &out)
{
    out << "Usage: cuwb COMMAND [OPTIONS]\n"
           "\n"
           "Commands:\n"
           "  compile FILE.cu     compile with NVRTC; print diagnostics and kernel resources\n"
           "  occupancy           theoretical occupancy of a kernel configuration\n"
           "  devices             list the GPUs, or explain why there are none\n"
           "  check PROJECT.cuwb  validate a project's launch without a GPU\n"
           "  run PROJECT.cuwb... run and verify projects on the GPU, each in a worker\n"
           "  measure PROJECT.cuwb time a project's kernel: statistics and bandwidth\n"
           "  sweep PROJECT.cuwb  measure the kernel across block sizes, defines, flags...\n"
           "  merge SHARD.json... join the shards of a sweep (--shard, --slurm) into one\n"
           "  sass PROJECT.cuwb   the machine code beside the source, or its instruction mix\n"
           "  inspect PROJECT.cuwb why the kernel is slow, line by line (GPU counters)\n"
           "  compare A.cuwb B.cuwb two variants side by side: time, metrics, counters\n"
           "  worker              serve the worker protocol on stdin/stdout (for the GUI)\n"
           "  compile-server      serve compile requests on stdin/stdout (for the GUI)\n"
           "  read-submission     read one graded project, confined (for `cuwb run DIR`)\n"
           "  help [COMMAND]      show this help, or a command's options\n"
           "\n"
           "Options:\n"
           "  --version           print the cuwb, NVRTC and CUDA driver versions\n"
           "  -h, --help          show this help\n"
           "\n"
           "Exit status: 0 success, 1 the work failed (compile errors, a configuration that\n"
           "cannot run), 2 usage or I/O error, 3 internal error, 4 a tool the command needs\n"
           "is not installed, 5 the output could not be written (a full disk, a closed pipe).\n";
}

int printVersion()
{
    std::cout << "cuwb " << CUWB_VERSION << "\n";
    std::cout << "NVRTC " << cuwb::nvrtcVersion() << "\n";
    const cuwb::DriverApi &driver = cuwb::DriverApi::instance();
    if (driver.available()) {
        std::cout << "CUDA driver " << cuwb::formatCudaVersion(driver.driverVersion()) << "\n";
    } else {
        std::cout << "CUDA driver: no driver (" << driver.unavailableReason()
                  << ") — compile-only mode\n";
    }
    return ExitSuccess;
}

int help(const std::vector<std::string> &arguments)
{
    if (arguments.empty()) {
        printUsage(std::cout);
    } else if (arguments.front() == "compile") {
        printCompileHelp(std::cout);
    } else if (arguments.front() == "occupancy") {
        printOccupancyHelp(std::cout);
    } else if (arguments.front() == "devices") {
        printDevicesHelp(std::cout);
    } else if (arguments.front() == "check") {
        printCheckHelp(std::cout);
    } else if (arguments.front() == "run") {
        printRunHelp(std::cout);
    } else if (arguments.front() == "measure") {
        printMeasureHelp(std::cout);
    } else if (arguments.front() == "sweep") {
        printSweepHelp(std::cout);
    } else if (arguments.front() == "merge") {
        printMergeHelp(std::cout);
    } else if (arguments.front() == "sass") {
        printSassHelp(std::cout);
    } else if (arguments.front() == "inspect") {
        printInspectHelp(std::cout);
    } else if (arguments.front() == "compare") {
        printCompareHelp(std::cout);
    } else if (arguments.front() == "worker") {
        printWorkerHelp(std::cout);
    } else if (arguments.front() == "compile-server") {
        printCompileServerHelp(std::cout);
    } else if (arguments.front() == "read-submission") {
        printReadSubmissionHelp(std::cout);
    } else {
        std::cerr << "cuwb: no help for unknown command '" << arguments.front() << "'\n";
        return ExitUsage;
    }
    return ExitSuccess;
}

int run(const std::vector<std::string> &arguments)
{
    if (arguments.empty()) {
        printUsage(std::cerr);
        return ExitUsage;
    }
    const std::string &command = arguments.front();
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (command == "help" || command == "--help" || command == "-h") {
        return help(rest);
    }
    if (command == "--version" || command == "version") {
        return printVersion();
    }
    if (command == "compile") {
        explainCompilerCrashes("compile");
        return runCompile(rest);
    }
    if (command == "occupancy") {
        return runOccupancy(rest);
    }
    if (command == "devices") {
        return runDevices(rest);
    }
    if (command == "check") {
        explainCompilerCrashes("check");
        return runCheck(rest);
    }
    if (command == "run") {
        return runRun(rest);
    }
    if (command == "measure") {
        return runMeasure(rest);
    }
    if (command == "sweep") {
        return runSweep(rest);
    }
    if (command == "merge") {
        return runMerge(rest);
    }
    if (command == "sass") {
        return runSass(rest);
    }
    if (command == "inspect") {
        return runInspect(rest);
    }
    if (command == "compare") {
        return runCompare(rest);
    }
    if (command == "worker") {
        return runWorker(rest);
    }
    if (command == "read-submission") {
        return runReadSubmission(rest);
    }
    if (command == "compile-server") {
        return runCompileServer(rest);
    }
    std::cerr << "cuwb: unknown command '" << command << "'\n"
              << "Run 'cuwb help' for the list of commands.\n";
    return ExitUsage;
}

} // namespace

namespace cuwb::cli {

int usageError(const std::string &command, const std::string &message)
{
    std::cerr << "cuwb " << command << ": " << message << "\n"
              << "Run 'cuwb help " << command << "' for its options.\n";
    return ExitUsage;
}

} // namespace cuwb::cli

namespace {

// Whatever the command printed reached its file or pipe: a result that was never written must
// not exit 0 (a script would read a missing or truncated JSON as the answer).
bool outputWritten()
{
    std::cout.flush();
    return std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    int status = ExitInternal;
    try {
        status = run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception &error) {
        // An infrastructure fault (ApiError) or a bug: say what failed rather than abort.
        std::cerr << "cuwb: internal error: " << error.what() << "\n";
    }
    if (!outputWritten()) {
        std::cerr << "cuwb: the output could not be written (a full disk or a closed pipe?); "
                     "what the command printed is incomplete\n";
        return ExitOutput;
    }
    return status;
}
