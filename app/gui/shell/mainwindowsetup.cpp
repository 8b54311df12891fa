// MainWindow's construction and lifecycle, apart from its behaviour (mainwindow.cpp): the
// central widgets, the docks, the menus and their actions, the wiring of every panel and
// controller, and the window's saved geometry and state.
#include "gui/shell/mainwindow.h"

#include "gui/common/qtconvert.h"
#include "gui/common/sharedworker.h"
#include "gui/common/theme.h"
#include "gui/compare/comparetool.h"
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
#include "gui/grading/gradingdialog.h"
#include "gui/history/historypanel.h"
#include "gui/history/historytool.h"
#include "gui/inspect/inspecttool.h"
#include "gui/launch/launchpanel.h"
#include "gui/launch/runcheckcontroller.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/lesson/lessontool.h"
#include "gui/measure/measurementpanel.h"
#include "gui/measure/measuretool.h"
#include "gui/run/bufferpagemodel.h"
#include "gui/run/resultspanel.h"
#include "gui/run/runcontroller.h"
#include "gui/run/runtool.h"
#include "gui/shell/projectcontroller.h"
#include "gui/shell/recentfiles.h"
#include "gui/shell/samplesmenu.h"
#include "gui/shell/windowhost.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"

#include "launch/launchenvironment.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace cuwb {

void MainWindow::createWidgets()
{
    m_host = new WindowHost(this);
    m_tabs = new DocumentTabs(this);
    m_tabs->setPromptsEnabled(m_settings.prompts);
    m_findBar = new FindReplaceBar(this);
    m_ptxView = new PtxView(this);
    m_ptxView->clearPtx(tr("// PTX appears here after a successful compile."));
    m_controller = new CompileController(this);

    auto *editorPane = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_tabs, 1);
    editorLayout->addWidget(m_findBar);

    auto *ptxPane = new QWidget(this);
    auto *ptxLayout = new QVBoxLayout(ptxPane);
    ptxLayout->setContentsMargins(0, 0, 0, 0);
    ptxLayout->setSpacing(0);
    m_ptxTitle = new QLabel(tr("PTX"), ptxPane);
    m_ptxTitle->setContentsMargins(8, 5, 8, 5);
    m_ptxTitle->setToolTip(tr("The PTX of the current file. The lines generated from the source "
                              "line under the cursor are highlighted; click a PTX line to find "
                              "its source line."));
    QFont titleFont = m_ptxTitle->font();
    titleFont.setBold(true);
    m_ptxTitle->setFont(titleFont);
    ptxLayout->addWidget(m_ptxTitle);
    ptxLayout->addWidget(m_ptxView, 1);

    // The SASS tab follows, from the Inspect tool.
    m_codeTabs = new QTabWidget(this);
    m_codeTabs->setObjectName(QStringLiteral("codeTabs"));
    m_codeTabs->setDocumentMode(true);
    m_codeTabs->addTab(ptxPane, tr("PTX"));
    m_codeTabs->setTabToolTip(0, m_ptxTitle->toolTip());

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("editorSplitter"));
    m_splitter->addWidget(editorPane);
    m_splitter->addWidget(m_codeTabs);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);

    m_compileStatus = new CompileStatusWidget(this);
    m_deviceLabel = new QLabel(tr("Looking for GPUs\u2026"), this);
    m_deviceLabel->setContentsMargins(8, 0, 4, 0);
    statusBar()->addPermanentWidget(m_compileStatus);
    statusBar()->addPermanentWidget(m_deviceLabel);

    m_deviceProbe = new DeviceProbe(this);
    m_worker = std::make_shared<SharedWorker>();
    m_runController = new RunController(m_worker, this);
    m_runCheck = new RunCheckController(this);
}

void MainWindow::createDocks()
{
    m_problemsModel = new ProblemsModel(this);
    m_problemsPanel = new ProblemsPanel(m_problemsModel, this);
    m_problemsDock = new QDockWidget(tr("Problems"), this);
    m_problemsDock->setObjectName(QStringLiteral("problemsDock"));
    m_problemsDock->setWidget(m_problemsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_problemsDock);

    m_kernelsModel = new KernelsModel(this);
    m_kernelsPanel = new KernelsPanel(m_kernelsModel, this);
    m_kernelsDock = new QDockWidget(tr("Kernels"), this);
    m_kernelsDock->setObjectName(QStringLiteral("kernelsDock"));
    m_kernelsDock->setWidget(m_kernelsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_kernelsDock);
    splitDockWidget(m_problemsDock, m_kernelsDock, Qt::Horizontal);

    m_optionsWidget = new CompileOptionsWidget(m_workspace, this);
    m_optionsDock = new QDockWidget(tr("Compile Options"), this);
    m_optionsDock->setObjectName(QStringLiteral("compileOptionsDock"));
    // Scrolled rather than squeezed: tabbed with the Launch dock, its rows must not set the
    // window's minimum height on a small screen.
    auto *optionsScroll = new QScrollArea(m_optionsDock);
    optionsScroll->setWidget(m_optionsWidget);
    optionsScroll->setWidgetResizable(true);
    optionsScroll->setFrameShape(QFrame::NoFrame);
    m_optionsDock->setWidget(optionsScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_optionsDock);

    m_launchPanel = new LaunchPanel(m_workspace, this);
    m_launchDock = new QDockWidget(tr("Launch"), this);
    m_launchDock->setObjectName(QStringLiteral("launchDock"));
    m_launchDock->setWidget(m_launchPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_launchDock);

    // One column on the right: Launch in front, the options (and the Device tool's dock)
    // behind it.
    tabifyDockWidget(m_launchDock, m_optionsDock);

    m_kernelsDock->raise();

    m_projects = new ProjectController(m_tabs, m_workspace, this);
    m_projects->setDialogsEnabled(m_settings.prompts);

    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
}

void MainWindow::createTools()
{
    m_host->registerAction(ToolHost::kRunActionId, m_launchPanel->runAction());
    m_host->registerAction(ToolHost::kMeasureActionId, m_launchPanel->measureAction());
    m_host->registerAction(ToolHost::kInspectActionId, m_launchPanel->inspectAction());
    // One line each, in the order their docks are tabbed (Results beside Kernels, Measurement
    // beside Results, the rest beside Measurement), and each after the tools it finds: History
    // and Lesson after Sweep, Compare after Inspect.
    m_deviceTool = new DeviceTool(m_host);
    m_runTool = new RunTool(m_host);
    m_measureTool = new MeasureTool(m_host);
    m_sweepTool = new SweepTool(m_host);
    m_historyTool = new HistoryTool(m_host);
    m_lessonTool = new LessonTool(m_host);
    m_inspectTool = new InspectTool(m_host);
    m_compareTool = new CompareTool(m_host);

    // What the shell keeps for a tool: the project a Slurm sweep runs is the open project.
    m_sweepTool->controller()->setProjectSnapshot(
        [this](const SweepSpec &spec, const RunRequest &base) {
            return m_projects->sweepSnapshot(spec, base);
        });
    // Where kernels run: the device query follows the Device tool's target.
    m_deviceProbe->setTarget(m_deviceTool->target());
    connect(m_deviceTool, &DeviceTool::targetChanged, this, [this](const QString &target) {
        m_deviceProbe->setTarget(target);
        if (m_settings.probeDevices) {
            setRunAvailability(false, tr("Run needs a CUDA GPU: still looking for one"));
            m_deviceProbe->restart();
        }
    });
    // What one feature asks of another. One measurement on the GPU at a time: a run and a
    // sweep each wait for the other.
    connect(m_sweepTool->controller(), &SweepController::runningChanged, m_launchPanel,
            &LaunchPanel::setSweepRunning);
    connect(m_sweepTool, &SweepTool::pointApplied, this, [this] {
        m_launchDock->show();
        m_launchDock->raise();
    });
    connect(m_launchPanel, &LaunchPanel::runRequested, m_runTool, &RunTool::run);
    connect(m_launchPanel, &LaunchPanel::measureRequested, m_measureTool, &MeasureTool::measure);
    connect(m_launchPanel, &LaunchPanel::cancelMeasurementRequested, m_measureTool,
            &MeasureTool::cancel);
    m_measureTool->panel()->setCancelAction(m_launchPanel->cancelMeasurementAction());
    connect(m_historyTool, &HistoryTool::measurementOpened, m_measureTool,
            &MeasureTool::showStored);
    connect(m_historyTool->panel(), &HistoryPanel::compareWithCurrentRequested, m_compareTool,
            &CompareTool::compareWithHistoryEntry);
    connect(m_lessonTool->panel(), &LessonPanel::compareRequested, m_compareTool,
            &CompareTool::compareProjects);
    m_compareTool->attachSweepResults(m_sweepTool->panel()->sweepResultsView());

    m_launchDock->raise();
    m_kernelsDock->raise();
    m_defaultState = saveState(); // the docks as they start, for Reset Layout
}

void MainWindow::createMenus()
{
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createBuildAndRunMenus();
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New"), m_tabs, &DocumentTabs::newDocument);
    newAction->setShortcut(QKeySequence::New);
    QAction *openAction = file->addAction(tr("&Open\u2026"), this, &MainWindow::openWithDialog);
    openAction->setShortcut(QKeySequence::Open);
    m_recentFiles = new RecentFiles(this);
    file->addMenu(m_recentFiles);
    auto *samples = new SamplesMenu(m_samplesDir, this);
    file->addMenu(samples);
    connect(samples, &SamplesMenu::fileRequested, this, &MainWindow::openPath);
    connect(samples, &SamplesMenu::sweepRequested, this, &MainWindow::openAndSweep);
    file->addSeparator();
    file->addAction(tr("Open &Project…"), this, [this] {
        const QString start = m_projects->hasProject()
                                  ? QFileInfo(m_projects->projectPath()).absolutePath()
                                  : m_samplesDir;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), start,
                                                          tr("CUDA Workbench projects (*.cuwb)"));
        if (!path.isEmpty())
            openPath(path);
    });
    QAction *saveProject =
        file->addAction(tr("Save Pro&ject"), m_projects, &ProjectController::save);
    saveProject->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    file->addAction(tr("Save Project As…"), m_projects, &ProjectController::saveAs);
    file->addSeparator();
    QAction *save = file->addAction(tr("&Save"), this, [this] { m_tabs->save(currentDocument()); });
    save->setShortcut(QKeySequence::Save);
    QAction *saveAs =
        file->addAction(tr("Save &As\u2026"), this, [this] { m_tabs->saveAs(currentDocument()); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    QAction *close = file->addAction(tr("&Close Tab"), this,
                                     [this] { m_tabs->closeDocument(currentDocument()); });
    close->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    connect(m_recentFiles, &RecentFiles::fileRequested, this, &MainWindow::openPath);
}

void MainWindow::createEditMenu()
{
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    auto editorAction = [this, edit](const QString &text, const QKeySequence &key,
                                     void (QsciScintilla::*method)()) {
        QAction *action = edit->addAction(text, this, [this, method] {
            if (Document *document = currentDocument())
                (document->editor()->*method)();
        });
        action->setShortcut(key);
        // The editor handles these keys itself while it has focus.
        action->setShortcutContext(Qt::WidgetShortcut);
        return action;
    };
    editorAction(tr("&Undo"), QKeySequence::Undo, &QsciScintilla::undo);
    editorAction(tr("&Redo"), QKeySequence::Redo, &QsciScintilla::redo);
    edit->addSeparator();
    editorAction(tr("Cu&t"), QKeySequence::Cut, &QsciScintilla::cut);
    editorAction(tr("&Copy"), QKeySequence::Copy, &QsciScintilla::copy);
    editorAction(tr("&Paste"), QKeySequence::Paste, &QsciScintilla::paste);
    edit->addSeparator();
    edit->addAction(tr("&Find\u2026"), QKeySequence::Find, m_findBar, &FindReplaceBar::showFind);
    edit->addAction(tr("&Replace\u2026"), QKeySequence(Qt::CTRL | Qt::Key_H), m_findBar,
                    &FindReplaceBar::showReplace);
    edit->addAction(tr("Find &Next"), QKeySequence::FindNext, m_findBar, &FindReplaceBar::findNext);
    edit->addAction(tr("Find Pre&vious"), QKeySequence::FindPrevious, m_findBar,
                    &FindReplaceBar::findPrevious);
}

void MainWindow::createViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *zoomIn = view->addAction(tr("Zoom &In"), this, [this] { zoom(1); });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { zoom(-1); });
    zoomOut->setShortcuts({QKeySequence::ZoomOut, QKeySequence(Qt::CTRL | Qt::Key_Minus)});
    QAction *zoomReset = view->addAction(tr("&Reset Zoom"), this, [this] { zoom(0); });
    zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    view->addAction(m_problemsDock->toggleViewAction());
    view->addAction(m_kernelsDock->toggleViewAction());
    view->addAction(m_optionsDock->toggleViewAction());
    view->addAction(m_launchDock->toggleViewAction());
    // The tools' docks follow.
    m_host->setMenuPlace(ToolHost::MenuSection::ViewDocks, view, view->addSeparator());
    QAction *resetLayoutAction =
        view->addAction(tr("Reset &Layout"), this, &MainWindow::resetLayout);
    resetLayoutAction->setObjectName(QStringLiteral("resetLayoutAction"));
    resetLayoutAction->setToolTip(tr("Put every dock back where it started, size the window to "
                                     "the screen, and forget the saved layout"));
}

void MainWindow::createBuildAndRunMenus()
{
    QMenu *build = menuBar()->addMenu(tr("&Build"));
    QAction *compile =
        build->addAction(tr("&Compile"), m_controller, &CompileController::compileNow);
    compile->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    QAction *stopCompile =
        build->addAction(tr("&Stop Compile"), m_controller, &CompileController::cancel);
    m_host->registerAction(ToolHost::kCompileActionId, compile);
    stopCompile->setObjectName(QStringLiteral("stopCompileAction"));
    stopCompile->setToolTip(tr("Stop the compile in flight (its compiler process is killed)"));

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_launchPanel->runAction());
    run->addAction(m_launchPanel->measureAction());
    run->addAction(m_launchPanel->cancelMeasurementAction());
    run->addSeparator();
    // The tools' places: Inspect's actions, Compare's, the sweep's.
    m_host->setMenuPlace(ToolHost::MenuSection::RunInspect, run, run->addSeparator());
    m_host->setMenuPlace(ToolHost::MenuSection::RunCompare, run, run->addSeparator());
    m_host->setMenuPlace(ToolHost::MenuSection::RunSweep, run, run->addSeparator());
    addGradeFolderAction(run, this);
}

void MainWindow::connectSignals()
{
    m_controller->setSourceProvider([this] { return currentRequest(); });

    connect(m_tabs, &DocumentTabs::currentDocumentChanged, this,
            &MainWindow::onCurrentDocumentChanged);
    connect(m_tabs, &DocumentTabs::documentTextChanged, m_controller,
            &CompileController::scheduleCompile);
    connect(m_tabs, &DocumentTabs::documentCursorLineChanged, this,
            [this](Document *document, int line) {
                if (document == currentDocument())
                    m_ptxView->showSourceLine(line);
            });
    connect(m_tabs, &DocumentTabs::fileOpened, m_recentFiles, &RecentFiles::add);
    connect(m_tabs, &DocumentTabs::fileSaved, m_recentFiles, &RecentFiles::add);
    connect(m_tabs, &DocumentTabs::fileSaved, this, &MainWindow::updateWindowTitle);
    connect(m_tabs, &DocumentTabs::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });

    connect(m_controller, &CompileController::compileFinished, this,
            &MainWindow::onCompileFinished);
    connect(m_controller, &CompileController::busyChanged, m_compileStatus,
            &CompileStatusWidget::setBusy);

    connect(m_ptxView, &PtxView::sourceLineActivated, this, &MainWindow::goToSourceLine);
    connect(m_problemsPanel, &ProblemsPanel::locationActivated, this, &MainWindow::goToLocation);
    connect(m_kernelsPanel, &KernelsPanel::kernelActivated, this, &MainWindow::goToSourceLine);
    connect(m_workspace, &Workspace::compileOptionsChanged, this, &MainWindow::onOptionsChanged);
    connect(m_deviceProbe, &DeviceProbe::finished, this, &MainWindow::onDevicesProbed);
    connect(m_kernelsPanel, &KernelsPanel::kernelSelected, m_launchPanel,
            &LaunchPanel::selectKernel);

    // Running.
    connect(m_runController, &RunController::measurementCancellableChanged, m_launchPanel,
            &LaunchPanel::setMeasurementCancellable);
    connect(m_runController, &RunController::runFinished, this, &MainWindow::showRunning);
    connect(m_runController, &RunController::measurementFinished, this, &MainWindow::showRunning);
    connect(m_runController, &RunController::metricsFinished, this, &MainWindow::showRunning);
    connect(m_runController, &RunController::busyChanged, this, &MainWindow::showRunning);
    connect(m_runController, &RunController::helloReceived, this, [this](const HelloReply &hello) {
        m_deviceTool->panel()->setHello(hello);
        m_workspace->setDevice(hello.device,
                               hello.device ? std::optional<std::uint64_t>(hello.freeMemoryBytes)
                                            : std::nullopt);
    });

    // The launch's problems, where they are seen when the Launch dock is covered.
    connect(m_launchPanel, &LaunchPanel::issuesChanged, this, &MainWindow::showLaunchIssues);
    // What a run would fail on beyond the limits (the verification compiled, the files read),
    // checked off the GUI thread and listed in the Problems dock.
    connect(m_launchPanel, &LaunchPanel::issuesChanged, this,
            [this] { m_runCheck->check(m_workspace->launch()); });
    connect(m_runCheck, &RunCheckController::findingsChanged, m_problemsModel,
            &ProblemsModel::setLaunchFindings);
    // Whoever changed the launch: the editor recompiles when a launch define's value changed.
    connect(m_workspace, &Workspace::launchChanged, this, &MainWindow::onLaunchEdited);

    connect(m_projects, &ProjectController::projectOpened, this, &MainWindow::updateWindowTitle);
    connect(m_projects, &ProjectController::modifiedChanged, this, &MainWindow::updateWindowTitle);
    connect(m_projects, &ProjectController::projectOpened, m_host, &ToolHost::projectOpened);
    connect(m_projects, &ProjectController::projectSaved, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Saved project %1").arg(QDir::toNativeSeparators(path)), 10000);
        updateWindowTitle();
    });
    connect(m_projects, &ProjectController::errorOccurred, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
}

void MainWindow::restoreSettings()
{
    m_workspace->restoreSettings();
    if (!m_settings.restoreLayout)
        return;
    QSettings settings;
    const bool geometryRestored =
        restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    m_layoutRestored =
        restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    m_splitterRestored = m_splitter->restoreState(
        settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    // A first start: Qt's own choice from the size hints left the editor and the Problems
    // dock too small to read (1122×756 on a 1600×1000 screen).
    if (!geometryRestored)
        applyDefaultLayout(screen()->availableGeometry());
}

void MainWindow::applyDefaultLayout(const QRect &available)
{
    // All of a small screen (1366×768 leaves no room to spare); on a larger one a margin of
    // the desktop stays in view.
    const bool small = available.width() < 1600 || available.height() < 900;
    const QSize size =
        small ? available.size() : QSize(available.width() * 23 / 25, available.height() * 23 / 25);
    // The frame counts: a window that is shown knows its decorations.
    const QSize decorations = frameGeometry().size() - geometry().size();
    resize(size - decorations);
    move(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, available).topLeft());
    m_layoutRestored = false;
    m_splitterRestored = false;
    // A visible window has its new size already (a resize of a shown widget is sent at once);
    // a hidden one gets its proportions when it is shown.
    if (isVisible())
        proportionDocks();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    Q_EMIT m_host->layoutReset();
    QSettings settings;
    settings.remove(QStringLiteral("mainWindow/geometry"));
    settings.remove(QStringLiteral("mainWindow/state"));
    settings.remove(QStringLiteral("mainWindow/splitter"));
    applyDefaultLayout(screen()->availableGeometry());
}

int MainWindow::editorPaneWidth(int columns) const
{
    const QFontMetrics metrics(Theme::editorFont());
    // The line numbers' margin grows with the file: count it for up to 9999 lines, so that a
    // longer file opened later does not take columns away.
    const int lineNumbers = metrics.horizontalAdvance(QStringLiteral("99999"));
    int margins = lineNumbers + 20 + 16; // and SourceEditor's symbol and fold margins
    if (const Document *document = currentDocument()) {
        const SourceEditor *editor = document->editor();
        margins = std::max(lineNumbers, editor->marginWidth(0));
        for (int margin = 1; margin < editor->margins(); ++margin)
            margins += editor->marginWidth(margin);
    }
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    // Scintilla's padding either side of the text, the editor's frame and the tab page's.
    constexpr int kPaddingAndFrames = 12;
    return columns * metrics.horizontalAdvance(QLatin1Char('0')) + margins + scrollBar +
           kPaddingAndFrames;
}

void MainWindow::proportionDocks()
{
    const int w = width();
    const int h = height();
    const int separator = style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this);
    const int handle = m_splitter->handleWidth();
    // Across: the editor's columns come first. The Launch column takes up to 3/10 of the
    // window and never less than it needs (its tab bar, on a small screen); the PTX view
    // keeps at least kMinPtxWidth where the window allows it and takes what the editor
    // leaves.
    constexpr int kMinPtxWidth = 240;
    const int editor = editorPaneWidth(kEditorColumns);
    const int rightMinimum = std::max(m_launchDock->minimumSizeHint().width(), 300);
    const int right = std::max(
        rightMinimum, std::min(w * 3 / 10, w - editor - kMinPtxWidth - separator - handle));
    resizeDocks({m_launchDock}, {right}, Qt::Horizontal);
    const int central = std::max(200, w - right - separator);
    const int editorShare = std::min(central - handle - 100, std::max(editor, central * 3 / 5));
    m_splitter->setSizes({editorShare, central - handle - editorShare});

    // Below: the Problems list beside the Kernels table, tall enough for its header, a title
    // and several messages (each a line, or two for a long one).
    resizeDocks({m_problemsDock, m_kernelsDock}, {w * 2 / 5, w * 3 / 5}, Qt::Horizontal);
    constexpr int kProblemRows = 6;
    const int rowHeight = m_problemsPanel->view()->fontMetrics().height() + 6;
    const int problems = (kProblemRows + 2) * rowHeight + 24;
    resizeDocks({m_problemsDock}, {std::max(problems, h * 3 / 10)}, Qt::Vertical);
    if (m_settings.runDocksFirst)
        m_runTool->showDocks();
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_initialLayoutDone)
        return;
    m_initialLayoutDone = true;
    // The default proportions, once the window has its real size.
    if (!m_layoutRestored || !m_splitterRestored)
        proportionDocks();
}

void MainWindow::saveSettings() const
{
    m_workspace->saveSettings();
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // The project first: saving it saves its source too, which then needs no question.
    if (!m_projects->maybeSave() || !m_tabs->maybeSaveAll()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

} // namespace cuwb
