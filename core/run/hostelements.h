// Host-side handling of buffer elements for the runner: converting and formatting the bytes of
// one element (half and bfloat16 included), the CUDA spelling of an element type, and the
// header of NumPy's .npy format (version 1.0 written; 1.0, 2.0 and 3.0 read).
#pragma once

#include "kernel/elementtype.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

double scalarToDouble(const unsigned char *bytes, ScalarKind kind);
// One scalar as text: integers exactly, float with 9 and double with 17 significant digits,
// half and bfloat16 through float; "nan", "inf", "-inf".
std::string formatScalar(const unsigned char *bytes, ScalarKind kind);
// An element: a scalar, or its lanes as "(1, 2, 3, 4)".
std::string formatElement(const unsigned char *bytes, const ElementType &type);

// The type as CUDA C++ spells it in generated code: "float", "__half", "unsigned int", "int4".
std::string cudaTypeName(const ElementType &type);

// NumPy's dtype for the scalar: numpyDescr(), with bfloat16 stored as its raw bits ("<u2").
std::string npyDescr(ScalarKind kind);
// A complete .npy v1.0 header (magic, version, length, dictionary padded to 64 bytes).
std::string npyHeader(const ElementType &type, std::uint64_t count);

struct NpyHeader
{
    std::string descr;
    bool fortranOrder = false;
    std::vector<std::uint64_t> shape;
    std::size_t dataOffset = 0; // bytes from the start of the file to the data
};
// Parses the start of a .npy file (at least its whole header); nullopt with `error` set when
// it is not one.
std::optional<NpyHeader> parseNpyHeader(std::string_view head, std::string &error);

} // namespace cuwb
