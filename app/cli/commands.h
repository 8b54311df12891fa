// The cuwb commands. Each takes the arguments after its name and returns the process exit
// status: 0 done, 1 the user's work failed (compile errors, a configuration that cannot run),
// 2 usage or I/O error (3 is left for an internal fault, caught in main), 4 a tool the command
// needs is not installed (nvdisasm for `cuwb sass`). Output goes to std::cout, problems with the
// invocation to std::cerr.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cuwb::cli {

enum ExitStatus {
    ExitSuccess = 0,
    ExitFailure = 1,
    ExitUsage = 2,
    ExitInternal = 3,
    ExitToolMissing = 4,
    ExitOutput = 5 // what the command printed could not be written (a full disk, a closed pipe)
};

int runCompile(const std::vector<std::string> &arguments);
int runOccupancy(const std::vector<std::string> &arguments);
int runDevices(const std::vector<std::string> &arguments);
int runCheck(const std::vector<std::string> &arguments);
int runRun(const std::vector<std::string> &arguments);
int runWorker(const std::vector<std::string> &arguments);
int runCompileServer(const std::vector<std::string> &arguments);
int runMeasure(const std::vector<std::string> &arguments);
int runInspect(const std::vector<std::string> &arguments);
int runCompare(const std::vector<std::string> &arguments);
int runSweep(const std::vector<std::string> &arguments);
int runSass(const std::vector<std::string> &arguments);
int runMerge(const std::vector<std::string> &arguments);
int runReadSubmission(const std::vector<std::string> &arguments);

void printCompileHelp(std::ostream &out);
void printReadSubmissionHelp(std::ostream &out);
void printOccupancyHelp(std::ostream &out);
void printDevicesHelp(std::ostream &out);
void printCheckHelp(std::ostream &out);
void printRunHelp(std::ostream &out);
void printWorkerHelp(std::ostream &out);
void printCompileServerHelp(std::ostream &out);
void printMeasureHelp(std::ostream &out);
void printInspectHelp(std::ostream &out);
void printCompareHelp(std::ostream &out);
void printSweepHelp(std::ostream &out);
void printSassHelp(std::ostream &out);
void printMergeHelp(std::ostream &out);

// "cuwb compile: unknown option --x" plus a pointer to the help, on std::cerr; returns 2.
int usageError(const std::string &command, const std::string &message);

} // namespace cuwb::cli
