// Diagnostics as `cuwb check` and `cuwb sass` print them: "FILE:LINE:COLUMN: SEVERITY: #CODE:
// MESSAGE", the main file under the name the user knows, notes indented under their diagnostic;
// and a project opened as every command opens it, with its problems printed the same way.
#pragma once

#include "compiler/diagnostic.h"
#include "project/project.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cuwb::cli {

// `mainFile` is NVRTC's name of the main source, shown as `shownFile`.
std::string formatDiagnostic(const Diagnostic &diagnostic, const std::string &mainFile,
                             const std::string &shownFile);
void printDiagnostics(std::ostream &out, const std::vector<Diagnostic> &diagnostics,
                      const std::string &mainFile, const std::string &shownFile, int depth = 0);

// A project file that did not load, as every command prints it: "FILE:LINE:COLUMN: error:
// MESSAGE" when the problem has a place in the file, as compilers print it, so that editors and
// terminals can jump there; "FILE: MESSAGE" otherwise.
std::string projectLoadError(const std::string &path, const ProjectLoad &load);

// Prints every problem of a project's compile options as `cuwb check` does ("FILE:
// compileOptions: optimisation level 7 is out of range; use 0 to 3") and returns false; true,
// printing nothing, when they are valid. Checked before a command starts work, so that every
// command refuses what check refuses.
bool checkCompileOptions(std::ostream &err, const std::string &path, const CompileOptions &options);

// A project the user named, opened as every command that runs it opens it: loaded, its paths
// resolved against its folder, its source read, its compile options checked. On a problem it
// prints why ("cuwb COMMAND: FILE: ...", or the load error with its place) and returns nullopt;
// the command then exits with ExitUsage.
struct OpenedProject
{
    Project project;
    std::string source;
};
std::optional<OpenedProject> openProject(const char *command, const std::string &path);

} // namespace cuwb::cli
