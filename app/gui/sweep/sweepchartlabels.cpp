#include "gui/sweep/sweepchartlabels.h"

#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>

#include <algorithm>

namespace cuwb {

namespace {

bool isPointAnchor(SweepChartLabels::Anchor anchor)
{
    return anchor == SweepChartLabels::AbovePoint || anchor == SweepChartLabels::BelowPoint;
}

} // namespace

// The graphics items belong to the chart (frame is a child of it): deleting a Label leaves them,
// clear() and setPointLabels() delete them explicitly.
struct SweepChartLabels::Label
{
    QChart *chart = nullptr;
    QGraphicsRectItem *frame = nullptr;      // a pale box, so that lines do not cross the text
    QGraphicsSimpleTextItem *item = nullptr; // a child of frame
    QAbstractSeries *series = nullptr;
    QPointF value;
    Anchor anchor = AbovePoint;
};

SweepChartLabels::SweepChartLabels() = default;

SweepChartLabels::~SweepChartLabels() = default;

void SweepChartLabels::clear()
{
    for (const std::unique_ptr<Label> &label : m_labels)
        delete label->frame;
    m_labels.clear();
    m_fixed = 0;
}

void SweepChartLabels::addFixed(const Spec &spec)
{
    add(spec);
    m_fixed = m_labels.size();
}

void SweepChartLabels::add(const Spec &spec)
{
    QChart *chart = spec.chart;
    auto label = std::make_unique<Label>();
    label->chart = chart;
    label->series = spec.series;
    label->value = spec.value;
    label->anchor = spec.anchor;
    label->frame = new QGraphicsRectItem(chart);
    label->frame->setPen(Qt::NoPen);
    // A line's label sits at the plot's edge: a pale box keeps it readable where other lines
    // cross it. A point's label sits among the data, which a box would hide.
    label->frame->setBrush(isPointAnchor(spec.anchor) ? QColor(Qt::transparent)
                                                      : QColor(255, 255, 255, 190));
    label->frame->setZValue(20);
    label->item = new QGraphicsSimpleTextItem(spec.text, label->frame);
    label->item->setBrush(spec.color);
    label->item->setPos(2, 0);
    QFont font = chart->font();
    font.setBold(spec.bold);
    label->item->setFont(font);
    m_labels.push_back(std::move(label));
}

void SweepChartLabels::setPointLabels(const std::vector<Spec> &specs)
{
    // Items are reused, as creating and deleting graphics items for every streamed point costs
    // more than the series themselves.
    while (m_labels.size() > m_fixed + specs.size()) {
        delete m_labels.back()->frame;
        m_labels.pop_back();
    }
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const Spec &wanted = specs[i];
        const std::size_t slot = m_fixed + i;
        if (slot < m_labels.size() && m_labels[slot]->chart == wanted.chart &&
            m_labels[slot]->item->font().bold() == wanted.bold) {
            Label &label = *m_labels[slot];
            if (label.item->text() != wanted.text)
                label.item->setText(wanted.text);
            label.series = wanted.series;
            label.value = wanted.value;
            label.anchor = wanted.anchor;
            label.item->setBrush(wanted.color);
            continue;
        }
        if (slot < m_labels.size()) {
            // A label of another kind in this slot: replace it and everything after it.
            while (m_labels.size() > slot) {
                delete m_labels.back()->frame;
                m_labels.pop_back();
            }
        }
        add(wanted);
    }
}

void SweepChartLabels::layout(QChart *chart)
{
    const QRectF plot = chart->plotArea();
    std::vector<QRectF> placed; // point labels that would overlap one already placed are hidden
    for (const std::unique_ptr<Label> &label : m_labels) {
        if (label->chart != chart || !label->series)
            continue;
        const QRectF text = label->item->boundingRect();
        const QRectF box(0, 0, text.width() + 4, text.height());
        label->frame->setRect(box);
        QPointF value = label->value;
        if (!isPointAnchor(label->anchor)) {
            // A horizontal line: only its y matters, mapped at one of its own (positive, for a
            // log axis) x values.
            auto *line = qobject_cast<QLineSeries *>(label->series);
            if (!line || line->count() == 0)
                continue;
            value.setX(line->at(0).x());
        }
        const QPointF at = chart->mapToPosition(value, label->series);
        QPointF position;
        switch (label->anchor) {
        case AboveLineRight:
            position = QPointF(plot.right() - box.width() - 6, at.y() - box.height() - 1);
            break;
        case BelowLineRight:
            position = QPointF(plot.right() - box.width() - 6, at.y() + 1);
            break;
        case BelowPoint:
            position = QPointF(at.x() - box.width() / 2, at.y() + 10);
            break;
        default:
            position = QPointF(at.x() - box.width() / 2, at.y() - box.height() - 9);
            break;
        }
        // Keep a label whole inside the plot area, so that no axis text is covered.
        position.setX(std::clamp(position.x(), plot.left() + 2,
                                 std::max(plot.left() + 2, plot.right() - box.width() - 2)));
        position.setY(std::clamp(position.y(), plot.top() + 1,
                                 std::max(plot.top() + 1, plot.bottom() - box.height() - 1)));
        label->frame->setPos(position);
        bool visible = plot.isValid();
        if (isPointAnchor(label->anchor)) {
            const QRectF area(position, box.size());
            visible = visible && std::none_of(placed.begin(), placed.end(),
                                              [&](const QRectF &r) { return r.intersects(area); });
            if (visible)
                placed.push_back(area);
        }
        label->frame->setVisible(visible);
    }
}

} // namespace cuwb
