// ProjectController: opens and saves *.cuwb projects. Opening loads the source into a tab
// (inline, or the file the project names relative to itself) and the compile options, launch,
// verification and sweep into the Workspace — or, for a malformed file or an unknown version,
// shows the message with its line and column and changes nothing. Saving writes the Workspace's
// values, everything needed to reproduce the run, atomically, and keeps the fields a newer
// version wrote (the loaded Project is updated, not rebuilt).
//
// The open project is modified when its settings (what currentProject() would save, apart from
// the source, which is a buffer of its own) differ from what was last opened or saved: they are
// compared after each of the user's edits of the Workspace (Workspace::edited), so an edit
// undone by hand leaves it unmodified again. Changes the window makes by itself (the launch
// adopted by a compile, the GPU's architecture) are not edits (AutomaticChange). Closing the
// window or opening another project asks first (maybeSave).
#pragma once

#include "gui/sweep/sweepcontroller.h"
#include "project/project.h"

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>
#include <string>

class QWidget;

namespace cuwb {

class Document;
class DocumentTabs;
class Workspace;

class ProjectController : public QObject
{
    Q_OBJECT

public:
    ProjectController(DocumentTabs *tabs, Workspace *workspace, QWidget *dialogParent);

    // Off: failures are only reported through errorOccurred (tests, screenshots).
    void setDialogsEnabled(bool enabled) { m_dialogs = enabled; }

    // Returns the project's document, or nullptr after reporting why it could not be opened
    // (or when the user cancelled the question about the open project's unsaved changes).
    Document *open(const QString &path);
    // Opens the project at `path` (or, when that file is gone, its autosaved source and
    // settings, under the same path) and applies `autosaved`'s compile options, launch,
    // verification and sweep as unsaved changes; nothing is written until the user saves.
    // `message` says what was done, or why not.
    bool restore(const QString &path, const Project &autosaved, QString &message);
    bool save();   // to the open project's path, else asks for one
    bool saveAs(); // asks for a path
    bool saveTo(const QString &path);

    [[nodiscard]] bool hasProject() const { return !m_path.isEmpty(); }
    // Whether the open project's settings differ from what was last opened or saved.
    [[nodiscard]] bool isModified() const { return hasProject() && m_modified; }
    // Compares the settings with those last opened or saved.
    void updateModified();
    // Asks whether to save a modified project before it is closed: true when it was saved or
    // its changes may go, false when the user cancelled. Without dialogs it answers Discard.
    bool maybeSave();
    // The question maybeSave() asks, answered Save, Discard or Cancel; a message box by
    // default (tests answer it themselves).
    using SavePrompt = std::function<QMessageBox::StandardButton(const QString &question)>;
    void setSavePrompt(SavePrompt prompt) { m_savePrompt = std::move(prompt); }

    // A change the window makes by itself while it lives (a compile adopting the project's
    // launch, the GPU's architecture becoming the target): not an edit. When it ends, an
    // unmodified project takes what it changed as its state; a modified one is compared again.
    class AutomaticChange
    {
    public:
        explicit AutomaticChange(ProjectController *controller);
        ~AutomaticChange();
        AutomaticChange(const AutomaticChange &) = delete;
        AutomaticChange &operator=(const AutomaticChange &) = delete;

    private:
        QPointer<ProjectController> m_controller;
    };
    [[nodiscard]] QString projectPath() const { return m_path; }
    [[nodiscard]] QString lastError() const { return m_lastError; }
    // The bytes and FLOP expressions of the open project's "measure" section when `document`
    // is the project's source; none otherwise (another file's kernel does other work).
    [[nodiscard]] ThroughputExpressions throughputFor(const Document *document) const;
    // The project as it would be saved now to `path`. While another tab than the project's
    // source is current, the launch is the project's as it was when that tab was chosen.
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
    // isModified() changed.
    void modifiedChanged(bool modified);
    // The settings as they would be saved changed, or the project was opened, saved or
    // restored (the autosave follows).
    void settingsChanged();

private:
    Document *projectDocument() const;
    void fail(const QString &title, const QString &message);
    // Shows `project` in the editor and the panels: its source in a tab (opened from beside
    // `path`, or inline), its options, launch, verification and sweep. Nullptr after reporting
    // why not.
    Document *show(const QString &path, const Project &project, const QString &title);
    // Applies `project`'s options, launch, verification and sweep to the Workspace (an empty
    // sweep when it has none).
    void applySettings(const QString &path, const Project &project);
    // The settings as compared: the project as it would be saved, without its source.
    [[nodiscard]] std::string settingsJson() const;
    // What was opened or saved is the state now: unmodified.
    void markSaved();
    void setModified(bool modified, bool settingsChanged);
    void onSettingsEdited();

    DocumentTabs *m_tabs = nullptr;
    Workspace *m_workspace = nullptr;
    QWidget *m_dialogParent = nullptr;
    bool m_dialogs = true;
    QString m_path;
    Project m_project;
    QPointer<Document> m_document;
    QString m_lastError;
    // The project's launch and verification as they were when another tab became current:
    // the Launch dock then follows that tab's kernel, which is not the project's.
    struct AwayLaunch
    {
        LaunchSpec launch;
        Verification verification;
    };
    std::optional<AwayLaunch> m_away;
    // The settings as last opened or saved; none for a project restored without its file.
    std::optional<std::string> m_savedSettings;
    std::string m_lastSettings; // as last compared
    bool m_modified = false;
    int m_automatic = 0; // AutomaticChange guards alive (and open/restore in progress)
    SavePrompt m_savePrompt;
};

} // namespace cuwb
