// RunOutcome: what a run's result means, in the one vocabulary that `cuwb run` (text and
// JSON) and the GUI's Results dock share. First what the kernel did (ran, faulted, timed out,
// could not start), then what the checks found (verification passed, failed, not configured,
// not run; out-of-bounds writes caught by the guard bands; outputs never written). A run passes
// only when the kernel ran and no check failed, and the reasons for a failure come first, so a
// kernel that completed but wrote outside its buffers reads as FAILED, never as succeeded.
// The words are documented in docs/projects.md ("Reading a run's result").
#pragma once

#include "run/runresult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

enum class KernelOutcome {
    Ran,        // launched and completed without a device error
    Faulted,    // a device error, or the worker died during the run
    TimedOut,   // still running at the deadline; the worker was killed
    NotStarted, // never launched: compile error, invalid launch, out of memory, no GPU
};
const char *kernelOutcomeName(KernelOutcome outcome); // "ran", "faulted", "timed-out", ...

enum class VerificationOutcome {
    Passed,
    Failed,
    NotConfigured, // the project has no reference
    NotRun,        // asked for, but the kernel did not complete or the reference failed
};
const char *verificationOutcomeName(VerificationOutcome outcome); // "passed", "not-run", ...

// One check of several: what its output's verification found.
struct CheckOutcome
{
    std::string output;
    std::string label; // "`c` (expression)"
    VerificationOutcome verification = VerificationOutcome::NotRun;
};

struct RunOutcome
{
    bool passed = false;
    KernelOutcome kernel = KernelOutcome::NotStarted;
    VerificationOutcome verification = VerificationOutcome::NotRun;
    std::uint64_t outOfBoundsElements = 0; // changed guard-band elements, all buffers together
    std::vector<std::string> outOfBoundsBuffers; // the parameters whose guard bands were hit
    std::uint64_t unwrittenElements = 0; // outputs still holding the poison value (not a failure)
    // Why it failed, the most serious first: the kernel, then out-of-bounds writes, then the
    // verification (one reason for each check that failed or did not run). Empty when it
    // passed.
    std::vector<std::string> reasons;
    // With several checks, each one's verdict in the project's order (`verification` is then
    // failed when any failed, else not run when any did not run, else passed); empty for one.
    std::vector<CheckOutcome> checks;

    // "PASSED" or "FAILED: reason; reason".
    [[nodiscard]] std::string headline() const;
    // The checks in one line: "verification passed; no out-of-bounds writes; every output
    // written" ("verification passed (3 checks)", "verification FAILED (1 of 3 checks
    // failed)" with several). Empty when the kernel did not run (nothing was checked).
    [[nodiscard]] std::string checksLine() const;
};

// `verificationConfigured`: whether the project asked for a verification, when the caller
// knows. Without it, a completed run without one counts as not configured (the runner always
// reports a verification that was asked for as ran, with the reason when it could not check).
RunOutcome describeRun(const RunResult &result,
                       std::optional<bool> verificationConfigured = std::nullopt);

} // namespace cuwb
