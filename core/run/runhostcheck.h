// RunHostCheck: what a run of a request would fail on that the host can find without a GPU,
// beyond the launch's limits (launch/launchvalidation.h). The verification is checked as the
// worker will make it: its output buffer, its `count`, its expression and its mask compiled
// into the very kernels the worker compiles (run/elementkernelsource.h) for the project's
// architecture, its reference kernel looked up in the module, its aggregate's `of` and
// `expected`, its reference file; and every file the run reads (the `file` inits of buffers and
// globals, the reference) is read up to its header and checked against the buffer it fills
// (run/bufferfiles.h: .npy dtype, order and number of values; a raw file's size). One function
// per check, each giving LaunchIssues that name their field; checkRunOnHost() runs them all.
// `cuwb check` runs them in-process; the window's Problems dock through its compile server.
#pragma once

#include "compiler/compilefunction.h"
#include "compiler/compileresult.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"

#include <string>
#include <vector>

namespace cuwb {

// What the checks read: the launch as it resolved, the project's compiled module (for the
// reference kernel), the architecture to compile the verification's kernels for, and who runs
// the compiler.
struct RunHostContext
{
    const ResolvedLaunch &resolved;
    const CompileResult &compiled;
    std::string arch;
    CompileFunction compile;
};

// The output names a buffer of the launch.
std::vector<LaunchIssue> checkVerificationOutput(const VerificationSpec &verification,
                                                 const ResolvedLaunch &resolved);
// `count` evaluates to a whole number from 1 to the output's elements.
std::vector<LaunchIssue> checkVerificationCount(const VerificationSpec &verification,
                                                const ResolvedLaunch &resolved);
// An expression reference compiles as the worker's kernel (and the output is not of a vector
// type, which an expression cannot give).
std::vector<LaunchIssue> checkVerificationExpression(const VerificationSpec &verification,
                                                     const RunHostContext &context);
// The mask compiles as the worker's kernel.
std::vector<LaunchIssue> checkVerificationMask(const VerificationSpec &verification,
                                               const RunHostContext &context);
// A kernel reference names a kernel of the module.
std::vector<LaunchIssue> checkReferenceKernel(const VerificationSpec &verification,
                                              const CompileResult &compiled);
// A file reference exists and holds the output's elements.
std::vector<LaunchIssue> checkReferenceFile(const VerificationSpec &verification,
                                            const ResolvedLaunch &resolved);
// An aggregate compares with a buffer of the launch or an `expected` that evaluates.
std::vector<LaunchIssue> checkAggregate(const VerificationSpec &verification,
                                        const ResolvedLaunch &resolved);
// Every check above that applies to the verification's kind (when the launch did not resolve,
// only those that need none of its values); nothing for no verification.
std::vector<LaunchIssue> checkVerification(const VerificationSpec &verification,
                                           const RunHostContext &context);
// The `file` inits of the buffers the kernel reads (not outputs, which start as poison) and of
// the globals: each exists and (when the launch resolved) holds its buffer's elements.
std::vector<LaunchIssue> checkInputFiles(const ResolvedLaunch &resolved);

// The verification and the input files.
std::vector<LaunchIssue> checkRunOnHost(const VerificationSpec &verification,
                                        const RunHostContext &context);

} // namespace cuwb
