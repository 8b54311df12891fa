#include "launch/verificationspec.h"

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
    }
    return "?";
}

} // namespace cuwb
