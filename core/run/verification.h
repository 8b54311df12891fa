// Verification: what the checks of a run found (launch/verificationspec.h says how each output
// is checked): per check, the elements compared, the mismatches and where they are, and the
// largest errors, absolute and relative, wherever the tolerance; and the run's overall verdict
// over all of its checks.
#pragma once

#include "launch/verificationspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct Mismatch
{
    std::uint64_t index = 0;
    double actual = 0.0;
    double expected = 0.0;
    double error = 0.0;                  // in the tolerance's unit
    std::uint64_t block[3] = {0, 0, 0};  // the block and thread that own element `index`
    std::uint64_t thread[3] = {0, 0, 0}; // under one-element-per-thread, x-major numbering
};

struct VerificationResult
{
    bool ran = false;
    bool passed = false;
    std::string message; // "12 of 16777216 elements differ (rel > 1e-05)" or why it could not run
    std::uint64_t checked = 0;
    std::uint64_t mismatches = 0;
    double maxError = 0.0; // in the tolerance's unit (allclose: times the allowance)
    std::uint64_t maxErrorIndex = 0;
    std::vector<Mismatch> firstMismatches; // at most 10
    // Aggregate checks: the two reductions compared.
    std::optional<double> aggregateActual;
    std::optional<double> aggregateExpected;
    // The output checked and how ("`c` (expression)"); both empty in the overall verdict of
    // several checks.
    std::string output;
    std::string label;
    // The largest errors over the elements compared, whatever the tolerance: |out - ref|, and
    // |out - ref| / |ref| over the elements whose reference is not 0, each with its element
    // index (an aggregate: its two reductions, index 0). Absent when nothing was compared.
    std::optional<double> maxAbsError;
    std::uint64_t maxAbsErrorIndex = 0;
    std::optional<double> maxRelError;
    std::uint64_t maxRelErrorIndex = 0;
};

// The overall verdict of a run's checks: for one check that check itself; for several, ran
// when any ran, passed when all ran and passed, the counts summed, the largest errors and the
// first mismatches those of the first check that failed (else the first check), and a message
// that says how many passed and then, one line each, what every check found.
VerificationResult combineChecks(const std::vector<VerificationResult> &checks);

// "abs 3e-07 at c[12], rel 1.2e-06 at c[40]": the largest errors of a check; empty when none
// was measured. An aggregate has no index: "abs 0.5, rel 1e-06 (sum)".
std::string largestErrorText(const VerificationResult &check);

// The check among `checks` whose largest relative error is largest (a failed one first), for
// a one-line summary of several; null when none measured an error.
const VerificationResult *worstCheck(const std::vector<VerificationResult> &checks);

} // namespace cuwb
