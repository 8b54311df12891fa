// SweepChartBuilder: turns one or more sweep results into the plain data the profiler view
// draws: line series over the swept axis (median, min and max time, effective and DRAM
// bandwidth, occupancy, waves), the best point and the points tied with it, the points that
// are not drawn and why, and the cells of a block.x × block.y heatmap. No Qt Charts here, so
// the charts' content is tested without rendering; the builder keeps what it derived from each
// point (the axis values, evaluated once), so a sweep that streams in one point at a time costs
// one point's work per point plus a linear pass to regroup.
#pragma once

#include "sweep/sweep.h"

#include <QCoreApplication>
#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

namespace cuwb {

// One sweep to chart under a name: "current", "baseline 2026-11-28", a kernel's name.
struct NamedSweep
{
    QString name;
    SweepResult result;
    bool baseline = false; // drawn dashed, in the colours of the first run it is compared with
};

// A measured point on a series. Times in ns, bandwidths in GB/s (1e9 bytes a second).
struct SweepChartPoint
{
    double x = 0.0;        // the value of the swept axis
    std::size_t run = 0;   // index into the runs
    std::size_t point = 0; // index into that run's SweepResult::points
    double medianNs = 0.0;
    double minNs = 0.0;
    double maxNs = 0.0;
    std::optional<double> effectiveGBps;
    std::optional<double> dramGBps; // (DRAM bytes read + written) / median time
    std::optional<double> theoreticalOccupancyPercent;
    std::optional<double>
        achievedOccupancyPercent; // sm__warps_active...pct_of_peak_sustained_active
    std::optional<double> waves;
    bool best = false; // the run's best point
    bool tied = false; // within the measured noise of the run's best point
};

struct SweepChartSeries
{
    QString name;  // "current", "TILE=16", "baseline TILE=16"
    QString group; // the values of the other axes, "TILE=16"; empty when there are none
    std::size_t run = 0;
    bool baseline = false;
    int colorIndex = 0;                  // the same group has the same colour in every run
    std::vector<SweepChartPoint> points; // ascending x
};

// A point that is not on any line: skipped, failed, wrong, or measured without a usable time
// or axis value. Pending points are not listed.
struct SweepUnplottedPoint
{
    std::size_t run = 0;
    std::size_t point = 0;
    QString label; // "block.x=2048"
    PointStatus status = PointStatus::Skipped;
    QString message;
};

struct SweepHeatmapCell
{
    int column = 0; // into SweepHeatmapData::xValues
    int row = 0;    // into SweepHeatmapData::yValues
    std::size_t point = 0;
    PointStatus status = PointStatus::Pending;
    std::optional<double> medianNs;      // measured points only
    std::optional<double> effectiveGBps; // measured points only
    bool best = false;
    bool tied = false;
    QString message;
};

// block.x × block.y of the first run; cells only where the sweep has a point.
struct SweepHeatmapData
{
    QString xTarget;             // "block.x"
    QString yTarget;             // "block.y"
    std::vector<double> xValues; // ascending, distinct
    std::vector<double> yValues;
    std::vector<SweepHeatmapCell> cells;
    [[nodiscard]] const SweepHeatmapCell *cellAt(int column, int row) const;
};

struct SweepChartData
{
    QString xTarget;   // "block.x"; empty when no axis is numeric (x is then the point's order)
    QString xTitle;    // "block.x (threads)"
    bool logX = false; // base-2 axis: a block dimension, or positive values spanning 16× or more
    // The extent of x: the first run's axis as the spec defines it (so that a streaming sweep's
    // chart does not rescale with every point) joined with every point drawn; 0, 0 when empty.
    double xLow = 0.0;
    double xHigh = 0.0;
    std::vector<SweepChartSeries> series;
    std::vector<SweepUnplottedPoint> unplotted;
    std::optional<double> theoreticalPeakGBps;
    std::optional<double> copyCeilingGBps;
    bool hasBandwidth = false;
    bool hasDram = false;
    bool hasTheoreticalOccupancy = false;
    bool hasAchievedOccupancy = false;
    bool hasWaves = false;
    std::optional<SweepHeatmapData> heatmap; // the first run sweeps two block dimensions
};

class SweepChartBuilder
{
    Q_DECLARE_TR_FUNCTIONS(SweepChartBuilder)

public:
    // The first run decides the axes: x is its first numeric axis (a range or powers of two, or
    // a list whose values are all numbers), every other axis splits the points into one series
    // per combination of values (Cartesian sweeps; a zipped sweep varies them together with x).
    void setRuns(std::vector<NamedSweep> runs);
    // Streaming into the first run: a new point, or a new result for point `index`.
    void appendPoint(const SweepPointResult &point);
    void setPoint(std::size_t index, const SweepPointResult &point);
    [[nodiscard]] const std::vector<NamedSweep> &runs() const { return m_runs; }
    [[nodiscard]] SweepChartData data() const;

    static SweepChartData build(std::vector<NamedSweep> runs);

    // Every statistic of a point as lines of text, for tooltips.
    static QString toolTip(const NamedSweep &run, std::size_t point);

    // "792.1 µs", "4.52 ms", "812 ns": four significant digits in a unit that suits the value.
    static QString formatTime(double ns);
    // The name of a target in labels and headers (cuwb::axisName): "block.x", "TILE" (for
    // "-DTILE" and "<TILE>"), "N", "maxrregcount".
    static QString axisName(const QString &target);
    // The axis label of a target: "block.x (threads)", "TILE", "N".
    static QString axisTitle(const QString &target);
    // Whether a target is "block.x", "block.y" or "block.z"; the dimension, else -1.
    static int blockDimension(const QString &target);
    // The number a point's axis value stands for: a number, or an expression over the
    // point's launch variables ("1<<20", "N/4"); nullopt for text such as a type name.
    static std::optional<double> axisNumber(const std::string &value, const SweepPoint &point);

    // What a point says, wherever it is recorded: the point's own fields first, then its
    // metrics pass. DRAM GB/s = (bytes read + written) / median time.
    static std::optional<double> dramGBps(const SweepPointResult &point);
    static std::optional<double> theoreticalOccupancy(const SweepPointResult &point); // 0..1
    static std::optional<double> achievedOccupancyPercent(const SweepPointResult &point);
    static std::optional<double> waves(const SweepPointResult &point);
    static QString occupancyLimiter(const SweepPointResult &point);

private:
    // What the builder derives from a point once, when the point arrives.
    struct PointKey
    {
        std::optional<double> x;
        int group = -1; // into m_groups; -1 when the point has no x
        std::optional<double> heatX, heatY;
        std::optional<double> dramGBps;
        std::optional<double> theoreticalOccupancyPercent;
        std::optional<double> achievedOccupancyPercent;
        std::optional<double> waves;
    };
    void chooseAxes();
    PointKey keyOf(const SweepPointResult &point);
    // data()'s steps: each run's series, the x range, the heat map.
    void addRun(SweepChartData &d, std::size_t r, int colourBase) const;
    void placeX(SweepChartData &d) const;
    [[nodiscard]] SweepHeatmapData heatmapData() const;

    std::vector<NamedSweep> m_runs;
    std::vector<std::vector<PointKey>> m_keys; // per run, per point
    std::vector<QString> m_groups;             // first-seen order
    std::string m_xTarget;
    std::optional<double> m_xSpecLow; // the extent of the x axis in the first run's spec
    std::optional<double> m_xSpecHigh;
    std::string m_heatXTarget;
    std::string m_heatYTarget;
    bool m_zip = false;
    bool m_heatmap = false;
};

} // namespace cuwb
