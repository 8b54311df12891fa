// CompileFunction: who runs NVRTC for a caller that only needs a CompileResult. Empty means
// in-process (KernelCompiler); the GUI sets one that compiles in `cuwb compile-server`
// (worker/isolatedcompiler.h), so that a source that crashes NVRTC cannot take the window with
// it, while the sweep runner, the host checks and the worker client stay the same code for the
// CLI, which may compile in-process. It must turn every failure (a crash, a timeout) into a
// result with a failureMessage rather than throw.
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"

#include <functional>
#include <string_view>

namespace cuwb {

using CompileFunction = std::function<CompileResult(
    std::string_view source, std::string_view fileName, const CompileOptions &options)>;

} // namespace cuwb
