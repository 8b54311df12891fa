// CompileOptions: everything that changes what the compiler produces for a source, and which
// compiler that is (nvcc, as the user's own build runs it, or NVRTC; docs/architecture.md
// "Built as nvcc builds it"). A value type: the GUI's options panel, `cuwb compile` flags and
// project files all fill one, and its canonical text is part of the compile-cache key.
#pragma once

#include <string>
#include <string_view>
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
    // "auto" (nvcc where the toolkit has it, else NVRTC), "nvcc" or "nvrtc".
    std::string compiler = "auto";
    // Further options as the user passes them to nvcc or NVRTC ("-ftz=true",
    // "--extra-device-vectorization", "-Xptxas=-dlcm=cg"), each one argument; validate()
    // accepts only options that change code generation and cannot read or write files.
    std::vector<std::string> flags;

    // Problems a user must fix before compiling ("unknown architecture sm_12"), one per entry.
    [[nodiscard]] std::vector<std::string> validate() const;
    // The NVRTC argument list, including the toolkit include folders and -Xptxas -v.
    [[nodiscard]] std::vector<std::string> toNvrtcArguments() const;
    // nvcc's arguments after the program name and before the input file: what a user's
    // `nvcc -cubin` of this source runs, with -Xptxas -v for the resource report.
    [[nodiscard]] std::vector<std::string> toNvccArguments() const;
    // Stable text used as part of the cache key.
    [[nodiscard]] std::string canonicalText() const;

    bool operator==(const CompileOptions &) const = default;
};

// C++ standards NVRTC accepts for -std.
const std::vector<std::string> &supportedCppStandards();

// The compilers `compiler` may name: "auto", "nvcc", "nvrtc".
const std::vector<std::string> &compilerChoices();

// Why `flag` may not be given in `flags` for `compiler` ("nvcc" or "nvrtc"), or empty when it
// may. Options that name files (-o, -include, --keep-dir), run other programs (-ccbin,
// -Xcompiler) or that the workbench sets itself (-arch, -I, -D, -G ...) are refused, with the
// field to use instead where there is one.
std::string flagProblem(std::string_view flag, std::string_view compiler);

} // namespace cuwb
