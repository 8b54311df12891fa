// GradingDialog: "Grade a Folder…" in the window — choose a folder of submissions, grade it as
// `cuwb run FOLDER --json --summary [--measure]` does (gui/grading/gradingrun.h), watch cuwb's
// messages while it runs, and see the class summary: each submission's verdict, reason, time
// and rank (ties within the noise marked "="). "Save Report…" writes the class report of the
// command line's --report (class.json, class.csv, class.html, a report per student). The
// dialog is the grading room's own: the window adds its action with addGradeFolderAction().
#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace cuwb {

class ClassTableModel;
class GradingRun;

class GradingDialog : public QDialog
{
    Q_OBJECT

public:
    explicit GradingDialog(QWidget *parent = nullptr);

    void setFolder(const QString &folder);
    void setMeasure(bool measure);
    void startGrading();
    void saveReportTo(const QString &folder);

    [[nodiscard]] GradingRun *run() const { return m_run; }
    [[nodiscard]] ClassTableModel *model() const { return m_model; }
    [[nodiscard]] QString statusText() const;

Q_SIGNALS:
    void gradingFinished(); // the table shows the class, or the status says why not

private:
    void onFinished(const QString &error);
    void updateButtons();

    GradingRun *m_run = nullptr;
    ClassTableModel *m_model = nullptr;
    QLineEdit *m_folder = nullptr;
    QCheckBox *m_measure = nullptr;
    QPushButton *m_grade = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_save = nullptr;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_messages = nullptr;
    QTableView *m_table = nullptr;
};

// Adds "Grade a Folder…" to `menu`: it opens one GradingDialog over `window` (the same one
// each time, so a grading goes on while the dialog is hidden).
void addGradeFolderAction(QMenu *menu, QWidget *window);

} // namespace cuwb
