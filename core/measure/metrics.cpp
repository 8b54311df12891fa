#include "measure/metrics.h"

#include "cuda/cuptiprofiler.h"

namespace cuwb {

std::vector<std::string> defaultMetrics()
{
    return {
        "gpu__time_duration.sum",
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
    };
}

MetricsResult planMetricPasses(const std::string &chip, const std::vector<std::string> &metrics)
{
    const ProfilerPlan plan = CuptiProfiler::plan(chip, metrics);
    MetricsResult result;
    result.chip = chip;
    result.passes = plan.passes;
    result.error = plan.error;
    return result;
}

} // namespace cuwb
