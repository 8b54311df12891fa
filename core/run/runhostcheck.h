// RunHostCheck: what a run of a request would fail on that the host can find without a GPU,
// beyond the launch's limits (launch/launchvalidation.h). The verification is checked as the
// worker will make it: its output buffer, its `count`, its expression and its mask compiled
// into the very kernels the worker compiles (run/elementkernelsource.h) for the project's
// architecture, its reference kernel looked up in the module, its aggregate's `of` and
// `expected`, its reference file; and every file the run reads (the `file` inits of buffers and
// globals, the reference) is read up to its header and checked against the buffer it fills
// (run/bufferfiles.h: .npy dtype, order and number of values; a raw file's size). One function
// per check, each giving LaunchIssues that name their field; checkRunOnHost() runs them all.
// `cuwb check` runs them in-process; the window's Problems dock on a thread of its own, through
// a compile server (gui/launch/runcheckcontroller.h).
#pragma once

#include "compiler/compilefunction.h"
#include "compiler/compileresult.h"
#include "launch/launchsession.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"

#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// What the checks read: the launch as it resolved, the kernels of the project's module (for the
// reference kernel), the architecture to compile the verification's kernels for, and who runs
// the compiler.
struct RunHostContext
{
    const ResolvedLaunch &resolved;
    const std::vector<KernelInfo> &kernels;
    std::string arch;
    CompileFunction compile;
};

// The same, as values copied from a launch being set up (launch/launchsession.h), so that the
// window can check it on another thread: the launch resolved against the chosen kernel, the
// module's kernels, the verification, and the device's architecture (the target's without
// one), which is what the worker compiles the verification for.
struct RunHostInput
{
    ResolvedLaunch resolved;
    std::vector<KernelInfo> kernels;
    VerificationSpec verification;
    std::string arch;
    bool operator==(const RunHostInput &) const;
};
// nullopt when the session has no compiled kernel.
std::optional<RunHostInput> runHostInput(const LaunchSession &session);

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
                                              const std::vector<KernelInfo> &kernels);
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
std::vector<LaunchIssue> checkRunOnHost(const RunHostInput &input, const CompileFunction &compile);

} // namespace cuwb
