#include "gui/common/choicedelegate.h"

#include <QComboBox>

namespace cuwb {

ChoiceDelegate::ChoiceDelegate(int choicesRole, int choiceRole, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_choicesRole(choicesRole)
    , m_choiceRole(choiceRole)
{}

QWidget *ChoiceDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                                      const QModelIndex &index) const
{
    const QStringList choices = index.data(m_choicesRole).toStringList();
    if (choices.isEmpty())
        return QStyledItemDelegate::createEditor(parent, option, index);
    auto *combo = new QComboBox(parent);
    combo->addItems(choices);
    // Commit as soon as a choice is made, not only when focus leaves.
    connect(combo, &QComboBox::activated, this, [this, combo] {
        Q_EMIT const_cast<ChoiceDelegate *>(this)->commitData(combo);
        Q_EMIT const_cast<ChoiceDelegate *>(this)->closeEditor(combo);
    });
    return combo;
}

void ChoiceDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    if (auto *combo = qobject_cast<QComboBox *>(editor)) {
        combo->setCurrentIndex(index.data(m_choiceRole).toInt());
        return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
}

void ChoiceDelegate::setModelData(QWidget *editor, QAbstractItemModel *model,
                                  const QModelIndex &index) const
{
    if (auto *combo = qobject_cast<QComboBox *>(editor)) {
        model->setData(index, combo->currentIndex(), m_choiceRole);
        return;
    }
    QStyledItemDelegate::setModelData(editor, model, index);
}

} // namespace cuwb
