// CompileResult: everything one NVRTC compilation produced. A compile that ran and failed is
// a result with diagnostics, never an exception.
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/diagnostic.h"
#include "compiler/kernelinfo.h"
#include "compiler/ptxlinemap.h"

#include <string>
#include <vector>

namespace cuwb {

struct CompileResult
{
    bool success = false; // true when NVRTC produced a module
    std::string fileName; // the name the source was compiled under
    CompileOptions options;
    std::vector<Diagnostic> diagnostics;
    std::string log; // NVRTC's raw program log
    std::string ptx;
    std::string cubin; // bytes
    std::vector<KernelInfo> kernels;
    PtxLineMap lineMap;
    double compileTimeMs = 0.0; // time NVRTC took (of the original compile when cached)
    bool fromCache = false;
    std::string failureMessage; // set when the compile could not run at all (bad options, I/O)

    [[nodiscard]] DiagnosticCounts counts() const { return countDiagnostics(diagnostics); }
};

} // namespace cuwb
