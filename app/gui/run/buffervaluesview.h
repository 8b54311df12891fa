// BufferValuesView: shows the rows of a very long two-column model (index, value) by painting
// only the visible ones. QTableView keeps per-row header state, which for a 2^30-element
// buffer would be gigabytes; this view keeps none, so any length scrolls at the same speed.
// Wheel, arrow and page keys scroll; "Go to" jumps to an element.
#pragma once

#include <QAbstractScrollArea>
#include <QPointer>

class QAbstractItemModel;

namespace cuwb {

class BufferValuesView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    explicit BufferValuesView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model);
    [[nodiscard]] QAbstractItemModel *model() const { return m_model; }

    // Makes `row` the first visible row (clamped).
    void scrollToRow(qint64 row);
    [[nodiscard]] int firstVisibleRow() const;
    [[nodiscard]] int visibleRowCount() const;
    [[nodiscard]] int rowHeight() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    QSize sizeHint() const override;

private:
    void updateScrollBar();
    int headerHeight() const;
    int indexColumnWidth() const;

    QPointer<QAbstractItemModel> m_model;
};

} // namespace cuwb
