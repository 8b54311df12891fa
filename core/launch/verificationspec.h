// VerificationSpec: how an output buffer of a launch is to be checked: against a per-element
// expression over the inputs, another kernel of the same source, a file, or an aggregate (a
// sum, min or max), over which elements, and with which tolerance. A value of the launch's
// description, with no dependency on running it; what a check found is run/verification.h.
#pragma once

#include <string>

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

} // namespace cuwb
