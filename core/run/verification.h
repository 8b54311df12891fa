// Verification: how an output buffer is checked (against a per-element expression over the
// inputs, another kernel of the same source, or a file) and what the check found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

enum class ReferenceKind { None, Expression, Kernel, File, Aggregate };
// How an aggregate check reduces a buffer: the sum, smallest or largest element.
enum class Reduction { None, Sum, Min, Max };
const char *reductionName(Reduction reduction); // "none", "sum", "min", "max"
enum class ToleranceKind { Absolute, Relative, Ulp };
const char *referenceKindName(ReferenceKind kind); // "none", "expression", "kernel", "file"
const char *toleranceKindName(ToleranceKind kind); // "abs", "rel", "ulp"

struct VerificationSpec
{
    ReferenceKind kind = ReferenceKind::None;
    std::string output; // parameter name of the buffer to check
    // Expression: CUDA C++ over the buffers' names indexed by i and the variables,
    // e.g. "a[i] + b[i]" or "alpha * x[i] + y[i]"; compiled by the worker into a kernel.
    std::string expression;
    // Kernel: the lowered name of another kernel of the same source with the same parameters;
    // it runs on copies of the initial buffers and its `output` is the reference.
    std::string referenceKernel;
    std::string file; // File: .npy or .bin of the output's element type
    // Aggregate: reduce(output's first `count` elements) against reduce(`of`, as it was
    // before the launch) or against the value of `expected`, an expression over the
    // variables (e.g. "N * (N - 1) / 2"). Kernel: with a reduction, the two outputs' reductions
    // are compared instead of the elements (partial results whose layout differs).
    Reduction reduce = Reduction::None;
    std::string of;
    std::string expected;
    // Only the first `count` elements of the output are meaningful (an expression; empty: all
    // of them), as with an auto-tuner's `answer` for partly written outputs.
    std::string count;
    // Element-wise checks only: a CUDA C++ condition over the element index `i`, the buffers
    // as they were before the launch and the launch's numbers (e.g. "i % 32 == 0" or
    // "in[i] != 0"); only the elements where it holds are compared, as with a partly
    // meaningful `answer`. Empty: every element (up to `count`).
    std::string mask;
    ToleranceKind tolerance = ToleranceKind::Relative;
    double toleranceValue = 1e-5; // abs/rel: the bound; ulp: units in the last place
    bool operator==(const VerificationSpec &) const = default;
};

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
