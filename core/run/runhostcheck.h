// RunHostCheck: what a run of a launch would fail on that the host can find without a GPU,
// beyond the launch's limits (launch/launchvalidation.h): every check of the verification as
// run/verificationcheck.h checks it (outputs, references, counts, and the expressions and masks
// compiled into the very kernels the worker compiles), and every file the run reads for its
// inputs, read up to its header and checked against the buffer it fills (run/bufferfiles.h:
// a .npy's dtype, order and number of values; a raw file's size). `cuwb check` runs it
// in-process; the window's Problems dock on a thread of its own, through a compile server
// (gui/launch/runcheckcontroller.h).
#pragma once

#include "compiler/compilefunction.h"
#include "compiler/compileresult.h"
#include "launch/devicenames.h"
#include "launch/launchsession.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"

#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// The `file` inits of the buffers the kernels read (not outputs, which start as poison) and of
// the globals: each exists and (when the launch resolved) holds its buffer's elements.
std::vector<LaunchIssue> checkInputFiles(const ResolvedLaunch &resolved);

// A launch being set up (launch/launchsession.h), copied as values so that the window can check
// it on another thread: the launch resolved against the chosen kernel, the module (its kernels
// for reference kernels, its PTX for the globals), the source, the verification, and the
// device's architecture (the target's without one), which the worker compiles the checks for.
struct RunHostInput
{
    ResolvedLaunch resolved;
    CompileResult module; // kernels and ptx only
    std::string source;
    Verification verification;
    std::string arch;
    DeviceNames deviceNames;
    bool operator==(const RunHostInput &) const;
};
// nullopt when the session has no compiled kernel.
std::optional<RunHostInput> runHostInput(const LaunchSession &session);

// The verification's checks and the input files.
std::vector<LaunchIssue> checkRunOnHost(const RunHostInput &input, const CompileFunction &compile);

} // namespace cuwb
