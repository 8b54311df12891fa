#include "measure/metrics.h"

#include "cuda/cuptiprofiler.h"

namespace cuwb {

std::vector<std::string> defaultMetrics()
{
    return {
        "gpu__time_duration.sum",
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        // What the kernel wrote: DRAM writes miss the part still in L2 when it ends.
        "lts__t_sectors_srcunit_tex_op_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
    };
}

std::string chipForArch(const std::string &arch)
{
    static const std::pair<const char *, const char *> kChips[] = {
        {"sm_75", "TU102"},  {"sm_80", "GA100"},  {"sm_86", "GA102"},
        {"sm_87", "GA10B"},  {"sm_89", "AD102"},  {"sm_90", "GH100"},
        {"sm_100", "GB100"}, {"sm_103", "GB110"}, {"sm_120", "GB202"},
    };
    for (const auto &[known, chip] : kChips) {
        if (arch == known) {
            return chip;
        }
    }
    return {};
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
