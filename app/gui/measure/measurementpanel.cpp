#include "gui/measure/measurementpanel.h"

#include "gui/common/format.h"

#include "gui/common/qtconvert.h"
#include "gui/measure/measurementhistogram.h"
#include "gui/roofline/rooflinechart.h"
#include "gui/roofline/speedoflightbars.h"

#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace cuwb {

namespace {

QString percent(double fraction)
{
    return QString::number(fraction * 100.0, 'f', 2) + QLatin1Char('%');
}

// The unit the histogram's axis uses for samples around `ns`.
std::pair<double, QString> timeUnit(double ns)
{
    if (ns >= 1e9)
        return {1e9, QStringLiteral("s")};
    if (ns >= 1e6)
        return {1e6, QStringLiteral("ms")};
    if (ns >= 1e3)
        return {1e3, QStringLiteral("\u00b5s")};
    return {1.0, QStringLiteral("ns")};
}

std::optional<double> metricValue(const MetricsResult &result, const char *name)
{
    const auto found = result.values.find(name);
    if (found == result.values.end() || !std::isfinite(found->second))
        return std::nullopt;
    return found->second;
}

// The metrics the card names in rows of their own; any other value goes under "Other metrics".
constexpr const char *kDramRead = "dram__bytes_read.sum";
constexpr const char *kDramWrite = "dram__bytes_write.sum";
constexpr const char *kDramThroughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *kGpuTime = "gpu__time_duration.sum";
constexpr const char *kWarpsActive = "sm__warps_active.avg.pct_of_peak_sustained_active";

QString joined(const std::vector<std::string> &lines)
{
    QStringList list;
    for (const std::string &line : lines)
        list.append(toQString(line));
    return list.join(QLatin1Char('\n'));
}

} // namespace

MeasurementPanel::MeasurementPanel(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_cancelButton(new QToolButton(this))
    , m_chart(new QChart)
    , m_chartView(new QChartView(m_chart, this))
{
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *cardWidget = new QWidget;
    m_card = new QFormLayout(cardWidget);
    m_card->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *cardScroll = new QScrollArea;
    cardScroll->setWidget(cardWidget);
    cardScroll->setWidgetResizable(true);
    cardScroll->setFrameShape(QFrame::NoFrame);

    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(160, 120);

    // The roofline tab: speed of light above the run's point on the roofline.
    m_sol = new SpeedOfLightBars;
    m_roofline = new RooflineChart;
    m_roofline->setObjectName(QStringLiteral("measurementRoofline"));
    auto *rooflinePage = new QWidget;
    auto *rooflineLayout = new QVBoxLayout(rooflinePage);
    rooflineLayout->setContentsMargins(2, 2, 2, 2);
    rooflineLayout->addWidget(m_sol);
    rooflineLayout->addWidget(m_roofline, 1);
    // Scrolled rather than squeezed: the bars and the chart need more height than the dock
    // may have, and their minimum must not raise the window's (a 1366 × 768 screen).
    rooflinePage->setMinimumHeight(360);
    auto *rooflineScroll = new QScrollArea;
    rooflineScroll->setWidget(rooflinePage);
    rooflineScroll->setWidgetResizable(true);
    rooflineScroll->setFrameShape(QFrame::NoFrame);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_chartView, tr("Samples"));
    m_tabs->addTab(rooflineScroll, tr("Roofline"));

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(cardScroll);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);
    // The roofline tab's chart asks for more room than the histogram did: the card keeps its
    // two fifths rather than whatever the size hints would leave it.
    splitter->setSizes({400, 600});

    m_cancelButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_cancelButton->setVisible(false);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_cancelButton, 0, Qt::AlignTop);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addLayout(statusRow);
    layout->addWidget(splitter, 1);

    clear();
}

QString MeasurementPanel::formatTime(double ns)
{
    if (!std::isfinite(ns))
        return tr("n/a");
    const auto [unit, name] = timeUnit(std::abs(ns));
    return tr("%1 %2").arg(QString::number(ns / unit, 'g', 4), name);
}

QString MeasurementPanel::formatBytes(double bytes)
{
    return decimalBytesText(bytes);
}

QList<MeasurementPanel::Figure> MeasurementPanel::metricFigures(const Measurement &m,
                                                                const MetricsResult &r,
                                                                const DevicePeaks *peaks)
{
    QList<Figure> rows;
    const auto add = [&rows](const char *key, const QString &label, const QString &value) {
        rows.append(Figure{QString::fromLatin1(key), label, value});
    };
    const auto pct = [](double value) { return QString::number(value, 'f', 1) + QLatin1Char('%'); };
    // A heading row first: what the pass was, or that it failed.
    QString heading;
    if (r.ok()) {
        const QString passes =
            r.passes == 1 ? tr("1 replay pass") : tr("%1 replay passes").arg(r.passes);
        heading = r.chip.empty()
                      ? tr("Hardware metrics: %1, not timed").arg(passes)
                      : tr("Hardware metrics: %1 on %2, not timed").arg(passes, toQString(r.chip));
    } else {
        heading = tr("Hardware metrics: not collected");
    }
    add("metrics", QString(), heading);
    if (!r.ok()) {
        add("metricsError", tr("Reason"), toQString(r.error));
    } else {
        const auto read = metricValue(r, kDramRead);
        const auto written = metricValue(r, kDramWrite);
        if (read && written) {
            const QString moved =
                tr("DRAM moved %1 (read %2, written %3)")
                    .arg(formatBytes(*read + *written), formatBytes(*read), formatBytes(*written));
            add("dramBytes", tr("DRAM traffic"),
                m.throughput.bytes
                    ? tr("declared %1, %2").arg(formatBytes(*m.throughput.bytes), moved)
                    : moved);
        }
        if (const auto dram = metricValue(r, kDramThroughput))
            add("dramThroughput", tr("DRAM throughput"), tr("%1 of peak").arg(pct(*dram)));
        if (const auto time = metricValue(r, kGpuTime))
            add("metricsTime", tr("Time in metrics pass"), formatTime(*time));
        const SpeedOfLight sol = speedOfLight(r.values);
        if (sol.computePercent && sol.memoryPercent) {
            QStringList units;
            const std::pair<const char *, std::optional<double>> parts[] = {
                {"DRAM", sol.dramPercent}, {"L2", sol.l2Percent}, {"L1", sol.l1Percent}};
            for (const auto &[name, value] : parts) {
                if (value)
                    units << tr("%1 %2").arg(QLatin1String(name), pct(*value));
            }
            add("speedOfLight", tr("Speed of light"),
                tr("compute (SM) %1, memory %2")
                        .arg(pct(*sol.computePercent), pct(*sol.memoryPercent)) +
                    (units.isEmpty() ? QString()
                                     : tr(" (%1)").arg(units.join(QStringLiteral(", ")))));
        }
        std::string why;
        if (const auto point = rooflinePoint(r.values, why); point && point->totalFlops() > 0) {
            add("countedGflops", tr("Counted GFLOP/s"),
                tr("%1 GFLOP/s %2 (%3 FLOP counted), at %4 FLOP/byte")
                    .arg(QString::number(point->flopsPerSecond() / 1e9, 'f', 1),
                         QLatin1String(precisionName(point->dominant())),
                         QString::number(point->totalFlops(), 'g', 4),
                         QString::number(point->intensity(), 'g', 3)));
            if (peaks) {
                if (const auto placed = placeOnRoofline(*point, *peaks))
                    add("roofline", tr("Roofline"),
                        tr("%1, %2% of the roof (%3; ridge %4 FLOP/byte)")
                            .arg(placed->memoryBound ? tr("memory-bound") : tr("compute-bound"),
                                 QString::number(placed->fractionOfRoof * 100.0, 'f', 1),
                                 flopsText(placed->roofFlopsPerSecond),
                                 QString::number(placed->ridgeIntensity, 'g', 3)));
            }
        }
    }
    const auto achieved = metricValue(r, kWarpsActive);
    if (r.occupancyError.empty() && r.activeBlocksPerSm > 0) {
        const QString theoretical = pct(r.theoreticalOccupancy * 100.0);
        add("occupancy", tr("Occupancy"),
            achieved ? tr("achieved %1, theoretical %2").arg(pct(*achieved), theoretical)
                     : tr("theoretical %1").arg(theoretical));
        add("limiter", tr("Limited by"),
            tr("%1 (%2 blocks of %3 threads per SM, %4 registers per thread)")
                .arg(toQString(r.occupancyLimiter))
                .arg(r.activeBlocksPerSm)
                .arg(r.blockThreads)
                .arg(r.registersPerThread));
        add("waves", tr("Waves"),
            tr("%1 (%2 blocks)")
                .arg(QString::number(r.waves, 'f', 2))
                .arg(QLocale::c().toString(r.gridBlocks)));
    } else if (achieved || !r.occupancyError.empty()) {
        const QString unknown =
            r.occupancyError.empty()
                ? tr("theoretical unknown")
                : tr("theoretical unknown: %1").arg(toQString(r.occupancyError));
        add("occupancy", tr("Occupancy"),
            achieved ? tr("achieved %1, %2").arg(pct(*achieved), unknown) : unknown);
    }
    if (r.ok()) {
        static const std::set<std::string> shown = {kDramRead, kDramWrite, kDramThroughput,
                                                    kGpuTime, kWarpsActive};
        // The roofline's counters are summed up in its rows above.
        const std::vector<std::string> roofline = rooflineMetrics();
        const bool summed = speedOfLight(r.values).computePercent.has_value();
        QStringList others;
        for (const auto &[name, value] : r.values) {
            const bool inRoofline =
                std::find(roofline.begin(), roofline.end(), name) != roofline.end();
            if (!shown.count(name) && !(summed && inRoofline))
                others.append(tr("%1 = %2").arg(toQString(name), QString::number(value, 'g', 6)));
        }
        if (!others.isEmpty())
            add("otherMetrics", tr("Other metrics"), others.join(QLatin1Char('\n')));
    }
    return rows;
}

QList<MeasurementPanel::Figure> MeasurementPanel::figures(const Measurement &m)
{
    QList<Figure> rows;
    const SampleStatistics &s = m.statistics;
    const auto add = [&rows](const char *key, const QString &label, const QString &value) {
        rows.append(Figure{QString::fromLatin1(key), label, value});
    };
    if (!m.faultStatus.empty())
        add("fault", tr("Stopped by"),
            tr("%1: %2").arg(toQString(m.faultStatus), toQString(m.faultMessage)));
    if (s.count > 0) {
        add("median", tr("Median"), formatTime(s.medianNs));
        add("mean", tr("Mean"), formatTime(s.meanNs));
        add("min", tr("Min"), formatTime(s.minNs));
        add("max", tr("Max"), formatTime(s.maxNs));
        add("stddev", tr("Std dev"), formatTime(s.stddevNs));
        add("noise", tr("Relative noise"), percent(s.relativeNoise));
    }
    QString samples = QString::number(qulonglong(s.count));
    if (!m.stop.message.empty())
        samples = tr("%1 (%2)").arg(samples, toQString(m.stop.message));
    add("samples", tr("Samples"), samples);
    add("mode", tr("Mode"),
        m.settings.mode == SampleMode::Cold ? tr("cold (L2 flushed before each sample)")
                                            : tr("hot (back-to-back launches)"));
    QString source;
    switch (m.timingSource) {
    case TimingSource::Cupti:
        source = tr("CUPTI");
        break;
    case TimingSource::Profiler:
        source = tr("profiler (gpu__time_duration, as Nsight Compute)");
        break;
    case TimingSource::Events:
        source = m.settings.timer == TimingSource::Events
                     ? tr("events (as asked; a few \u00b5s more than the kernel)")
                     : tr("events (CUPTI unavailable; includes launch latency, a few \u00b5s "
                          "more)");
        break;
    }
    add("source", tr("Timing source"), source);
    if (!m.provenance.compiler.empty())
        add("compiler", tr("Built by"),
            tr("%1: %2").arg(toQString(m.provenance.compiler),
                             toQString(m.provenance.compileCommand)));
    if (m.smClockMaxMHz > 0) {
        QString clocks = tr("%1\u2013%2 MHz")
                             .arg(QString::number(m.smClockMinMHz, 'f', 0),
                                  QString::number(m.smClockMaxMHz, 'f', 0));
        add("clock", tr("SM clock"), clocks);
    }
    if (m.throttled)
        add("throttled", tr("Throttled"),
            tr("%n sample(s) below 75% of the default SM clock", nullptr, int(m.throttledSamples)));
    const Throughput &t = m.throughput;
    if (t.effectiveGBps)
        add("bandwidth", tr("Effective bandwidth"),
            tr("%1 GB/s").arg(QString::number(*t.effectiveGBps, 'f', 1)));
    if (t.percentOfPeak)
        add("peak", tr("Of peak"),
            tr("%1% of %2 GB/s")
                .arg(QString::number(*t.percentOfPeak, 'f', 1),
                     QString::number(t.theoreticalPeakGBps.value_or(0.0), 'f', 0)));
    if (t.percentOfCeiling)
        add("ceiling", tr("Of copy ceiling"),
            tr("%1% of %2 GB/s")
                .arg(QString::number(*t.percentOfCeiling, 'f', 1),
                     QString::number(t.copyCeilingGBps.value_or(0.0), 'f', 0)));
    if (t.gflops)
        add("gflops", tr("GFLOP/s"), QString::number(*t.gflops, 'f', 1));
    std::vector<std::string> notes = m.notes;
    notes.insert(notes.end(), t.warnings.begin(), t.warnings.end());
    notes.insert(notes.end(), t.errors.begin(), t.errors.end());
    if (!notes.empty())
        add("notes", tr("Notes"), joined(notes));
    return rows;
}

void MeasurementPanel::clear()
{
    m_status->setText(tr("Measure (Ctrl+Shift+R) times the kernel over many launches."));
    m_measurement.reset();
    m_metrics.reset();
    m_metricsPending = 0;
    setFigures({});
    setHistogram(Measurement{});
    setRoofline();
}

void MeasurementPanel::setDevice(const std::optional<DeviceInfo> &device)
{
    if (device)
        m_peaks = devicePeaks(*device);
    else
        m_peaks.reset();
    setRoofline();
}

void MeasurementPanel::setRoofline()
{
    const bool has =
        m_metrics && m_metrics->ok() && speedOfLight(m_metrics->values).computePercent.has_value();
    if (!has) {
        m_sol->clear();
        m_roofline->clear();
        m_tabs->setTabEnabled(1, false);
        m_tabs->setCurrentIndex(0);
        return;
    }
    m_sol->setSpeedOfLight(speedOfLight(m_metrics->values));
    m_roofline->setData(rooflineOfRun(m_metrics->values, m_peaks.value_or(DevicePeaks{}),
                                      m_kernel.isEmpty() ? tr("this run") : m_kernel));
    m_tabs->setTabEnabled(1, true);
    m_tabs->setCurrentIndex(1);
}

void MeasurementPanel::showMeasuring(const QString &kernel)
{
    m_kernel = kernel;
    m_measurement.reset();
    m_metrics.reset();
    m_metricsPending = 0;
    m_status->setText(tr("Measuring %1\u2026").arg(kernel));
    setFigures({});
    setHistogram(Measurement{});
    setRoofline();
}

void MeasurementPanel::showCancelling()
{
    if (m_measurement)
        return; // the timing is in already; a metrics pass is not cancelled
    m_status->setText(
        tr("Cancelling the measurement of %1; the samples taken so far are kept\u2026")
            .arg(m_kernel));
}

void MeasurementPanel::showMeasurement(const QString &kernel, const Measurement &measurement)
{
    m_kernel = kernel;
    m_measurement = measurement;
    m_metrics.reset();
    m_metricsPending = 0;
    const QString median = measurement.statistics.count > 0
                               ? formatTime(measurement.statistics.medianNs)
                               : tr("no samples");
    if (!measurement.faultStatus.empty())
        m_status->setText(tr("%1: measurement stopped (%2) after %n sample(s)", nullptr,
                             int(measurement.statistics.count))
                              .arg(kernel, toQString(measurement.faultStatus)));
    else if (measurement.stop.reason == StopReason::Cancelled)
        m_status->setText(
            measurement.statistics.count > 0
                ? tr("%1: %2; median %3").arg(kernel, toQString(measurement.stop.message), median)
                : tr("%1: %2").arg(kernel, toQString(measurement.stop.message)));
    else
        m_status->setText(
            tr("%1: median %2 over %n sample(s)", nullptr, int(measurement.statistics.count))
                .arg(kernel, median));
    showCard();
    setHistogram(measurement);
    setRoofline();
}

void MeasurementPanel::showMetricsPending(int metricCount)
{
    m_metrics.reset();
    m_metricsPending = std::max(1, metricCount);
    showCard();
}

void MeasurementPanel::showMetrics(const MetricsResult &metrics)
{
    m_metrics = metrics;
    m_metricsPending = 0;
    showCard();
    setRoofline();
}

void MeasurementPanel::showCard()
{
    if (!m_measurement) {
        setFigures({});
        return;
    }
    QList<Figure> rows = figures(*m_measurement);
    QList<Figure> extra;
    if (m_metrics)
        extra = metricFigures(*m_measurement, *m_metrics, m_peaks ? &*m_peaks : nullptr);
    else if (m_metricsPending > 0)
        extra.append(
            Figure{QStringLiteral("metrics"), QString(),
                   tr("Hardware metrics: collecting %1 in a separate pass, not "
                      "timed\u2026")
                       .arg(m_metricsPending == 1 ? tr("1 metric")
                                                  : tr("%1 metrics").arg(m_metricsPending))});
    // Beside the effective figures, before the notes.
    qsizetype at = rows.size();
    if (!rows.isEmpty() && rows.back().key == QLatin1String("notes"))
        at = rows.size() - 1;
    for (const Figure &figure : extra)
        rows.insert(at++, figure);
    setFigures(rows);
}

void MeasurementPanel::setCancelAction(QAction *action)
{
    m_cancelButton->setDefaultAction(action);
    addAction(action); // its shortcut (Esc) works anywhere in the panel
}

void MeasurementPanel::setCancellable(bool cancellable)
{
    m_cancelButton->setVisible(cancellable);
}

QString MeasurementPanel::statusText() const
{
    return m_status->text();
}

QString MeasurementPanel::shownValue(const QString &key) const
{
    const auto *label = findChild<QLabel *>(key);
    return label ? label->text() : QString();
}

void MeasurementPanel::setFigures(const QList<Figure> &rows)
{
    while (m_card->rowCount() > 0)
        m_card->removeRow(0);
    for (const Figure &figure : rows) {
        auto *value = new QLabel(figure.value);
        value->setObjectName(figure.key);
        value->setWordWrap(true);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        if (figure.label.isEmpty()) {
            // A heading across the card, set apart from the rows above.
            QFont bold = value->font();
            bold.setBold(true);
            value->setFont(bold);
            value->setContentsMargins(0, 6, 0, 0);
            m_card->addRow(value);
            continue;
        }
        m_card->addRow(tr("%1:").arg(figure.label), value);
    }
}

void MeasurementPanel::setHistogram(const Measurement &measurement)
{
    m_chart->removeAllSeries();
    // removeAxis() gives the axis back without deleting it: every measurement shown used to
    // leak the previous histogram's two axes (found by the gui suite under ASan).
    const QList<QAbstractAxis *> axes = m_chart->axes();
    for (QAbstractAxis *axis : axes) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    if (measurement.samplesNs.empty()) {
        m_chart->setTitle(tr("Sample distribution"));
        return;
    }
    const auto [unit, unitName] =
        timeUnit(measurement.statistics.medianNs > 0 ? measurement.statistics.medianNs
                                                     : measurement.samplesNs.front());
    const std::vector<HistogramBin> bins = MeasurementHistogram::bins(measurement.samplesNs);
    QBarSeries *series = MeasurementHistogram::series(measurement);
    m_chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(MeasurementHistogram::categories(bins, unit));
    // Many bins' centres do not fit under the bars (and an axis title is elided without
    // labels): the chart's title gives the range.
    x->setLabelsVisible(bins.size() <= 12);
    x->setTitleVisible(false);
    auto *y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    int highest = 1;
    for (const HistogramBin &bin : bins)
        highest = std::max(highest, bin.count);
    // A multiple of 4 over the default 5 ticks keeps every tick on a whole count ("%d" would
    // print 0, 0, 1, 1, 2 for a range of 2).
    y->setRange(0, (highest + 3) / 4 * 4);
    y->setTickCount(5);
    y->setTitleText(tr("samples"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    m_chart->setTitle(tr("Sample distribution, %1 to %2 %3")
                          .arg(QString::number(bins.front().lowNs / unit, 'g', 4),
                               QString::number(bins.back().highNs / unit, 'g', 4), unitName));
}

} // namespace cuwb
