// ElementKernel: a verification expression made into a kernel that writes one value per element
// before the launch: out[i] = (T)(EXPR) for an expression reference, out[i] = EXPR ? 1 : 0 for a
// mask (its source and compile: run/elementkernelsource.h, which `cuwb check` compiles too).
// Compiled by the runner's compiler for the device's architecture and run on its stream, within
// the launch's deadline. Used by Reference.
#pragma once

#include "cuda/devicememory.h"
#include "cuda/driverwrappers.h"

#include <cstdint>
#include <memory>
#include <string>

namespace cuwb {

struct Prepared;
struct RunnerState;

// One element-wise kernel of the verification: `expression` written to `target` for
// every i < count (see elementKernelSource).
struct ElementKernel
{
    const std::string &expression;
    const char *label; // "verification expression", "verification mask"
    bool condition;    // write 1 where the expression holds, else 0
    std::string outputType;
    DevicePointer target;
    std::uint64_t count;
};

// Compiles and runs `job` on the prepared launch's buffers, keeping the module in `module`;
// returns why it could not, or "" when the target holds the values. Throws like a launch
// (ApiError, or RunFailure on overrunning the deadline).
std::string runElementKernel(RunnerState &runner, Prepared &prepared, const ElementKernel &job,
                             std::unique_ptr<Module> &module, std::string &phase);

} // namespace cuwb
