#include "gui/run/buffervaluesview.h"

#include <QAbstractItemModel>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionHeader>

#include <algorithm>

namespace cuwb {

BufferValuesView::BufferValuesView(QWidget *parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(1);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(),
            qOverload<>(&QWidget::update));
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
}

void BufferValuesView::setModel(QAbstractItemModel *model)
{
    if (m_model)
        m_model->disconnect(this);
    m_model = model;
    if (m_model) {
        auto refresh = [this] {
            updateScrollBar();
            viewport()->update();
        };
        connect(m_model, &QAbstractItemModel::modelReset, this, [this, refresh] {
            verticalScrollBar()->setValue(0);
            refresh();
        });
        connect(m_model, &QAbstractItemModel::rowsInserted, this, refresh);
        connect(m_model, &QAbstractItemModel::rowsRemoved, this, refresh);
        connect(m_model, &QAbstractItemModel::dataChanged, viewport(),
                qOverload<>(&QWidget::update));
        connect(m_model, &QAbstractItemModel::headerDataChanged, viewport(),
                qOverload<>(&QWidget::update));
    }
    updateScrollBar();
    viewport()->update();
}

int BufferValuesView::rowHeight() const
{
    return fontMetrics().height() + 6;
}

int BufferValuesView::headerHeight() const
{
    return fontMetrics().height() + 10;
}

int BufferValuesView::indexColumnWidth() const
{
    const int rows = m_model ? m_model->rowCount() : 0;
    const int digits = int(QString::number(std::max(rows - 1, 0)).size());
    return fontMetrics().horizontalAdvance(QString(std::max(digits, 5), QLatin1Char('0'))) + 24;
}

int BufferValuesView::visibleRowCount() const
{
    return std::max(1, (viewport()->height() - headerHeight()) / rowHeight());
}

int BufferValuesView::firstVisibleRow() const
{
    return verticalScrollBar()->value();
}

void BufferValuesView::scrollToRow(qint64 row)
{
    verticalScrollBar()->setValue(int(std::clamp<qint64>(row, 0, verticalScrollBar()->maximum())));
}

void BufferValuesView::updateScrollBar()
{
    const int rows = m_model ? m_model->rowCount() : 0;
    const int visible = visibleRowCount();
    verticalScrollBar()->setRange(0, std::max(0, rows - visible));
    verticalScrollBar()->setPageStep(visible);
}

void BufferValuesView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
}

QSize BufferValuesView::sizeHint() const
{
    return {320, headerHeight() + rowHeight() * 12};
}

void BufferValuesView::keyPressEvent(QKeyEvent *event)
{
    QScrollBar *bar = verticalScrollBar();
    switch (event->key()) {
    case Qt::Key_Home:
        bar->setValue(0);
        break;
    case Qt::Key_End:
        bar->setValue(bar->maximum());
        break;
    case Qt::Key_Up:
        bar->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        bar->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_PageUp:
        bar->triggerAction(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        bar->triggerAction(QAbstractSlider::SliderPageStepAdd);
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

void BufferValuesView::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event)
    QPainter painter(viewport());
    const QRect area = viewport()->rect();
    const int indexWidth = indexColumnWidth();
    const int header = headerHeight();

    // Header, drawn by the style so it matches the other tables.
    for (int column = 0; column < 2; ++column) {
        QStyleOptionHeader option;
        option.initFrom(this);
        option.rect = column == 0 ? QRect(0, 0, indexWidth, header)
                                  : QRect(indexWidth, 0, area.width() - indexWidth, header);
        option.section = column;
        option.position = column == 0 ? QStyleOptionHeader::Beginning : QStyleOptionHeader::End;
        option.textAlignment = Qt::AlignRight | Qt::AlignVCenter;
        if (m_model)
            option.text = m_model->headerData(column, Qt::Horizontal).toString();
        // The style replaces the clip region while it draws; without save/restore an unclipped
        // painter ends up clipped to nothing and the rows below are not drawn.
        painter.save();
        style()->drawControl(QStyle::CE_Header, &option, &painter, this);
        painter.restore();
    }
    if (!m_model)
        return;

    const int rows = m_model->rowCount();
    const int first = firstVisibleRow();
    const int last = std::min(rows - 1, first + visibleRowCount());
    const int height = rowHeight();
    const QColor grid = palette().color(QPalette::Mid).lighter(130);
    for (int row = first; row <= last; ++row) {
        const int y = header + (row - first) * height;
        const QRect rowRect(0, y, area.width(), height);
        if (row % 2 == 1)
            painter.fillRect(rowRect, palette().alternateBase());
        for (int column = 0; column < 2; ++column) {
            const QModelIndex index = m_model->index(row, column);
            const QRect cell = column == 0
                                   ? QRect(0, y, indexWidth, height)
                                   : QRect(indexWidth, y, area.width() - indexWidth, height);
            const QVariant font = index.data(Qt::FontRole);
            painter.setFont(font.isValid() ? font.value<QFont>() : this->font());
            const QVariant colour = index.data(Qt::ForegroundRole);
            painter.setPen(colour.isValid() ? colour.value<QColor>()
                                            : palette().color(QPalette::Text));
            painter.drawText(cell.adjusted(6, 0, -10, 0), Qt::AlignRight | Qt::AlignVCenter,
                             index.data(Qt::DisplayRole).toString());
        }
        painter.setPen(grid);
        painter.drawLine(indexWidth, y, indexWidth, y + height);
    }
}

} // namespace cuwb
