// CuptiProfiler: hardware metrics of one kernel launch through the CUPTI Range Profiler of
// CUDA 13 (cupti_range_profiler.h; docs/measurement.md, Metrics pass). The host half
// needs no GPU: for a chip name ("GH100") it checks the metric names, builds the config image
// and says how many replay passes they need. The device half profiles one launch made by the
// caller, with automatic ranges and kernel replay (CUPTI saves and restores the memory the
// kernel touches and replays it once per pass), and evaluates each metric. Nothing here throws
// for a refusal: a missing library, a metric the chip lacks or a lack of profiling permission
// comes back in the result with a sentence that says what to do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cuwb {

struct ProfilerPlan
{
    std::string chip;
    std::size_t passes = 0;
    std::vector<std::uint8_t> configImage;
    std::string error; // empty when the plan holds
};

struct ProfilerValues
{
    std::string chip;
    std::size_t passes = 0;
    std::size_t ranges = 0;
    std::map<std::string, double> values;                   // the first range's
    std::vector<std::map<std::string, double>> rangeValues; // every range's, in launch order
    std::string error;
    bool permissionDenied = false; // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES; error says the fix
};

class CuptiProfiler
{
public:
    // Host only: `counterAvailability` is the device's image, or empty to plan for any GPU
    // of the chip.
    static ProfilerPlan plan(const std::string &chip, const std::vector<std::string> &metrics,
                             const std::vector<std::uint8_t> &counterAvailability = {});

    // Profiles the kernels `launch` starts on the current context of device `deviceOrdinal`,
    // one range each, up to `maxRanges`; `launch` must wait for them. Exceptions from `launch`
    // pass through after the profiler is disabled. `values` are the first range's (the first
    // kernel launched), `rangeValues` every range's.
    //
    // Without `beforePass`, CUPTI replays each kernel for the passes the metrics need (kernel
    // replay, memory saved and restored by CUPTI). With it, the caller replays: `beforePass`
    // then `launch` run once per pass, each pass after the profiler's start (user replay; the
    // kernel runs again on what the last pass left, as timed samples do), and `values` are the
    // last range's: `launch` must start one kernel, after any that `beforePass` starts. The
    // metrics pass flushes the L2 there, so that every pass's kernel starts from the same cache
    // state, as Nsight Compute's --cache-control all does.
    static ProfilerValues profile(int deviceOrdinal, const std::vector<std::string> &metrics,
                                  const std::function<void()> &launch, std::size_t maxRanges = 8,
                                  const std::function<void()> &beforePass = {});
};

// The sentence for a lack of profiling permission: the reason and the three fixes.
std::string profilingPermissionMessage();

} // namespace cuwb
