#include "gui/roofline/rooflinechart.h"

#include <QChart>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuwb {

namespace {

// The ceilings' colours, by precision; the DRAM roof's.
QColor ceilingColor(Precision precision)
{
    switch (precision) {
    case Precision::FP32:
        return {0xc6, 0x28, 0x28};
    case Precision::FP64:
        return {0x6a, 0x1b, 0x9a};
    case Precision::FP16:
        return {0x00, 0x69, 0x5c};
    }
    return Qt::black;
}
const QColor kDramRoof{0x37, 0x47, 0x4f};
const QColor kBest{0xff, 0xc1, 0x07};
const QColor kBestBorder{0x50, 0x3c, 0x00};

void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

QLineSeries *line(const QString &name, const QColor &color, qreal width, Qt::PenStyle style)
{
    auto *series = new QLineSeries;
    series->setName(name);
    QPen pen(color, width);
    pen.setStyle(style);
    series->setPen(pen);
    return series;
}

} // namespace

RooflineChart::RooflineChart(QWidget *parent)
    : QWidget(parent)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_view = new QChartView(chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(240, 160);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("rooflineNote"));
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_note);
    connect(chart, &QChart::plotAreaChanged, this, [this] { placeRunLabel(); });
    rebuild();
}

QChart *RooflineChart::chart() const
{
    return m_view->chart();
}

QString RooflineChart::noteText() const
{
    return m_note->text();
}

void RooflineChart::setData(RooflineData data)
{
    m_data = std::move(data);
    rebuild();
}

void RooflineChart::clear()
{
    setData(RooflineData{});
}

QColor RooflineChart::bucketColor(std::size_t index, std::size_t count)
{
    // Dark blue through teal and green to yellow (viridis' ends): ordered, and legible on white.
    static const QColor stops[] = {{0x44, 0x01, 0x54},
                                   {0x3b, 0x52, 0x8b},
                                   {0x21, 0x90, 0x8d},
                                   {0x5d, 0xc8, 0x63},
                                   {0xd8, 0xc0, 0x1c}};
    const double t = count <= 1 ? 0.0 : double(index) / double(count - 1);
    const double at = t * 4.0;
    const int k = std::min(3, int(at));
    const double f = at - k;
    const QColor &a = stops[k];
    const QColor &b = stops[k + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QString RooflineChart::toolTipAt(const QScatterSeries *series, const QPointF &value) const
{
    const std::vector<RooflineMarker> *markers = &m_data.points;
    std::vector<std::size_t> candidates;
    if (series == m_baselineSeries && series) {
        markers = &m_data.baseline;
        for (std::size_t i = 0; i < markers->size(); ++i)
            candidates.push_back(i);
    } else if (series == m_bestSeries && series) {
        if (const auto best = m_data.bestMarker())
            candidates.push_back(*best);
    } else {
        const auto it = std::find(m_buckets.begin(), m_buckets.end(), series);
        if (it == m_buckets.end())
            return {};
        candidates = m_data.buckets[std::size_t(it - m_buckets.begin())].markers;
    }
    // Nearest in log space: what is near on screen.
    double nearest = std::numeric_limits<double>::infinity();
    const RooflineMarker *found = nullptr;
    for (const std::size_t i : candidates) {
        const RooflineMarker &m = (*markers)[i];
        const double dx = std::log10(m.intensity) - std::log10(value.x());
        const double dy = std::log10(m.flopsPerSecond) - std::log10(value.y());
        const double d = dx * dx + dy * dy;
        if (d < nearest) {
            nearest = d;
            found = &m;
        }
    }
    if (!found)
        return {};
    return series == m_baselineSeries ? tr("baseline: %1").arg(found->toolTip()) : found->toolTip();
}

void RooflineChart::rebuild()
{
    QChart *chart = m_view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    m_buckets.clear();
    m_baselineSeries = nullptr;
    m_bestSeries = nullptr;
    if (m_runLabel) {
        delete m_runLabel;
        m_runLabel = nullptr;
    }

    addAxes(chart);
    addRoofs(chart);
    const bool single = m_data.colourTarget.isEmpty() && m_data.points.size() == 1;
    addMarkers(chart, single);
    if (single)
        addRunLabel(chart);
    showTitleAndNotes(chart);
    placeRunLabel();
}

// Both axes logarithmic, over the data's range.
void RooflineChart::addAxes(QChart *chart)
{
    m_x = new QLogValueAxis;
    m_x->setBase(10.0);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setTitleText(tr("arithmetic intensity (FLOP per DRAM byte)"));
    // A hair beyond the decades: the axis places its first and last labels at the powers of
    // ten inside its range, and log10(0.1) computed in doubles lands just above -1.
    m_x->setRange(m_data.xLow * (1.0 - 1e-9), m_data.xHigh * (1.0 + 1e-9));
    m_x->setMinorTickCount(-1);
    m_y = new QLogValueAxis;
    m_y->setBase(10.0);
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setTitleText(tr("FLOP/s"));
    m_y->setRange(m_data.yLow * (1.0 - 1e-9), m_data.yHigh * (1.0 + 1e-9));
    m_y->setMinorTickCount(-1);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
}

void RooflineChart::addRoofs(QChart *chart)
{
    // The roofs: DRAM bandwidth from the left edge up to the highest ceiling, each ceiling flat
    // from its ridge to the right edge.
    const double bw = m_data.dramBytesPerSecond;
    if (bw > 0.0) {
        const double top =
            m_data.ceilings.empty() ? m_data.yHigh : m_data.ceilings.front().flopsPerSecond;
        const double startX = std::max(m_data.xLow, m_data.yLow / bw);
        const double endX = std::min(m_data.xHigh, top / bw);
        auto *dram = line(tr("DRAM %1 TB/s").arg(QString::number(bw / 1e12, 'g', 3)), kDramRoof,
                          2.5, Qt::SolidLine);
        dram->append(startX, startX * bw);
        dram->append(endX, endX * bw);
        attach(chart, dram, m_x, m_y);
    }
    for (const RooflineCeiling &c : m_data.ceilings) {
        const bool dominant = m_data.ridge && m_data.ridge->precision == c.precision;
        auto *flat =
            line(tr("%1 peak %2")
                     .arg(QLatin1String(precisionName(c.precision)), flopsText(c.flopsPerSecond)),
                 ceilingColor(c.precision), dominant ? 2.5 : 1.5,
                 dominant ? Qt::SolidLine : Qt::DashLine);
        const double from =
            c.ridgeIntensity > 0.0 ? std::max(m_data.xLow, c.ridgeIntensity) : m_data.xLow;
        flat->append(from, c.flopsPerSecond);
        flat->append(m_data.xHigh, c.flopsPerSecond);
        attach(chart, flat, m_x, m_y);
    }
    if (m_data.ridge) {
        auto *ridge = new QScatterSeries;
        ridge->setName(tr("ridge %1: %2 FLOP/byte")
                           .arg(QLatin1String(precisionName(m_data.ridge->precision)),
                                QString::number(m_data.ridge->ridgeIntensity, 'g', 3)));
        ridge->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        ridge->setMarkerSize(12.0);
        ridge->setColor(Qt::white);
        ridge->setBorderColor(ceilingColor(m_data.ridge->precision));
        ridge->setPen(QPen(ceilingColor(m_data.ridge->precision), 2.0));
        ridge->append(m_data.ridge->ridgeIntensity, m_data.ridge->flopsPerSecond);
        attach(chart, ridge, m_x, m_y);
    }
}

// The baseline's points, the points coloured by bucket, the best one, and their tooltips.
void RooflineChart::addMarkers(QChart *chart, bool single)
{
    if (!m_data.baseline.empty()) {
        m_baselineSeries = new QScatterSeries;
        m_baselineSeries->setName(m_data.baseline.size() == 1
                                      ? tr("baseline (1 point)")
                                      : tr("baseline (%1 points)").arg(m_data.baseline.size()));
        m_baselineSeries->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        m_baselineSeries->setMarkerSize(9.0);
        m_baselineSeries->setColor(Qt::transparent);
        m_baselineSeries->setBorderColor(QColor(0x60, 0x60, 0x60));
        m_baselineSeries->setPen(QPen(QColor(0x60, 0x60, 0x60), 1.5));
        QList<QPointF> points;
        points.reserve(qsizetype(m_data.baseline.size()));
        for (const RooflineMarker &m : m_data.baseline)
            points.append(QPointF(m.intensity, m.flopsPerSecond));
        m_baselineSeries->replace(points);
        attach(chart, m_baselineSeries, m_x, m_y);
    }
    for (std::size_t k = 0; k < m_data.buckets.size(); ++k) {
        const RooflineBucket &b = m_data.buckets[k];
        auto *series = new QScatterSeries;
        series->setName(single ? tr("this run") : b.name);
        series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        series->setMarkerSize(single ? 12.0 : 9.0);
        const QColor color =
            single ? QColor(0x1f, 0x77, 0xb4) : bucketColor(k, m_data.buckets.size());
        series->setColor(color);
        series->setBorderColor(color.darker(140));
        QList<QPointF> points;
        points.reserve(qsizetype(b.markers.size()));
        for (const std::size_t i : b.markers)
            points.append(QPointF(m_data.points[i].intensity, m_data.points[i].flopsPerSecond));
        series->replace(points);
        attach(chart, series, m_x, m_y);
        m_buckets.push_back(series);
    }
    if (const auto best = m_data.bestMarker()) {
        const RooflineMarker &m = m_data.points[*best];
        m_bestSeries = new QScatterSeries;
        m_bestSeries->setName(tr("best: %1").arg(m.label));
        m_bestSeries->setMarkerShape(QScatterSeries::MarkerShapeStar);
        m_bestSeries->setMarkerSize(20.0);
        m_bestSeries->setColor(kBest);
        m_bestSeries->setBorderColor(kBestBorder);
        m_bestSeries->setPen(QPen(kBestBorder, 1.0));
        m_bestSeries->append(m.intensity, m.flopsPerSecond);
        attach(chart, m_bestSeries, m_x, m_y);
    }
    std::vector<QScatterSeries *> hoverable = m_buckets;
    hoverable.push_back(m_baselineSeries);
    hoverable.push_back(m_bestSeries);
    for (QScatterSeries *series : hoverable) {
        if (!series)
            continue;
        connect(series, &QScatterSeries::hovered, this,
                [this, series](const QPointF &point, bool state) {
                    if (state)
                        QToolTip::showText(QCursor::pos(), toolTipAt(series, point), m_view);
                    else
                        QToolTip::hideText();
                });
    }
}

// The one run's label: where it sits and how far from its roof.
void RooflineChart::addRunLabel(QChart *chart)
{
    const RooflineMarker &m = m_data.points.front();
    m_runLabel = new QGraphicsSimpleTextItem(chart);
    QString text =
        tr("%1: %2 at %3 FLOP/byte")
            .arg(m.label, flopsText(m.flopsPerSecond), QString::number(m.intensity, 'g', 3));
    if (m.fractionOfRoof)
        text += tr(", %1% of the roof").arg(QString::number(*m.fractionOfRoof * 100, 'f', 1));
    m_runLabel->setText(text);
    m_runLabel->setZValue(10);
}

void RooflineChart::showTitleAndNotes(QChart *chart)
{
    QString title;
    if (m_data.empty())
        title = tr("Roofline: no point to place");
    else if (m_data.colourTarget.isEmpty())
        title = tr("Roofline");
    else
        title = tr("Roofline of the sweep: %1 placed, coloured by %2")
                    .arg(m_data.points.size() == 1 ? tr("1 point")
                                                   : tr("%1 points").arg(m_data.points.size()),
                         m_data.colourTarget);
    chart->setTitle(title);

    QStringList notes;
    if (!m_data.missingText.isEmpty())
        notes << m_data.missingText;
    if (!m_data.peaksNote.isEmpty())
        notes << m_data.peaksNote;
    m_note->setText(notes.join(QStringLiteral(". ")));
    m_note->setVisible(!notes.isEmpty());
}

// The run's label beside its marker, kept inside the plot area (left of the marker when the
// marker is in the right half).
void RooflineChart::placeRunLabel()
{
    if (!m_runLabel || m_data.points.empty())
        return;
    QChart *chart = m_view->chart();
    const RooflineMarker &m = m_data.points.front();
    const QPointF at = chart->mapToPosition(QPointF(m.intensity, m.flopsPerSecond));
    const QRectF area = chart->plotArea();
    const QRectF text = m_runLabel->boundingRect();
    double x = at.x() + 10.0;
    if (x + text.width() > area.right())
        x = at.x() - 10.0 - text.width();
    double y = at.y() + 8.0;
    if (y + text.height() > area.bottom())
        y = at.y() - 8.0 - text.height();
    m_runLabel->setPos(std::max(area.left(), x), std::max(area.top(), y));
}

} // namespace cuwb
