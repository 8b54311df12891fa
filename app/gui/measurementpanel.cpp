#include "measurementpanel.h"

#include "measurementhistogram.h"
#include "qtconvert.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

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

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(cardScroll);
    splitter->addWidget(m_chartView);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_status);
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
    add("source", tr("Timing source"),
        m.timingSource == TimingSource::Cupti
            ? tr("CUPTI")
            : tr("events (CUPTI unavailable; includes launch latency, a few \u00b5s more)"));
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
    setFigures({});
    setHistogram(Measurement{});
}

void MeasurementPanel::showMeasuring(const QString &kernel)
{
    m_status->setText(tr("Measuring %1\u2026").arg(kernel));
    setFigures({});
    setHistogram(Measurement{});
}

void MeasurementPanel::showMeasurement(const QString &kernel, const Measurement &measurement)
{
    const QString median = measurement.statistics.count > 0
                               ? formatTime(measurement.statistics.medianNs)
                               : tr("no samples");
    if (measurement.faultStatus.empty())
        m_status->setText(
            tr("%1: median %2 over %n sample(s)", nullptr, int(measurement.statistics.count))
                .arg(kernel, median));
    else
        m_status->setText(tr("%1: measurement stopped (%2) after %n sample(s)", nullptr,
                             int(measurement.statistics.count))
                              .arg(kernel, toQString(measurement.faultStatus)));
    setFigures(figures(measurement));
    setHistogram(measurement);
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
        m_card->addRow(tr("%1:").arg(figure.label), value);
    }
}

void MeasurementPanel::setHistogram(const Measurement &measurement)
{
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
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
    y->setRange(0, highest);
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
