#include "measure/roofline.h"

#include "measure/throughput.h"

#include <algorithm>

namespace cuwb {

namespace {

constexpr const char *kTime = "gpu__time_duration.sum";
constexpr const char *kDramRead = "dram__bytes_read.sum";
constexpr const char *kDramWrite = "dram__bytes_write.sum";

struct PrecisionCounters
{
    Precision precision;
    const char *add;
    const char *mul;
    const char *fma;
};

constexpr PrecisionCounters kCounters[] = {
    {Precision::FP32, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
     "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
     "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"},
    {Precision::FP64, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
     "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
     "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"},
    {Precision::FP16, "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
     "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
     "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"},
};

constexpr const char *kComputePercent = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *kMemoryPercent =
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *kDramPercent = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *kL2Percent = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *kL1Percent = "l1tex__throughput.avg.pct_of_peak_sustained_active";

// Results per clock per SM of add, multiply and multiply-add by compute capability: FP32, FP64
// and FP16 (a half2 instruction gives two). Checked against the data sheets' peaks at the boost
// clock: V100 15.7 / 7.8 / 31.4 TFLOP/s, A100 19.5 / 9.7 / 78, RTX 3090 35.6 / 0.56 / 35.6,
// RTX 4090 82.6 / 1.3 / 82.6, H100 SXM 66.9 / 33.5 / 133.8. Others are left out rather than
// guessed: their roofline says the peak is not known.
struct LaneRow
{
    int major;
    int minor;
    int fp32;
    int fp64;
    int fp16;
};
constexpr LaneRow kLanes[] = {
    {7, 0, 64, 32, 128}, {7, 2, 64, 32, 128}, {7, 5, 64, 2, 128},   {8, 0, 64, 32, 256},
    {8, 6, 128, 2, 128}, {8, 9, 128, 2, 128}, {9, 0, 128, 64, 256},
};

std::optional<double> find(const std::map<std::string, double> &values, const char *name)
{
    const auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<double>(it->second);
}

} // namespace

std::vector<std::string> rooflineMetrics()
{
    std::vector<std::string> metrics{kTime,          kDramRead,    kDramWrite, kComputePercent,
                                     kMemoryPercent, kDramPercent, kL2Percent, kL1Percent};
    for (const PrecisionCounters &c : kCounters) {
        metrics.insert(metrics.end(), {c.add, c.mul, c.fma});
    }
    return metrics;
}

std::vector<std::string> withRooflineMetrics(std::vector<std::string> metrics)
{
    for (std::string &name : rooflineMetrics()) {
        if (std::find(metrics.begin(), metrics.end(), name) == metrics.end()) {
            metrics.push_back(std::move(name));
        }
    }
    return metrics;
}

const char *precisionName(Precision precision)
{
    switch (precision) {
    case Precision::FP32:
        return "FP32";
    case Precision::FP64:
        return "FP64";
    case Precision::FP16:
        return "FP16";
    }
    return "";
}

DevicePeaks devicePeaks(const DeviceInfo &device)
{
    DevicePeaks peaks;
    peaks.dramBytesPerSecond = theoreticalPeakGBps(device).value_or(0.0) * 1e9;
    const auto row = std::find_if(std::begin(kLanes), std::end(kLanes), [&](const LaneRow &r) {
        return r.major == device.major && r.minor == device.minor;
    });
    if (row == std::end(kLanes)) {
        peaks.note = "the FP peaks of compute capability " + std::to_string(device.major) + "." +
                     std::to_string(device.minor) + " are not in the workbench's table";
        return peaks;
    }
    // Two FLOPs a lane a clock: a multiply-add.
    const double clocks = double(device.smCount) * double(device.smClockKHz) * 1e3 * 2.0;
    peaks.flopsPerSecond[Precision::FP32] = clocks * row->fp32;
    peaks.flopsPerSecond[Precision::FP64] = clocks * row->fp64;
    peaks.flopsPerSecond[Precision::FP16] = clocks * row->fp16;
    return peaks;
}

SpeedOfLight speedOfLight(const std::map<std::string, double> &values)
{
    SpeedOfLight sol;
    sol.computePercent = find(values, kComputePercent);
    sol.memoryPercent = find(values, kMemoryPercent);
    sol.dramPercent = find(values, kDramPercent);
    sol.l2Percent = find(values, kL2Percent);
    sol.l1Percent = find(values, kL1Percent);
    return sol;
}

double RooflinePoint::totalFlops() const
{
    double total = 0.0;
    for (const auto &[precision, count] : flops) {
        total += count;
    }
    return total;
}

Precision RooflinePoint::dominant() const
{
    Precision best = Precision::FP32;
    double most = 0.0;
    for (const auto &[precision, count] : flops) {
        if (count > most) {
            best = precision;
            most = count;
        }
    }
    return best;
}

double RooflinePoint::intensity() const
{
    return dramBytes > 0.0 ? totalFlops() / dramBytes : 0.0;
}

double RooflinePoint::flopsPerSecond() const
{
    return seconds > 0.0 ? totalFlops() / seconds : 0.0;
}

std::optional<RooflinePoint> rooflinePoint(const std::map<std::string, double> &values,
                                           std::string &why)
{
    const std::optional<double> ns = find(values, kTime);
    const std::optional<double> read = find(values, kDramRead);
    const std::optional<double> write = find(values, kDramWrite);
    if (!ns || *ns <= 0.0 || !read || !write) {
        why = std::string("the metrics pass has no ") +
              (!ns || *ns <= 0.0 ? kTime : (!read ? kDramRead : kDramWrite));
        return std::nullopt;
    }
    RooflinePoint point;
    point.seconds = *ns * 1e-9;
    point.dramBytes = *read + *write;
    for (const PrecisionCounters &c : kCounters) {
        const double fma = find(values, c.fma).value_or(0.0);
        point.flops[c.precision] =
            find(values, c.add).value_or(0.0) + find(values, c.mul).value_or(0.0) + 2.0 * fma;
    }
    return point;
}

bool countsFlops(const std::map<std::string, double> &values)
{
    for (const PrecisionCounters &c : kCounters) {
        for (const char *name : {c.add, c.mul, c.fma}) {
            if (!find(values, name))
                return false;
        }
    }
    return true;
}

std::optional<RooflinePlacement> placeOnRoofline(const RooflinePoint &point,
                                                 const DevicePeaks &peaks)
{
    const Precision precision = point.dominant();
    const auto peak = peaks.flopsPerSecond.find(precision);
    if (peak == peaks.flopsPerSecond.end() || peak->second <= 0.0 ||
        peaks.dramBytesPerSecond <= 0.0) {
        return std::nullopt;
    }
    RooflinePlacement placement;
    placement.precision = precision;
    placement.ridgeIntensity = peak->second / peaks.dramBytesPerSecond;
    placement.memoryBound = point.intensity() < placement.ridgeIntensity;
    placement.roofFlopsPerSecond =
        std::min(peak->second, point.intensity() * peaks.dramBytesPerSecond);
    placement.fractionOfRoof = placement.roofFlopsPerSecond > 0.0
                                   ? point.flopsPerSecond() / placement.roofFlopsPerSecond
                                   : 0.0;
    return placement;
}

} // namespace cuwb
