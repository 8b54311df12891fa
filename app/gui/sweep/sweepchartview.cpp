#include "gui/sweep/sweepchartview.h"

#include "gui/common/qtconvert.h"
#include "gui/sweep/sweepchartstyle.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace cuwb {

using namespace SweepChartStyle;

namespace {

// Whether any line has a point yet (a sweep that just started has empty lines).
bool hasPoints(const SweepChartData &data)
{
    return std::any_of(data.series.begin(), data.series.end(),
                       [](const SweepChartSeries &s) { return !s.points.empty(); });
}

// One unit for a time axis whose largest value is `ns`.
std::pair<double, QString> timeUnit(double ns)
{
    if (ns >= 1e9)
        return {1e9, SweepChartView::tr("s")};
    if (ns >= 1e6)
        return {1e6, SweepChartView::tr("ms")};
    if (ns >= 1e3)
        return {1e3, SweepChartView::tr("\u00b5s")};
    return {1.0, SweepChartView::tr("ns")};
}

// A series on `chart` against its axes.
void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

// A series the legend does not list (labelled on the chart, or named by the title).
void hideMarker(QChart *chart, QAbstractSeries *series)
{
    for (QLegendMarker *marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

// A baseline's solid lines are dashed.
Qt::PenStyle lineStyle(const SweepChartSeries &s, Qt::PenStyle style)
{
    return s.baseline && style == Qt::SolidLine ? Qt::DashLine : style;
}

} // namespace

struct SweepChartView::SeriesItems
{
    QLineSeries *median = nullptr;
    QLineSeries *minimum = nullptr;
    QLineSeries *maximum = nullptr;
    QAreaSeries *band = nullptr;
    QLineSeries *effective = nullptr;
    QLineSeries *dram = nullptr;
    QLineSeries *theoretical = nullptr;
    QLineSeries *achieved = nullptr;
};

SweepChartView::SweepChartView(QWidget *parent)
    : QObject(parent)
    , m_timeChart(new QChart)
    , m_bandwidthChart(new QChart)
{
    m_timeView = new QChartView(m_timeChart, parent);
    m_bandwidthView = new QChartView(m_bandwidthChart, parent);
    for (QChartView *view : {m_timeView, m_bandwidthView}) {
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(320, 220);
        view->setFrameShape(QFrame::NoFrame);
        view->setBackgroundBrush(Qt::white);
        view->viewport()->setMouseTracking(true);
        view->viewport()->installEventFilter(this);
        // Series geometry changes with every point of a streaming sweep: an index of the
        // scene's few items costs more to keep up than it saves.
        view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
        QChart *chart = view->chart();
        chart->setMargins(QMargins(4, 4, 4, 4));
        chart->legend()->setAlignment(Qt::AlignBottom);
        // Line segments (dashed for a baseline) and the scatter symbols themselves in the legend.
        chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
        chart->setBackgroundRoundness(0);
        chart->setBackgroundPen(Qt::NoPen);
        QFont titleFont = chart->titleFont();
        titleFont.setBold(true);
        chart->setTitleFont(titleFont);
        connect(chart, &QChart::plotAreaChanged, this, [this, chart] { m_labels.layout(chart); });
    }
}

SweepChartView::~SweepChartView() = default;

void SweepChartView::setStreaming(bool streaming)
{
    m_streaming = streaming;
    updateSmoothing();
}

void SweepChartView::updateSmoothing()
{
    const bool smooth = !m_streaming || m_drawnPoints <= kMaxMarkedPoints;
    for (QChartView *view : {m_timeView, m_bandwidthView}) {
        if (view->renderHints().testFlag(QPainter::Antialiasing) != smooth) {
            view->setRenderHint(QPainter::Antialiasing, smooth);
            view->viewport()->update();
        }
    }
}

void SweepChartView::setData(const std::vector<NamedSweep> &runs, const SweepChartData &data)
{
    m_runs = &runs;
    m_data = &data;
    const QString structure = this->structure();
    if (structure != m_structure) {
        m_structure = structure;
        rebuildCharts();
    } else {
        updateChartData();
    }
}

// What decides which series, axes and fixed labels the charts hold; while it stays the same
// (a sweep streaming in), new points only replace the series' data.
QString SweepChartView::structure() const
{
    QStringList parts;
    parts << m_data->xTitle << QString::number(int(m_data->logX))
          << QString::number(int(m_data->hasBandwidth)) << QString::number(int(m_data->hasDram))
          << QString::number(int(hasPoints(*m_data)))
          << QString::number(int(m_data->hasTheoreticalOccupancy))
          << QString::number(int(m_data->hasAchievedOccupancy))
          << QString::number(m_data->theoreticalPeakGBps.value_or(-1))
          << QString::number(m_data->copyCeilingGBps.value_or(-1));
    for (const SweepChartSeries &s : m_data->series)
        parts << s.name << QString::number(s.colorIndex) << QString::number(int(s.baseline));
    return parts.join(QChar(0x1f));
}

void SweepChartView::clearChart(QChart *chart)
{
    chart->removeAllSeries();
    const QList<QAbstractAxis *> axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        chart->removeAxis(axis);
        delete axis;
    }
}

QAbstractAxis *SweepChartView::makeXAxis() const
{
    QAbstractAxis *axis = nullptr;
    if (m_data->logX) {
        auto *log = new QLogValueAxis;
        log->setBase(2.0);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(0);
        axis = log;
    } else {
        auto *linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%g"));
        axis = linear;
    }
    axis->setTitleText(m_data->xTitle);
    return axis;
}

void SweepChartView::rebuildCharts()
{
    m_labels.clear();
    clearChart(m_timeChart);
    clearChart(m_bandwidthChart);
    m_items.assign(m_data->series.size(), {});
    m_timeBest = m_timeTied = m_partialWaves = m_bandwidthBest = m_bandwidthTied = nullptr;
    m_peakLine = m_ceilingLine = nullptr;
    m_occupancyY = nullptr;

    const bool bands = m_data->series.size() <= kMaxBandedSeries;
    addTimeAxes(bands);
    addBandwidthAxes();
    // Qt Charts draws series in the order they were added: bands first, so that every line is
    // over them, and baselines before the runs compared with them.
    std::vector<std::size_t> order;
    for (bool baseline : {true, false}) {
        for (std::size_t i = 0; i < m_data->series.size(); ++i) {
            if (m_data->series[i].baseline == baseline)
                order.push_back(i);
        }
    }
    if (bands)
        addBands(order);
    addLines(order);
    addReferenceLines();
    addMarkers();
    updateChartData();
}

void SweepChartView::addTimeAxes(bool bands)
{
    m_timeX = makeXAxis();
    m_timeY = new QValueAxis;
    m_timeY->setLabelFormat(QStringLiteral("%g"));
    m_timeChart->addAxis(m_timeX, Qt::AlignBottom);
    m_timeChart->addAxis(m_timeY, Qt::AlignLeft);
    m_timeChart->setTitle(bands ? tr("Time per launch: median (line) and min\u2013max of the "
                                     "samples (band)")
                                : tr("Time per launch: median (min\u2013max bands are drawn "
                                     "for up to %1 lines; the tooltip and the table give them)")
                                      .arg(kMaxBandedSeries));
}

void SweepChartView::addBandwidthAxes()
{
    const bool single = m_data->series.size() == 1;
    m_bandwidthX = makeXAxis();
    m_bandwidthY = new QValueAxis;
    m_bandwidthY->setLabelFormat(QStringLiteral("%g"));
    m_bandwidthY->setTitleText(tr("bandwidth (GB/s)"));
    m_bandwidthChart->addAxis(m_bandwidthX, Qt::AlignBottom);
    m_bandwidthChart->addAxis(m_bandwidthY, Qt::AlignLeft);
    const bool occupancy = m_data->hasTheoreticalOccupancy || m_data->hasAchievedOccupancy;
    if (occupancy) {
        // Up to 110 so that a line at 100% is not hidden in the plot's top edge; labels only
        // where they mean something.
        auto *categories = new QCategoryAxis;
        categories->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int percent = 0; percent <= 100; percent += 25)
            categories->append(QString::number(percent), percent);
        categories->setStartValue(0);
        categories->setRange(0, 110);
        m_occupancyY = categories;
        m_occupancyY->setTitleText(tr("occupancy (%)"));
        m_occupancyY->setGridLineVisible(false); // the bandwidth axis owns the grid
        m_bandwidthChart->addAxis(m_occupancyY, Qt::AlignRight);
    }
    if (!m_data->hasBandwidth && hasPoints(*m_data))
        m_bandwidthChart->setTitle(tr("Bandwidth: the measurements carry no byte count (see the "
                                      "bytes expression of the project's measure section)"));
    else
        m_bandwidthChart->setTitle(
            single || !occupancy
                ? tr("Bandwidth and occupancy")
                : tr("Bandwidth (solid: effective, dotted: DRAM) and occupancy (right axis; "
                     "dash-dot: theoretical, dash-dot-dot: achieved)"));
}

void SweepChartView::addBands(const std::vector<std::size_t> &order)
{
    const bool single = m_data->series.size() == 1;
    for (std::size_t i : order) {
        const SweepChartSeries &s = m_data->series[i];
        SeriesItems &items = m_items[i];
        QColor band = seriesColor(s, single);
        band.setAlpha(s.baseline ? 28 : 50);
        items.minimum = new QLineSeries;
        items.maximum = new QLineSeries;
        items.band = new QAreaSeries(items.maximum, items.minimum);
        items.minimum->setParent(items.band);
        items.maximum->setParent(items.band);
        items.band->setName(tr("%1 min\u2013max").arg(s.name));
        items.band->setBrush(band);
        items.band->setPen(Qt::NoPen);
        attach(m_timeChart, items.band, m_timeX, m_timeY);
        hideMarker(m_timeChart, items.band);
    }
}

void SweepChartView::addLines(const std::vector<std::size_t> &order)
{
    const bool single = m_data->series.size() == 1;
    const bool several = m_runs->size() > 1;
    for (std::size_t i : order) {
        const SweepChartSeries &s = m_data->series[i];
        SeriesItems &items = m_items[i];
        const QColor colour = seriesColor(s, single);
        items.median = new QLineSeries;
        items.median->setName(single && !several && s.group.isEmpty() ? tr("median") : s.name);
        items.median->setPen(QPen(colour, 2.0, lineStyle(s, Qt::SolidLine)));
        items.median->setPointsVisible(true);
        items.median->setMarkerSize(6.0);
        attach(m_timeChart, items.median, m_timeX, m_timeY);

        if (m_data->hasBandwidth) {
            items.effective = new QLineSeries;
            // Several series: the title says which line style is which quantity.
            items.effective->setName(single ? tr("effective") : s.name);
            items.effective->setPen(QPen(colour, 2.0, lineStyle(s, Qt::SolidLine)));
            items.effective->setPointsVisible(true);
            items.effective->setMarkerSize(6.0);
            attach(m_bandwidthChart, items.effective, m_bandwidthX, m_bandwidthY);
        }
        if (m_data->hasDram) {
            items.dram = new QLineSeries;
            items.dram->setName(single ? tr("DRAM") : tr("%1 DRAM").arg(s.name));
            items.dram->setPen(QPen(single ? kDramColor : colour, 2.0, Qt::DotLine));
            attach(m_bandwidthChart, items.dram, m_bandwidthX, m_bandwidthY);
            if (!single)
                hideMarker(m_bandwidthChart, items.dram);
        }
        if (m_data->hasTheoreticalOccupancy) {
            items.theoretical = new QLineSeries;
            items.theoretical->setName(single ? tr("theoretical occ.")
                                              : tr("%1 theoretical occupancy").arg(s.name));
            items.theoretical->setPen(
                QPen(single ? kTheoreticalColor : colour, 1.5, Qt::DashDotLine));
            attach(m_bandwidthChart, items.theoretical, m_bandwidthX, m_occupancyY);
            if (!single)
                hideMarker(m_bandwidthChart, items.theoretical);
        }
        if (m_data->hasAchievedOccupancy) {
            items.achieved = new QLineSeries;
            items.achieved->setName(single ? tr("achieved occ.")
                                           : tr("%1 achieved occupancy").arg(s.name));
            items.achieved->setPen(QPen(single ? kAchievedColor : colour, 1.5, Qt::DashDotDotLine));
            attach(m_bandwidthChart, items.achieved, m_bandwidthX, m_occupancyY);
            if (!single)
                hideMarker(m_bandwidthChart, items.achieved);
        }
    }
}

// The theoretical peak and the measured copy ceiling across the bandwidth chart, labelled on
// the lines.
void SweepChartView::addReferenceLines()
{
    if (m_data->theoreticalPeakGBps && m_data->hasBandwidth) {
        m_peakLine = new QLineSeries;
        m_peakLine->setName(tr("theoretical peak"));
        m_peakLine->setPen(QPen(kPeakColor, 1.5, Qt::DashLine));
        attach(m_bandwidthChart, m_peakLine, m_bandwidthX, m_bandwidthY);
        hideMarker(m_bandwidthChart, m_peakLine); // labelled on the line instead
        m_labels.addFixed(
            {m_bandwidthChart, m_peakLine,
             tr("theoretical peak %1 GB/s").arg(gbpsText(*m_data->theoreticalPeakGBps)),
             QPointF(0, *m_data->theoreticalPeakGBps), SweepChartLabels::AboveLineRight, kPeakColor,
             true});
    }
    if (m_data->copyCeilingGBps && m_data->hasBandwidth) {
        m_ceilingLine = new QLineSeries;
        m_ceilingLine->setName(tr("copy ceiling"));
        m_ceilingLine->setPen(QPen(kCeilingColor, 1.5, Qt::DashLine));
        attach(m_bandwidthChart, m_ceilingLine, m_bandwidthX, m_bandwidthY);
        hideMarker(m_bandwidthChart, m_ceilingLine);
        m_labels.addFixed(
            {m_bandwidthChart, m_ceilingLine,
             tr("measured copy ceiling %1 GB/s").arg(gbpsText(*m_data->copyCeilingGBps)),
             QPointF(0, *m_data->copyCeilingGBps), SweepChartLabels::BelowLineRight, kCeilingColor,
             true});
    }
}

// The best point and those tied with it on each chart, and the points whose last wave is under
// 90 % full.
void SweepChartView::addMarkers()
{
    const bool several = m_runs->size() > 1;
    const auto markers = [&](QChart *chart, QAbstractAxis *x, QAbstractAxis *y,
                             QScatterSeries *&best, QScatterSeries *&tied) {
        tied = new QScatterSeries;
        tied->setName(tr("tied with best"));
        tied->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        tied->setMarkerSize(13.0);
        tied->setColor(Qt::transparent);
        tied->setBorderColor(QColor(0x20, 0x20, 0x20));
        tied->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5));
        attach(chart, tied, x, y);
        best = new QScatterSeries;
        best->setName(several ? tr("best of each run") : tr("best"));
        best->setMarkerShape(QScatterSeries::MarkerShapeStar);
        best->setMarkerSize(20.0);
        best->setColor(kBestColor);
        best->setBorderColor(QColor(0x50, 0x3c, 0x00));
        best->setPen(QPen(QColor(0x50, 0x3c, 0x00), 1.0));
        attach(chart, best, x, y);
    };
    markers(m_timeChart, m_timeX, m_timeY, m_timeBest, m_timeTied);
    if (m_data->hasWaves) {
        m_partialWaves = new QScatterSeries;
        m_partialWaves->setName(tr("last wave under 90% full"));
        m_partialWaves->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
        m_partialWaves->setMarkerSize(11.0);
        m_partialWaves->setColor(Qt::transparent);
        m_partialWaves->setBorderColor(kWaveColor);
        m_partialWaves->setPen(QPen(kWaveColor, 2.0));
        attach(m_timeChart, m_partialWaves, m_timeX, m_timeY);
    }
    if (m_data->hasBandwidth)
        markers(m_bandwidthChart, m_bandwidthX, m_bandwidthY, m_bandwidthBest, m_bandwidthTied);
}

// The marks of the points drawn, gathered series by series and shown together.
struct SweepChartView::Marks
{
    QList<QPointF> best, tied, bandwidthBest, bandwidthTied, partial;
    // The first run's best point by name (placed first, so that wave labels give way to it),
    // then the wave counts.
    std::vector<SweepChartLabels::Spec> dataLabels;
    std::vector<SweepChartLabels::Spec> waveLabels;
};

void SweepChartView::updateChartData()
{
    // Time unit from the slowest sample drawn.
    double slowest = 0.0;
    double highestGBps = 0.0;
    for (const SweepChartSeries &s : m_data->series) {
        for (const SweepChartPoint &c : s.points) {
            slowest = std::max(slowest, c.maxNs);
            highestGBps =
                std::max({highestGBps, c.effectiveGBps.value_or(0.0), c.dramGBps.value_or(0.0)});
        }
    }
    const auto [unitNs, unitName] = timeUnit(slowest);
    m_timeUnitNs = unitNs;
    m_timeY->setTitleText(tr("time per launch (%1)").arg(unitName));
    markPoints();
    Marks marks;
    fillSeries(unitNs, marks);
    showMarks(marks);
    setRanges(slowest, highestGBps);
    m_labels.layout(m_timeChart);
    m_labels.layout(m_bandwidthChart);
}

void SweepChartView::markPoints()
{
    // A marker on every point helps a reader of a few dozen points; hundreds of them only
    // cover the lines, and drawing them is what makes a redraw of a large streaming sweep
    // miss a frame (bench/bench_sweep_gui).
    std::size_t drawn = 0;
    for (const SweepChartSeries &s : m_data->series)
        drawn += s.points.size();
    const bool markers = drawn <= kMaxMarkedPoints;
    for (const SeriesItems &items : m_items) {
        for (QLineSeries *line : {items.median, items.effective}) {
            if (line && line->pointsVisible() != markers)
                line->setPointsVisible(markers);
        }
    }
    m_drawnPoints = drawn;
    updateSmoothing();
}

// Each series' lines replaced by its points (where they changed), its marks gathered.
void SweepChartView::fillSeries(double unitNs, Marks &marks)
{
    for (std::size_t i = 0; i < m_data->series.size() && i < m_items.size(); ++i) {
        const SweepChartSeries &s = m_data->series[i];
        SeriesItems &items = m_items[i];
        QList<QPointF> median, minimum, maximum, effective, dram, theoretical, achieved;
        median.reserve(qsizetype(s.points.size()));
        minimum.reserve(qsizetype(s.points.size()));
        maximum.reserve(qsizetype(s.points.size()));
        effective.reserve(qsizetype(s.points.size()));
        for (const SweepChartPoint &c : s.points) {
            const QPointF time(c.x, c.medianNs / unitNs);
            median.append(time);
            minimum.append({c.x, c.minNs / unitNs});
            maximum.append({c.x, c.maxNs / unitNs});
            if (c.effectiveGBps)
                effective.append({c.x, *c.effectiveGBps});
            if (c.dramGBps)
                dram.append({c.x, *c.dramGBps});
            if (c.theoreticalOccupancyPercent)
                theoretical.append({c.x, *c.theoreticalOccupancyPercent});
            if (c.achievedOccupancyPercent)
                achieved.append({c.x, *c.achievedOccupancyPercent});
            if (c.best) {
                marks.best.append(time);
                if (c.effectiveGBps)
                    marks.bandwidthBest.append({c.x, *c.effectiveGBps});
                if (c.run == 0) {
                    const QString name =
                        toQString(m_runs->front().result.points[c.point].point.label());
                    marks.dataLabels.push_back({m_timeChart, m_timeBest, name, time,
                                                SweepChartLabels::BelowPoint, kBestText, true});
                    if (c.effectiveGBps)
                        marks.dataLabels.push_back({m_bandwidthChart, m_bandwidthBest, name,
                                                    QPointF(c.x, *c.effectiveGBps),
                                                    SweepChartLabels::AbovePoint, kBestText, true});
                }
            } else if (c.tied) {
                marks.tied.append(time);
                if (c.effectiveGBps)
                    marks.bandwidthTied.append({c.x, *c.effectiveGBps});
            }
            // A baseline ran the same configurations: its waves would only repeat the marks.
            if (c.waves && lastWaveMostlyEmpty(*c.waves) && m_partialWaves && !s.baseline) {
                marks.partial.append(time);
                marks.waveLabels.push_back({m_timeChart, m_partialWaves,
                                            tr("%1 waves").arg(QString::number(*c.waves, 'f', 1)),
                                            time, SweepChartLabels::AbovePoint,
                                            kWaveColor.darker(130), false});
            }
        }
        replaceIfChanged(items.median, median);
        replaceIfChanged(items.minimum, minimum);
        replaceIfChanged(items.maximum, maximum);
        replaceIfChanged(items.effective, effective);
        replaceIfChanged(items.dram, dram);
        replaceIfChanged(items.theoretical, theoretical);
        replaceIfChanged(items.achieved, achieved);
    }
}

void SweepChartView::showMarks(Marks &marks)
{
    // Point labels follow the data.
    marks.dataLabels.insert(marks.dataLabels.end(), marks.waveLabels.begin(),
                            marks.waveLabels.end());
    m_labels.setPointLabels(marks.dataLabels);
    replaceIfChanged(m_timeBest, marks.best);
    replaceIfChanged(m_timeTied, marks.tied);
    replaceIfChanged(m_partialWaves, marks.partial);
    replaceIfChanged(m_bandwidthBest, marks.bandwidthBest);
    replaceIfChanged(m_bandwidthTied, marks.bandwidthTied);
    for (QChart *chart : {m_timeChart, m_bandwidthChart}) {
        for (QScatterSeries *series :
             {m_timeBest, m_timeTied, m_partialWaves, m_bandwidthBest, m_bandwidthTied}) {
            if (!series || !chart->series().contains(series))
                continue;
            // An empty marker series keeps the legend free for what is drawn.
            for (QLegendMarker *marker : chart->legend()->markers(series))
                marker->setVisible(series->count() > 0);
        }
    }
}

// Ranges: x padded so that the end markers are whole; y from zero, as a time or a rate is
// read against zero, rounded to a value the grid can label.
void SweepChartView::setRanges(double slowest, double highestGBps)
{
    double lowestX = m_data->xLow;
    double highestX = m_data->xHigh;
    if (!(lowestX < highestX) && !(m_data->logX && lowestX == highestX && lowestX > 0)) {
        lowestX = m_data->logX ? 32 : 0;
        highestX = m_data->logX ? 1024 : 1;
    }
    double xMin = lowestX;
    double xMax = highestX;
    if (m_data->logX) {
        xMin = lowestX / 1.15;
        xMax = highestX * 1.15;
    } else {
        const double pad = highestX > lowestX ? (highestX - lowestX) * 0.04 : 1.0;
        xMin = lowestX - pad;
        xMax = highestX + pad;
    }
    for (QAbstractAxis *axis : {m_timeX, m_bandwidthX})
        axis->setRange(xMin, xMax);
    setNiceRange(m_timeY, slowest > 0 ? slowest / m_timeUnitNs * 1.05 : 1.0);
    double bandwidthTop = highestGBps;
    if (m_data->theoreticalPeakGBps)
        bandwidthTop = std::max(bandwidthTop, *m_data->theoreticalPeakGBps);
    if (m_data->copyCeilingGBps)
        bandwidthTop = std::max(bandwidthTop, *m_data->copyCeilingGBps);
    setNiceRange(m_bandwidthY, bandwidthTop > 0 ? bandwidthTop * 1.06 : 1.0);
    if (m_peakLine)
        m_peakLine->replace(
            {{xMin, *m_data->theoreticalPeakGBps}, {xMax, *m_data->theoreticalPeakGBps}});
    if (m_ceilingLine)
        m_ceilingLine->replace(
            {{xMin, *m_data->copyCeilingGBps}, {xMax, *m_data->copyCeilingGBps}});
}

std::vector<SweepChartView::Hit> SweepChartView::hitTargets(QChartView *view) const
{
    std::vector<Hit> hits;
    if (!m_data)
        return hits;
    QChart *chart = view->chart();
    const auto add = [&](const SweepChartPoint &c, QAbstractSeries *series, double y) {
        if (!series)
            return;
        const QPointF inChart = chart->mapToPosition(QPointF(c.x, y), series);
        const QPointF inView = view->mapFromScene(chart->mapToScene(inChart));
        hits.push_back({c.run, c.point, inView});
    };
    for (std::size_t i = 0; i < m_data->series.size() && i < m_items.size(); ++i) {
        const SeriesItems &items = m_items[i];
        for (const SweepChartPoint &c : m_data->series[i].points) {
            if (view == m_timeView) {
                add(c, items.median, c.medianNs / m_timeUnitNs);
                continue;
            }
            if (c.effectiveGBps)
                add(c, items.effective, *c.effectiveGBps);
            if (c.dramGBps)
                add(c, items.dram, *c.dramGBps);
            if (c.theoreticalOccupancyPercent)
                add(c, items.theoretical, *c.theoreticalOccupancyPercent);
            if (c.achievedOccupancyPercent)
                add(c, items.achieved, *c.achievedOccupancyPercent);
        }
    }
    return hits;
}

std::optional<SweepChartView::Hit> SweepChartView::hitAt(QChartView *view,
                                                         const QPointF &position) const
{
    constexpr double radius = 10.0;
    std::optional<Hit> nearest;
    double nearestDistance = radius * radius;
    for (const Hit &hit : hitTargets(view)) {
        const QPointF d = hit.position - position;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance <= nearestDistance) {
            nearestDistance = distance;
            nearest = hit;
        }
    }
    return nearest;
}

std::optional<QPoint> SweepChartView::pointPosition(QChartView *view, std::size_t run,
                                                    std::size_t point) const
{
    for (const Hit &hit : hitTargets(view)) {
        if (hit.run == run && hit.point == point)
            return hit.position.toPoint();
    }
    return std::nullopt;
}

QString SweepChartView::toolTipFor(std::size_t run, std::size_t point) const
{
    if (!m_runs || run >= m_runs->size())
        return {};
    return SweepChartBuilder::toolTip((*m_runs)[run], point);
}

bool SweepChartView::eventFilter(QObject *watched, QEvent *event)
{
    QChartView *view = nullptr;
    if (watched == m_timeView->viewport())
        view = m_timeView;
    else if (watched == m_bandwidthView->viewport())
        view = m_bandwidthView;
    if (!view)
        return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseMove: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        const std::optional<Hit> hit = hitAt(view, mouse->position());
        view->viewport()->setCursor(hit ? Qt::PointingHandCursor : Qt::ArrowCursor);
        if (hit)
            QToolTip::showText(mouse->globalPosition().toPoint(), toolTipFor(hit->run, hit->point),
                               view->viewport());
        else
            QToolTip::hideText();
        break;
    }
    case QEvent::MouseButtonPress:
        m_pressPosition = static_cast<QMouseEvent *>(event)->position().toPoint();
        break;
    case QEvent::MouseButtonRelease: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        if (mouse->button() != Qt::LeftButton ||
            (mouse->position().toPoint() - m_pressPosition).manhattanLength() > 4)
            break;
        if (const std::optional<Hit> hit = hitAt(view, mouse->position()))
            Q_EMIT pointClicked(hit->run, hit->point);
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace cuwb
