// SweepTargetDelegate: edits the target column of the sweep's axes table (SweepAxesModel)
// with a line edit whose completer offers the usual targets (block.x/y/z, compiler options)
// and the variables of the launch being swept; the suggestions change with the launch.
#pragma once

#include <QStringList>
#include <QStyledItemDelegate>

namespace cuwb {

class SweepTargetDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void setSuggestions(const QStringList &suggestions) { m_suggestions = suggestions; }

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override;

private:
    QStringList m_suggestions;
};

} // namespace cuwb
