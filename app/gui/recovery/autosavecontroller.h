// AutosaveController: keeps the unsaved buffers of DocumentTabs in an AutosaveStore, and offers
// what a workbench that did not end cleanly left behind.
//
// A change to a buffer marks it; a few seconds after the first mark, every marked buffer that
// is still modified is copied (on the GUI thread: only its text) and written by a thread of its
// own, and every marked buffer that is no longer modified (saved, undone to its saved text,
// closed) loses its autosave. Nothing is written while nothing changes. Destroying the
// controller is the clean end: the session's folder goes away.
//
// The open project's settings (compile options, launch, verification, sweep) go the same way,
// as one more entry: the window says when they changed (markProjectDirty) and hands over the
// project as it would be saved when they differ from what was opened or saved (the project
// hooks); the writer thread serialises it. Saved, reverted or replaced by another project, its
// autosave goes at the next tick.
#pragma once

#include "gui/recovery/autosavestore.h"
#include "project/project.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QWidget;

namespace cuwb {

class Document;
class DocumentTabs;

class AutosaveController : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultIntervalMs = 5000;

    AutosaveController(DocumentTabs *tabs, const QString &root, QObject *parent = nullptr);
    ~AutosaveController() override;

    // False when the session's folder could not be created or locked (statusMessage said why);
    // the workbench then works on without autosaving.
    [[nodiscard]] bool isActive() const { return m_store->isOpen(); }
    [[nodiscard]] QString errorMessage() const { return m_store->errorMessage(); }
    [[nodiscard]] QString root() const { return m_root; }
    [[nodiscard]] QString sessionFolder() const { return m_store->sessionFolder(); }
    // How long after the first unsaved change the autosave follows.
    void setIntervalMs(int ms) { m_timer.setInterval(ms); }
    [[nodiscard]] int intervalMs() const { return m_timer.interval(); }

    // Hands every marked buffer to the writer now.
    void autosaveNow();
    // Returns once everything handed to the writer is on disk.
    void waitForWrites();

    // Looks for sessions that did not end cleanly and, when they left something, asks with a
    // RecoveryDialog under `dialogParent`: Restore opens the buffers as modified (never
    // written over their files) and removes the old autosaves, Discard removes them, Later
    // leaves them for the next start. Emits recoveryChecked() in every case.
    void offerRecovery(QWidget *dialogParent);
    // Opens each buffer entry as an unsaved buffer: into the tab of its file (opened when it
    // still exists), or a new tab; a project entry first, through the project hooks. Returns
    // how many were restored.
    int restore(const QList<AutosaveEntry> &entries);

    // The open project with unsaved settings: its file and the project as it would be saved.
    struct ProjectSnapshot
    {
        QString path;
        Project project;
    };
    // None when no project is open or its settings are as last opened or saved.
    using ProjectProvider = std::function<std::optional<ProjectSnapshot>()>;
    // Opens the project at `path` with `project`'s settings as unsaved changes; `message` says
    // what was done (or why not) for the status bar.
    using ProjectRestorer =
        std::function<bool(const QString &path, const Project &project, QString &message)>;
    void setProjectHooks(ProjectProvider provider, ProjectRestorer restorer);
    // The project's settings changed, were saved or reverted, or another project was opened:
    // the next tick writes or removes the project's autosave.
    void markProjectDirty();
    // The key of the project's entry in a session ("project").
    static QString projectEntryKey();

Q_SIGNALS:
    void recoveryChecked();
    void statusMessage(const QString &message);

private:
    void markDirty(Document *document);
    void watch(Document *document);
    void report(const QString &key, const QString &error);

    DocumentTabs *m_tabs = nullptr;
    QString m_root;
    std::shared_ptr<AutosaveStore> m_store;
    QThread m_thread;
    QObject *m_writer = nullptr; // lives on m_thread; the store is used there only
    QTimer m_timer;
    QSet<int> m_dirty;           // document ids changed since their last autosave
    bool m_projectDirty = false; // the project's settings changed since the last tick
    ProjectProvider m_projectProvider;
    ProjectRestorer m_projectRestorer;
    QSet<int> m_watched;                // ids whose closing is watched
    QHash<QString, QString> m_reported; // the last problem told about each entry
};

} // namespace cuwb
