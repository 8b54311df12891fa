// SessionScript: drives an interactive window the way a user would, for tests that run the real
// cuda-workbench as a separate process (and kill it): it answers the restore offer with a
// given button once the dialog is on screen, then types text at the end of the current buffer,
// edits the open project's settings once its kernel is compiled (a launch variable and the
// block's x, two compile options, the sweep's constraints and samples: through the panels, as a
// user would), and writes a report of what the window shows — the offer's entries, every open
// buffer's file, modified flag and text, the open project as it would be saved and whether it
// is modified, the window's title, the autosave folder — as JSON, atomically, so that a test
// can poll for the file. With a project open, the report waits for its kernel to compile, so
// that it shows the launch as adopted. The hidden options --script-recovery, --script-type,
// --script-edit-project and --script-report set it up.
#pragma once

#include "gui/recovery/recoverydialog.h"

#include <QObject>
#include <QTimer>

#include <optional>

namespace cuwb {

class MainWindow;

class SessionScript : public QObject
{
    Q_OBJECT

public:
    explicit SessionScript(MainWindow *window, QObject *parent = nullptr);

    // "restore", "discard" or "later"; false for anything else.
    bool setRecoveryAnswer(const QString &answer);
    void setTypedText(const QString &text) { m_typed = text; }
    void setEditProject(bool edit) { m_editProject = edit; }
    void setReportPath(const QString &path) { m_reportPath = path; }

    // Answers the restore offer when one appears; call before the offer is made.
    void start();
    // The offer was answered or not needed: type, then report. Returns the report's error,
    // empty when it was written (or none was asked for).
    QString recoveryChecked();

private:
    void answerDialog();
    // Once the project's kernel is compiled (or after a while, to report what is there):
    // edits the project when asked, then writes the report.
    void whenCompiled();
    void editProject();
    QString writeReport();

    MainWindow *m_window = nullptr;
    std::optional<RecoveryDialog::Choice> m_answer;
    QString m_typed;
    QString m_reportPath;
    QTimer m_poll;
    QList<AutosaveEntry> m_offered;
    bool m_offerSeen = false;
    bool m_editProject = false;
    QTimer m_compileWait;
    int m_compileWaits = 0;
};

} // namespace cuwb
