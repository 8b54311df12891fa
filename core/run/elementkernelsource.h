// The source of a verification's element-wise kernel (run/elementkernel.h) and its compile,
// without a GPU: out[i] = (T)(EXPR) for an expression reference, out[i] = EXPR ? 1 : 0 for a
// mask, with every buffer of the launch bound by its name (read-only) and the launch's numbers
// (scalar arguments, variables) as kernel parameters, so that one compile serves every
// configuration of a sweep; an expression that needs them as constant expressions is compiled
// again with constexpr constants. The worker compiles it for its device and runs it;
// `cuwb check` and the window compile the very same text for the project's architecture, so
// they find what the worker would (run/runhostcheck.h).
#pragma once

#include "compiler/compilefunction.h"
#include "compiler/compileresult.h"
#include "launch/launchspec.h"

#include <string>
#include <vector>

namespace cuwb {

// One number the expression may use: a scalar argument or a launch name.
struct ElementKernelValue
{
    std::string name;
    std::string type; // the scalar's own type (float for half types), "long long" or "double"
    double value = 0.0;
    std::vector<unsigned char> bytes; // the value as `type`, for a kernel parameter
};

// The scalar arguments and launch names of `resolved` that are identifiers no buffer takes.
std::vector<ElementKernelValue> elementKernelValues(const ResolvedLaunch &resolved);

// What to compute: `expression` (CUDA C++ over i, the buffers and the values) written as
// `outputType`, or as 1/0 for a `condition`. `label` names it in diagnostics and messages:
// "verification expression", "verification mask".
struct ElementKernelJob
{
    std::string expression;
    std::string label;
    bool condition = false;
    std::string outputType;
};

// The kernel `cuwb_reference(out, n, buffers..., values...)`; with `asParameters` false the
// values are constexpr constants and not parameters.
std::string elementKernelSource(const ElementKernelJob &job, const ResolvedLaunch &resolved,
                                const std::vector<ElementKernelValue> &values, bool asParameters);

struct ElementKernelCompile
{
    CompileResult compiled;
    // The values the kernel takes as parameters after the buffers; empty when it was compiled
    // with constants.
    std::vector<ElementKernelValue> parameters;
    // Why it could not be compiled ("the verification mask did not compile: ..."), or empty.
    std::string error;
};

// Compiles `job` for `arch` as the worker does: with parameters first, with constants when that
// fails; `compile` runs the compiler (the runner's, or the host's).
ElementKernelCompile compileElementKernel(const ElementKernelJob &job,
                                          const ResolvedLaunch &resolved, const std::string &arch,
                                          const CompileFunction &compile);

} // namespace cuwb
