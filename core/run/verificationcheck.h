// VerificationCheck: everything about a project's checks that can be known without a GPU, in
// one function for `cuwb check`, the sweep's host check and the window's Problems: each check's
// output exists (a buffer of the launch, a further kernel's included, or a module global of an
// element type), its reference is usable (a reference kernel exists and takes the first kernel's
// parameters, a reference file exists, an aggregate's `of` is a buffer and its `expected`
// evaluates), its `count` evaluates to a whole number within the output, and its expression and
// mask compile into the very kernels the worker will run (run/elementsource.h); a reference
// file, once the launch resolved, is read up to its header and checked against the output
// (run/bufferfiles.h: a .npy's dtype, order and number of values, a raw file's size).
#pragma once

#include "compiler/compilefunction.h"
#include "compiler/compileresult.h"
#include "launch/devicenames.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"

#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct VerificationContext
{
    const CompileResult &compiled;  // the project's module (its PTX lists the globals)
    std::string_view source;        // the project's source (the globals' declared types)
    const ResolvedLaunch &resolved; // the launch resolved: buffers, scalars and names
    // Compiles the expressions and masks: in-process, or in the GUI through a compile server
    // (compiler/compilefunction.h). Empty here: they are not compiled, only the rest is checked.
    CompileFunction compile;
    std::string arch = "sm_90";   // what to compile them for: the project's target
    bool filesMustExist = true;   // a reference file that is missing is an issue
    DeviceNames deviceNames = {}; // for the messages of `count` and `expected`
};

// The issues of every check, each with a field that names the check: "verification: mask"
// for a project with one check, "verification[1] (`d`): mask" with several. Empty when every
// check could be made.
std::vector<LaunchIssue> checkVerification(const Verification &verification,
                                           const VerificationContext &context);

// How the issues of check `index` are named: "verification" with one check, else
// "verification[index] (`output`)".
std::string checkField(const Verification &verification, std::size_t index);

} // namespace cuwb
