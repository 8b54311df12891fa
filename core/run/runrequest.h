// RunRequest: what one run of a kernel needs (the source, its compile options, the launch,
// the verification, and optionally the variant already compiled on the host), the page of a
// kept buffer's values, and the formats a buffer exports to. Plain values: the worker protocol
// carries them (worker/protocol.h), the runner executes them (run/runner.h).
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"
#include "compiler/kernelinfo.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// A variant compiled on the host, handed to the worker so that it need not compile the same
// source and options again: what NVRTC produced for exactly `options` (the device's
// architecture, the launch's defines bound). The worker uses it only when its own options for
// the request are the same; otherwise it compiles.
struct CompiledImage
{
    CompileOptions options;
    std::string cubin; // bytes (base64 in JSON)
    std::string ptx;
    std::vector<KernelInfo> kernels;
    double compileTimeMs = 0.0;
    CompilerIdentity compiledBy; // which compiler built it, and how (the results' provenance)
};

struct RunRequest
{
    std::string source;
    std::string fileName = "kernel.cu";
    CompileOptions options; // the worker compiles for its own device's architecture
    LaunchSpec launch;
    VerificationSpec verification;
    std::optional<CompiledImage> image;
};

struct PageRequest
{
    std::string handle;
    std::uint64_t first = 0;
    std::uint32_t count = 256;
};

// The most elements one page reply carries; a larger request gets this many.
inline constexpr std::uint32_t kMaxPageElements = 65536;

struct Page
{
    std::string handle;
    std::uint64_t first = 0;
    std::vector<std::string> values; // formatted elements; vectors as "(1, 2, 3, 4)"
};

enum class ExportFormat { Npy, Bin, Csv };

} // namespace cuwb
