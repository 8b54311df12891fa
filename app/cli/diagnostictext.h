// Diagnostics as `cuwb check` and `cuwb sass` print them: "FILE:LINE:COLUMN: SEVERITY: #CODE:
// MESSAGE", the main file under the name the user knows, notes indented under their diagnostic.
#pragma once

#include "compiler/diagnostic.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace cuwb::cli {

// `mainFile` is NVRTC's name of the main source, shown as `shownFile`.
std::string formatDiagnostic(const Diagnostic &diagnostic, const std::string &mainFile,
                             const std::string &shownFile);
void printDiagnostics(std::ostream &out, const std::vector<Diagnostic> &diagnostics,
                      const std::string &mainFile, const std::string &shownFile, int depth = 0);

} // namespace cuwb::cli
