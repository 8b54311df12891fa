// ToolHost: what the window offers a feature that plugs itself in (a "tool": gui/<feature>/
// <feature>tool.h). A tool is constructed with the host and does the rest itself: it builds its
// docks and hands them to addDock(), puts its actions in the window's menus through
// addMenuAction(), registers itself with addTool(), and connects to the Workspace, the editor's
// documents and the host's signals. The shell implements the host (gui/shell/windowhost.h) and
// never names a tool's internals; a test can implement it around just the pieces a tool uses.
//
// The services are the window's shared pieces: the Workspace (the open project's state), the
// editor's documents, the PTX/SASS tab widget beside the editor, the shared worker and the run
// controller that sends the window's requests to it, and actions other features made (by id,
// as Qt Creator's ActionManager does). What only the shell knows (the open project's file, the
// reason Run is disabled, whether the user's layout was restored) is asked through the pure
// virtual functions.
#pragma once

#include "measure/measurement.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QAction;
class QDockWidget;
class QMainWindow;
class QTabWidget;
class QWidget;

namespace cuwb {

class Document;
class DocumentTabs;
class RunController;
class SharedWorker;
class Workspace;

class ToolHost : public QObject
{
    Q_OBJECT

public:
    // Where in the window's menus a tool's action goes.
    enum class MenuSection {
        ViewDocks,  // View: the docks' show/hide toggles
        RunInspect, // Run: after Run, Measure and Cancel Measurement
        RunCompare, // Run: after the inspection's actions
        RunSweep,   // Run: after the comparison's, before grading
    };

    // The ids of actions other features made, for action(): the Launch dock's Run, Measure and
    // Inspect (enabled when the launch can run), and Build ▸ Compile.
    static inline const QString kRunActionId = QStringLiteral("launch.run");
    static inline const QString kMeasureActionId = QStringLiteral("launch.measure");
    static inline const QString kInspectActionId = QStringLiteral("launch.inspect");
    static inline const QString kCompileActionId = QStringLiteral("build.compile");

    explicit ToolHost(QObject *parent = nullptr);
    ~ToolHost() override;

    [[nodiscard]] virtual QMainWindow *window() const = 0;
    [[nodiscard]] virtual Workspace *workspace() const = 0;
    [[nodiscard]] virtual DocumentTabs *documents() const = 0;
    // The PTX and SASS tabs beside the editor.
    [[nodiscard]] virtual QTabWidget *codeTabs() const = 0;
    // The one `cuwb worker` the window's runs, measurements and sweeps share.
    [[nodiscard]] virtual std::shared_ptr<SharedWorker> worker() const = 0;
    // The window's requests to that worker (run, measure, inspect), one at a time.
    [[nodiscard]] virtual RunController *runController() const = 0;

    // The open project's file (empty: none) and the name runs are recorded under (the
    // project's, else the current file's, without its suffix).
    [[nodiscard]] virtual QString projectPath() const = 0;
    [[nodiscard]] virtual QString projectName() const = 0;
    // The open project's throughput expressions when `document` is its source; none otherwise.
    [[nodiscard]] virtual ThroughputExpressions throughputFor(const Document *document) const = 0;
    // Why the launch cannot run now (no GPU, no kernel, a launch problem, a run in progress),
    // or empty when it can.
    [[nodiscard]] virtual QString runBlockedReason() const = 0;
    // The GPUs found, in a line ("NVIDIA H200 (sm_90)"), or what the device query said.
    [[nodiscard]] virtual QString deviceSummary() const = 0;
    // Whether the window's dock layout is the user's own, restored from the last session: a
    // tool then leaves its dock's size alone when it first shows it.
    [[nodiscard]] virtual bool layoutRestored() const = 0;

    // A dock titled `title` and named `objectName` (the saved layout's key) around `widget`,
    // placed in the window with placeDock().
    QDockWidget *addDock(const QString &title, const QString &objectName, QWidget *widget,
                         Qt::DockWidgetArea area, const QString &tabbedWith);
    // Adds `dock` to the window in `area`, tabbed with the dock named `tabbedWith` (its object
    // name) when there is one, and its toggle to View.
    virtual void placeDock(QDockWidget *dock, Qt::DockWidgetArea area,
                           const QString &tabbedWith) = 0;
    virtual void addMenuAction(MenuSection section, QAction *action) = 0;
    virtual void showStatus(const QString &message, int timeoutMs) = 0;

    // An action another feature made, by id (kInspectActionId), or null.
    [[nodiscard]] QAction *action(const QString &id) const;
    void registerAction(const QString &id, QAction *action);

    // The tools plugged in; tool<T>() finds one by type (null when it is not there).
    void addTool(QObject *tool);
    template <class T> [[nodiscard]] T *tool() const
    {
        for (QObject *candidate : m_tools)
            if (T *found = qobject_cast<T *>(candidate))
                return found;
        return nullptr;
    }

    // Conveniences over the services.
    [[nodiscard]] Document *currentDocument() const;
    // The lowered name of the kernel the Launch dock has chosen, or empty.
    [[nodiscard]] QString currentKernel() const;
    // Puts the current document's cursor on `line` (1-based).
    void goToSourceLine(int line) const;

Q_SIGNALS:
    // The current document and its latest compile are on screen (editor, PTX, panels);
    // `document` is null when the last one was closed.
    void documentShown(cuwb::Document *document);
    // View > Zoom: steps > 0 in, < 0 out, 0 back to the default size.
    void zoomRequested(int steps);
    // View > Reset Layout: every dock is back where it started.
    void layoutReset();
    // A project file was opened (its source is in the editor, its settings in the Workspace).
    void projectOpened(const QString &path);

private:
    QList<QObject *> m_tools;
    QHash<QString, QAction *> m_actions;
};

} // namespace cuwb
