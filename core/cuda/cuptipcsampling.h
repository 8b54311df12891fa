// CuptiPcSampling: where a kernel's warps wait, through CUPTI's PC Sampling API
// (cupti_pcsampling.h; docs/inspect.md). While the kernel runs, each SM sub-partition
// periodically samples one warp's program counter and the reason it could not issue (or that
// it issued: "selected"); CUPTI sums the samples per instruction and reason. Each instruction
// is placed on its source line with the module image's line table. The kernel runs unpatched
// at full speed, serialised with other kernels. Nothing here throws for a refusal.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cuwb {

// Where a kernel's warps waited at one instruction: the samples by stall reason, placed on the
// instruction's source line.
struct PcStallSamples
{
    std::string function;
    std::uint32_t pcOffset = 0;
    // Samples by stall reason, in CUPTI's words without its prefix ("long_scoreboard",
    // "selected", ...); a warp that was not issued is counted under its reason only.
    std::map<std::string, std::uint64_t> reasons;
    std::uint64_t samples = 0; // all the samples at this instruction
    std::string file;
    std::uint32_t line = 0;
};

struct PcSamplingResult
{
    std::vector<PcStallSamples> pcs; // by function, then offset
    std::uint64_t totalSamples = 0;
    std::uint64_t droppedSamples = 0;
    std::string error;
    bool permissionDenied = false;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

class CuptiPcSampling
{
public:
    // Samples the kernels `launch` starts (and waits for) on the current context.
    static PcSamplingResult collect(const std::string &cubin, const std::function<void()> &launch);
};

} // namespace cuwb
