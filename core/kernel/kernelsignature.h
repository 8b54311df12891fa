// KernelSignature: a kernel's parameters, read from its declaration in the source (names,
// const, __restrict__, pointer or scalar, element type) and checked against the parameter
// sizes of its PTX `.entry`, so the launch panel can offer exactly the arguments it needs.
#pragma once

#include "kernel/elementtype.h"

#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct KernelInfo;

struct KernelParameter
{
    std::string name; // "a"; "param_2" when the declaration has none
    std::string
        typeText; // as written (after template substitution), e.g. "const float *__restrict__"
    bool isPointer = false;
    bool isConst = false; // the pointee is const (pointers) or the value is (scalars)
    bool isRestrict = false;
    ElementType elementType;      // pointee type for pointers, value type for scalars
    bool elementTypeKnown = true; // false when the type names no ElementType (struct, void, ...)
    std::size_t sizeBytes = 0;    // of the parameter itself: 8 for pointers
    std::size_t ptxSizeBytes = 0; // from the PTX .entry, 0 when unknown
    bool supported = true;
    std::string
        unsupportedReason; // "structs passed by value cannot be driven from the launch panel"
    bool operator==(const KernelParameter &) const = default;
};

struct KernelSignature
{
    std::string kernelName; // lowered name
    std::vector<KernelParameter> parameters;
    std::string error; // why the declaration could not be read at all; empty when fine

    [[nodiscard]] bool drivable() const; // no error and every parameter supported
};

// Parses the parameter list of `kernel` from `source` (its declaration at kernel.sourceLine,
// template arguments substituted from kernel.readableName) and checks it against the
// `.entry` of kernel.loweredName in `ptx`.
KernelSignature parseKernelSignature(std::string_view source, std::string_view ptx,
                                     const KernelInfo &kernel);

// Parameter sizes of one `.entry` in PTX, in order; empty when the entry is not found.
std::vector<std::size_t> ptxEntryParameterSizes(std::string_view ptx, std::string_view entry);

} // namespace cuwb
