#include "compiler/standins.h"

#include <string_view>

namespace cuwb {

namespace {

// C and C++ headers that libcu++ provides for device code, by the name people include.
constexpr std::pair<std::string_view, std::string_view> kLibcuxx[] = {
    {"cassert", "cassert"},
    {"assert.h", "cassert"},
    {"cfloat", "cfloat"},
    {"float.h", "cfloat"},
    {"climits", "climits"},
    {"limits.h", "climits"},
    {"cmath", "cmath"},
    {"math.h", "cmath"},
    {"cstddef", "cstddef"},
    {"stddef.h", "cstddef"},
    {"cstdint", "cstdint"},
    {"stdint.h", "cstdint"},
    {"cstdlib", "cstdlib"},
    {"stdlib.h", "cstdlib"},
    {"cstring", "cstring"},
    {"string.h", "cstring"},
    {"ctime", "ctime"},
    {"time.h", "ctime"},
    {"limits", "limits"},
    {"type_traits", "type_traits"},
    {"utility", "utility"},
    {"array", "array"},
    {"tuple", "tuple"},
    {"functional", "functional"},
    {"complex", "complex"},
    {"cstdbool", "cstddef"},
    {"stdbool.h", "cstddef"},
    {"numeric", "numeric"},
    {"bit", "bit"},
    {"atomic", "atomic"},
    {"initializer_list", "initializer_list"},
    {"iterator", "iterator"},
    {"span", "span"},
    {"optional", "optional"},
    {"variant", "variant"},
    {"ratio", "ratio"},
};

// Headers whose declarations only host code can use.
constexpr std::string_view kHostOnly[] = {
    "cstdio",
    "stdio.h",
    "iostream",
    "iomanip",
    "fstream",
    "sstream",
    "ostream",
    "istream",
    "ios",
    "iosfwd",
    "vector",
    "string",
    "string_view",
    "map",
    "set",
    "unordered_map",
    "unordered_set",
    "list",
    "deque",
    "queue",
    "stack",
    "algorithm",
    "memory",
    "chrono",
    "thread",
    "mutex",
    "random",
    "stdexcept",
    "exception",
    "locale",
    "new",
    "valarray",
    "unistd.h",
    "sys/time.h",
    "sys/types.h",
    "omp.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "cuda.h",
    "driver_types.h",
    "device_launch_parameters.h",
    "helper_cuda.h",
    "helper_functions.h",
};

} // namespace

const std::vector<StandInHeader> &nvrtcStandInHeaders()
{
    static const std::vector<StandInHeader> headers = [] {
        std::vector<StandInHeader> list;
        for (const auto &[name, libcuxx] : kLibcuxx) {
            std::string content =
                "#pragma once\n#include <cuda/std/" + std::string(libcuxx) + ">\n";
            list.push_back({std::string(name), std::move(content), false});
        }
        for (std::string_view name : kHostOnly)
            list.push_back({std::string(name), "#pragma once\n", true});
        return list;
    }();
    return headers;
}

const std::string &nvrtcPrelude()
{
    static const std::string prelude = R"(#pragma once
// CUDA Workbench's stand-in for what nvcc's host preprocessing gives every file (glibc).
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
#ifndef M_PI
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
#ifndef INFINITY
#define INFINITY (__builtin_huge_valf())
#endif
#ifndef NAN
#define NAN (__builtin_nanf(""))
#endif
)";
    return prelude;
}

} // namespace cuwb
