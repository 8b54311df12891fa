// RunText: the small pieces the runner's plain sentences are made of: a number as printf's %g
// and the first errors of a failed compile (sizes and counted nouns: util/format.h). Private to
// the runner (runner.cpp and the files of its phases); the messages they build reach the user
// through RunResult, Measurement and MetricsResult.
#pragma once

#include "compiler/compileresult.h"
#include "util/format.h" // formatBytes, plural

#include <cstdint>
#include <string>

namespace cuwb {

std::string shortNumber(double value); // "%g": "1e-05", "4096"

// The first `most` errors of a failed compile as "file:line:column: message; …"; the failure
// message instead when there is one, the whole log when no diagnostic is an error.
std::string firstErrors(const CompileResult &compiled, int most);

} // namespace cuwb
