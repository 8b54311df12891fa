// MainWindow: hosts the features and connects the rest to the Workspace (the open project's
// state, which the panels show and edit) and to the controllers: compiling lives in
// CompileController, files in DocumentTabs, projects in ProjectController, presentation in the
// views and their models. Features that plug themselves in (gui/<feature>/<feature>tool.h:
// Sweep, Inspect, Compare) are created in createTools(), one line each, and reach the window
// only through its ToolHost (gui/shell/windowhost.h). What it still keeps is the docks not yet
// made tools and the sequencing between features (a lesson waiting for its sweep).
#pragma once

#include "compiler/compileresult.h"
#include "gui/common/metatypes.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QSplitter;
class QTabWidget;

namespace cuwb {

class AutosaveController;
class CompileController;
class CompileOptionsWidget;
class CompileStatusWidget;
class CompareTool;
class DeviceTool;
class DeviceProbe;
class Document;
class DocumentTabs;
class FindReplaceBar;
class HistoryTool;
class InspectTool;
class KernelsModel;
class KernelsPanel;
class LaunchPanel;
class LessonTool;
class MeasureTool;
class ProjectController;
class ProblemsModel;
class ProblemsPanel;
class PtxView;
class RecentFiles;
class RunTool;
class RunCheckController;
class RunController;
class SharedWorker;
class SweepTool;
class WindowHost;
class Workspace;
struct Measurement;
struct SweepPoint;
struct SweepResult;
struct RunResult;
struct CompileRequest;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    struct Settings
    {
        QString samplesDir;         // empty: found by SamplesMenu::findSamplesDir()
        bool restoreLayout = true;  // window geometry and dock layout from QSettings
        bool probeDevices = true;   // run `cuwb devices --json`
        bool prompts = true;        // ask before discarding edits (off for tests)
        QString cliPath;            // the cuwb tool; empty: findCuwbCli()
        bool runDocksFirst = false; // show Launch and Results in front (the --run screenshot)
        // The run history's database; empty: none (tests). The application passes
        // defaultHistoryPath().
        QString historyPath;
        // Where unsaved buffers are autosaved (recovery/autosavestore.h); empty: nowhere
        // (tests, screenshots). The application passes defaultAutosaveRoot().
        QString autosaveRoot;
    };

    explicit MainWindow(const Settings &settings, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens a .cu file, or a .cuwb project (its source, options, launch and verification).
    Document *openPath(const QString &path);
    // Why the last openPath() that failed did so, as the dialog or the status bar said it.
    [[nodiscard]] QString lastOpenError() const;
    [[nodiscard]] QString samplesDir() const { return m_samplesDir; }
    // The open project's state, which the panels show and edit.
    [[nodiscard]] Workspace *workspace() const { return m_workspace; }

    [[nodiscard]] DocumentTabs *documentTabs() const { return m_tabs; }
    [[nodiscard]] Document *currentDocument() const;
    [[nodiscard]] PtxView *ptxView() const { return m_ptxView; }
    // The PTX and SASS tabs beside the editor.
    [[nodiscard]] QTabWidget *codeTabs() const { return m_codeTabs; }
    // What the tools plugged into the window are offered, and the tools themselves.
    [[nodiscard]] WindowHost *toolHost() const { return m_host; }
    [[nodiscard]] InspectTool *inspectTool() const { return m_inspectTool; }
    [[nodiscard]] CompareTool *compareTool() const { return m_compareTool; }
    [[nodiscard]] FindReplaceBar *findReplaceBar() const { return m_findBar; }
    [[nodiscard]] ProblemsModel *problemsModel() const { return m_problemsModel; }
    [[nodiscard]] ProblemsPanel *problemsPanel() const { return m_problemsPanel; }
    [[nodiscard]] KernelsModel *kernelsModel() const { return m_kernelsModel; }
    [[nodiscard]] KernelsPanel *kernelsPanel() const { return m_kernelsPanel; }
    [[nodiscard]] CompileController *compileController() const { return m_controller; }
    [[nodiscard]] CompileOptionsWidget *compileOptionsWidget() const { return m_optionsWidget; }
    [[nodiscard]] CompileStatusWidget *compileStatusWidget() const { return m_compileStatus; }
    [[nodiscard]] DeviceProbe *deviceProbe() const { return m_deviceProbe; }
    [[nodiscard]] QString deviceStatusText() const;
    [[nodiscard]] LaunchPanel *launchPanel() const { return m_launchPanel; }
    [[nodiscard]] RunTool *runTool() const { return m_runTool; }
    [[nodiscard]] MeasureTool *measureTool() const { return m_measureTool; }
    [[nodiscard]] DeviceTool *deviceTool() const { return m_deviceTool; }
    [[nodiscard]] RunController *runController() const { return m_runController; }
    [[nodiscard]] RunCheckController *runCheckController() const { return m_runCheck; }
    [[nodiscard]] ProjectController *projectController() const { return m_projects; }
    [[nodiscard]] SweepTool *sweepTool() const { return m_sweepTool; }
    [[nodiscard]] HistoryTool *historyTool() const { return m_historyTool; }
    // Null when Settings::autosaveRoot is empty.
    [[nodiscard]] AutosaveController *autosaveController() const { return m_autosave; }
    [[nodiscard]] LessonTool *lessonTool() const { return m_lessonTool; }
    // The launch's problems where they are seen when the Launch dock is covered: its tab's
    // title and the Problems panel.
    void showLaunchIssues();
    // Opens `projectPath` and runs the sweep preset `presetId` once its kernel is compiled
    // (the Samples menu's classroom entry).
    void openAndSweep(const QString &projectPath, const QString &presetId);

    // The columns of code the editor shows in the default layout.
    static constexpr int kEditorColumns = 100;
    // The layout of a first start on a screen whose free area is `available`
    // (QScreen::availableGeometry()): the window takes most of it, the editor shows
    // kEditorColumns columns beside the PTX, and the Problems dock a few rows of messages.
    void applyDefaultLayout(const QRect &available);
    // View > Reset Layout: every dock back in its place, the default layout on the window's
    // screen, and the saved layout forgotten, so that the next start gets the same.
    void resetLayout();

Q_SIGNALS:
    // A compile result is on screen: editor, PTX, panels and status bar show it.
    void resultShown(int documentId);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void createWidgets();
    void createDocks();
    void createMenus();
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createBuildAndRunMenus();
    // The features that plug themselves in, and the connections between them.
    void createTools();
    void connectSignals();
    void restoreSettings();
    void saveSettings() const;
    // The docks' and the editor splitter's default sizes for the window's present size.
    void proportionDocks();
    // The width of the editor's pane (margins, scroll bar and frames included) that shows
    // `columns` columns of the editor font.
    [[nodiscard]] int editorPaneWidth(int columns) const;

    CompileRequest currentRequest() const;
    void onCompileFinished(quint64 jobId, int documentId, const CompileResult &result);
    void onCurrentDocumentChanged(Document *document);
    void onOptionsChanged();
    void onLaunchEdited();
    void onDevicesProbed();
    // Whether a run or measurement is in flight, to the launch panel and the sweep (one
    // measurement on the GPU at a time).
    void showRunning();
    [[nodiscard]] QString currentProjectName() const;
    void setRunAvailability(bool available, const QString &reason);
    void showDocumentResult(Document *document);
    void goToSourceLine(int line);
    void goToLocation(const QString &file, int line, int column);
    void updateWindowTitle();
    void openWithDialog();
    void zoom(int steps);

    Settings m_settings;
    bool m_lastOpenWasProject = false; // which controller lastOpenError() asks
    QString m_samplesDir;
    Workspace *m_workspace = nullptr;
    DocumentTabs *m_tabs = nullptr;
    FindReplaceBar *m_findBar = nullptr;
    PtxView *m_ptxView = nullptr;
    QLabel *m_ptxTitle = nullptr;
    QTabWidget *m_codeTabs = nullptr;
    QSplitter *m_splitter = nullptr;
    ProblemsModel *m_problemsModel = nullptr;
    ProblemsPanel *m_problemsPanel = nullptr;
    KernelsModel *m_kernelsModel = nullptr;
    KernelsPanel *m_kernelsPanel = nullptr;
    CompileOptionsWidget *m_optionsWidget = nullptr;
    CompileController *m_controller = nullptr;
    CompileStatusWidget *m_compileStatus = nullptr;
    QLabel *m_deviceLabel = nullptr;
    DeviceProbe *m_deviceProbe = nullptr;
    RecentFiles *m_recentFiles = nullptr;
    QDockWidget *m_problemsDock = nullptr;
    QDockWidget *m_kernelsDock = nullptr;
    QDockWidget *m_optionsDock = nullptr;
    LaunchPanel *m_launchPanel = nullptr;
    QDockWidget *m_launchDock = nullptr;
    // The one `cuwb worker` that runs, measurements and sweeps share (kept warm between them).
    std::shared_ptr<SharedWorker> m_worker;
    RunController *m_runController = nullptr;
    RunCheckController *m_runCheck = nullptr; // the launch's checks, for the Problems dock
    ProjectController *m_projects = nullptr;
    AutosaveController *m_autosave = nullptr;
    WindowHost *m_host = nullptr;
    DeviceTool *m_deviceTool = nullptr;
    RunTool *m_runTool = nullptr;
    MeasureTool *m_measureTool = nullptr;
    InspectTool *m_inspectTool = nullptr;
    CompareTool *m_compareTool = nullptr;
    SweepTool *m_sweepTool = nullptr;
    HistoryTool *m_historyTool = nullptr;
    LessonTool *m_lessonTool = nullptr;
    QByteArray m_defaultState; // the docks as createDocks() placed them, for Reset Layout
    bool m_layoutRestored = false;
    bool m_splitterRestored = false;
    bool m_initialLayoutDone = false;

    friend class WindowHost;
};

} // namespace cuwb
