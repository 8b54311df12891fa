// Verification: what the check of an output buffer found (launch/verificationspec.h says how
// it is checked): the elements compared, the mismatches and where they are, the largest error.
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
    double maxError = 0.0;
    std::uint64_t maxErrorIndex = 0;
    std::vector<Mismatch> firstMismatches; // at most 10
    // Aggregate checks: the two reductions compared.
    std::optional<double> aggregateActual;
    std::optional<double> aggregateExpected;
};

} // namespace cuwb
