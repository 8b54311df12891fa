// nvcc: the toolkit's compiler driver, found once, and the choice between it and NVRTC.
//
// The workbench builds what the user's own build would: `nvcc -cubin` of the same source, for
// the same architecture and flags, gives the same SASS by construction (NVRTC's did not: +10.6 %
// instructions on samples/transpose, docs/architecture.md "Built as nvcc builds it"). nvcc also
// compiles a whole .cu as people write it: host code, host headers, glibc typedefs. So
// "auto" means nvcc wherever the toolkit has it, and NVRTC only where it has none.
#pragma once

#include "compiler/compileoptions.h"

#include <string>

namespace cuwb {

struct NvccInstallation
{
    std::string path;     // absolute path of the nvcc program; empty when none was found
    std::string version;  // "13.0.88"
    std::string problem;  // why none is usable: where it looked, or what `nvcc --version` said
    std::string searched; // the places looked at, for messages

    [[nodiscard]] bool found() const { return !path.empty(); }
};

// Looked up once per process: $CUWB_NVCC, then bin/nvcc of $CUDA_PATH, $CUDA_HOME, the toolkit
// whose headers this program uses, /usr/local/cuda, then the PATH. `CUWB_NVCC=off` pretends
// there is none (tests of the NVRTC fallback, and users who want NVRTC everywhere).
const NvccInstallation &nvccInstallation();

// "nvcc" or "nvrtc" for options.compiler; for "nvcc" without an installation, "nvcc" (the
// compile then fails with nvccInstallation().problem).
std::string resolvedCompiler(const CompileOptions &options);

// A text that changes whenever the compiler that `options` resolves to changes (its name,
// version and path), for cache keys.
std::string compilerFingerprint(const CompileOptions &options);

} // namespace cuwb
