// SweepHeatmap: a block.x × block.y sweep as a grid of cells coloured by median time or
// effective bandwidth (Qt Charts has no heatmap). Values are written in the cells that have room
// for them; skipped cells are hatched grey and failed or wrong ones cross-hatched red, with the
// reason in the tooltip; the best cell is outlined and the cells within the measured noise of it
// have a dashed outline; a colour bar gives the scale. Hovering a cell shows every statistic of
// its point, clicking it emits pointActivated. paint() draws the same picture on any painter,
// for PNG and SVG exports.
#pragma once

#include "gui/sweep/sweepchartbuilder.h"

#include <QWidget>

#include <optional>

namespace cuwb {

class SweepHeatmap : public QWidget
{
    Q_OBJECT

public:
    enum class Quantity { MedianTime, Bandwidth };

    explicit SweepHeatmap(QWidget *parent = nullptr);

    // The run whose points the cells refer to (for tooltips and clicks) and its cells. The
    // heatmap keeps a pointer to `run` rather than a copy (a point's request carries the whole
    // source, and a streaming sweep updates the cells once per point): `run` must stay alive
    // and unchanged until the next setData() or clear().
    void setData(const NamedSweep *run, const SweepHeatmapData &data);
    void clear();
    void setQuantity(Quantity quantity);
    [[nodiscard]] Quantity quantity() const { return m_quantity; }
    [[nodiscard]] const SweepHeatmapData &data() const { return m_data; }

    void paint(QPainter &painter, const QRectF &rect) const;

    // The cell under a position in this widget's coordinates: its column and row, or nullopt.
    [[nodiscard]] std::optional<QPoint> cellAt(const QPointF &position) const;
    // The centre of a cell, in this widget's coordinates.
    [[nodiscard]] QPointF cellCentre(int column, int row) const;
    [[nodiscard]] QString toolTipAt(const QPointF &position) const;
    // The colour of a cell's fill; invalid for a cell without a value of the quantity.
    [[nodiscard]] QColor cellColor(const SweepHeatmapCell &cell) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void pointActivated(const cuwb::SweepPoint &point);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    struct Geometry
    {
        QRectF grid;   // the cells
        QRectF legend; // the colour bar
        double cellWidth = 0.0;
        double cellHeight = 0.0;
    };
    [[nodiscard]] Geometry geometry(const QRectF &rect) const;
    // paint()'s steps, each on the grid's geometry.
    void paintCells(QPainter &painter, const Geometry &g) const;
    // Outlines on top of the fills: tied cells dashed, the best one solid and thick.
    void paintOutlines(QPainter &painter, const Geometry &g) const;
    // The values under the columns and beside the rows, and the axes' titles.
    void paintAxes(QPainter &painter, const QRectF &rect, const Geometry &g) const;
    // What the marks mean, under the axis title.
    void paintKey(QPainter &painter, const Geometry &g) const;
    void paintColourBar(QPainter &painter, const QRectF &rect, const Geometry &g) const;
    [[nodiscard]] std::optional<double> valueOf(const SweepHeatmapCell &cell) const;
    // Where `value` lies between the worst (0) and the best (1) value of the grid.
    [[nodiscard]] double goodness(double value) const;
    void updateRange();
    [[nodiscard]] QString formatValue(double value) const;
    [[nodiscard]] QString title() const;

    const NamedSweep *m_run = nullptr;
    SweepHeatmapData m_data;
    Quantity m_quantity = Quantity::MedianTime;
    double m_low = 0.0; // range of the quantity over the measured cells
    double m_high = 0.0;
    double m_timeUnitNs = 1e3;
    QString m_timeUnit;
};

} // namespace cuwb
