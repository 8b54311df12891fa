// RooflineData: what a roofline chart draws, derived once from recorded values (a metrics pass
// that collected rooflineMetrics(), and the device's peaks from devicePeaks()): the DRAM roof
// and the FP32/FP64/FP16 ceilings the device has, the ridge of the dominant precision, the
// points of one run or of a sweep (coloured by the swept parameter, in a few buckets, the best
// point marked), a baseline sweep's points, the axis ranges, and how many points could not be
// placed and why. No Qt Charts here, so the content is tested without rendering, and no GPU:
// everything comes from values already measured.
#pragma once

#include "measure/roofline.h"
#include "sweep/sweep.h"

#include <QCoreApplication>
#include <QString>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct RooflineCeiling
{
    Precision precision = Precision::FP32;
    double flopsPerSecond = 0.0;
    double ridgeIntensity = 0.0; // FLOP/byte where the DRAM roof reaches this ceiling
};

struct RooflineMarker
{
    double intensity = 0.0;      // FLOP per DRAM byte
    double flopsPerSecond = 0.0; // achieved
    Precision precision = Precision::FP32;
    std::optional<double> fractionOfRoof; // 0..1, when the dominant precision's peak is known
    bool memoryBound = false;
    QString label;               // "block.x=256", or the kernel's name for one run
    std::optional<double> value; // the swept parameter's value, for the colour
    std::size_t point = 0;       // index into the sweep's points (0 for one run)
    bool best = false;           // the sweep's best point by median time
    [[nodiscard]] QString toolTip() const;
};

// The points whose swept value falls in [low, high], drawn in one colour (one series each).
struct RooflineBucket
{
    double low = 0.0;
    double high = 0.0;
    QString name;                     // "block.x 32–96", "block.x = 256"
    std::vector<std::size_t> markers; // into RooflineData::points
};

struct RooflineData
{
    Q_DECLARE_TR_FUNCTIONS(RooflineData)

public:
    double dramBytesPerSecond = 0.0;       // 0 when unknown: no roof is drawn
    std::vector<RooflineCeiling> ceilings; // the peaks the device has, highest first
    Precision dominant = Precision::FP32;  // of the points (the most FLOPs overall)
    std::optional<RooflineCeiling> ridge;  // the dominant precision's, when its peak is known
    QString peaksNote;                     // why a ceiling is missing

    std::vector<RooflineMarker> points;   // one run, or the sweep's
    std::vector<RooflineMarker> baseline; // a baseline sweep's, drawn hollow
    QString colourTarget;                 // the swept parameter ("block.x"); empty for one run
    std::vector<RooflineBucket> buckets;  // ascending values; one bucket for one run

    std::size_t missing = 0; // measured points left out
    QString missingText;     // "12 points have no metrics pass: run the sweep with Roofline on"

    // Log axes that contain every point, roof and ridge, on whole decades.
    double xLow = 0.1;
    double xHigh = 1000.0;
    double yLow = 1e9;
    double yHigh = 1e15;

    [[nodiscard]] bool empty() const { return points.empty() && baseline.empty(); }
    [[nodiscard]] std::optional<std::size_t> bestMarker() const;
};

// At most this many colours for a sweep's cloud: more distinct values share buckets.
inline constexpr std::size_t kRooflineBuckets = 8;

// One launch's point (a metrics pass's values), labelled `label`.
RooflineData rooflineOfRun(const std::map<std::string, double> &values, const DevicePeaks &peaks,
                           const QString &label);
// A sweep's cloud and, when given, a baseline sweep's; peaks from the sweep's device when
// `peaks` is not given (a recorded sweep without its device has no ceilings, only points).
RooflineData rooflineOfSweep(const SweepResult &sweep, const SweepResult *baseline = nullptr,
                             const std::optional<DevicePeaks> &peaks = std::nullopt);

// "66.9 TFLOP/s", "812 GFLOP/s"
QString flopsText(double flopsPerSecond);

} // namespace cuwb
