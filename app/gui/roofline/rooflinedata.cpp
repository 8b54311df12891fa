#include "gui/roofline/rooflinedata.h"

#include "gui/common/qtconvert.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace cuwb {

namespace {

QString number(double value, int digits = 3)
{
    return QString::number(value, 'g', digits);
}

// The marker of a launch's values, or why it has none. A point needs its time, DRAM bytes and
// some FLOPs: on log axes nothing at 0 can be drawn.
// Why a launch has no point: NoFlops when the FLOP counters were not collected,
// NoFlopsExecuted when they were and counted none.
enum class Missing { None, NoPass, PassFailed, NoTimeOrBytes, NoFlops, NoFlopsExecuted, NoBytes };

Missing markerOf(const std::map<std::string, double> &values, const DevicePeaks &peaks,
                 RooflineMarker &marker)
{
    std::string why;
    const std::optional<RooflinePoint> point = rooflinePoint(values, why);
    if (!point)
        return Missing::NoTimeOrBytes;
    if (!(point->totalFlops() > 0.0))
        return countsFlops(values) ? Missing::NoFlopsExecuted : Missing::NoFlops;
    if (!(point->dramBytes > 0.0))
        return Missing::NoBytes;
    marker.intensity = point->intensity();
    marker.flopsPerSecond = point->flopsPerSecond();
    marker.precision = point->dominant();
    if (const std::optional<RooflinePlacement> placed = placeOnRoofline(*point, peaks)) {
        marker.fractionOfRoof = placed->fractionOfRoof;
        marker.memoryBound = placed->memoryBound;
    }
    return Missing::None;
}

std::optional<double> numericValue(const std::string &text)
{
    double value = 0.0;
    const char *end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

void setPeaks(RooflineData &data, const DevicePeaks &peaks)
{
    data.dramBytesPerSecond = peaks.dramBytesPerSecond;
    data.peaksNote = toQString(peaks.note);
    for (const auto &[precision, flops] : peaks.flopsPerSecond) {
        if (!(flops > 0.0))
            continue;
        RooflineCeiling ceiling;
        ceiling.precision = precision;
        ceiling.flopsPerSecond = flops;
        ceiling.ridgeIntensity =
            data.dramBytesPerSecond > 0.0 ? flops / data.dramBytesPerSecond : 0.0;
        data.ceilings.push_back(ceiling);
    }
    std::sort(data.ceilings.begin(), data.ceilings.end(),
              [](const RooflineCeiling &a, const RooflineCeiling &b) {
                  return a.flopsPerSecond > b.flopsPerSecond;
              });
    if (data.ceilings.empty() && data.peaksNote.isEmpty() && peaks.dramBytesPerSecond > 0.0)
        data.peaksNote = RooflineData::tr("the device's clock is not recorded, so its FP peaks "
                                          "are not known");
}

// The precision with the most FLOP/s over all points, and its ridge when that peak is known.
void setDominant(RooflineData &data)
{
    std::map<Precision, double> weight;
    for (const RooflineMarker &m : data.points)
        weight[m.precision] += m.flopsPerSecond;
    for (const RooflineMarker &m : data.baseline)
        weight[m.precision] += m.flopsPerSecond;
    double most = -1.0;
    for (const auto &[precision, w] : weight) {
        if (w > most) {
            most = w;
            data.dominant = precision;
        }
    }
    for (const RooflineCeiling &c : data.ceilings) {
        if (c.precision == data.dominant && c.ridgeIntensity > 0.0)
            data.ridge = c;
    }
}

double decadeBelow(double value)
{
    return std::pow(10.0, std::floor(std::log10(value)));
}

double decadeAbove(double value)
{
    return std::pow(10.0, std::ceil(std::log10(value)));
}

// Whole decades around every point, the ridges and the ceilings, with room to each side so a
// marker is never drawn on the frame.
void setRanges(RooflineData &data)
{
    double xMin = std::numeric_limits<double>::infinity();
    double xMax = 0.0;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = 0.0;
    auto take = [&](double x, double y) {
        if (x > 0.0 && std::isfinite(x)) {
            xMin = std::min(xMin, x);
            xMax = std::max(xMax, x);
        }
        if (y > 0.0 && std::isfinite(y)) {
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
        }
    };
    for (const RooflineMarker &m : data.points)
        take(m.intensity, m.flopsPerSecond);
    for (const RooflineMarker &m : data.baseline)
        take(m.intensity, m.flopsPerSecond);
    for (const RooflineCeiling &c : data.ceilings)
        take(c.ridgeIntensity, c.flopsPerSecond);
    if (!(xMax > 0.0)) {
        xMin = 1.0;
        xMax = 100.0;
    }
    if (!(yMax > 0.0)) {
        yMin = 1e11;
        yMax = 1e14;
    }
    data.xLow = decadeBelow(xMin / 2.0);
    data.xHigh = decadeAbove(xMax * 2.0);
    // The DRAM roof at the left edge is the lowest the roofs go: keep it in view when the points
    // are all higher, unless that would squash the points into the top decade or two.
    if (data.dramBytesPerSecond > 0.0)
        yMin = std::min(yMin, std::max(data.xLow * data.dramBytesPerSecond, yMax / 1e6));
    data.yLow = decadeBelow(yMin / 2.0);
    data.yHigh = decadeAbove(yMax * 2.0);
}

std::size_t bestIndex(const SweepResult &sweep)
{
    const std::optional<std::size_t> best = sweep.bestPoint();
    return best ? *best : std::numeric_limits<std::size_t>::max();
}

// The markers of a sweep's measured points, and how many of them could not be placed (by why).
std::vector<RooflineMarker> sweepMarkers(const SweepResult &sweep, const DevicePeaks &peaks,
                                         std::map<Missing, std::size_t> &missing)
{
    std::vector<RooflineMarker> markers;
    const std::string target =
        sweep.spec.axes.empty() ? std::string() : sweep.spec.axes.front().target;
    const std::size_t best = bestIndex(sweep);
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const SweepPointResult &r = sweep.points[i];
        if (r.status != PointStatus::Measured && r.status != PointStatus::Wrong)
            continue;
        Missing why = Missing::None;
        RooflineMarker marker;
        if (!r.metrics)
            why = Missing::NoPass;
        else if (!r.metrics->ok())
            why = Missing::PassFailed;
        else
            why = markerOf(r.metrics->values, peaks, marker);
        if (why != Missing::None) {
            ++missing[why];
            continue;
        }
        marker.label = toQString(r.point.label());
        marker.point = i;
        marker.best = i == best;
        for (const auto &[t, v] : r.point.values) {
            if (t == target)
                marker.value = numericValue(v);
        }
        markers.push_back(marker);
    }
    return markers;
}

QString missingText(const std::map<Missing, std::size_t> &missing)
{
    QStringList parts;
    for (const auto &[why, n] : missing) {
        // Written out rather than with %n: without a translation loaded, Qt would print
        // "point(s)".
        const bool one = n == 1;
        const QString count =
            one ? RooflineData::tr("1 point has") : RooflineData::tr("%1 points have").arg(n);
        switch (why) {
        case Missing::NoPass:
            parts << RooflineData::tr("%1 no metrics pass: run the sweep with Roofline on")
                         .arg(count);
            break;
        case Missing::PassFailed:
            parts << RooflineData::tr("%1 a metrics pass that failed").arg(count);
            break;
        case Missing::NoTimeOrBytes:
            parts << RooflineData::tr("%1 no GPU time or DRAM bytes from its metrics pass")
                         .arg(count);
            break;
        case Missing::NoFlops:
            parts << RooflineData::tr("%1 no floating-point instructions counted (no FLOPs, or "
                                      "a metrics pass without Roofline)")
                         .arg(count);
            break;
        case Missing::NoFlopsExecuted:
            parts << RooflineData::tr("%1 no floating-point instructions executed (the kernel "
                                      "only moves data)")
                         .arg(count);
            break;
        case Missing::NoBytes:
            parts << RooflineData::tr("%1 no DRAM traffic (all in cache)").arg(count);
            break;
        case Missing::None:
            break;
        }
    }
    return parts.join(QStringLiteral("; "));
}

// Up to kRooflineBuckets colours: one per distinct value when there are that few, else ranges
// of equal width (on a log scale when the values are positive and span 16× or more, as block
// sizes and problem sizes do). Points without a numeric value share a last bucket.
void bucket(RooflineData &data)
{
    std::set<double> distinct;
    std::vector<std::size_t> unvalued;
    for (std::size_t i = 0; i < data.points.size(); ++i) {
        if (data.points[i].value)
            distinct.insert(*data.points[i].value);
        else
            unvalued.push_back(i);
    }
    const QString target = data.colourTarget;
    if (!distinct.empty() && distinct.size() <= kRooflineBuckets) {
        for (const double v : distinct) {
            RooflineBucket b;
            b.low = b.high = v;
            b.name = QStringLiteral("%1 = %2").arg(target, number(v, 6));
            data.buckets.push_back(b);
        }
    } else if (!distinct.empty()) {
        const double low = *distinct.begin();
        const double high = *distinct.rbegin();
        const bool logScale = low > 0.0 && high / low >= 16.0;
        auto scale = [&](double v) { return logScale ? std::log(v) : v; };
        auto unscale = [&](double v) { return logScale ? std::exp(v) : v; };
        const double step = (scale(high) - scale(low)) / double(kRooflineBuckets);
        for (std::size_t k = 0; k < kRooflineBuckets; ++k) {
            RooflineBucket b;
            b.low = unscale(scale(low) + step * double(k));
            b.high = k + 1 == kRooflineBuckets ? high : unscale(scale(low) + step * double(k + 1));
            data.buckets.push_back(b);
        }
    }
    for (std::size_t i = 0; i < data.points.size(); ++i) {
        const std::optional<double> v = data.points[i].value;
        if (!v)
            continue;
        // The last bucket whose low end is at or below the value.
        std::size_t k = 0;
        while (k + 1 < data.buckets.size() && data.buckets[k + 1].low <= *v)
            ++k;
        data.buckets[k].markers.push_back(i);
    }
    // Ranges that hold points, named by the values they hold (not by their edges).
    std::vector<RooflineBucket> kept;
    for (RooflineBucket &b : data.buckets) {
        if (b.markers.empty())
            continue;
        if (b.name.isEmpty()) {
            double lo = std::numeric_limits<double>::infinity();
            double hi = -lo;
            for (const std::size_t i : b.markers) {
                lo = std::min(lo, *data.points[i].value);
                hi = std::max(hi, *data.points[i].value);
            }
            b.low = lo;
            b.high = hi;
            b.name =
                lo == hi
                    ? QStringLiteral("%1 = %2").arg(target, number(lo, 6))
                    : QStringLiteral("%1 %2\u2013%3").arg(target, number(lo, 6), number(hi, 6));
        }
        kept.push_back(std::move(b));
    }
    data.buckets = std::move(kept);
    if (!unvalued.empty()) {
        RooflineBucket b;
        b.name = target.isEmpty() ? RooflineData::tr("points")
                                  : RooflineData::tr("%1 not a number").arg(target);
        b.markers = unvalued;
        data.buckets.push_back(b);
    }
}

} // namespace

QString flopsText(double flopsPerSecond)
{
    if (flopsPerSecond >= 1e12)
        return RooflineData::tr("%1 TFLOP/s").arg(number(flopsPerSecond / 1e12));
    return RooflineData::tr("%1 GFLOP/s").arg(number(flopsPerSecond / 1e9));
}

QString RooflineMarker::toolTip() const
{
    QString text = label;
    text +=
        QLatin1Char('\n') + RooflineData::tr("%1 GFLOP/s %2 at %3 FLOP/byte")
                                .arg(number(flopsPerSecond / 1e9, 4),
                                     QLatin1String(precisionName(precision)), number(intensity, 3));
    if (fractionOfRoof)
        text += QLatin1Char('\n') + RooflineData::tr("%1% of the roof (%2)")
                                        .arg(QString::number(*fractionOfRoof * 100.0, 'f', 1),
                                             memoryBound ? RooflineData::tr("memory-bound")
                                                         : RooflineData::tr("compute-bound"));
    if (best)
        text += QLatin1Char('\n') + RooflineData::tr("the sweep's fastest point");
    return text;
}

std::optional<std::size_t> RooflineData::bestMarker() const
{
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].best)
            return i;
    }
    return std::nullopt;
}

RooflineData rooflineOfRun(const std::map<std::string, double> &values, const DevicePeaks &peaks,
                           const QString &label)
{
    RooflineData data;
    setPeaks(data, peaks);
    RooflineMarker marker;
    const Missing why = markerOf(values, peaks, marker);
    if (why == Missing::None) {
        marker.label = label;
        data.points.push_back(marker);
        RooflineBucket b;
        b.name = label;
        b.markers = {0};
        data.buckets.push_back(b);
    } else {
        data.missing = 1;
        if (why == Missing::NoBytes)
            data.missingText = RooflineData::tr("The run moved no DRAM bytes (all in cache): it "
                                                "has no arithmetic intensity to place");
        else if (why == Missing::NoFlopsExecuted)
            data.missingText = RooflineData::tr(
                "The kernel executed no floating-point instructions: the roofline places FLOPs "
                "per DRAM byte, so a kernel that only moves data has no point on it (its "
                "bandwidth is in the speed-of-light bars)");
        else
            data.missingText = RooflineData::tr("The metrics pass did not collect what the "
                                                "roofline needs: turn on Roofline and speed of "
                                                "light in Measure Options");
    }
    setDominant(data);
    setRanges(data);
    return data;
}

RooflineData rooflineOfSweep(const SweepResult &sweep, const SweepResult *baseline,
                             const std::optional<DevicePeaks> &peaks)
{
    RooflineData data;
    DevicePeaks known;
    if (peaks)
        known = *peaks;
    else if (sweep.device)
        known = devicePeaks(*sweep.device);
    else if (sweep.theoreticalPeakGBps)
        known.dramBytesPerSecond = *sweep.theoreticalPeakGBps * 1e9;
    setPeaks(data, known);
    if (!peaks && !sweep.device)
        data.peaksNote =
            RooflineData::tr("the sweep's file does not record its device, so only the DRAM "
                             "roof is known");
    std::map<Missing, std::size_t> missing;
    data.points = sweepMarkers(sweep, known, missing);
    if (baseline) {
        std::map<Missing, std::size_t> ignored; // the baseline's gaps are its own business
        data.baseline = sweepMarkers(*baseline, known, ignored);
        for (RooflineMarker &m : data.baseline)
            m.best = false;
    }
    data.colourTarget =
        sweep.spec.axes.empty() ? QString() : toQString(axisName(sweep.spec.axes.front().target));
    for (const auto &[why, n] : missing)
        data.missing += n;
    data.missingText = missingText(missing);
    bucket(data);
    setDominant(data);
    setRanges(data);
    return data;
}

} // namespace cuwb
