// Hardware metrics of a kernel, from the optional metrics pass (CUPTI Range Profiler; ../shared/
// MEASUREMENT.md, Metrics pass): what to collect, what came back, and how many replay passes a
// set of metrics costs on a chip, computed on the host without a GPU. The pass launches the
// kernel separately from the timed samples, once per replay pass, and is never timed.
#pragma once

#include <cstddef>
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

    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Passes the metrics need on `chip`, on the host (no GPU or driver needed: libcupti and
// libnvperf_host suffice). An unknown metric or chip comes back in error, naming it.
MetricsResult planMetricPasses(const std::string &chip, const std::vector<std::string> &metrics);

} // namespace cuwb
