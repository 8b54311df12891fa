#include "gui/sweep/sweeptargetdelegate.h"

#include <QCompleter>
#include <QLineEdit>

namespace cuwb {

QWidget *SweepTargetDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                                           const QModelIndex &index) const
{
    QWidget *editor = QStyledItemDelegate::createEditor(parent, option, index);
    if (auto *line = qobject_cast<QLineEdit *>(editor)) {
        auto *completer = new QCompleter(m_suggestions, line);
        completer->setCaseSensitivity(Qt::CaseInsensitive);
        line->setCompleter(completer);
    }
    return editor;
}

} // namespace cuwb
