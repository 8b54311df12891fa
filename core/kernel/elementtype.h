// ElementType: the scalar and vector types a kernel parameter can point to or hold, with
// their sizes and names, shared by signatures, buffers, exports and the worker protocol.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cuwb {

enum class ScalarKind {
    Bool,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float16,  // half / __half
    BFloat16, // __nv_bfloat16
    Float32,
    Float64,
};

struct ElementType
{
    ScalarKind scalar = ScalarKind::Float32;
    int lanes = 1; // 1 for scalars, 2..4 for float4-style vector types

    [[nodiscard]] std::size_t sizeBytes() const;  // float4 -> 16
    [[nodiscard]] std::size_t alignBytes() const; // CUDA's alignment of the type
    [[nodiscard]] std::string name() const;       // "float4", "half", "uint32_t"
    [[nodiscard]] bool isFloating() const;        // Float16, BFloat16, Float32, Float64
    [[nodiscard]] bool isSigned() const;
    bool operator==(const ElementType &) const = default;
};

std::size_t scalarSizeBytes(ScalarKind kind);
const char *scalarName(ScalarKind kind); // canonical: "float", "int32", "half", ...

// CUDA/C++ spellings: "float", "unsigned int", "int32_t", "size_t", "char", "signed char",
// "half", "__half", "__nv_bfloat16", "float4", "int2", "uchar4", "long long", "double2", ...
// nullopt for anything else.
std::optional<ElementType> parseElementType(std::string_view typeText);

// NumPy dtype string for .npy ("<f4", "<i8", "<f2", ...); empty for bfloat16, which
// NumPy has not got (it is exported as "<u2" raw bits, said in the header comment).
std::string numpyDescr(ScalarKind kind);

} // namespace cuwb
