// `cuwb read-submission PROJECT.cuwb [--confine]`: reads one graded project for `cuwb run DIR`
// (grading/submission.h) and prints what it read as one line of JSON. With --confine it first
// confines itself for good: it may read only the project's folder, write no file, open no
// network socket, start no process, and it has 20 s of CPU and 2 GiB of memory. A file that
// crashes or exhausts it fails that one submission in the grader (docs/grading.md).
#include "commands.h"

#include "argumentparser.h"
#include "grading/submission.h"
#include "util/sandbox.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace cuwb::cli {

namespace {

// Under AddressSanitizer the process reserves terabytes of address space and LeakSanitizer
// reads /proc and starts a thread at exit: the sanitizer build keeps those.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Empty when the process is now confined to `folder`; otherwise why not.
std::string confineTo(const std::string &folder)
{
    SandboxPolicy policy;
    policy.readable = {folder};
    policy.cpuSeconds = 20;
    if (kSanitized) {
        policy.readable.push_back("/proc");
    } else {
        policy.maxAddressBytes = std::uint64_t(2) << 30;
        policy.moreProcesses = 1;
    }
    try {
        const Sandbox sandbox(policy);
        if (const int error = sandbox.applyInChild(); error != 0) {
            return std::string("cannot confine the reader: ") + std::strerror(error);
        }
    } catch (const std::exception &failure) {
        return failure.what();
    }
    return {};
}

} // namespace

void printReadSubmissionHelp(std::ostream &out)
{
    out << "Usage: cuwb read-submission PROJECT.cuwb [--confine]\n"
           "\n"
           "Reads one graded project as `cuwb run DIR` does, in a process of its own: the\n"
           "project file (refused when it leads out of its folder), the paths it names and the\n"
           "#includes its source spells (each must stay inside the folder), and the source.\n"
           "Prints one line of JSON: {\"refused\", \"error\", \"project\", \"source\"}.\n"
           "\n"
           "  --confine    first confine this process: read only the project's folder, write\n"
           "               no file, no network, no new process, 20 s CPU, 2 GiB memory\n";
}

int runReadSubmission(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--confine"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("read-submission", parser.error());
    }
    if (parser.isSet("--help")) {
        printReadSubmissionHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1) {
        return usageError("read-submission", "one project file, please");
    }
    namespace fs = std::filesystem;
    std::error_code code;
    const std::string path =
        fs::absolute(parser.positionals().front(), code).lexically_normal().string();
    if (parser.isSet("--confine")) {
        if (const std::string why = confineTo(fs::path(path).parent_path().string());
            !why.empty()) {
            std::cerr << "cuwb read-submission: " << why << '\n';
            return ExitToolMissing;
        }
    }
    // For the tests of the grader: a reader that crashes on a submission in a folder of this
    // name, as a parser bug would (tests/cli/tst_hostilegrading.cpp).
    if (const char *name = std::getenv("CUWB_TEST_READER_CRASHES_IN");
        name && *name && fs::path(path).parent_path().filename() == name) {
        std::raise(SIGSEGV);
    }
    std::cout << submissionReadToJson(readSubmission(path)) << '\n';
    return ExitSuccess;
}

} // namespace cuwb::cli
