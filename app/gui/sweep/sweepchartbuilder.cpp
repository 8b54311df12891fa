#include "gui/sweep/sweepchartbuilder.h"

#include "gui/common/format.h"

#include "gui/common/qtconvert.h"
#include "launch/expression.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace cuwb {

namespace {

constexpr const char *kDramRead = "dram__bytes_read.sum";
constexpr const char *kDramWrite = "dram__bytes_write.sum";
constexpr const char *kWarpsActive = "sm__warps_active.avg.pct_of_peak_sustained_active";

std::optional<double> metricValue(const std::optional<MetricsResult> &metrics, const char *name)
{
    if (!metrics || !metrics->ok())
        return std::nullopt;
    const auto found = metrics->values.find(name);
    if (found == metrics->values.end() || !std::isfinite(found->second))
        return std::nullopt;
    return found->second;
}

bool metricsOccupancyKnown(const std::optional<MetricsResult> &metrics)
{
    return metrics && metrics->occupancyError.empty() && metrics->blockThreads > 0;
}

bool plottable(const SweepPointResult &p)
{
    return p.status == PointStatus::Measured && p.measurement &&
           std::isfinite(p.measurement->statistics.medianNs) &&
           p.measurement->statistics.medianNs > 0;
}

std::optional<double> peakOf(const SweepResult &result)
{
    if (result.theoreticalPeakGBps)
        return result.theoreticalPeakGBps;
    for (const SweepPointResult &p : result.points) {
        if (p.measurement && p.measurement->throughput.theoreticalPeakGBps)
            return p.measurement->throughput.theoreticalPeakGBps;
    }
    return std::nullopt;
}

std::optional<double> ceilingOf(const SweepResult &result)
{
    if (result.copyCeilingGBps)
        return result.copyCeilingGBps;
    for (const SweepPointResult &p : result.points) {
        if (p.measurement && p.measurement->throughput.copyCeilingGBps)
            return p.measurement->throughput.copyCeilingGBps;
    }
    return std::nullopt;
}

QString number(double value, int digits = 4)
{
    return QString::number(value, 'g', digits);
}

QString percentText(double percent)
{
    return QString::number(percent, 'f', 1) + QLatin1Char('%');
}

} // namespace

const SweepHeatmapCell *SweepHeatmapData::cellAt(int column, int row) const
{
    for (const SweepHeatmapCell &cell : cells) {
        if (cell.column == column && cell.row == row)
            return &cell;
    }
    return nullptr;
}

std::optional<double> SweepChartBuilder::theoreticalOccupancy(const SweepPointResult &p)
{
    if (p.theoreticalOccupancy)
        return *p.theoreticalOccupancy;
    if (metricsOccupancyKnown(p.metrics))
        return p.metrics->theoreticalOccupancy;
    return std::nullopt;
}

std::optional<double> SweepChartBuilder::achievedOccupancyPercent(const SweepPointResult &p)
{
    return metricValue(p.metrics, kWarpsActive);
}

std::optional<double> SweepChartBuilder::waves(const SweepPointResult &p)
{
    if (p.waves)
        return *p.waves;
    if (metricsOccupancyKnown(p.metrics))
        return p.metrics->waves;
    return std::nullopt;
}

QString SweepChartBuilder::occupancyLimiter(const SweepPointResult &p)
{
    if (!p.occupancyLimiter.empty())
        return toQString(p.occupancyLimiter);
    if (metricsOccupancyKnown(p.metrics))
        return toQString(p.metrics->occupancyLimiter);
    return {};
}

std::optional<double> SweepChartBuilder::dramGBps(const SweepPointResult &p)
{
    const auto read = metricValue(p.metrics, kDramRead);
    const auto written = metricValue(p.metrics, kDramWrite);
    if (!read || !written || !p.measurement || !(p.measurement->statistics.medianNs > 0))
        return std::nullopt;
    // bytes per ns is GB/s.
    return (*read + *written) / p.measurement->statistics.medianNs;
}

int SweepChartBuilder::blockDimension(const QString &target)
{
    const std::optional<AxisTargetInfo> info = parseAxisTarget(toStdString(target));
    return info && info->kind == AxisTarget::Block ? info->blockIndex : -1;
}

QString SweepChartBuilder::axisName(const QString &target)
{
    return toQString(cuwb::axisName(toStdString(target)));
}

QString SweepChartBuilder::axisTitle(const QString &target)
{
    const std::optional<AxisTargetInfo> info = parseAxisTarget(toStdString(target));
    if (info && info->kind == AxisTarget::Block)
        return tr("%1 (threads)").arg(axisName(target));
    if (info && info->kind == AxisTarget::MaxRegisters)
        return tr("max registers per thread");
    if (info && info->kind == AxisTarget::FastMath)
        return tr("fast math (0 = off, 1 = on)");
    return axisName(target);
}

std::optional<double> SweepChartBuilder::axisNumber(const std::string &value,
                                                    const SweepPoint &point)
{
    // Most values are plain numbers: no expression parser for them.
    double parsed = 0.0;
    const char *begin = value.data();
    const char *end = begin + value.size();
    const auto [last, error] = std::from_chars(begin, end, parsed);
    if (error == std::errc() && last == end && std::isfinite(parsed))
        return parsed;
    const ExpressionValue direct = evaluateExpression(value, {});
    if (direct.ok() && std::isfinite(direct.value))
        return direct.value;
    if (point.request.launch.variables.empty())
        return std::nullopt;
    const VariablesResult variables = evaluateVariables(point.request.launch.variables);
    if (variables.error)
        return std::nullopt;
    const ExpressionValue withVariables = evaluateExpression(value, variables.values);
    if (withVariables.ok() && std::isfinite(withVariables.value))
        return withVariables.value;
    return std::nullopt;
}

QString SweepChartBuilder::formatTime(double ns)
{
    if (!std::isfinite(ns))
        return tr("n/a");
    const double size = std::abs(ns);
    if (size >= 1e9)
        return tr("%1 s").arg(number(ns * 1e-9));
    if (size >= 1e6)
        return tr("%1 ms").arg(number(ns * 1e-6));
    if (size >= 1e3)
        return tr("%1 \u00b5s").arg(number(ns * 1e-3));
    return tr("%1 ns").arg(number(ns));
}

void SweepChartBuilder::chooseAxes()
{
    m_xTarget.clear();
    m_heatXTarget.clear();
    m_heatYTarget.clear();
    m_zip = false;
    m_heatmap = false;
    m_xSpecLow.reset();
    m_xSpecHigh.reset();
    if (m_runs.empty())
        return;
    const SweepResult &first = m_runs.front().result;
    m_zip = first.spec.combination == AxisCombination::Zip && first.spec.axes.size() > 1;

    struct Candidate
    {
        std::string target;
        const SweepAxis *axis = nullptr;
    };
    std::vector<Candidate> axes;
    for (const SweepAxis &axis : first.spec.axes)
        axes.push_back({axis.target, &axis});
    if (axes.empty() && !first.points.empty()) {
        for (const auto &pair : first.points.front().point.values)
            axes.push_back({pair.first, nullptr});
    }

    const auto numeric = [&](const Candidate &candidate) {
        if (candidate.axis && candidate.axis->kind != AxisValues::List)
            return true; // ranges and powers of two are numbers by construction
        bool any = false;
        if (candidate.axis) {
            const SweepPoint none;
            any = !candidate.axis->values.empty();
            const bool allNumbers =
                std::all_of(candidate.axis->values.begin(), candidate.axis->values.end(),
                            [&](const std::string &v) { return axisNumber(v, none).has_value(); });
            if (any && allNumbers)
                return true;
        }
        // Expressions over the launch variables ("N/4") need a point's variables.
        any = false;
        for (const SweepPointResult &p : first.points) {
            const std::string *value = p.point.valueOf(candidate.target);
            if (!value)
                continue;
            if (!axisNumber(*value, p.point))
                return false;
            any = true;
        }
        return any;
    };
    for (const Candidate &candidate : axes) {
        if (!numeric(candidate))
            continue;
        m_xTarget = candidate.target;
        if (const SweepAxis *axis = candidate.axis) {
            if (axis->kind != AxisValues::List) {
                m_xSpecLow = std::min(axis->from, axis->to);
                m_xSpecHigh = std::max(axis->from, axis->to);
            } else {
                const SweepPoint none;
                for (const std::string &value : axis->values) {
                    if (const auto number = axisNumber(value, none)) {
                        m_xSpecLow = std::min(m_xSpecLow.value_or(*number), *number);
                        m_xSpecHigh = std::max(m_xSpecHigh.value_or(*number), *number);
                    }
                }
            }
        }
        break;
    }

    if (axes.size() == 2 && !m_zip) {
        const int a = blockDimension(toQString(axes[0].target));
        const int b = blockDimension(toQString(axes[1].target));
        if (a >= 0 && b >= 0 && a != b) {
            m_heatmap = true;
            m_heatXTarget = a < b ? axes[0].target : axes[1].target;
            m_heatYTarget = a < b ? axes[1].target : axes[0].target;
        }
    }
}

SweepChartBuilder::PointKey SweepChartBuilder::keyOf(const SweepPointResult &p)
{
    PointKey key;
    if (m_xTarget.empty()) {
        key.x = double(p.point.index + 1);
    } else if (const std::string *value = p.point.valueOf(m_xTarget)) {
        key.x = axisNumber(*value, p.point);
    }
    if (key.x) {
        QString group;
        if (!m_zip) {
            SweepPoint others;
            for (const auto &pair : p.point.values) {
                if (pair.first != m_xTarget)
                    others.values.push_back(pair);
            }
            group = toQString(others.label());
        }
        const auto found = std::find(m_groups.begin(), m_groups.end(), group);
        key.group = int(found - m_groups.begin());
        if (found == m_groups.end())
            m_groups.push_back(group);
    }
    key.dramGBps = dramGBps(p);
    if (const auto occupancy = theoreticalOccupancy(p))
        key.theoreticalOccupancyPercent = *occupancy * 100.0;
    key.achievedOccupancyPercent = achievedOccupancyPercent(p);
    key.waves = waves(p);
    if (m_heatmap) {
        if (const std::string *value = p.point.valueOf(m_heatXTarget))
            key.heatX = axisNumber(*value, p.point);
        if (const std::string *value = p.point.valueOf(m_heatYTarget))
            key.heatY = axisNumber(*value, p.point);
    }
    return key;
}

void SweepChartBuilder::setRuns(std::vector<NamedSweep> runs)
{
    m_runs = std::move(runs);
    m_groups.clear();
    m_keys.clear();
    chooseAxes();
    m_keys.resize(m_runs.size());
    for (std::size_t r = 0; r < m_runs.size(); ++r) {
        m_keys[r].reserve(m_runs[r].result.points.size());
        for (const SweepPointResult &p : m_runs[r].result.points)
            m_keys[r].push_back(keyOf(p));
    }
}

void SweepChartBuilder::appendPoint(const SweepPointResult &point)
{
    if (m_runs.empty()) {
        m_runs.push_back({tr("current"), {}, false});
        m_keys.resize(1);
    }
    const bool firstPoint = m_runs.front().result.points.empty();
    m_runs.front().result.points.push_back(point);
    if (firstPoint && m_runs.front().result.spec.axes.empty()) {
        // The axes come from the first point's values when the result carries no spec.
        setRuns(std::move(m_runs));
        return;
    }
    m_keys.front().push_back(keyOf(point));
}

void SweepChartBuilder::setPoint(std::size_t index, const SweepPointResult &point)
{
    if (m_runs.empty() || index >= m_runs.front().result.points.size()) {
        appendPoint(point);
        return;
    }
    m_runs.front().result.points[index] = point;
    m_keys.front()[index] = keyOf(point);
}

SweepChartData SweepChartBuilder::build(std::vector<NamedSweep> runs)
{
    SweepChartBuilder builder;
    builder.setRuns(std::move(runs));
    return builder.data();
}

SweepChartData SweepChartBuilder::data() const
{
    SweepChartData d;
    d.xTarget = toQString(m_xTarget);
    d.xTitle = m_xTarget.empty() ? tr("point (in sweep order)") : axisTitle(d.xTarget);
    const int groupCount = std::max<int>(1, int(m_groups.size()));
    int ownColours = 0; // runs that are not baselines each get their own colours
    for (std::size_t r = 0; r < m_runs.size(); ++r)
        addRun(d, r, m_runs[r].baseline ? 0 : groupCount * ownColours++);
    placeX(d);
    if (m_heatmap && !m_runs.empty())
        d.heatmap = heatmapData();
    return d;
}

// Run r's points into d: one series per group (made with the group's first point, measured or
// not), the points that cannot be drawn listed with the reason; `colourBase` is the run's first
// colour.
void SweepChartBuilder::addRun(SweepChartData &d, std::size_t r, int colourBase) const
{
    const NamedSweep &run = m_runs[r];
    const SweepResult &result = run.result;
    if (!d.theoreticalPeakGBps)
        d.theoreticalPeakGBps = peakOf(result);
    if (!d.copyCeilingGBps)
        d.copyCeilingGBps = ceilingOf(result);
    const std::optional<std::size_t> best = result.bestPoint();
    std::vector<char> tied(result.points.size(), 0);
    for (std::size_t k : result.pointsTiedWithBest())
        tied[k] = 1;

    std::vector<int> seriesOfGroup(m_groups.size(), -1);
    // The series of a group, made when the group's first point is met.
    const auto seriesFor = [&](int group) -> SweepChartSeries & {
        int &seriesIndex = seriesOfGroup[std::size_t(group)];
        if (seriesIndex < 0) {
            seriesIndex = int(d.series.size());
            SweepChartSeries s;
            s.group = m_groups[std::size_t(group)];
            if (s.group.isEmpty())
                s.name = run.name;
            else if (m_runs.size() > 1)
                s.name = tr("%1 %2").arg(run.name, s.group);
            else
                s.name = s.group;
            s.run = r;
            s.baseline = run.baseline;
            s.colorIndex = colourBase + group;
            d.series.push_back(std::move(s));
        }
        return d.series[std::size_t(seriesIndex)];
    };
    for (std::size_t k = 0; k < result.points.size(); ++k) {
        const SweepPointResult &p = result.points[k];
        const PointKey &key = m_keys[r][k];
        if (p.status == PointStatus::Pending) {
            // A group's line exists from its first point on, measured or not: the charts
            // keep one structure while a sweep streams in, instead of being rebuilt as
            // each group's first point arrives (25 rebuilds for 25 groups, up to 15 ms
            // each; bench/bench_sweep_gui).
            if (key.x)
                (void)seriesFor(key.group);
            continue;
        }
        if (!plottable(p) || !key.x) {
            SweepUnplottedPoint u;
            u.run = r;
            u.point = k;
            u.label = toQString(p.point.label());
            u.status = p.status;
            u.message = toQString(p.message.empty() ? p.point.skipReason : p.message);
            if (u.message.isEmpty() && p.status == PointStatus::Measured)
                u.message =
                    key.x ? tr("no time was measured") : tr("no number for %1").arg(d.xTarget);
            d.unplotted.push_back(std::move(u));
            continue;
        }
        const SampleStatistics &stats = p.measurement->statistics;
        SweepChartPoint c;
        c.x = *key.x;
        c.run = r;
        c.point = k;
        c.medianNs = stats.medianNs;
        c.minNs = stats.minNs > 0 ? stats.minNs : stats.medianNs;
        c.maxNs = stats.maxNs > 0 ? stats.maxNs : stats.medianNs;
        c.effectiveGBps = p.measurement->throughput.effectiveGBps;
        c.dramGBps = key.dramGBps;
        c.theoreticalOccupancyPercent = key.theoreticalOccupancyPercent;
        c.achievedOccupancyPercent = key.achievedOccupancyPercent;
        c.waves = key.waves;
        c.best = best && *best == k;
        c.tied = tied[k] != 0;
        d.hasBandwidth = d.hasBandwidth || c.effectiveGBps.has_value();
        d.hasDram = d.hasDram || c.dramGBps.has_value();
        d.hasTheoreticalOccupancy =
            d.hasTheoreticalOccupancy || c.theoreticalOccupancyPercent.has_value();
        d.hasAchievedOccupancy = d.hasAchievedOccupancy || c.achievedOccupancyPercent.has_value();
        d.hasWaves = d.hasWaves || c.waves.has_value();
        seriesFor(key.group).points.push_back(c);
    }
}

// The x range of the points (and of the spec's axis, when known), and whether it is drawn on a
// logarithmic scale.
void SweepChartBuilder::placeX(SweepChartData &d) const
{
    double lowest = std::numeric_limits<double>::infinity();
    double highest = -std::numeric_limits<double>::infinity();
    for (SweepChartSeries &s : d.series) {
        std::stable_sort(
            s.points.begin(), s.points.end(),
            [](const SweepChartPoint &a, const SweepChartPoint &b) { return a.x < b.x; });
        for (const SweepChartPoint &c : s.points) {
            lowest = std::min(lowest, c.x);
            highest = std::max(highest, c.x);
        }
    }
    if (m_xSpecLow && m_xSpecHigh) {
        lowest = std::min(lowest, *m_xSpecLow);
        highest = std::max(highest, *m_xSpecHigh);
    }
    if (lowest <= highest) {
        d.xLow = lowest;
        d.xHigh = highest;
    }
    const bool block = blockDimension(d.xTarget) >= 0;
    d.logX = lowest > 0 && lowest <= highest && (block || highest / lowest >= 16.0);
}

// The first run as a grid of the two heat-map axes' values, a cell per point that has both.
SweepHeatmapData SweepChartBuilder::heatmapData() const
{
    const SweepResult &result = m_runs.front().result;
    SweepHeatmapData h;
    h.xTarget = toQString(m_heatXTarget);
    h.yTarget = toQString(m_heatYTarget);
    for (const PointKey &key : m_keys.front()) {
        if (key.heatX && key.heatY) {
            h.xValues.push_back(*key.heatX);
            h.yValues.push_back(*key.heatY);
        }
    }
    for (std::vector<double> *values : {&h.xValues, &h.yValues}) {
        std::sort(values->begin(), values->end());
        values->erase(std::unique(values->begin(), values->end()), values->end());
    }
    const std::optional<std::size_t> best = result.bestPoint();
    const std::vector<std::size_t> tied = result.pointsTiedWithBest();
    for (std::size_t k = 0; k < result.points.size(); ++k) {
        const PointKey &key = m_keys.front()[k];
        if (!key.heatX || !key.heatY)
            continue;
        const SweepPointResult &p = result.points[k];
        SweepHeatmapCell cell;
        cell.column = int(std::lower_bound(h.xValues.begin(), h.xValues.end(), *key.heatX) -
                          h.xValues.begin());
        cell.row = int(std::lower_bound(h.yValues.begin(), h.yValues.end(), *key.heatY) -
                       h.yValues.begin());
        cell.point = k;
        cell.status = p.status;
        if (plottable(p)) {
            cell.medianNs = p.measurement->statistics.medianNs;
            cell.effectiveGBps = p.measurement->throughput.effectiveGBps;
        }
        cell.best = best && *best == k;
        cell.tied = std::find(tied.begin(), tied.end(), k) != tied.end();
        cell.message = toQString(p.message.empty() ? p.point.skipReason : p.message);
        h.cells.push_back(std::move(cell));
    }
    return h;
}

QString SweepChartBuilder::toolTip(const NamedSweep &run, std::size_t index)
{
    const SweepResult &result = run.result;
    if (index >= result.points.size())
        return {};
    const SweepPointResult &p = result.points[index];
    QStringList lines;
    QString title = toQString(p.point.label());
    if (!run.name.isEmpty())
        title = tr("%1 (%2)").arg(title, run.name);
    lines << title;

    QString status = QString::fromLatin1(pointStatusName(p.status));
    const QString message = toQString(p.message.empty() ? p.point.skipReason : p.message);
    if (!message.isEmpty())
        status = tr("%1: %2").arg(status, message);
    lines << tr("status: %1").arg(status);

    const std::optional<std::size_t> best = result.bestPoint();
    if (best && *best == index) {
        lines << tr("the best point of this sweep");
    } else if (best) {
        const std::vector<std::size_t> tied = result.pointsTiedWithBest();
        if (std::find(tied.begin(), tied.end(), index) != tied.end())
            lines << tr("within the measured noise of the best point (%1)")
                         .arg(toQString(result.points[*best].point.label()));
    }

    if (p.measurement) {
        const Measurement &m = *p.measurement;
        const SampleStatistics &s = m.statistics;
        lines << tr("median %1, mean %2").arg(formatTime(s.medianNs), formatTime(s.meanNs));
        lines << tr("min %1, max %2").arg(formatTime(s.minNs), formatTime(s.maxNs));
        lines << tr("stddev %1, noise %2")
                     .arg(formatTime(s.stddevNs), percentText(s.relativeNoise * 100.0));
        lines << (s.count == 1 ? tr("1 sample, %1 timing")
                               : tr("%1 samples, %2 timing").arg(s.count))
                     .arg(QString::fromLatin1(timingSourceName(m.timingSource)));
        const Throughput &t = m.throughput;
        if (t.effectiveGBps) {
            QString line = tr("%1 GB/s effective").arg(number(*t.effectiveGBps));
            const std::optional<double> peak =
                t.theoreticalPeakGBps ? t.theoreticalPeakGBps : result.theoreticalPeakGBps;
            const std::optional<double> ceiling =
                t.copyCeilingGBps ? t.copyCeilingGBps : result.copyCeilingGBps;
            if (peak && *peak > 0)
                line += tr(", %1 of the peak (%2 GB/s)")
                            .arg(percentText(t.percentOfPeak ? *t.percentOfPeak
                                                             : *t.effectiveGBps / *peak * 100.0),
                                 number(*peak));
            if (ceiling && *ceiling > 0)
                line +=
                    tr(", %1 of the copy ceiling (%2 GB/s)")
                        .arg(percentText(t.percentOfCeiling ? *t.percentOfCeiling
                                                            : *t.effectiveGBps / *ceiling * 100.0),
                             number(*ceiling));
            lines << line;
        }
        if (t.gflops)
            lines << tr("%1 GFLOP/s").arg(number(*t.gflops));
        if (m.throttled)
            lines << tr("throttled: %1 of the samples below 75% of the default SM clock")
                         .arg(m.throttledSamples);
    }
    if (const auto dram = dramGBps(p)) {
        lines << tr("DRAM %1 GB/s (read %2, written %3)")
                     .arg(number(*dram), decimalBytesText(*metricValue(p.metrics, kDramRead)),
                          decimalBytesText(*metricValue(p.metrics, kDramWrite)));
    }
    if (p.metrics && !p.metrics->ok())
        lines << tr("metrics: %1").arg(toQString(p.metrics->error));
    QStringList occupancy;
    if (const auto theoretical = theoreticalOccupancy(p)) {
        const QString limiter = occupancyLimiter(p);
        occupancy << (limiter.isEmpty()
                          ? tr("theoretical %1").arg(percentText(*theoretical * 100.0))
                          : tr("theoretical %1 (limited by %2)")
                                .arg(percentText(*theoretical * 100.0), limiter));
    }
    if (const auto achieved = metricValue(p.metrics, kWarpsActive))
        occupancy << tr("achieved %1").arg(percentText(*achieved));
    if (!occupancy.isEmpty())
        lines << tr("occupancy: %1").arg(occupancy.join(QStringLiteral(", ")));
    if (const auto w = waves(p))
        lines << tr("waves: %1").arg(QString::number(*w, 'f', *w < 100 ? 2 : 0));
    return lines.join(QLatin1Char('\n'));
}

} // namespace cuwb
