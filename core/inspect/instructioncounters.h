// The inspection pass's request and result (docs/inspect.md): counters per machine instruction
// of one launch, collected by the worker (Runner::inspect, CUPTI's SASS metrics) and placed on
// source lines by the host (linecounters.h).
#pragma once

#include "cuda/cuptipcsampling.h"
#include "cuda/cuptisassmetrics.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cuwb {

// The counters Inspect collects by default: what each instruction executed, for how many
// threads, and how it used memory (sectors against the ideal, shared-memory wavefronts against
// the ideal, local memory) and branches.
std::vector<std::string> defaultInspectMetrics();

struct InspectRequest
{
    std::vector<std::string> metrics = defaultInspectMetrics();
    bool sampleStalls = true; // a launch of its own, before the counting one, with PC sampling
};

struct InspectResult
{
    std::string kernel; // the lowered name of the kernel inspected
    std::string chip;
    std::vector<SassInstructionCounters> instructions; // the kernel's, by offset
    std::size_t droppedRecords = 0;
    std::string error;             // empty on success; a sentence for the user
    bool permissionDenied = false; // error then says the fix
    bool lineInfo = false;         // whether the instructions carry source lines
    // Where the warps waited: PC sampling of the unpatched kernel, in a launch of its own.
    std::vector<PcStallSamples> stalls; // the kernel's sampled instructions, by offset
    std::uint64_t stallSamples = 0;     // all samples taken, the kernel's and others'
    std::uint64_t droppedStallSamples = 0;
    std::string stallError; // why there are no samples; the counters may still be there
    [[nodiscard]] bool ok() const { return error.empty(); }
};

} // namespace cuwb
