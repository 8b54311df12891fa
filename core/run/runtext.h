// RunText: the small pieces the runner's plain sentences are made of: a number as printf's %g,
// a size in bytes, MiB or GiB, "3 samples", and the first errors of a failed compile. Private to
// the runner (runner.cpp and the files of its phases); the messages they build reach the user
// through RunResult, Measurement and MetricsResult.
#pragma once

#include "compiler/compileresult.h"

#include <cstdint>
#include <string>

namespace cuwb {

std::string shortNumber(double value);                     // "%g": "1e-05", "4096"
std::string formatBytes(std::uint64_t bytes);              // "512 bytes", "1.5 MiB", "2.00 GiB"
std::string plural(std::uint64_t count, const char *word); // "1 sample", "3 samples"

// The first `most` errors of a failed compile as "file:line:column: message; …"; the failure
// message instead when there is one, the whole log when no diagnostic is an error.
std::string firstErrors(const CompileResult &compiled, int most);

} // namespace cuwb
