#include "gui/sweep/sweepheatmap.h"

#include "gui/common/qtconvert.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

namespace cuwb {

namespace {

// Viridis, sampled: perceptually uniform and readable by colour-blind users; the best value of
// the grid is the bright yellow end whether the quantity is a time or a bandwidth.
QColor viridis(double t)
{
    static constexpr std::array<std::array<int, 3>, 9> stops{{{68, 1, 84},
                                                              {71, 44, 122},
                                                              {59, 81, 139},
                                                              {44, 113, 142},
                                                              {33, 144, 141},
                                                              {39, 173, 129},
                                                              {92, 200, 99},
                                                              {170, 220, 50},
                                                              {253, 231, 37}}};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * double(stops.size() - 1);
    const std::size_t i = std::min(std::size_t(t), stops.size() - 2);
    const double f = t - double(i);
    const auto mix = [&](int c) {
        return int(
            std::lround(stops[i][std::size_t(c)] * (1 - f) + stops[i + 1][std::size_t(c)] * f));
    };
    return QColor(mix(0), mix(1), mix(2));
}

// Diagonal hatching drawn as lines rather than a pattern brush: SVG viewers (Qt's own among
// them) do not all resolve the patterns QSvgGenerator writes.
void hatch(QPainter &painter, const QRectF &rect, const QColor &color, bool cross)
{
    constexpr double step = 6.0;
    const double w = rect.width();
    const double h = rect.height();
    painter.save();
    painter.setPen(QPen(color, 1.0));
    for (double d = -h + step / 2; d < w; d += step) {
        const double t0 = std::max(0.0, -d);
        const double t1 = std::min(h, w - d);
        if (t1 <= t0)
            continue;
        painter.drawLine(QPointF(rect.left() + d + t0, rect.bottom() - t0),
                         QPointF(rect.left() + d + t1, rect.bottom() - t1));
        if (cross)
            painter.drawLine(QPointF(rect.left() + d + t0, rect.top() + t0),
                             QPointF(rect.left() + d + t1, rect.top() + t1));
    }
    painter.restore();
}

bool isDark(const QColor &color)
{
    return 0.299 * color.redF() + 0.587 * color.greenF() + 0.114 * color.blueF() < 0.55;
}

QString axisNumberText(double value)
{
    return QString::number(value, 'g', 6);
}

const QColor kGridText{0x33, 0x33, 0x33};
const QColor kSkippedFill{0xee, 0xee, 0xee};
const QColor kSkippedHatch{0xa0, 0xa0, 0xa0};
const QColor kFailedFill{0xfb, 0xe4, 0xe4};
const QColor kFailedHatch{0xc6, 0x28, 0x28};
const QColor kEmptyFill{0xfa, 0xfa, 0xfa};
constexpr double kMargin = 8.0;
constexpr double kLegendBarWidth = 14.0;

} // namespace

SweepHeatmap::SweepHeatmap(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(minimumSizeHint());
}

QSize SweepHeatmap::sizeHint() const
{
    return {640, 420};
}

QSize SweepHeatmap::minimumSizeHint() const
{
    return {320, 220};
}

void SweepHeatmap::setData(const NamedSweep *run, const SweepHeatmapData &data)
{
    m_run = run;
    m_data = data;
    updateRange();
    update();
}

void SweepHeatmap::clear()
{
    setData(nullptr, {});
}

void SweepHeatmap::setQuantity(Quantity quantity)
{
    if (quantity == m_quantity)
        return;
    m_quantity = quantity;
    updateRange();
    update();
}

std::optional<double> SweepHeatmap::valueOf(const SweepHeatmapCell &cell) const
{
    const std::optional<double> value =
        m_quantity == Quantity::MedianTime ? cell.medianNs : cell.effectiveGBps;
    if (value && std::isfinite(*value))
        return value;
    return std::nullopt;
}

void SweepHeatmap::updateRange()
{
    m_low = std::numeric_limits<double>::infinity();
    m_high = -std::numeric_limits<double>::infinity();
    double slowestNs = 0.0;
    for (const SweepHeatmapCell &cell : m_data.cells) {
        if (const auto value = valueOf(cell)) {
            m_low = std::min(m_low, *value);
            m_high = std::max(m_high, *value);
        }
        if (cell.medianNs)
            slowestNs = std::max(slowestNs, *cell.medianNs);
    }
    if (!(m_low <= m_high)) {
        m_low = 0.0;
        m_high = 0.0;
    }
    // One unit for the whole grid, so that cells compare digit for digit.
    if (slowestNs >= 1e9) {
        m_timeUnitNs = 1e9;
        m_timeUnit = tr("s");
    } else if (slowestNs >= 1e6) {
        m_timeUnitNs = 1e6;
        m_timeUnit = tr("ms");
    } else if (slowestNs >= 1e3 || slowestNs == 0.0) {
        m_timeUnitNs = 1e3;
        m_timeUnit = tr("\u00b5s");
    } else {
        m_timeUnitNs = 1.0;
        m_timeUnit = tr("ns");
    }
}

double SweepHeatmap::goodness(double value) const
{
    if (!(m_high > m_low))
        return 1.0;
    // Logarithmic: block-size sweeps span an order of magnitude or more, and on a linear scale
    // one slow corner would leave every interesting cell the same colour. Ratios are what a
    // reader compares ("twice as fast"), and a log scale shows equal ratios as equal steps.
    const double t = m_low > 0 ? std::log(value / m_low) / std::log(m_high / m_low)
                               : (value - m_low) / (m_high - m_low);
    return m_quantity == Quantity::MedianTime ? 1.0 - t : t;
}

QColor SweepHeatmap::cellColor(const SweepHeatmapCell &cell) const
{
    const auto value = valueOf(cell);
    if (!value || cell.status != PointStatus::Measured)
        return {};
    return viridis(goodness(*value));
}

QString SweepHeatmap::formatValue(double value) const
{
    if (m_quantity == Quantity::Bandwidth)
        return QString::number(value, 'f', value >= 100 ? 0 : 1);
    return QString::number(value / m_timeUnitNs, 'g', 4);
}

QString SweepHeatmap::title() const
{
    const QString what =
        m_quantity == Quantity::MedianTime
            ? tr("Median time per launch (%1), lower is better; colours on a log scale")
                  .arg(m_timeUnit)
            : tr("Effective bandwidth (GB/s), higher is better; colours on a log scale");
    if (!m_run || m_run->name.isEmpty())
        return what;
    return tr("%1: %2").arg(m_run->name, what);
}

SweepHeatmap::Geometry SweepHeatmap::geometry(const QRectF &rect) const
{
    const QFontMetricsF fm(font());
    Geometry g;
    double yLabelWidth = 0.0;
    for (double y : m_data.yValues)
        yLabelWidth = std::max(yLabelWidth, fm.horizontalAdvance(axisNumberText(y)));
    double legendLabelWidth = fm.horizontalAdvance(formatValue(m_high));
    legendLabelWidth = std::max(legendLabelWidth, fm.horizontalAdvance(formatValue(m_low)));
    legendLabelWidth = std::max(legendLabelWidth, fm.horizontalAdvance(QStringLiteral("00000")));

    const double left = rect.left() + kMargin + fm.height() + 6 + yLabelWidth + 6;
    const double top = rect.top() + kMargin + fm.height() * 1.6;
    const double right = rect.right() - kMargin - legendLabelWidth - 6 - kLegendBarWidth - 18;
    // Below the grid: the x labels, the x title and a line that explains the marks.
    const double bottom = rect.bottom() - kMargin - fm.height() * 3.6;
    g.grid =
        QRectF(QPointF(left, top), QPointF(std::max(left + 1, right), std::max(top + 1, bottom)));
    const int columns = std::max<int>(1, int(m_data.xValues.size()));
    const int rows = std::max<int>(1, int(m_data.yValues.size()));
    g.cellWidth = g.grid.width() / columns;
    g.cellHeight = g.grid.height() / rows;
    g.legend = QRectF(g.grid.right() + 18, g.grid.top(), kLegendBarWidth, g.grid.height());
    return g;
}

std::optional<QPoint> SweepHeatmap::cellAt(const QPointF &position) const
{
    const Geometry g = geometry(rect());
    if (m_data.xValues.empty() || m_data.yValues.empty() || !g.grid.contains(position))
        return std::nullopt;
    const int column = std::clamp(int((position.x() - g.grid.left()) / g.cellWidth), 0,
                                  int(m_data.xValues.size()) - 1);
    // Row 0 (the smallest block.y) is at the bottom, as on a chart.
    const int row = std::clamp(int((g.grid.bottom() - position.y()) / g.cellHeight), 0,
                               int(m_data.yValues.size()) - 1);
    return QPoint(column, row);
}

QPointF SweepHeatmap::cellCentre(int column, int row) const
{
    const Geometry g = geometry(rect());
    return {g.grid.left() + (column + 0.5) * g.cellWidth,
            g.grid.bottom() - (row + 0.5) * g.cellHeight};
}

QString SweepHeatmap::toolTipAt(const QPointF &position) const
{
    const std::optional<QPoint> at = cellAt(position);
    if (!at)
        return {};
    if (const SweepHeatmapCell *cell = m_data.cellAt(at->x(), at->y()))
        return m_run ? SweepChartBuilder::toolTip(*m_run, cell->point) : QString();
    return tr("%1=%2 %3=%4: not in the sweep (a constraint dropped it)")
        .arg(m_data.xTarget, axisNumberText(m_data.xValues[std::size_t(at->x())]), m_data.yTarget,
             axisNumberText(m_data.yValues[std::size_t(at->y())]));
}

bool SweepHeatmap::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void SweepHeatmap::mouseMoveEvent(QMouseEvent *event)
{
    const std::optional<QPoint> at = cellAt(event->position());
    const SweepHeatmapCell *cell = at ? m_data.cellAt(at->x(), at->y()) : nullptr;
    const bool clickable = cell && cell->status != PointStatus::Skipped;
    setCursor(clickable ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(event);
}

void SweepHeatmap::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        const std::optional<QPoint> at = cellAt(event->position());
        const SweepHeatmapCell *cell = at ? m_data.cellAt(at->x(), at->y()) : nullptr;
        // A skipped point cannot run, so there is no configuration to apply.
        if (m_run && cell && cell->status != PointStatus::Skipped &&
            cell->point < m_run->result.points.size())
            Q_EMIT pointActivated(m_run->result.points[cell->point].point);
    }
    QWidget::mouseReleaseEvent(event);
}

void SweepHeatmap::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paint(painter, rect());
}

void SweepHeatmap::paint(QPainter &painter, const QRectF &rect) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(rect, Qt::white);
    painter.setFont(font());
    const QFontMetricsF fm(font());
    const Geometry g = geometry(rect);

    QFont titleFont = font();
    titleFont.setBold(true);
    painter.setFont(titleFont);
    painter.setPen(kGridText);
    painter.drawText(QRectF(rect.left() + kMargin, rect.top() + kMargin, rect.width() - 2 * kMargin,
                            fm.height() * 1.3),
                     Qt::AlignLeft | Qt::AlignTop, title());
    painter.setFont(font());

    if (m_data.xValues.empty() || m_data.yValues.empty()) {
        painter.drawText(g.grid, Qt::AlignCenter, tr("No points yet"));
        painter.restore();
        return;
    }
    paintCells(painter, g);
    paintOutlines(painter, g);
    paintAxes(painter, rect, g);
    paintKey(painter, g);
    if (m_high >= m_low && std::isfinite(m_low))
        paintColourBar(painter, rect, g);
    painter.restore();
}

// The cells: each filled with its colour and its value where the value fits, hatched when
// skipped or failed.
void SweepHeatmap::paintCells(QPainter &painter, const Geometry &g) const
{
    const QFontMetricsF fm(font());
    QFont smallFont = font();
    smallFont.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF smallMetrics(smallFont);
    for (int column = 0; column < int(m_data.xValues.size()); ++column) {
        for (int row = 0; row < int(m_data.yValues.size()); ++row) {
            const QRectF cellRect(g.grid.left() + column * g.cellWidth,
                                  g.grid.bottom() - (row + 1) * g.cellHeight, g.cellWidth,
                                  g.cellHeight);
            const QRectF inner = cellRect.adjusted(0.5, 0.5, -0.5, -0.5);
            const SweepHeatmapCell *cell = m_data.cellAt(column, row);
            if (!cell) {
                painter.fillRect(inner, kEmptyFill);
                continue;
            }
            const QColor fill = cellColor(*cell);
            if (fill.isValid()) {
                painter.fillRect(inner, fill);
                const QString text = formatValue(*valueOf(*cell));
                for (const auto &[f, metrics] :
                     {std::pair{font(), fm}, std::pair{smallFont, smallMetrics}}) {
                    if (metrics.horizontalAdvance(text) + 4 <= inner.width() &&
                        metrics.height() <= inner.height()) {
                        painter.setFont(f);
                        painter.setPen(isDark(fill) ? Qt::white : Qt::black);
                        painter.drawText(inner, Qt::AlignCenter, text);
                        painter.setFont(font());
                        break;
                    }
                }
            } else if (cell->status == PointStatus::Skipped) {
                painter.fillRect(inner, kSkippedFill);
                hatch(painter, inner, kSkippedHatch, false);
            } else if (cell->status == PointStatus::Failed || cell->status == PointStatus::Wrong) {
                painter.fillRect(inner, kFailedFill);
                hatch(painter, inner, kFailedHatch, true);
            } else {
                // Pending, or measured without this quantity (no bytes expression for GB/s).
                painter.fillRect(inner, kEmptyFill);
                painter.setPen(kSkippedHatch);
                painter.drawText(inner, Qt::AlignCenter,
                                 cell->status == PointStatus::Pending ? tr("\u2026") : tr("n/a"));
            }
        }
    }
}

void SweepHeatmap::paintOutlines(QPainter &painter, const Geometry &g) const
{
    // Outlines on top of the fills: tied cells dashed, the best one solid and thick, both with a
    // white inner line so they show on dark and bright cells alike.
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const SweepHeatmapCell &cell : m_data.cells) {
        if (!cell.best && !cell.tied)
            continue;
        const QRectF cellRect(g.grid.left() + cell.column * g.cellWidth,
                              g.grid.bottom() - (cell.row + 1) * g.cellHeight, g.cellWidth,
                              g.cellHeight);
        QPen outer(Qt::black, cell.best ? 3.0 : 2.0, cell.best ? Qt::SolidLine : Qt::DashLine);
        painter.setPen(outer);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect.adjusted(2, 2, -2, -2));
        painter.setPen(QPen(Qt::white, 1.0, cell.best ? Qt::SolidLine : Qt::DashLine));
        painter.drawRect(cellRect.adjusted(4, 4, -4, -4));
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
}

void SweepHeatmap::paintAxes(QPainter &painter, const QRectF &rect, const Geometry &g) const
{
    const QFontMetricsF fm(font());
    // Axes: labels under the columns and beside the rows, thinned when they would touch.
    painter.setPen(kGridText);
    double lastRight = -1e9;
    for (int column = 0; column < int(m_data.xValues.size()); ++column) {
        const QString text = axisNumberText(m_data.xValues[std::size_t(column)]);
        const double centre = g.grid.left() + (column + 0.5) * g.cellWidth;
        const double width = fm.horizontalAdvance(text);
        if (centre - width / 2 < lastRight + 6)
            continue;
        painter.drawText(
            QRectF(centre - width / 2 - 2, g.grid.bottom() + 3, width + 4, fm.height()),
            Qt::AlignCenter, text);
        lastRight = centre + width / 2;
    }
    double lastTop = 1e9;
    for (int row = 0; row < int(m_data.yValues.size()); ++row) {
        const QString text = axisNumberText(m_data.yValues[std::size_t(row)]);
        const double centre = g.grid.bottom() - (row + 0.5) * g.cellHeight;
        if (centre + fm.height() / 2 > lastTop)
            continue;
        painter.drawText(QRectF(rect.left(), centre - fm.height() / 2,
                                g.grid.left() - 6 - rect.left(), fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, text);
        lastTop = centre - fm.height() / 2;
    }
    painter.drawText(
        QRectF(g.grid.left(), g.grid.bottom() + 3 + fm.height(), g.grid.width(), fm.height()),
        Qt::AlignCenter, SweepChartBuilder::axisTitle(m_data.xTarget));
    painter.save();
    painter.translate(rect.left() + kMargin, g.grid.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-g.grid.height() / 2, 0, g.grid.height(), fm.height()), Qt::AlignCenter,
                     SweepChartBuilder::axisTitle(m_data.yTarget));
    painter.restore();
}

void SweepHeatmap::paintKey(QPainter &painter, const Geometry &g) const
{
    const QFontMetricsF fm(font());
    // What the marks mean.
    const double keyTop = g.grid.bottom() + 6 + fm.height() * 2.2;
    double x = g.grid.left();
    const auto key = [&](const QString &text, const std::function<void(const QRectF &)> &swatch) {
        const QRectF box(x, keyTop + (fm.height() - 12) / 2, 18, 12);
        swatch(box);
        painter.setPen(kGridText);
        const double width = fm.horizontalAdvance(text);
        painter.drawText(QRectF(box.right() + 4, keyTop, width + 2, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        x = box.right() + 4 + width + 14;
    };
    key(tr("best"), [&](const QRectF &box) {
        painter.setPen(QPen(Qt::black, 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box.adjusted(1, 1, -1, -1));
    });
    key(tr("within noise of best"), [&](const QRectF &box) {
        painter.setPen(QPen(Qt::black, 1.5, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box.adjusted(1, 1, -1, -1));
    });
    key(tr("skipped"), [&](const QRectF &box) {
        painter.fillRect(box, kSkippedFill);
        hatch(painter, box, kSkippedHatch, false);
    });
    key(tr("failed or wrong"), [&](const QRectF &box) {
        painter.fillRect(box, kFailedFill);
        hatch(painter, box, kFailedHatch, true);
    });
}

// The colour bar beside the grid, best at the top, with ticks at round values.
void SweepHeatmap::paintColourBar(QPainter &painter, const QRectF &rect, const Geometry &g) const
{
    const QFontMetricsF fm(font());
    const int steps = std::max(2, int(g.legend.height()));
    for (int i = 0; i < steps; ++i) {
        const double t = 1.0 - double(i) / (steps - 1);
        const QRectF slice(g.legend.left(), g.legend.top() + g.legend.height() * i / steps,
                           g.legend.width(), g.legend.height() / steps + 1);
        painter.fillRect(slice, viridis(t));
    }
    painter.setPen(QColor(0x80, 0x80, 0x80));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(g.legend);
    painter.setPen(kGridText);
    // Ticks at 1, 2 and 5 × 10^k in the unit shown; the ends of the range when fewer than
    // two of those fall inside it.
    const double unit = m_quantity == Quantity::MedianTime ? m_timeUnitNs : 1.0;
    std::vector<double> ticks;
    if (m_low > 0 && m_high > m_low) {
        const double low = m_low / unit;
        const double high = m_high / unit;
        for (double decade = std::pow(10.0, std::floor(std::log10(low))); decade <= high;
             decade *= 10.0) {
            for (double factor : {1.0, 2.0, 5.0}) {
                const double tick = factor * decade;
                if (tick >= low * (1 - 1e-9) && tick <= high * (1 + 1e-9))
                    ticks.push_back(tick * unit);
            }
        }
    }
    if (ticks.size() < 2)
        ticks = m_high > m_low ? std::vector<double>{m_low, m_high} : std::vector<double>{m_low};
    for (double value : ticks) {
        const double t = goodness(value);
        const double y = g.legend.top() + (1.0 - t) * g.legend.height();
        painter.drawLine(QPointF(g.legend.right(), y), QPointF(g.legend.right() + 3, y));
        const QString text = m_quantity == Quantity::MedianTime
                                 ? QString::number(value / unit, 'g', 3)
                                 : QString::number(value, 'g', 4);
        painter.drawText(QRectF(g.legend.right() + 6, y - fm.height() / 2,
                                rect.right() - g.legend.right() - 6, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
    }
}

} // namespace cuwb
