// Speed of light and the roofline of one launch (docs/inspect.md), from the metrics pass's
// values (CUPTI's Range Profiler, the counters Nsight Compute's "GPU Speed Of Light" and
// roofline sections read) and the device's peaks. Pure: the host computes it from a
// MetricsResult.
//
// Achieved FLOP/s counts executed floating-point thread instructions, an FMA as two operations
// (add + mul + 2 × fma, per precision), over the kernel's time; arithmetic intensity is those
// FLOPs per DRAM byte read or written. The ceilings are the device's DRAM bandwidth (the
// theoretical peak from its memory clock and bus width) and its FP32, FP64 and FP16 peaks (the
// CUDA Programming Guide's results per clock per SM for add, multiply and multiply-add, × 2
// for an FMA, × SMs × the SM clock); the ridge is where the two roofs meet.
#pragma once

#include "device/deviceinfo.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// The metrics speed of light and the roofline read; the metrics pass collects them with
// --roofline (they fit in the replay passes the planner reports).
std::vector<std::string> rooflineMetrics();
// `metrics` with those of rooflineMetrics() it lacks appended, in order, without duplicates.
std::vector<std::string> withRooflineMetrics(std::vector<std::string> metrics);

enum class Precision { FP32, FP64, FP16 };
const char *precisionName(Precision precision); // "FP32", "FP64", "FP16"

struct DevicePeaks
{
    double dramBytesPerSecond = 0.0;
    std::map<Precision, double> flopsPerSecond; // absent where the architecture is not known
    std::string note;                           // why a peak is missing, empty when all are there
};
DevicePeaks devicePeaks(const DeviceInfo &device);

// Nsight Compute's "GPU Speed Of Light Throughput" percentages of the peaks; absent when the
// pass did not collect them.
struct SpeedOfLight
{
    std::optional<double> computePercent; // SM throughput
    std::optional<double> memoryPercent;  // the busiest of DRAM, L2 and L1
    std::optional<double> dramPercent;
    std::optional<double> l2Percent;
    std::optional<double> l1Percent;
};
SpeedOfLight speedOfLight(const std::map<std::string, double> &values);

struct RooflinePoint
{
    double seconds = 0.0;
    double dramBytes = 0.0;
    std::map<Precision, double> flops; // FLOPs executed, per precision

    [[nodiscard]] double totalFlops() const;
    // The precision with the most FLOPs (FP32 when there are none).
    [[nodiscard]] Precision dominant() const;
    [[nodiscard]] double intensity() const;      // FLOPs per DRAM byte; 0 without bytes
    [[nodiscard]] double flopsPerSecond() const; // achieved
};
// The point of a launch, or nullopt with `why` when the values lack its time or bytes.
std::optional<RooflinePoint> rooflinePoint(const std::map<std::string, double> &values,
                                           std::string &why);
// Whether `values` hold every floating-point instruction counter a point's FLOPs are counted
// from: a point without FLOPs then did none (a copy), rather than was not asked for them.
bool countsFlops(const std::map<std::string, double> &values);

struct RooflinePlacement
{
    Precision precision = Precision::FP32;
    double ridgeIntensity = 0.0;     // FLOPs per byte where the roofs meet
    double roofFlopsPerSecond = 0.0; // the roof above the point's intensity
    double fractionOfRoof = 0.0;     // achieved over that roof, 0..1
    bool memoryBound = false;        // left of the ridge
};
// Where `point` sits under the device's roofs of its dominant precision; nullopt when that
// peak is not known.
std::optional<RooflinePlacement> placeOnRoofline(const RooflinePoint &point,
                                                 const DevicePeaks &peaks);

} // namespace cuwb
