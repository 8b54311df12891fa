#include "launch/verificationspec.h"

#include <cstdio>

namespace cuwb {

const char *referenceKindName(ReferenceKind kind)
{
    switch (kind) {
    case ReferenceKind::None:
        return "none";
    case ReferenceKind::Expression:
        return "expression";
    case ReferenceKind::Kernel:
        return "kernel";
    case ReferenceKind::File:
        return "file";
    case ReferenceKind::Aggregate:
        return "aggregate";
    }
    return "?";
}

const char *reductionName(Reduction reduction)
{
    switch (reduction) {
    case Reduction::None:
        return "none";
    case Reduction::Sum:
        return "sum";
    case Reduction::Min:
        return "min";
    case Reduction::Max:
        return "max";
    }
    return "?";
}

const char *toleranceKindName(ToleranceKind kind)
{
    switch (kind) {
    case ToleranceKind::Absolute:
        return "abs";
    case ToleranceKind::Relative:
        return "rel";
    case ToleranceKind::Ulp:
        return "ulp";
    case ToleranceKind::AllClose:
        return "allclose";
    }
    return "?";
}

namespace {

std::string shortText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

} // namespace

std::string VerificationSpec::label() const
{
    std::string what;
    switch (kind) {
    case ReferenceKind::None:
        return "no check";
    case ReferenceKind::Expression:
        what = "expression";
        break;
    case ReferenceKind::Kernel:
        what = "reference kernel " + referenceKernel;
        break;
    case ReferenceKind::File:
        what = "file";
        break;
    case ReferenceKind::Aggregate:
        what = std::string(reductionName(reduce)) +
               (of.empty()
                    ? " against " + expected
                    : " against the " + std::string(reductionName(reduce)) + " of `" + of + "`");
        break;
    }
    return "`" + output + "` (" + what + ")";
}

std::string VerificationSpec::toleranceText() const
{
    if (tolerance == ToleranceKind::AllClose)
        return "|out - ref| <= " + shortText(atol) + " + " + shortText(rtol) + " * |ref|";
    return std::string(toleranceKindName(tolerance)) + " <= " + shortText(toleranceValue);
}

std::vector<std::string> Verification::referenceKernels() const
{
    std::vector<std::string> names;
    for (const VerificationSpec &check : checks) {
        if (check.kind == ReferenceKind::Kernel && !check.referenceKernel.empty())
            names.push_back(check.referenceKernel);
    }
    return names;
}

VerificationSpec Verification::first() const
{
    return checks.empty() ? VerificationSpec{} : checks.front();
}

} // namespace cuwb
