// CompileOptions: everything that changes what NVRTC produces for a source.
// A value type: the GUI's options panel, `cuwb compile` flags and project files all fill one,
// and its canonical text is part of the compile-cache key.
#pragma once

#include <string>
#include <vector>

namespace cuwb {

struct CompileOptions
{
    std::string arch = "sm_90";               // virtual or real target, e.g. "sm_90"
    int optLevel = 3;                         // ptxas -O0..-O3
    bool deviceDebug = false;                 // -G
    bool lineInfo = true;                     // -lineinfo, needed for the PTX <-> source map
    bool fastMath = false;                    // --use_fast_math
    std::string cppStandard = "c++17";        // -std=
    int maxRegisters = 0;                     // --maxrregcount, 0 = no limit
    std::vector<std::string> defines;         // "NAME" or "NAME=VALUE"
    std::vector<std::string> includeDirs;     // extra -I folders (the toolkit's are always added)
    std::vector<std::string> nameExpressions; // template instantiations, e.g. "scale<float>"

    // Problems a user must fix before compiling ("unknown architecture sm_12"), one per entry.
    [[nodiscard]] std::vector<std::string> validate() const;
    // The NVRTC argument list, including the toolkit include folders and -Xptxas -v.
    [[nodiscard]] std::vector<std::string> toNvrtcArguments() const;
    // Stable text used as part of the cache key.
    [[nodiscard]] std::string canonicalText() const;

    bool operator==(const CompileOptions &) const = default;
};

// C++ standards NVRTC accepts for -std.
const std::vector<std::string> &supportedCppStandards();

} // namespace cuwb
