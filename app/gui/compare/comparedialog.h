// CompareDialog: Run ▸ Compare…'s question, what to compare the current kernel (A) with: the
// source of another open tab, launched as the current project launches A, or a .cuwb project
// file with its own launch. It only asks; the main window collects both sides.
#pragma once

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QRadioButton;

namespace cuwb {

class CompareDialog : public QDialog
{
    Q_OBJECT

public:
    // aName: the current kernel and project; tabs: the other open tabs' names, in tab order.
    CompareDialog(const QString &aName, const QStringList &tabs, QWidget *parent = nullptr);

    [[nodiscard]] bool choosesTab() const;
    [[nodiscard]] int tabIndex() const; // into `tabs`; -1 when a file is chosen
    [[nodiscard]] QString projectPath() const;
    void setProjectPath(const QString &path);

private:
    void updateOk();

    QRadioButton *m_tabChoice = nullptr;
    QRadioButton *m_fileChoice = nullptr;
    QComboBox *m_tabs = nullptr;
    QLineEdit *m_path = nullptr;
};

} // namespace cuwb
