#include "run/hostelements.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cuwb {

namespace {

template <typename T> T load(const unsigned char *bytes)
{
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
    const int exponent = (h >> 10) & 0x1f;
    std::uint32_t mantissa = h & 0x3ff;
    std::uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else {
            // Subnormal: value = mantissa * 2^-24.
            const float value = std::ldexp(float(mantissa), -24);
            return sign ? -value : value;
        }
    } else {
        bits = sign | (std::uint32_t(exponent - 15 + 127) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(bits);
}

float bfloat16ToFloat(std::uint16_t b)
{
    return std::bit_cast<float>(std::uint32_t(b) << 16);
}

std::string formatFloating(double value, int digits)
{
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value < 0 ? "-inf" : "inf";
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

} // namespace

double scalarToDouble(const unsigned char *bytes, ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Bool:
        return bytes[0] ? 1.0 : 0.0;
    case ScalarKind::Int8:
        return load<std::int8_t>(bytes);
    case ScalarKind::UInt8:
        return load<std::uint8_t>(bytes);
    case ScalarKind::Int16:
        return load<std::int16_t>(bytes);
    case ScalarKind::UInt16:
        return load<std::uint16_t>(bytes);
    case ScalarKind::Int32:
        return load<std::int32_t>(bytes);
    case ScalarKind::UInt32:
        return load<std::uint32_t>(bytes);
    case ScalarKind::Int64:
        return double(load<std::int64_t>(bytes));
    case ScalarKind::UInt64:
        return double(load<std::uint64_t>(bytes));
    case ScalarKind::Float16:
        return halfToFloat(load<std::uint16_t>(bytes));
    case ScalarKind::BFloat16:
        return bfloat16ToFloat(load<std::uint16_t>(bytes));
    case ScalarKind::Float32:
        return load<float>(bytes);
    case ScalarKind::Float64:
        return load<double>(bytes);
    }
    return 0.0;
}

std::string formatScalar(const unsigned char *bytes, ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Bool:
        return bytes[0] ? "true" : "false";
    case ScalarKind::Int8:
        return std::to_string(int(load<std::int8_t>(bytes)));
    case ScalarKind::UInt8:
        return std::to_string(unsigned(load<std::uint8_t>(bytes)));
    case ScalarKind::Int16:
        return std::to_string(load<std::int16_t>(bytes));
    case ScalarKind::UInt16:
        return std::to_string(load<std::uint16_t>(bytes));
    case ScalarKind::Int32:
        return std::to_string(load<std::int32_t>(bytes));
    case ScalarKind::UInt32:
        return std::to_string(load<std::uint32_t>(bytes));
    case ScalarKind::Int64:
        return std::to_string(load<std::int64_t>(bytes));
    case ScalarKind::UInt64:
        return std::to_string(load<std::uint64_t>(bytes));
    case ScalarKind::Float16:
    case ScalarKind::BFloat16:
        // 5 significant digits tell every half apart; bfloat16 has fewer.
        return formatFloating(scalarToDouble(bytes, kind), 5);
    case ScalarKind::Float32:
        return formatFloating(load<float>(bytes), 9);
    case ScalarKind::Float64:
        return formatFloating(load<double>(bytes), 17);
    }
    return {};
}

std::string formatElement(const unsigned char *bytes, const ElementType &type)
{
    if (type.lanes <= 1) {
        return formatScalar(bytes, type.scalar);
    }
    const std::size_t size = scalarSizeBytes(type.scalar);
    std::string text = "(";
    for (int lane = 0; lane < type.lanes; ++lane) {
        if (lane > 0) {
            text += ", ";
        }
        text += formatScalar(bytes + std::size_t(lane) * size, type.scalar);
    }
    return text + ")";
}

std::string cudaTypeName(const ElementType &type)
{
    const char *scalar = "float";
    const char *vector = "float";
    switch (type.scalar) {
    case ScalarKind::Bool:
        scalar = vector = "bool";
        break;
    case ScalarKind::Int8:
        scalar = "signed char";
        vector = "char";
        break;
    case ScalarKind::UInt8:
        scalar = "unsigned char";
        vector = "uchar";
        break;
    case ScalarKind::Int16:
        scalar = "short";
        vector = "short";
        break;
    case ScalarKind::UInt16:
        scalar = "unsigned short";
        vector = "ushort";
        break;
    case ScalarKind::Int32:
        scalar = "int";
        vector = "int";
        break;
    case ScalarKind::UInt32:
        scalar = "unsigned int";
        vector = "uint";
        break;
    case ScalarKind::Int64:
        scalar = "long long";
        vector = "longlong";
        break;
    case ScalarKind::UInt64:
        scalar = "unsigned long long";
        vector = "ulonglong";
        break;
    case ScalarKind::Float16:
        scalar = vector = "__half";
        break;
    case ScalarKind::BFloat16:
        scalar = vector = "__nv_bfloat16";
        break;
    case ScalarKind::Float32:
        scalar = vector = "float";
        break;
    case ScalarKind::Float64:
        scalar = vector = "double";
        break;
    }
    if (type.lanes <= 1) {
        return scalar;
    }
    if (type.scalar == ScalarKind::Float16 || type.scalar == ScalarKind::BFloat16) {
        return std::string(scalar) + (type.lanes == 2 ? "2" : "");
    }
    return std::string(vector) + std::to_string(type.lanes);
}

std::string npyDescr(ScalarKind kind)
{
    const std::string descr = numpyDescr(kind);
    return descr.empty() ? "<u2" : descr;
}

std::string npyHeader(const ElementType &type, std::uint64_t count)
{
    std::string shape = "(" + std::to_string(count) + ",)";
    if (type.lanes > 1) {
        shape = "(" + std::to_string(count) + ", " + std::to_string(type.lanes) + ")";
    }
    std::string dictionary = "{'descr': '" + npyDescr(type.scalar) +
                             "', 'fortran_order': False, 'shape': " + shape + ", }";
    // magic (6) + version (2) + length (2) + dictionary + padding + '\n', a multiple of 64.
    const std::size_t unpadded = 10 + dictionary.size() + 1;
    dictionary.append((64 - unpadded % 64) % 64, ' ');
    dictionary += '\n';
    std::string header("\x93NUMPY\x01\x00", 8);
    header += char(dictionary.size() & 0xff);
    header += char((dictionary.size() >> 8) & 0xff);
    return header + dictionary;
}

namespace {

// The text after `'key':` in a Python dict literal, up to the value's end.
std::optional<std::string> dictValue(std::string_view dictionary, std::string_view key)
{
    const std::string quoted = "'" + std::string(key) + "'";
    std::size_t at = dictionary.find(quoted);
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    at = dictionary.find(':', at + quoted.size());
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    ++at;
    while (at < dictionary.size() && dictionary[at] == ' ') {
        ++at;
    }
    if (at >= dictionary.size()) {
        return std::nullopt;
    }
    std::size_t end = at;
    if (dictionary[at] == '\'' || dictionary[at] == '"') {
        end = dictionary.find(dictionary[at], at + 1);
        if (end == std::string_view::npos) {
            return std::nullopt;
        }
        return std::string(dictionary.substr(at + 1, end - at - 1));
    }
    if (dictionary[at] == '(') {
        end = dictionary.find(')', at);
        if (end == std::string_view::npos) {
            return std::nullopt;
        }
        return std::string(dictionary.substr(at, end - at + 1));
    }
    while (end < dictionary.size() && dictionary[end] != ',' && dictionary[end] != '}') {
        ++end;
    }
    return std::string(dictionary.substr(at, end - at));
}

} // namespace

std::optional<NpyHeader> parseNpyHeader(std::string_view head, std::string &error)
{
    if (head.size() < 10 || head.substr(0, 6) != std::string_view("\x93NUMPY", 6)) {
        error = "it is not a NumPy .npy file (no \\x93NUMPY magic)";
        return std::nullopt;
    }
    const int major = static_cast<unsigned char>(head[6]);
    std::size_t length = 0;
    std::size_t start = 0;
    if (major == 1) {
        length = std::size_t(static_cast<unsigned char>(head[8])) |
                 std::size_t(static_cast<unsigned char>(head[9])) << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        if (head.size() < 12) {
            error = "the .npy header is cut short";
            return std::nullopt;
        }
        for (int k = 0; k < 4; ++k) {
            length |= std::size_t(static_cast<unsigned char>(head[8 + k])) << (8 * k);
        }
        start = 12;
    } else {
        error = ".npy format version " + std::to_string(major) + " is not supported";
        return std::nullopt;
    }
    if (head.size() < start + length) {
        error = "the .npy header is cut short";
        return std::nullopt;
    }
    const std::string_view dictionary = head.substr(start, length);
    NpyHeader header;
    header.dataOffset = start + length;
    const auto descr = dictValue(dictionary, "descr");
    const auto fortran = dictValue(dictionary, "fortran_order");
    const auto shape = dictValue(dictionary, "shape");
    if (!descr || !fortran || !shape) {
        error = "the .npy header lacks descr, fortran_order or shape";
        return std::nullopt;
    }
    header.descr = *descr;
    header.fortranOrder = fortran->find("True") != std::string::npos;
    std::uint64_t value = 0;
    bool inNumber = false;
    for (const char c : *shape) {
        if (c >= '0' && c <= '9') {
            value = value * 10 + std::uint64_t(c - '0');
            inNumber = true;
        } else if (inNumber) {
            header.shape.push_back(value);
            value = 0;
            inNumber = false;
        }
    }
    return header;
}

} // namespace cuwb
