// VerificationSpec: how one output of a launch (a buffer, or a __constant__/__device__
// global) is to be checked: against a per-element expression over the inputs, another kernel
// of the same source, a file, or an aggregate (a sum, min or max), over which elements, and
// with which tolerance. Verification: a project's checks, any number of them, each with its
// own reference. Values of the launch's description, with no dependency on running it; what a
// check found is run/verification.h.
#pragma once

#include <string>
#include <vector>

namespace cuwb {

enum class ReferenceKind { None, Expression, Kernel, File, Aggregate };
// How an aggregate check reduces a buffer: the sum, smallest or largest element.
enum class Reduction { None, Sum, Min, Max };
const char *reductionName(Reduction reduction); // "none", "sum", "min", "max"
// AllClose: numpy's allclose, |out - ref| <= atol + rtol * |ref| for each element.
enum class ToleranceKind { Absolute, Relative, Ulp, AllClose };
const char *referenceKindName(ReferenceKind kind); // "none", "expression", "kernel", "file"
const char *toleranceKindName(ToleranceKind kind); // "abs", "rel", "ulp", "allclose"

struct VerificationSpec
{
    ReferenceKind kind = ReferenceKind::None;
    // What to check: a buffer (the parameter's name, or a buffer a later kernel of a sequence
    // declares), or a __constant__/__device__ global of the module, as the launch left it.
    std::string output;
    // Expression: CUDA C++ over the buffers' names indexed by i, the variables and the module's
    // globals (as the launch set them), e.g. "a[i] + b[i]" or "alpha * x[i] + c_scale"; compiled
    // by the worker into a kernel.
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
    // AllClose: both bounds, as numpy's allclose(out, ref, rtol, atol) takes them.
    double atol = 1e-8;
    double rtol = 1e-5;
    bool operator==(const VerificationSpec &) const = default;

    // "`c` (expression)", "`partial` (sum of the first grid.x)": how messages name the check.
    [[nodiscard]] std::string label() const;
    // "abs <= 1e-05", "|out - ref| <= 1e-08 + 1e-05 * |ref|".
    [[nodiscard]] std::string toleranceText() const;
};

// A project's verification: its checks, each with its own reference; none when it verifies
// nothing. In a project file it is one object (one check, or {"kind": "none"}), as it always
// was, or an array of objects; `listForm` remembers an array so that a file is written back in
// the form it was read (an array of one check stays an array). It takes no part in ==.
struct Verification
{
    std::vector<VerificationSpec> checks;
    bool listForm = false;

    Verification() = default;
    Verification(VerificationSpec check) // one check, or none for a spec of kind None
    {
        if (check.kind != ReferenceKind::None)
            checks.push_back(std::move(check));
    }

    [[nodiscard]] bool configured() const { return !checks.empty(); }
    // The reference kernels the checks name (for the compile's name expressions).
    [[nodiscard]] std::vector<std::string> referenceKernels() const;
    // The first check, or a spec of kind None: for views that show one check.
    [[nodiscard]] VerificationSpec first() const;
    bool operator==(const Verification &other) const { return checks == other.checks; }
};

} // namespace cuwb
