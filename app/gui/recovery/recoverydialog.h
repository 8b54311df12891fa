// RecoveryDialog: what a workbench that did not end cleanly left unsaved (each buffer's file,
// or "untitled", a project's settings, and when each was autosaved), and the choice: Restore,
// Discard, or Later (keep the autosaves for the next start; also what closing the dialog means, so
// that nothing is lost by a hasty Escape).
#pragma once

#include "gui/recovery/autosavestore.h"

#include <QDialog>

class QPushButton;
class QTreeWidget;

namespace cuwb {

class RecoveryDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Choice { Restore, Discard, Later };

    RecoveryDialog(const QList<AutosaveEntry> &entries, const QStringList &problems,
                   QWidget *parent = nullptr);

    [[nodiscard]] Choice choice() const { return m_choice; }
    [[nodiscard]] const QList<AutosaveEntry> &entries() const { return m_entries; }
    [[nodiscard]] QTreeWidget *list() const { return m_list; }
    // Answers as the button of that name would (automation, tests).
    void choose(Choice choice);

    // The first column of an entry: its file as the user knows it, "untitled", or "project
    // settings of" the project's file (saying so when that file is gone).
    static QString entryLabel(const AutosaveEntry &entry);

private:
    QList<AutosaveEntry> m_entries;
    QTreeWidget *m_list = nullptr;
    Choice m_choice = Choice::Later;
};

} // namespace cuwb
