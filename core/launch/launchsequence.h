// LaunchSequence: the further kernels of a launch (LaunchSpec::then) in a compiled module. Every
// kernel of a sequence comes from the one module the project's source compiles to; these
// helpers find each one by the name the user wrote, read its signature for resolveLaunch(), and
// check each kernel's block, grid and shared memory against its own resources, for the worker,
// `cuwb check`, the sweep's host check and the Launch dock alike.
#pragma once

#include "compiler/compileresult.h"
#include "kernel/kernelsignature.h"
#include "launch/launchspec.h"
#include "launch/launchvalidation.h"
#include "launch/verificationspec.h"

#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct SequenceKernels
{
    std::vector<const KernelInfo *> kernels; // per step; null where the name found none
    std::vector<KernelSignature> signatures; // per step; with an error where not found
    std::vector<LaunchIssue> issues;         // "then[0] (finish): kernel: ..."
    [[nodiscard]] bool ok() const { return issues.empty(); }
};

// Finds the kernel of every step of `launch.then` in `compiled` and reads its signature from
// `source`. A step whose kernel is not found has a signature with that error.
SequenceKernels findSequenceKernels(const LaunchSpec &launch, const CompileResult &compiled,
                                    std::string_view source);
// The same from a module's kernels and PTX (what the Launch dock keeps of a compile).
SequenceKernels findSequenceKernels(const LaunchSpec &launch,
                                    const std::vector<KernelInfo> &kernels, std::string_view ptx,
                                    std::string_view source);

// A further kernel as it is first added to `launch`'s sequence: each pointer parameter bound to
// the sequence's buffer of the same name, else (a const pointer) to the only one of its element
// type not bound yet, else a buffer of its own (an input or an output as the pointer is const or
// not; `count` the first buffer's, or "N"); each scalar set to the
// launch's variable of the same name, else "N" for a count-like name (n, count, size...), else
// 1. Its block is the first kernel's (`block.x`...), its grid one block per `block.x` elements
// of the first buffer it writes. `kernel` is left to the caller.
KernelStep defaultStep(const KernelSignature &signature, const LaunchSpec &launch);

// Each further kernel's resolved block, grid and shared memory against the limits and its own
// registers, static shared memory and __launch_bounds__, with "then[k] (name): " before each
// issue's field. Empty when every step would launch.
std::vector<LaunchIssue> validateSequence(const LaunchSpec &launch, const ResolvedLaunch &resolved,
                                          const SequenceKernels &kernels,
                                          const ValidationContext &context);

// The kernels a launch names, for the compile's name expressions (template instantiations):
// its own, its further kernels' and the checks' reference kernels.
std::vector<std::string> launchKernelNames(const LaunchSpec &launch,
                                           const Verification &verification);

} // namespace cuwb
