#include "gui/shell/mainwindow.h"

#include "gui/common/qtconvert.h"
#include "gui/compile/compilecontroller.h"
#include "gui/compile/compileoptionswidget.h"
#include "gui/compile/compilestatuswidget.h"
#include "gui/compile/kernelsmodel.h"
#include "gui/compile/kernelspanel.h"
#include "gui/compile/problemsmodel.h"
#include "gui/compile/problemspanel.h"
#include "gui/device/devicepanel.h"
#include "gui/device/deviceprobe.h"
#include "gui/device/devicetool.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/findreplacebar.h"
#include "gui/editor/ptxview.h"
#include "gui/editor/sourceeditor.h"
#include "gui/history/historypanel.h"
#include "gui/history/historytool.h"
#include "gui/launch/launchpanel.h"
#include "gui/measure/measurementpanel.h"
#include "gui/measure/measuretool.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/run/bufferpagemodel.h"
#include "gui/run/resultspanel.h"
#include "gui/run/runcontroller.h"
#include "gui/shell/projectcontroller.h"
#include "gui/shell/recentfiles.h"
#include "gui/shell/samplesmenu.h"
#include "gui/shell/windowhost.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"

#include "launch/launchenvironment.h"
#include "launch/launchsequence.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

namespace cuwb {

MainWindow::MainWindow(const Settings &settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_samplesDir(SamplesMenu::findSamplesDir(settings.samplesDir))
    , m_workspace(new Workspace(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));
    createWidgets();
    createDocks();
    createMenus();
    createTools();
    connectSignals();
    restoreSettings();
    m_controller->setOptions(m_workspace->editorCompileOptions());
    m_kernelsModel->setArchitecture(m_controller->options().arch);
    updateWindowTitle();
    if (!m_settings.cliPath.isEmpty()) {
        m_deviceProbe->setCliPath(m_settings.cliPath);
        m_runController->setCliPath(m_settings.cliPath);
        m_sweepTool->controller()->setCliPath(m_settings.cliPath);
        // Not the compiler process: cliPath may name a stand-in worker, compiles need cuwb.
    }
    if (!m_settings.historyPath.isEmpty())
        m_historyTool->panel()->setDatabasePath(m_settings.historyPath);
    if (!m_settings.autosaveRoot.isEmpty()) {
        m_autosave = new AutosaveController(m_tabs, m_settings.autosaveRoot, this);
        connect(m_autosave, &AutosaveController::statusMessage, this,
                [this](const QString &message) { statusBar()->showMessage(message, 15000); });
        // The open project's unsaved settings are autosaved beside the buffers.
        m_autosave->setProjectHooks(
            [this]() -> std::optional<AutosaveController::ProjectSnapshot> {
                if (!m_projects->isModified())
                    return std::nullopt;
                const QString path = m_projects->projectPath();
                return AutosaveController::ProjectSnapshot{path, m_projects->currentProject(path)};
            },
            [this](const QString &path, const Project &project, QString &message) {
                return m_projects->restore(path, project, message);
            });
        connect(m_projects, &ProjectController::settingsChanged, m_autosave,
                &AutosaveController::markProjectDirty);
        if (!m_autosave->isActive())
            statusBar()->showMessage(m_autosave->errorMessage(), 15000);
    }
    if (m_settings.probeDevices) {
        setRunAvailability(false, tr("Run needs a CUDA GPU: still looking for one"));
        m_deviceProbe->start();
    } else {
        m_deviceLabel->setText(tr("Device query off"));
        setRunAvailability(false, tr("Run needs a CUDA GPU: the device query is off"));
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::showLaunchIssues()
{
    const std::vector<LaunchIssue> &issues = m_launchPanel->issues();
    const QString count =
        issues.size() == 1 ? tr("1 problem") : tr("%1 problems").arg(qulonglong(issues.size()));
    m_launchDock->setWindowTitle(issues.empty() ? tr("Launch") : tr("Launch (%1)").arg(count));
    // "No problems" under a launch that cannot run would hide why Run is disabled.
    m_problemsPanel->setPlaceholderText(
        issues.empty()
            ? tr("No problems")
            : tr("No compile problems. The launch has %1, the first: %2: %3 (Launch "
                 "dock)")
                  .arg(count, toQString(issues.front().field), toQString(issues.front().message)));
}

void MainWindow::openAndSweep(const QString &projectPath, const QString &presetId)
{
    if (!openPath(projectPath))
        return;
    m_sweepTool->sweepWhenCompiled(projectPath, presetId);
    m_controller->compileNow();
}

Document *MainWindow::currentDocument() const
{
    return m_tabs->currentDocument();
}

QString MainWindow::deviceStatusText() const
{
    return m_deviceLabel->text();
}

Document *MainWindow::openPath(const QString &path)
{
    m_lastOpenWasProject = path.endsWith(QStringLiteral(".cuwb"), Qt::CaseInsensitive);
    if (m_lastOpenWasProject)
        return m_projects->open(path);
    return m_tabs->openFile(path);
}

QString MainWindow::lastOpenError() const
{
    return m_lastOpenWasProject ? m_projects->lastError() : m_tabs->lastOpenError();
}

void MainWindow::openWithDialog()
{
    const QString start = currentDocument() ? currentDocument()->directory() : m_samplesDir;
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open"), start,
        tr("CUDA sources and projects (*.cu *.cuh *.cuwb);;All files (*)"));
    for (const QString &path : paths)
        openPath(path);
}

CompileRequest MainWindow::currentRequest() const
{
    CompileRequest request;
    Document *document = currentDocument();
    if (!document) {
        request.valid = false;
        return request;
    }
    request.source = document->editor()->text();
    request.fileName = document->displayName();
    request.documentId = document->id();
    if (!document->directory().isEmpty())
        request.extraIncludeDirs << document->directory();
    return request;
}

void MainWindow::onCompileFinished(quint64 jobId, int documentId, const CompileResult &result)
{
    Q_UNUSED(jobId)
    Document *document = m_tabs->documentById(documentId);
    if (!document)
        return; // closed while compiling
    document->setResult(result);
    if (document == currentDocument())
        showDocumentResult(document);
    Q_EMIT resultShown(documentId);
}

void MainWindow::showDocumentResult(Document *document)
{
    const CompileResult &result = document->lastResult();
    m_problemsModel->setCompileResult(result);
    m_kernelsModel->setKernels(result.kernels);
    m_compileStatus->showResult(result);
    if (result.success && !result.ptx.empty()) {
        m_ptxView->setPtx(toQString(result.ptx), result.lineMap);
        m_ptxView->showSourceLine(document->editor()->cursorLine());
    } else {
        m_ptxView->clearPtx(tr("// No PTX: the source did not compile."));
    }
    m_ptxTitle->setText(tr("PTX \u2014 %1").arg(toQString(result.options.arch)));
    {
        // Adopting the project's launch for the compiled kernel is not an edit of the project.
        const ProjectController::AutomaticChange automatic(m_projects);
        m_workspace->setModule(result, toStdString(document->editor()->text()),
                               toStdString(document->displayName()));
    }
    Q_EMIT m_host->documentShown(document); // the tools follow
}

void MainWindow::onCurrentDocumentChanged(Document *document)
{
    m_findBar->setEditor(document ? document->editor() : nullptr);
    updateWindowTitle();
    if (!document) {
        m_problemsModel->clear();
        m_kernelsModel->clear();
        m_compileStatus->clear();
        m_ptxView->clearPtx(QString());
        m_workspace->clearModule();
        Q_EMIT m_host->documentShown(nullptr);
        return;
    }
    connect(document, &Document::modificationChanged, this, &MainWindow::updateWindowTitle,
            Qt::UniqueConnection);
    if (document->hasResult())
        showDocumentResult(document);
    // Options may have changed since; an unchanged source is served from the cache.
    m_controller->compileNow();
}

void MainWindow::onLaunchEdited()
{
    const CompileOptions options = m_workspace->editorCompileOptions();
    if (options == m_controller->options())
        return;
    m_controller->setOptions(options);
    m_controller->compileNow();
}

void MainWindow::onOptionsChanged()
{
    m_controller->setOptions(m_workspace->editorCompileOptions());
    m_kernelsModel->setArchitecture(m_controller->options().arch);
    m_controller->compileNow();
}

void MainWindow::onDevicesProbed()
{
    m_deviceLabel->setText(m_deviceProbe->summary());
    {
        const ProjectController::AutomaticChange automatic(m_projects); // not the user's edit
        m_workspace->setDeviceArchitecture(toStdString(m_deviceProbe->firstArchitecture()));
    }
    const DeviceQuery &query = m_deviceProbe->query();
    m_deviceTool->panel()->setQuery(query, m_deviceProbe->summary());
    if (!query.devices.empty() && !m_runController->hello())
        m_measureTool->panel()->setDevice(query.devices.front());
    QString reason = RunController::unavailableReasonFor(query);
    if (!query.driverLoaded && query.message.empty()) // the query itself failed
        reason = tr("Run needs a CUDA GPU: %1").arg(m_deviceProbe->summary());
    setRunAvailability(reason.isEmpty(), reason);
    if (!query.devices.empty() && !m_runController->hello())
        m_workspace->setDevice(query.devices.front());
    m_sweepTool->setDevices(query.devices, m_deviceProbe->firstArchitecture());
}

void MainWindow::setRunAvailability(bool available, const QString &reason)
{
    m_runController->setAvailability(available, reason);
    m_launchPanel->setRunAvailability(available, reason);
    m_sweepTool->setRunAvailability(available, reason);
}

void MainWindow::showRunning()
{
    const bool running = m_runController->isRunning();
    m_launchPanel->setRunning(running);
    m_sweepTool->panel()->setRunInProgress(running);
}

QString MainWindow::currentProjectName() const
{
    if (m_projects->hasProject())
        return QFileInfo(m_projects->projectPath()).completeBaseName();
    if (Document *document = currentDocument())
        return QFileInfo(document->displayName()).completeBaseName();
    return {};
}

void MainWindow::goToSourceLine(int line)
{
    if (Document *document = currentDocument())
        document->editor()->goToLocation(line, 1);
}

void MainWindow::goToLocation(const QString &file, int line, int column)
{
    Document *document = currentDocument();
    if (!document)
        return;
    if (file != toQString(document->lastResult().fileName)) {
        // A diagnostic in an included header: open it when it is a file we can find.
        const QString path = QFileInfo(file).isAbsolute()
                                 ? file
                                 : QDir(document->directory()).absoluteFilePath(file);
        if (QFileInfo(path).isFile())
            document = m_tabs->openFile(path);
        if (!document)
            return;
    }
    document->editor()->goToLocation(line, column);
}

void MainWindow::updateWindowTitle()
{
    Document *document = currentDocument();
    if (!document) {
        setWindowTitle(
            m_projects && m_projects->hasProject()
                ? tr("%1%2 \u2014 CUDA Workbench")
                      .arg(QFileInfo(m_projects->projectPath()).fileName(),
                           m_projects->isModified() ? QStringLiteral(" \u25cf") : QString())
                : tr("CUDA Workbench"));
        return;
    }
    // The project's own mark: its settings are unsaved, whatever the buffer's state.
    const QString project =
        m_projects && m_projects->hasProject()
            ? QStringLiteral(" \u2014 ") + QFileInfo(m_projects->projectPath()).fileName() +
                  (m_projects->isModified() ? QStringLiteral(" \u25cf") : QString())
            : QString();
    setWindowTitle(tr("%1%2%3 \u2014 CUDA Workbench")
                       .arg(document->displayName(),
                            document->isModified() ? QStringLiteral(" \u25cf") : QString(),
                            project));
}

void MainWindow::zoom(int steps)
{
    Document *document = currentDocument();
    for (QsciScintilla *editor :
         {static_cast<QsciScintilla *>(m_ptxView),
          document ? static_cast<QsciScintilla *>(document->editor()) : nullptr}) {
        if (!editor)
            continue;
        if (steps > 0)
            editor->zoomIn(steps);
        else if (steps < 0)
            editor->zoomOut(-steps);
        else
            editor->zoomTo(0);
    }
    Q_EMIT m_host->zoomRequested(steps); // the tools' views zoom with the editor
}

} // namespace cuwb
