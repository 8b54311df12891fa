// Kernel Tuner's conventions for the source it compiles, applied to a copy of the source for one
// compile (the user's file is never changed). A define whose name contains `loop_unroll_factor`
// (a tunable parameter such as `loop_unroll_factor_0`, from a sweep axis, a launch define or the
// compile options) is not passed as a macro: `#pragma unroll` takes a constant expression and
// does not expand macros, so Kernel Tuner declares it `constexpr int NAME = VALUE;` before the
// source, and with the value 0 it removes the `#pragma unroll NAME` lines instead, which leaves
// the unrolling to the compiler. The same is done here, followed by `#line 1` so diagnostics
// keep the user's line numbers; what was done comes back as remarks at the lines it concerns.
// KernelCompiler::compile applies it to every compile (editor, check, sweep, worker).
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

// Whether a define of this name is a loop unroll factor (its name contains
// `loop_unroll_factor`, as Kernel Tuner tests it).
bool isLoopUnrollFactor(std::string_view defineName);

struct TunerSource
{
    std::string source;     // what is compiled
    CompileOptions options; // without the defines that became constants
    int prefixLines = 0;    // lines put before the user's first line (the last is `#line 1`)
    std::vector<Diagnostic> remarks; // what was done, at the user's lines (0: not about a line)
    std::vector<std::string> notes;  // the same, once a factor, for the compile's notes
    // A loop unroll factor that is not a whole number: the compile stops with this error
    // (a constexpr int of it would be reported at a line the user never wrote).
    std::optional<Diagnostic> error;
};

// The source and options to compile under Kernel Tuner's conventions; nullopt when no define of
// `options` is a loop unroll factor (the source compiles as it is).
std::optional<TunerSource> applyTunerConventions(std::string_view source, std::string_view fileName,
                                                 const CompileOptions &options);

} // namespace cuwb
