// Hardware metrics of a kernel, from the optional metrics pass (CUPTI Range Profiler; docs/
// measurement.md, Metrics pass): what to collect, what came back, and how many replay passes a
// set of metrics costs on a chip, computed on the host without a GPU. The pass launches the
// kernel separately from the timed samples, once per replay pass, and is never timed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cuwb {

// The default set fits in one pass on GH100: GPU time, DRAM bytes read and written, DRAM
// throughput in % of peak and achieved occupancy.
std::vector<std::string> defaultMetrics();

struct MetricsRequest
{
    std::vector<std::string> metrics = defaultMetrics();
};

struct MetricsResult
{
    std::string chip;                     // "GH100"
    std::map<std::string, double> values; // by metric name, in the metric's own unit
    std::size_t passes = 0;               // replay passes the metrics needed
    std::string error;                    // empty on success; a sentence for the user
    bool permissionDenied = false;        // error then says the fix

    // The launch that was profiled and its theoretical occupancy (computed on the host from
    // the kernel's resources, whether or not profiling was allowed), for showing the achieved
    // occupancy beside it. occupancyError is set when it could not be computed.
    int registersPerThread = 0;
    std::uint64_t staticSharedBytes = 0;
    std::uint64_t dynamicSharedBytes = 0;
    int blockThreads = 0;
    long long gridBlocks = 0;
    double theoreticalOccupancy = 0.0; // 0..1
    int activeBlocksPerSm = 0;
    std::string occupancyLimiter; // limiterName(): "warps", "registers", ...
    double waves = 0.0;           // gridBlocks / (activeBlocksPerSm x SMs)
    std::string occupancyError;

    [[nodiscard]] bool ok() const { return error.empty(); }
};

// The chip CUPTI names for an architecture ("sm_90" -> "GH100"), to plan passes before any
// GPU is touched; for architectures shared by several chips, the first of them (the counters
// of one architecture agree). Empty for an architecture this does not know.
std::string chipForArch(const std::string &arch);

// Passes the metrics need on `chip`, on the host (no GPU or driver needed: libcupti and
// libnvperf_host suffice). An unknown metric or chip comes back in error, naming it.
MetricsResult planMetricPasses(const std::string &chip, const std::vector<std::string> &metrics);

} // namespace cuwb
