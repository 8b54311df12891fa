// ProjectController: opens and saves *.cuwb projects. Opening loads the source into a tab
// (inline, or the file the project names relative to itself), the compile options into the
// options widget and the launch and verification into the launch panel — or, for a malformed
// file or an unknown version, shows the message with its line and column and changes nothing.
// Saving writes everything needed to reproduce the run, atomically, and keeps the fields a
// newer version wrote (the loaded Project is updated, not rebuilt). The sweep section goes to
// and comes from the sweep panel, when there is one.
#pragma once

#include "gui/sweep/sweepcontroller.h"
#include "project/project.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace cuwb {

class CompileOptionsWidget;
class Document;
class DocumentTabs;
class LaunchPanel;
class SweepPanel;

class ProjectController : public QObject
{
    Q_OBJECT

public:
    ProjectController(DocumentTabs *tabs, CompileOptionsWidget *options, LaunchPanel *launch,
                      QWidget *dialogParent);

    // Off: failures are only reported through errorOccurred (tests, screenshots).
    void setDialogsEnabled(bool enabled) { m_dialogs = enabled; }
    // Where the project's sweep is edited: opening a project shows its sweep there (an empty
    // one when it has none), saving writes the sweep from there (none while it has no axes).
    void setSweepPanel(SweepPanel *panel) { m_sweep = panel; }

    // Returns the project's document, or nullptr after reporting why it could not be opened.
    Document *open(const QString &path);
    bool save();   // to the open project's path, else asks for one
    bool saveAs(); // asks for a path
    bool saveTo(const QString &path);

    [[nodiscard]] bool hasProject() const { return !m_path.isEmpty(); }
    [[nodiscard]] QString projectPath() const { return m_path; }
    [[nodiscard]] QString lastError() const { return m_lastError; }
    // The bytes and FLOP expressions of the open project's "measure" section when `document`
    // is the project's source; none otherwise (another file's kernel does other work).
    [[nodiscard]] ThroughputExpressions throughputFor(const Document *document) const;
    // The project as it would be saved now to `path`.
    [[nodiscard]] Project currentProject(const QString &path) const;
    // The project as a sweep elsewhere (a Slurm job's tasks) must run it, self-contained: the
    // source of `base` inline (what a sweep here would measure, saved or not), the launch and
    // options as the window has them, the include folders, input files and reference made absolute,
    // the project source's folder on the include path, and `spec` as its sweep. Refused without a
    // project file.
    [[nodiscard]] SweepController::ProjectSnapshot sweepSnapshot(const SweepSpec &spec,
                                                                 const RunRequest &base) const;

    // "line 4, column 12: expected ..." as the user sees it.
    static QString loadErrorText(const QString &path, const ProjectLoad &load);

Q_SIGNALS:
    void projectOpened(const QString &path);
    void projectSaved(const QString &path);
    void errorOccurred(const QString &message);

private:
    Document *projectDocument() const;
    void fail(const QString &title, const QString &message);

    DocumentTabs *m_tabs = nullptr;
    CompileOptionsWidget *m_options = nullptr;
    LaunchPanel *m_launch = nullptr;
    SweepPanel *m_sweep = nullptr;
    QWidget *m_dialogParent = nullptr;
    bool m_dialogs = true;
    QString m_path;
    Project m_project;
    QPointer<Document> m_document;
    QString m_lastError;
};

} // namespace cuwb
