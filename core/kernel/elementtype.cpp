#include "kernel/elementtype.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace cuwb {

namespace {

struct Spelling
{
    std::string_view text;
    ScalarKind kind;
};

// Scalar spellings after whitespace normalisation (single spaces). `char` is signed on every
// platform CUDA supports; `long` is 64 bits on the Linux hosts NVRTC targets here.
constexpr std::array kScalarSpellings{
    Spelling{"bool", ScalarKind::Bool},
    Spelling{"char", ScalarKind::Int8},
    Spelling{"signed char", ScalarKind::Int8},
    Spelling{"unsigned char", ScalarKind::UInt8},
    Spelling{"int8_t", ScalarKind::Int8},
    Spelling{"uint8_t", ScalarKind::UInt8},
    Spelling{"short", ScalarKind::Int16},
    Spelling{"short int", ScalarKind::Int16},
    Spelling{"signed short", ScalarKind::Int16},
    Spelling{"signed short int", ScalarKind::Int16},
    Spelling{"unsigned short", ScalarKind::UInt16},
    Spelling{"unsigned short int", ScalarKind::UInt16},
    Spelling{"int16_t", ScalarKind::Int16},
    Spelling{"uint16_t", ScalarKind::UInt16},
    Spelling{"int", ScalarKind::Int32},
    Spelling{"signed", ScalarKind::Int32},
    Spelling{"signed int", ScalarKind::Int32},
    Spelling{"unsigned", ScalarKind::UInt32},
    Spelling{"unsigned int", ScalarKind::UInt32},
    Spelling{"int32_t", ScalarKind::Int32},
    Spelling{"uint32_t", ScalarKind::UInt32},
    Spelling{"long", ScalarKind::Int64},
    Spelling{"long int", ScalarKind::Int64},
    Spelling{"signed long", ScalarKind::Int64},
    Spelling{"signed long int", ScalarKind::Int64},
    Spelling{"unsigned long", ScalarKind::UInt64},
    Spelling{"unsigned long int", ScalarKind::UInt64},
    Spelling{"long long", ScalarKind::Int64},
    Spelling{"long long int", ScalarKind::Int64},
    Spelling{"signed long long", ScalarKind::Int64},
    Spelling{"signed long long int", ScalarKind::Int64},
    Spelling{"unsigned long long", ScalarKind::UInt64},
    Spelling{"unsigned long long int", ScalarKind::UInt64},
    Spelling{"int64_t", ScalarKind::Int64},
    Spelling{"uint64_t", ScalarKind::UInt64},
    Spelling{"size_t", ScalarKind::UInt64},
    Spelling{"ptrdiff_t", ScalarKind::Int64},
    Spelling{"intptr_t", ScalarKind::Int64},
    Spelling{"uintptr_t", ScalarKind::UInt64},
    Spelling{"clock_t", ScalarKind::Int64}, // long on Linux x86-64 and aarch64, as NVRTC has it
    Spelling{"time_t", ScalarKind::Int64},
    Spelling{"half", ScalarKind::Float16},
    Spelling{"__half", ScalarKind::Float16},
    Spelling{"__nv_bfloat16", ScalarKind::BFloat16},
    Spelling{"nv_bfloat16", ScalarKind::BFloat16},
    Spelling{"bfloat16", ScalarKind::BFloat16},
    Spelling{"float", ScalarKind::Float32},
    Spelling{"double", ScalarKind::Float64},
};

// Vector type stems of vector_types.h ("float" + "4").
constexpr std::array kVectorStems{
    Spelling{"char", ScalarKind::Int8},      Spelling{"uchar", ScalarKind::UInt8},
    Spelling{"short", ScalarKind::Int16},    Spelling{"ushort", ScalarKind::UInt16},
    Spelling{"int", ScalarKind::Int32},      Spelling{"uint", ScalarKind::UInt32},
    Spelling{"long", ScalarKind::Int64},     Spelling{"ulong", ScalarKind::UInt64},
    Spelling{"longlong", ScalarKind::Int64}, Spelling{"ulonglong", ScalarKind::UInt64},
    Spelling{"float", ScalarKind::Float32},  Spelling{"double", ScalarKind::Float64},
};

std::string normaliseSpaces(std::string_view text)
{
    std::string result;
    bool pendingSpace = false;
    for (const char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            pendingSpace = !result.empty();
            continue;
        }
        if (pendingSpace)
            result += ' ';
        pendingSpace = false;
        result += c;
    }
    return result;
}

} // namespace

std::size_t scalarSizeBytes(ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Bool:
    case ScalarKind::Int8:
    case ScalarKind::UInt8:
        return 1;
    case ScalarKind::Int16:
    case ScalarKind::UInt16:
    case ScalarKind::Float16:
    case ScalarKind::BFloat16:
        return 2;
    case ScalarKind::Int32:
    case ScalarKind::UInt32:
    case ScalarKind::Float32:
        return 4;
    case ScalarKind::Int64:
    case ScalarKind::UInt64:
    case ScalarKind::Float64:
        return 8;
    }
    return 0;
}

const char *scalarName(ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Bool:
        return "bool";
    case ScalarKind::Int8:
        return "int8";
    case ScalarKind::UInt8:
        return "uint8";
    case ScalarKind::Int16:
        return "int16";
    case ScalarKind::UInt16:
        return "uint16";
    case ScalarKind::Int32:
        return "int32";
    case ScalarKind::UInt32:
        return "uint32";
    case ScalarKind::Int64:
        return "int64";
    case ScalarKind::UInt64:
        return "uint64";
    case ScalarKind::Float16:
        return "half";
    case ScalarKind::BFloat16:
        return "bfloat16";
    case ScalarKind::Float32:
        return "float";
    case ScalarKind::Float64:
        return "double";
    }
    return "?";
}

std::size_t ElementType::sizeBytes() const
{
    return scalarSizeBytes(scalar) * std::size_t(std::max(lanes, 1));
}

std::size_t ElementType::alignBytes() const
{
    // vector_types.h: 2-lane types are aligned to their size, 3-lane types to their
    // component, 4-lane types to their size capped at 16 (the *_16a variants of the 64-bit
    // ones). half2 and __nv_bfloat162 are aligned to 4.
    const std::size_t component = scalarSizeBytes(scalar);
    switch (lanes) {
    case 2:
        return 2 * component;
    case 4:
        return std::min<std::size_t>(4 * component, 16);
    default:
        return component;
    }
}

std::string ElementType::name() const
{
    if (lanes <= 1) {
        switch (scalar) {
        case ScalarKind::Bool:
            return "bool";
        case ScalarKind::Int8:
            return "int8_t";
        case ScalarKind::UInt8:
            return "uint8_t";
        case ScalarKind::Int16:
            return "int16_t";
        case ScalarKind::UInt16:
            return "uint16_t";
        case ScalarKind::Int32:
            return "int32_t";
        case ScalarKind::UInt32:
            return "uint32_t";
        case ScalarKind::Int64:
            return "int64_t";
        case ScalarKind::UInt64:
            return "uint64_t";
        case ScalarKind::Float16:
            return "half";
        case ScalarKind::BFloat16:
            return "__nv_bfloat16";
        case ScalarKind::Float32:
            return "float";
        case ScalarKind::Float64:
            return "double";
        }
    }
    const std::string count = std::to_string(lanes);
    switch (scalar) {
    case ScalarKind::Bool:
        return "bool" + count; // not a CUDA type; never produced by parseElementType
    case ScalarKind::Int8:
        return "char" + count;
    case ScalarKind::UInt8:
        return "uchar" + count;
    case ScalarKind::Int16:
        return "short" + count;
    case ScalarKind::UInt16:
        return "ushort" + count;
    case ScalarKind::Int32:
        return "int" + count;
    case ScalarKind::UInt32:
        return "uint" + count;
    case ScalarKind::Int64:
        return "longlong" + count;
    case ScalarKind::UInt64:
        return "ulonglong" + count;
    case ScalarKind::Float16:
        return "half" + count;
    case ScalarKind::BFloat16:
        return "__nv_bfloat16" + count;
    case ScalarKind::Float32:
        return "float" + count;
    case ScalarKind::Float64:
        return "double" + count;
    }
    return "?";
}

bool ElementType::isFloating() const
{
    return scalar == ScalarKind::Float16 || scalar == ScalarKind::BFloat16 ||
           scalar == ScalarKind::Float32 || scalar == ScalarKind::Float64;
}

bool ElementType::isSigned() const
{
    switch (scalar) {
    case ScalarKind::Int8:
    case ScalarKind::Int16:
    case ScalarKind::Int32:
    case ScalarKind::Int64:
        return true;
    default:
        return isFloating();
    }
}

std::optional<ElementType> parseElementType(std::string_view typeText)
{
    std::string text = normaliseSpaces(typeText);
    // A leading std:: or :: qualifies the fixed-width names only.
    for (const std::string_view prefix : {std::string_view("std::"), std::string_view("::")}) {
        if (text.starts_with(prefix))
            text.erase(0, prefix.size());
    }
    for (const Spelling &spelling : kScalarSpellings) {
        if (text == spelling.text)
            return ElementType{spelling.kind, 1};
    }
    // half2, __half2, __nv_bfloat162, nv_bfloat162: the only 16-bit float vectors.
    if (text == "half2" || text == "__half2")
        return ElementType{ScalarKind::Float16, 2};
    if (text == "__nv_bfloat162" || text == "nv_bfloat162")
        return ElementType{ScalarKind::BFloat16, 2};
    // Our own names for vectors of the 16-bit floats, so that name() round-trips.
    if (text == "half3" || text == "half4")
        return std::nullopt;
    std::string_view rest(text);
    // The 64-bit 4-vectors come as long4 (deprecated), long4_16a and long4_32a; the 32-byte
    // aligned ones cannot be described by ElementType and stay unknown.
    if (rest.ends_with("_16a"))
        rest.remove_suffix(4);
    if (rest.empty() || rest.back() < '1' || rest.back() > '4')
        return std::nullopt;
    const int lanes = rest.back() - '0';
    rest.remove_suffix(1);
    if (rest.size() != text.size() - 1 && lanes != 4)
        return std::nullopt; // only the 4-lane types have an _16a variant
    for (const Spelling &stem : kVectorStems) {
        if (rest == stem.text)
            return ElementType{stem.kind, lanes};
    }
    return std::nullopt;
}

std::string numpyDescr(ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Bool:
        return "|b1";
    case ScalarKind::Int8:
        return "|i1";
    case ScalarKind::UInt8:
        return "|u1";
    case ScalarKind::Int16:
        return "<i2";
    case ScalarKind::UInt16:
        return "<u2";
    case ScalarKind::Int32:
        return "<i4";
    case ScalarKind::UInt32:
        return "<u4";
    case ScalarKind::Int64:
        return "<i8";
    case ScalarKind::UInt64:
        return "<u8";
    case ScalarKind::Float16:
        return "<f2";
    case ScalarKind::BFloat16:
        return "";
    case ScalarKind::Float32:
        return "<f4";
    case ScalarKind::Float64:
        return "<f8";
    }
    return "";
}

} // namespace cuwb
