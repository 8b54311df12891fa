// Stand-ins for NVRTC: what a CUDA file expects from the host's C library and headers, for the
// compiles that run without nvcc (a toolkit without it, or `compiler: "nvrtc"`).
//
// nvcc preprocesses with the host compiler, so every nvcc build has glibc's `uint`, math.h's
// `M_PI`, `INFINITY`, and the C++ standard headers. NVRTC has none of them and stops at the
// first such #include. The stand-ins give NVRTC what a kernel can use of them: the C and C++
// standard headers that libcu++ provides map to their <cuda/std/...> forms, host-only headers
// (<cstdio>, <iostream>, <vector>, the CUDA runtime's) compile to nothing — device code cannot
// use what they declare, and printf is built in — and a prelude declares the typedefs and
// constants. Host code itself cannot be compiled this way: that needs nvcc.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cuwb {

struct StandInHeader
{
    std::string name;      // as included: "cstdio", "math.h"
    std::string content;   // what NVRTC reads for it
    bool setAside = false; // compiles to nothing (host-only)
};

const std::vector<StandInHeader> &nvrtcStandInHeaders();

// The header every NVRTC compile reads first (--pre-include): glibc's short unsigned typedefs,
// math.h's M_ constants, INFINITY and NAN, each only where the source did not define it.
inline constexpr const char *kNvrtcPreludeName = "cuwb_nvrtc_prelude.h";
const std::string &nvrtcPrelude();

} // namespace cuwb
