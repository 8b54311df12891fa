// SweepChartLabels: text pinned to values of the sweep's charts. A horizontal line's label (the
// theoretical peak, the copy ceiling) sits at the plot's right edge, above or below the line, on
// a pale box so that other lines crossing it leave it readable; a point's label (the best
// point's name, a partial wave's count) sits just above or below the point, and is hidden where
// it would overlap one placed before it. Labels are kept inside the plot area. The labels of the
// lines are fixed until the charts are rebuilt; the labels of the points follow the data, and
// their graphics items are reused, as a streaming sweep changes them with every point.
#pragma once

#include <QColor>
#include <QPointF>
#include <QString>

#include <cstddef>
#include <memory>
#include <vector>

class QAbstractSeries;
class QChart;

namespace cuwb {

class SweepChartLabels
{
public:
    enum Anchor { AbovePoint, BelowPoint, AboveLineRight, BelowLineRight };

    struct Spec
    {
        QChart *chart = nullptr;
        QAbstractSeries *series = nullptr; // what `value` is mapped through
        QString text;
        QPointF value; // the point; for a line, only its y counts
        Anchor anchor = AbovePoint;
        QColor color;
        bool bold = false;
    };

    SweepChartLabels();
    ~SweepChartLabels();
    SweepChartLabels(const SweepChartLabels &) = delete;
    SweepChartLabels &operator=(const SweepChartLabels &) = delete;

    // Deletes every label (before the charts' series are rebuilt).
    void clear();
    // A line's label, kept until clear(); added right after clear(), before any point's label.
    void addFixed(const Spec &spec);
    // The points' labels, after the fixed ones: in the order given, which is the order in which
    // they claim room (an earlier label hides a later one that overlaps it).
    void setPointLabels(const std::vector<Spec> &specs);
    // Places the labels of `chart` for its current plot area and axes.
    void layout(QChart *chart);

private:
    struct Label;

    void add(const Spec &spec);

    std::vector<std::unique_ptr<Label>> m_labels;
    std::size_t m_fixed = 0; // the first labels (peak, ceiling) survive data updates
};

} // namespace cuwb
