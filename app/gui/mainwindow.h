// MainWindow: builds the workbench's widgets and connects them. It holds no logic of its own:
// compiling lives in CompileController, files in DocumentTabs, presentation in the views and
// their models.
#pragma once

#include "compiler/compileresult.h"
#include "metatypes.h"

#include <QMainWindow>

class QDockWidget;
class QLabel;
class QSplitter;

namespace cuwb {

class CompileController;
class CompileOptionsWidget;
class CompileStatusWidget;
class DevicePanel;
class DeviceProbe;
class Document;
class DocumentTabs;
class FindReplaceBar;
class KernelsModel;
class KernelsPanel;
class LaunchPanel;
class MeasurementPanel;
class ProjectController;
class ProblemsModel;
class ProblemsPanel;
class PtxView;
class RecentFiles;
class ResultsPanel;
class RunController;
struct Measurement;
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
        QString cliPath;            // the cuwb tool; empty: DeviceProbe::findCli()
        bool runDocksFirst = false; // show Launch and Results in front (the --run screenshot)
    };

    explicit MainWindow(const Settings &settings, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens a .cu file, or a .cuwb project (its source, options, launch and verification).
    Document *openPath(const QString &path);
    [[nodiscard]] QString samplesDir() const { return m_samplesDir; }

    [[nodiscard]] DocumentTabs *documentTabs() const { return m_tabs; }
    [[nodiscard]] Document *currentDocument() const;
    [[nodiscard]] PtxView *ptxView() const { return m_ptxView; }
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
    [[nodiscard]] ResultsPanel *resultsPanel() const { return m_resultsPanel; }
    [[nodiscard]] MeasurementPanel *measurementPanel() const { return m_measurementPanel; }
    [[nodiscard]] DevicePanel *devicePanel() const { return m_devicePanel; }
    [[nodiscard]] RunController *runController() const { return m_runController; }
    [[nodiscard]] ProjectController *projectController() const { return m_projects; }
    // Brings the Launch and Results docks to the front.
    void showRunDocks();
    // Brings the Launch and Measurement docks to the front, the Measurement dock tall enough
    // for its card and histogram (the --measure screenshot).
    void showMeasurementDocks();

Q_SIGNALS:
    // A compile result is on screen: editor, PTX, panels and status bar show it.
    void resultShown(int documentId);
    // A run's result is on screen in the Results dock.
    void runResultShown();
    // A measurement's timing is on screen in the Measurement dock; when a metrics pass follows
    // (RunController::isCollectingMetrics()), metricsShown comes after it.
    void measurementShown(const cuwb::Measurement &measurement);
    void metricsShown(const cuwb::MetricsResult &metrics);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void createWidgets();
    void createDocks();
    void createMenus();
    void connectSignals();
    void restoreSettings();
    void saveSettings() const;

    CompileRequest currentRequest() const;
    void onCompileFinished(quint64 jobId, int documentId, const CompileResult &result);
    void onCurrentDocumentChanged(Document *document);
    void onOptionsChanged();
    void onDevicesProbed();
    void onRunRequested();
    void onRunFinished(quint64 jobId, const RunResult &result);
    void onMeasureRequested();
    void onMeasurementFinished(quint64 jobId, const Measurement &measurement);
    void onMetricsFinished(quint64 jobId, const MetricsResult &metrics);
    void onCancelMeasurementRequested();
    void setRunAvailability(bool available, const QString &reason);
    void showDocumentResult(Document *document);
    void goToSourceLine(int line);
    void goToLocation(const QString &file, int line, int column);
    void updateWindowTitle();
    void openWithDialog();
    void zoom(int steps);

    Settings m_settings;
    QString m_samplesDir;
    DocumentTabs *m_tabs = nullptr;
    FindReplaceBar *m_findBar = nullptr;
    PtxView *m_ptxView = nullptr;
    QLabel *m_ptxTitle = nullptr;
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
    ResultsPanel *m_resultsPanel = nullptr;
    QDockWidget *m_resultsDock = nullptr;
    MeasurementPanel *m_measurementPanel = nullptr;
    QDockWidget *m_measurementDock = nullptr;
    DevicePanel *m_devicePanel = nullptr;
    QDockWidget *m_deviceDock = nullptr;
    RunController *m_runController = nullptr;
    ProjectController *m_projects = nullptr;
    bool m_layoutRestored = false;
    bool m_splitterRestored = false;
    bool m_initialLayoutDone = false;
};

} // namespace cuwb
