// CompileResult: everything one compilation (nvcc or NVRTC) produced. A compile that ran and
// failed is a result with diagnostics, never an exception.
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/diagnostic.h"
#include "compiler/kernelinfo.h"
#include "compiler/ptxlinemap.h"
#include "compiler/sourcescan.h"

#include <string>
#include <vector>

namespace cuwb {

// Which compiler built a module, and how: the provenance every result carries.
struct CompilerIdentity
{
    std::string name;    // "nvcc" or "nvrtc"
    std::string version; // "13.0.88" (nvcc's --version), "13.0" (NVRTC)
    // The command as a user would type it to build the same code: "nvcc -cubin -arch=sm_90
    // -lineinfo -std=c++17 -Xptxas=-v kernel.cu"; for NVRTC its option list.
    std::string command;

    [[nodiscard]] bool empty() const { return name.empty(); }
    // "nvcc 13.0.88" or "NVRTC 13.0".
    [[nodiscard]] std::string label() const;
    bool operator==(const CompilerIdentity &) const = default;
};

struct CompileResult
{
    bool success = false; // true when NVRTC produced a module
    std::string fileName; // the name the source was compiled under
    CompileOptions options;
    std::vector<Diagnostic> diagnostics;
    std::string log; // the compiler's raw output (NVRTC's program log, nvcc's messages)
    std::string ptx;
    std::string cubin; // bytes
    std::vector<KernelInfo> kernels;
    PtxLineMap lineMap;
    double compileTimeMs = 0.0; // time NVRTC took (of the original compile when cached)
    bool fromCache = false;
    std::string failureMessage; // set when the compile could not run at all (bad options, I/O)
    CompilerIdentity compiledBy;
    // What the compile did besides compiling, for the user to know: host code that was
    // parsed but not built, stand-in headers, instantiations it added ("set aside: ...").
    std::vector<std::string> notes;
    // The source's __global__ templates, instantiated or not: what the launch panel offers to
    // instantiate (read from the text, so also when the compile failed).
    std::vector<KernelTemplate> templates;

    [[nodiscard]] DiagnosticCounts counts() const { return countDiagnostics(diagnostics); }
};

} // namespace cuwb
