// nvdisasm: finding NVIDIA's disassembler and running it on the CUBIN of a compile, for the
// SASS view. It is looked for in this order:
//   1. $CUWB_NVDISASM, when set (and then nowhere else, so a test or a user can pin it);
//   2. $CUDA_HOME/bin/nvdisasm (/usr/local/cuda when CUDA_HOME is unset);
//   3. each folder of $PATH;
//   4. the copy the set-up installs from PyPI into the build folder (`./workbench build`):
//      <build>/tools/nvdisasm/nvidia/<cuNN>/bin/nvdisasm, found from the running program's
//      folder (<build>/bin or <build>/tests) and from the build folder this was configured in.
// A toolkit installed from Debian's or PyPI's CUDA packages often lacks it; then the SASS view
// says what to install instead of failing.
#pragma once

#include "compiler/compileresult.h"
#include "inspect/sasslisting.h"
#include "util/toolprocess.h"

#include <string>
#include <vector>

namespace cuwb {

struct NvdisasmSearch
{
    bool overrideSet = false; // CUWB_NVDISASM is set (to a non-empty value)
    std::string overridePath;
    std::string cudaHome;                 // CUDA_HOME, or /usr/local/cuda
    std::string pathVariable;             // PATH
    std::vector<std::string> toolFolders; // folders holding the PyPI package (tools/nvdisasm)

    // From the environment and the running program's location.
    static NvdisasmSearch fromEnvironment();
};

struct NvdisasmTool
{
    std::string path;    // empty when none was found
    std::string origin;  // where it was found: "CUWB_NVDISASM", "CUDA_HOME", "PATH", "build folder"
    std::string problem; // when none was found: what was looked at and what to install

    [[nodiscard]] bool found() const { return !path.empty(); }
};

NvdisasmTool findNvdisasm(const NvdisasmSearch &search = NvdisasmSearch::fromEnvironment());

// "13.5.37" from `nvdisasm --version`; empty when it cannot tell.
std::string nvdisasmVersion(const std::string &path,
                            const ToolLimits &limits = {10000, 1 << 20, {}, {}, nullptr});

enum class SassStatus {
    Ok,
    NoTool,     // nvdisasm is not installed
    NoCubin,    // the compile produced no machine code (it failed, or the target is virtual)
    ToolFailed, // nvdisasm ran and failed, crashed, hung or printed too much
};

struct SassDisassembly
{
    SassStatus status = SassStatus::NoTool;
    std::string message; // why there is no listing; empty when Ok
    std::string toolPath;
    std::string toolVersion;
    std::string text; // nvdisasm's own output
    SassListing listing;

    [[nodiscard]] bool ok() const { return status == SassStatus::Ok; }
};

// Writes the CUBIN to a temporary file and runs `nvdisasm --print-code
// --print-line-info-inline` on it. Never throws for what the tool does.
SassDisassembly disassemble(const CompileResult &compiled, const NvdisasmTool &tool,
                            const ToolLimits &limits = {});
// The same for CUBIN bytes.
SassDisassembly disassembleCubin(const std::string &cubin, const NvdisasmTool &tool,
                                 const ToolLimits &limits = {});

} // namespace cuwb
