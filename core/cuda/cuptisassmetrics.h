// CuptiSassMetrics: counters per machine instruction of one kernel launch, through CUPTI's SASS
// Metrics API (cupti_sass_metrics.h; docs/inspect.md). CUPTI patches the kernel's code so that
// each instruction counts what it did (warp instructions executed, threads with their predicate
// on, global-memory sectors and the ideal count, shared-memory wavefronts, divergent branches,
// local-memory sectors), summed over the GPU. Each instruction is then placed on its source line
// with the module image's line table (cuptiGetSassToSourceCorrelation; NVRTC's `-lineinfo`).
// The patched kernel runs slower and is never timed. Nothing here throws for a refusal: a
// missing library, a GPU CUPTI cannot patch or a lack of profiling permission comes back in
// the result with a sentence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cuwb {

struct SassInstructionCounters
{
    std::string function;                        // the kernel's lowered (mangled) name
    std::uint32_t pcOffset = 0;                  // bytes from the function's first instruction
    std::map<std::string, std::uint64_t> values; // by metric name
    std::string file;                            // the line table's file; empty without -lineinfo
    std::uint32_t line = 0;                      // 1-based; 0 without -lineinfo
};

struct SassCountersResult
{
    std::string chip;                                  // "GH100"
    std::vector<SassInstructionCounters> instructions; // by function, then offset
    std::size_t droppedRecords = 0;
    std::string error;             // empty on success; a sentence for the user
    bool permissionDenied = false; // error then says the fix
    [[nodiscard]] bool ok() const { return error.empty(); }
};

class CuptiSassMetrics
{
public:
    // The SASS metrics device `deviceOrdinal`'s chip offers: name and CUPTI's description.
    static std::vector<std::pair<std::string, std::string>> available(int deviceOrdinal,
                                                                      std::string &error);

    // Counts `metrics` per instruction of the kernels `launch` starts on the current context of
    // device `deviceOrdinal`; `launch` must wait for them. `cubin` is the image the kernels
    // were loaded from, for the source lines. Exceptions from `launch` pass through after the
    // patching is turned off.
    static SassCountersResult collect(int deviceOrdinal, const std::vector<std::string> &metrics,
                                      const std::string &cubin,
                                      const std::function<void()> &launch);
};

} // namespace cuwb
