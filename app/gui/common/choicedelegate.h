// ChoiceDelegate: edits a cell with a combo box whose items come from the model
// (ArgumentsModel::ChoicesRole) and whose choice is written back as an index (ChoiceRole);
// cells without choices get the default editor.
#pragma once

#include <QStyledItemDelegate>

namespace cuwb {

class ChoiceDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    ChoiceDelegate(int choicesRole, int choiceRole, QObject *parent = nullptr);

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model,
                      const QModelIndex &index) const override;

private:
    int m_choicesRole = 0;
    int m_choiceRole = 0;
};

} // namespace cuwb
