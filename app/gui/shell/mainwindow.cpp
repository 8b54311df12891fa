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
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/findreplacebar.h"
#include "gui/editor/ptxview.h"
#include "gui/editor/sourceeditor.h"
#include "gui/history/historypanel.h"
#include "gui/launch/launchpanel.h"
#include "gui/lesson/labreport.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/measure/measurementpanel.h"
#include "gui/measure/measureoptionsdialog.h"
#include "gui/run/bufferpagemodel.h"
#include "gui/run/resultspanel.h"
#include "gui/run/runcontroller.h"
#include "gui/shell/projectcontroller.h"
#include "gui/shell/recentfiles.h"
#include "gui/shell/samplesmenu.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"

#include "device/archlimits.h"
#include "history/historystore.h"
#include "launch/launchenvironment.h"
#include "lesson/lesson.h"
#include "sweep/sweephistory.h"

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
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>

namespace cuwb {

MainWindow::MainWindow(const Settings &settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_samplesDir(SamplesMenu::findSamplesDir(settings.samplesDir))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));
    createWidgets();
    createDocks();
    createMenus();
    connectSignals();
    restoreSettings();
    m_controller->setOptions(editorCompileOptions());
    m_kernelsModel->setArchitecture(m_controller->options().arch);
    updateWindowTitle();
    if (!m_settings.cliPath.isEmpty()) {
        m_deviceProbe->setCliPath(m_settings.cliPath);
        m_runController->setCliPath(m_settings.cliPath);
        m_sweepController->setCliPath(m_settings.cliPath);
    }
    if (!m_settings.historyPath.isEmpty())
        m_historyPanel->setDatabasePath(m_settings.historyPath);
    updateSweepBase();
    if (m_settings.probeDevices) {
        setRunAvailability(false, tr("Run needs a CUDA GPU: still looking for one"));
        m_deviceProbe->start();
    } else {
        m_deviceLabel->setText(tr("Device query off"));
        setRunAvailability(false, tr("Run needs a CUDA GPU: the device query is off"));
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::createWidgets()
{
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

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("editorSplitter"));
    m_splitter->addWidget(editorPane);
    m_splitter->addWidget(ptxPane);
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
    m_runController = new RunController(this);
    m_sweepController = new SweepController(this);
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

    m_optionsWidget = new CompileOptionsWidget(this);
    m_optionsDock = new QDockWidget(tr("Compile Options"), this);
    m_optionsDock->setObjectName(QStringLiteral("compileOptionsDock"));
    m_optionsDock->setWidget(m_optionsWidget);
    addDockWidget(Qt::RightDockWidgetArea, m_optionsDock);

    m_launchPanel = new LaunchPanel(this);
    m_launchDock = new QDockWidget(tr("Launch"), this);
    m_launchDock->setObjectName(QStringLiteral("launchDock"));
    m_launchDock->setWidget(m_launchPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_launchDock);

    m_devicePanel = new DevicePanel(this);
    m_deviceDock = new QDockWidget(tr("Device"), this);
    m_deviceDock->setObjectName(QStringLiteral("deviceDock"));
    m_deviceDock->setWidget(m_devicePanel);
    addDockWidget(Qt::RightDockWidgetArea, m_deviceDock);
    // One column on the right: Launch in front, options and the device behind it.
    tabifyDockWidget(m_launchDock, m_optionsDock);
    tabifyDockWidget(m_launchDock, m_deviceDock);
    m_launchDock->raise();

    m_resultsPanel = new ResultsPanel(this);
    m_resultsDock = new QDockWidget(tr("Results"), this);
    m_resultsDock->setObjectName(QStringLiteral("resultsDock"));
    m_resultsDock->setWidget(m_resultsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_resultsDock);
    // Results share the wide bottom slot with the Kernels table.
    tabifyDockWidget(m_kernelsDock, m_resultsDock);

    m_measurementPanel = new MeasurementPanel(this);
    m_measurementDock = new QDockWidget(tr("Measurement"), this);
    m_measurementDock->setObjectName(QStringLiteral("measurementDock"));
    m_measurementDock->setWidget(m_measurementPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_measurementDock);
    tabifyDockWidget(m_resultsDock, m_measurementDock);
    m_kernelsDock->raise();

    m_sweepPanel = new SweepPanel(m_sweepController, this);
    m_sweepDock = new QDockWidget(tr("Sweep"), this);
    m_sweepDock->setObjectName(QStringLiteral("sweepDock"));
    m_sweepDock->setWidget(m_sweepPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_sweepDock);
    tabifyDockWidget(m_measurementDock, m_sweepDock);
    // The first time it comes to the front (its tab, the View menu), the Sweep dock gets the
    // room its editor, chart and table need, unless the user's own layout was restored.
    connect(m_sweepDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_sweepDockSized && !m_layoutRestored)
            QTimer::singleShot(0, this, [this] {
                if (!m_sweepDockSized)
                    showSweepDock();
            });
    });

    m_historyPanel = new HistoryPanel(this);
    m_historyDock = new QDockWidget(tr("History"), this);
    m_historyDock->setObjectName(QStringLiteral("historyDock"));
    m_historyDock->setWidget(m_historyPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_historyDock);
    tabifyDockWidget(m_sweepDock, m_historyDock);
    m_kernelsDock->raise();

    m_lessonPanel = new LessonPanel(this);
    m_lessonDock = new QDockWidget(tr("Lesson"), this);
    m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
    m_lessonDock->setWidget(m_lessonPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    tabifyDockWidget(m_launchDock, m_lessonDock);
    m_lessonDock->hide(); // shown when a project with a lesson is opened

    m_projects = new ProjectController(m_tabs, m_optionsWidget, m_launchPanel, this);
    m_projects->setDialogsEnabled(m_settings.prompts);
    m_projects->setSweepPanel(m_sweepPanel);

    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
}

void MainWindow::showRunDocks()
{
    m_launchDock->show();
    m_launchDock->raise();
    m_resultsDock->show();
    m_resultsDock->raise();
}

void MainWindow::showMeasurementDocks()
{
    m_launchDock->show();
    m_launchDock->raise();
    m_measurementDock->show();
    m_measurementDock->raise();
    // The card and the histogram side by side want width, the card's rows height.
    resizeDocks({m_problemsDock, m_measurementDock}, {width() / 5, width() * 4 / 5},
                Qt::Horizontal);
    resizeDocks({m_measurementDock}, {std::max(400, height() * 11 / 20)}, Qt::Vertical);
}

void MainWindow::showSweepDock()
{
    m_sweepDockSized = true;
    m_sweepDock->show();
    m_sweepDock->raise();
    // The editor, the chart and the table side by side want the window's width, the chart
    // and the table's rows its height.
    resizeDocks({m_problemsDock, m_sweepDock}, {width() / 8, width() * 7 / 8}, Qt::Horizontal);
    resizeDocks({m_sweepDock}, {std::max(420, height() * 3 / 5)}, Qt::Vertical);
}

void MainWindow::showLessonDock()
{
    // The lesson beside the sweep's chart: the Sweep dock below, the Lesson dock on the right.
    showSweepDock();
    resizeDocks({m_sweepDock}, {std::max(360, height() * 2 / 5)}, Qt::Vertical);
    m_lessonDock->show();
    m_lessonDock->raise();
    resizeDocks({m_lessonDock}, {std::max(560, width() * 9 / 20)}, Qt::Horizontal);
}

void MainWindow::loadLessonFor(const QString &projectPath)
{
    m_lessonAwaitsSweep = m_lessonSweepWhenReady = m_lessonAwaitsMeasurement = false;
    const std::optional<std::string> lesson = lessonPathFor(toStdString(projectPath));
    if (!lesson) {
        m_lessonPanel->clearLesson(
            tr("%1 has no lesson.md beside it.").arg(QFileInfo(projectPath).fileName()));
        return;
    }
    const QString error = m_lessonPanel->loadLesson(toQString(*lesson), projectPath);
    if (!error.isEmpty())
        statusBar()->showMessage(error, 10000);
    m_lessonDock->show();
}

void MainWindow::onLessonExperiment(int experiment)
{
    switch (static_cast<LessonExperiment>(experiment)) {
    case LessonExperiment::Sweep:
        m_lessonAwaitsSweep = true;
        if (!m_sweepPanel->hasBase()) {
            // The project's kernel is not compiled yet: the sweep runs once it is.
            m_lessonSweepWhenReady = true;
            m_controller->compileNow();
            return;
        }
        if (!m_sweepPanel->runSweep()) {
            m_lessonAwaitsSweep = false;
            m_lessonPanel->showExperimentFailed(m_sweepPanel->messageText());
        }
        return;
    case LessonExperiment::Measure:
        m_lessonAwaitsMeasurement = true;
        Q_EMIT m_launchPanel->measureRequested();
        return;
    case LessonExperiment::Run:
        Q_EMIT m_launchPanel->runRequested();
        m_lessonPanel->showExperimentFailed(tr("a run measures nothing; see the Results dock."));
        return;
    }
}

void MainWindow::openAndSweep(const QString &projectPath, const QString &presetId)
{
    if (!openPath(projectPath))
        return;
    showSweepDock();
    // The project's own sweep was loaded with it; the preset replaces its axes. The sweep
    // runs once the project's kernel is compiled, not against the launch on screen now.
    m_sweepPanel->applyPreset(presetId);
    m_sweepPanel->clearBase(tr("Compiling %1\u2026").arg(QFileInfo(projectPath).fileName()));
    m_sweepProjectWhenReady = QFileInfo(projectPath).absoluteFilePath();
    m_sweepPresetWhenReady = presetId;
    m_controller->compileNow();
}

void MainWindow::createMenus()
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
    view->addAction(m_resultsDock->toggleViewAction());
    view->addAction(m_measurementDock->toggleViewAction());
    view->addAction(m_deviceDock->toggleViewAction());
    view->addAction(m_sweepDock->toggleViewAction());
    view->addAction(m_historyDock->toggleViewAction());
    view->addAction(m_lessonDock->toggleViewAction());

    QMenu *build = menuBar()->addMenu(tr("&Build"));
    QAction *compile =
        build->addAction(tr("&Compile"), m_controller, &CompileController::compileNow);
    compile->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_launchPanel->runAction());
    run->addAction(m_launchPanel->measureAction());
    run->addAction(m_launchPanel->cancelMeasurementAction());
    run->addSeparator();
    run->addAction(tr("Run S&weep"), this, [this] {
        showSweepDock();
        m_sweepPanel->runSweep();
    });
    run->addAction(tr("Cancel Sweep"), m_sweepPanel, &SweepPanel::cancelSweep);

    connect(m_recentFiles, &RecentFiles::fileRequested, this, &MainWindow::openPath);
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
    connect(m_optionsWidget, &CompileOptionsWidget::optionsChanged, this,
            &MainWindow::onOptionsChanged);
    connect(m_deviceProbe, &DeviceProbe::finished, this, &MainWindow::onDevicesProbed);
    connect(m_kernelsPanel, &KernelsPanel::kernelSelected, m_launchPanel,
            &LaunchPanel::selectKernel);

    // Running.
    connect(m_launchPanel, &LaunchPanel::runRequested, this, &MainWindow::onRunRequested);
    connect(m_runController, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_launchPanel, &LaunchPanel::measureRequested, this, &MainWindow::onMeasureRequested);
    connect(m_runController, &RunController::measurementFinished, this,
            &MainWindow::onMeasurementFinished);
    connect(
        m_runController, &RunController::metricsStarted, this,
        [this](quint64, int metricCount) { m_measurementPanel->showMetricsPending(metricCount); });
    connect(m_runController, &RunController::metricsFinished, this, &MainWindow::onMetricsFinished);
    m_measurementPanel->setCancelAction(m_launchPanel->cancelMeasurementAction());
    connect(m_launchPanel, &LaunchPanel::cancelMeasurementRequested, this,
            &MainWindow::onCancelMeasurementRequested);
    connect(m_runController, &RunController::measurementCancellableChanged, this,
            [this](bool cancellable) {
                m_launchPanel->setMeasurementCancellable(cancellable);
                m_measurementPanel->setCancellable(cancellable);
            });
    connect(m_runController, &RunController::busyChanged, this,
            [this] { m_launchPanel->setRunning(m_runController->isRunning()); });
    connect(m_runController, &RunController::helloReceived, this, [this](const HelloReply &hello) {
        m_devicePanel->setHello(hello);
        m_launchPanel->setDevice(hello.device,
                                 hello.device ? std::optional<std::uint64_t>(hello.freeMemoryBytes)
                                              : std::nullopt);
    });
    BufferPageModel *pages = m_resultsPanel->pageModel();
    connect(pages, &BufferPageModel::pageRequested, m_runController, &RunController::requestPage);
    connect(m_runController, &RunController::pageReady, pages, &BufferPageModel::addPage);
    connect(m_runController, &RunController::pageFailed, pages, &BufferPageModel::pageFailed);
    connect(m_runController, &RunController::pageDropped, pages, &BufferPageModel::requestDropped);
    connect(m_resultsPanel, &ResultsPanel::exportRequested, m_runController,
            &RunController::exportBuffer);
    connect(m_runController, &RunController::exportFinished, m_resultsPanel,
            &ResultsPanel::showExportResult);

    // Sweeps: the launch of the current kernel is what the points vary; a clicked point's
    // configuration goes back to the launch panel; finished sweeps and measurements go into
    // the history, which reopens them.
    connect(m_launchPanel, &LaunchPanel::launchEdited, this, &MainWindow::updateSweepBase);
    connect(m_launchPanel, &LaunchPanel::launchEdited, this, &MainWindow::onLaunchEdited);
    connect(m_launchPanel, &LaunchPanel::kernelChanged, this, &MainWindow::updateSweepBase);
    connect(m_sweepPanel, &SweepPanel::pointActivated, this, &MainWindow::applySweepPoint);
    connect(m_sweepPanel, &SweepPanel::sweepShown, this, &MainWindow::onSweepShown);
    connect(m_sweepPanel, &SweepPanel::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_historyPanel, &HistoryPanel::openRequested, this,
            [this](qint64 id, const QString &json, const QString &kind) {
                onHistoryOpen(id, json, kind, false);
            });
    connect(m_historyPanel, &HistoryPanel::baselineRequested, this,
            [this](qint64 id, const QString &json, const QString &kind) {
                onHistoryOpen(id, json, kind, true);
            });

    connect(m_projects, &ProjectController::projectOpened, this, &MainWindow::updateWindowTitle);
    connect(m_projects, &ProjectController::projectOpened, this, &MainWindow::loadLessonFor);
    connect(m_lessonPanel, &LessonPanel::experimentRequested, this,
            [this](LessonExperiment experiment) { onLessonExperiment(int(experiment)); });
    connect(m_lessonPanel, &LessonPanel::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(this, &MainWindow::measurementShown, this, [this](const Measurement &measurement) {
        if (m_lessonAwaitsMeasurement) {
            m_lessonAwaitsMeasurement = false;
            m_lessonPanel->showMeasurement(measurement);
        }
    });
    m_lessonPanel->setReportContext([this](LabReportInput &input) {
        if (Document *document = currentDocument())
            input.source = document->editor()->text();
        const SweepResult &sweep = m_sweepPanel->result();
        input.kernel = toQString(input.sweep ? input.sweep->kernel : sweep.kernel);
        input.deviceName = input.sweep ? toQString(input.sweep->deviceName) : deviceStatusText();
        QStringList configuration;
        configuration << tr("Architecture: %1").arg(toQString(m_controller->options().arch));
        if (input.sweep)
            configuration << tr("Sweep: %1 points, %2 measured")
                                 .arg(input.sweep->points.size())
                                 .arg(input.sweep->count(PointStatus::Measured));
        input.configuration = configuration.join(QLatin1Char('\n'));
        if (input.sweep) {
            QTemporaryDir dir;
            const QString png = dir.filePath(QStringLiteral("chart.png"));
            if (dir.isValid() &&
                m_sweepPanel->exportTo(SweepPanel::ExportFormat::Png, png).isEmpty())
                input.chart = QImage(png);
        }
    });
    connect(m_projects, &ProjectController::projectSaved, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Saved project %1").arg(QDir::toNativeSeparators(path)), 10000);
        updateWindowTitle();
    });
    connect(m_projects, &ProjectController::errorOccurred, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
}

void MainWindow::restoreSettings()
{
    m_optionsWidget->loadSettings();
    if (!m_settings.restoreLayout)
        return;
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    m_layoutRestored =
        restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    m_splitterRestored = m_splitter->restoreState(
        settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_initialLayoutDone)
        return;
    m_initialLayoutDone = true;
    // Default proportions, once the window has its real size: source 60 % beside the PTX,
    // the Kernels table wider than the Problems list.
    if (!m_layoutRestored) {
        const int w = width();
        resizeDocks({m_launchDock}, {std::max(440, w * 7 / 20)}, Qt::Horizontal);
        resizeDocks({m_problemsDock, m_kernelsDock}, {w / 3, w * 2 / 3}, Qt::Horizontal);
        resizeDocks({m_problemsDock}, {std::max(200, height() * 3 / 10)}, Qt::Vertical);
        if (m_settings.runDocksFirst)
            showRunDocks();
    }
    if (!m_splitterRestored) {
        const int total = std::max(100, m_splitter->width());
        m_splitter->setSizes({total * 3 / 5, total * 2 / 5});
    }
}

void MainWindow::saveSettings() const
{
    m_optionsWidget->saveSettings();
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_tabs->maybeSaveAll()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
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
    if (path.endsWith(QStringLiteral(".cuwb"), Qt::CaseInsensitive))
        return m_projects->open(path);
    return m_tabs->openFile(path);
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
    m_launchPanel->setCompileResult(result, document->editor()->text(), document->displayName());
    updateSweepBase();
    if (!m_sweepPresetWhenReady.isEmpty() &&
        (m_sweepProjectWhenReady.isEmpty() || !m_projects->hasProject() ||
         m_projects->projectPath() == m_sweepProjectWhenReady)) {
        m_sweepPresetWhenReady.clear();
        m_sweepProjectWhenReady.clear();
        m_sweepPanel->runSweep(); // says why in the panel when it cannot
    }
    if (m_lessonSweepWhenReady) {
        m_lessonSweepWhenReady = false;
        if (!m_sweepPanel->runSweep()) {
            m_lessonAwaitsSweep = false;
            m_lessonPanel->showExperimentFailed(m_sweepPanel->messageText());
        }
    }
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
        m_launchPanel->clearKernels(tr("Open a source to set up a launch."));
        return;
    }
    connect(document, &Document::modificationChanged, this, &MainWindow::updateWindowTitle,
            Qt::UniqueConnection);
    if (document->hasResult())
        showDocumentResult(document);
    // Options may have changed since; an unchanged source is served from the cache.
    m_controller->compileNow();
}

CompileOptions MainWindow::editorCompileOptions() const
{
    // The launch's defines are part of what the source means (a kernel may use block_size_x):
    // the editor compiles with the values of the launch as it is set up.
    CompileOptions options = m_optionsWidget->options();
    LaunchSpec launch = m_launchPanel->launchForCompile();
    (void)bindLaunchDefines(launch, options, {launch.kernel});
    return options;
}

void MainWindow::onLaunchEdited()
{
    const CompileOptions options = editorCompileOptions();
    if (options == m_controller->options())
        return;
    m_controller->setOptions(options);
    m_controller->compileNow();
}

void MainWindow::onOptionsChanged()
{
    m_controller->setOptions(editorCompileOptions());
    m_kernelsModel->setArchitecture(m_controller->options().arch);
    m_controller->compileNow();
}

void MainWindow::onDevicesProbed()
{
    m_deviceLabel->setText(m_deviceProbe->summary());
    m_optionsWidget->setDeviceArchitecture(m_deviceProbe->firstArchitecture());
    const DeviceQuery &query = m_deviceProbe->query();
    m_devicePanel->setQuery(query, m_deviceProbe->summary());
    QString reason = RunController::unavailableReasonFor(query);
    if (!query.driverLoaded && query.message.empty()) // the query itself failed
        reason = tr("Run needs a CUDA GPU: %1").arg(m_deviceProbe->summary());
    setRunAvailability(reason.isEmpty(), reason);
    if (!query.devices.empty() && !m_runController->hello())
        m_launchPanel->setDevice(query.devices.front());
    updateSweepBase(); // the device's limits replace the target's
}

void MainWindow::setRunAvailability(bool available, const QString &reason)
{
    m_runController->setAvailability(available, reason);
    m_launchPanel->setRunAvailability(available, reason);
    m_sweepController->setAvailability(available, reason);
    m_sweepPanel->setRunAvailability(available, reason);
}

void MainWindow::onRunRequested()
{
    m_resultsPanel->showRunning(m_launchPanel->currentKernel());
    m_resultsDock->show();
    m_resultsDock->raise();
    m_runController->run(m_launchPanel->runRequest());
    m_launchPanel->setRunning(m_runController->isRunning());
}

void MainWindow::onRunFinished(quint64 jobId, const RunResult &result)
{
    Q_UNUSED(jobId)
    m_resultsPanel->showResult(result, m_launchPanel->bufferTypeNames());
    m_launchPanel->setRunning(m_runController->isRunning());
    statusBar()->showMessage(m_resultsPanel->statusText(), 10000);
    Q_EMIT runResultShown();
}

void MainWindow::onMeasureRequested()
{
    m_measurementPanel->showMeasuring(m_launchPanel->currentKernel());
    m_measurementDock->show();
    m_measurementDock->raise();
    const MetricsChoice choice = MeasureOptionsDialog::loadMetricsChoice();
    std::optional<MetricsRequest> metrics;
    if (choice.collect)
        metrics = MetricsRequest{choice.metrics};
    m_runController->measure(m_launchPanel->runRequest(), MeasureOptionsDialog::load(),
                             m_projects->throughputFor(currentDocument()), metrics);
    m_launchPanel->setRunning(m_runController->isRunning());
}

void MainWindow::onMeasurementFinished(quint64 jobId, const Measurement &measurement)
{
    Q_UNUSED(jobId)
    m_measurementPanel->showMeasurement(m_launchPanel->currentKernel(), measurement);
    m_launchPanel->setRunning(m_runController->isRunning());
    statusBar()->showMessage(m_measurementPanel->statusText(), 10000);
    // Every measurement that took samples is kept, faulted and cancelled ones too: the history
    // is a record of what was run.
    if (!m_historyPanel->databasePath().isEmpty() && measurement.statistics.count > 0)
        m_historyPanel->addEntry(measurementEntry(
            measurement, toStdString(currentProjectName()),
            toStdString(m_projects->hasProject() ? m_projects->projectPath() : QString())));
    Q_EMIT measurementShown(measurement);
}

void MainWindow::onMetricsFinished(quint64 jobId, const MetricsResult &metrics)
{
    Q_UNUSED(jobId)
    m_measurementPanel->showMetrics(metrics);
    m_launchPanel->setRunning(m_runController->isRunning());
    if (!metrics.ok())
        statusBar()->showMessage(
            tr("Hardware metrics not collected: %1").arg(toQString(metrics.error)), 15000);
    Q_EMIT metricsShown(metrics);
}

void MainWindow::onCancelMeasurementRequested()
{
    if (m_runController->cancelMeasurement())
        m_measurementPanel->showCancelling();
}

QString MainWindow::currentProjectName() const
{
    if (m_projects->hasProject())
        return QFileInfo(m_projects->projectPath()).completeBaseName();
    if (Document *document = currentDocument())
        return QFileInfo(document->displayName()).completeBaseName();
    return {};
}

void MainWindow::updateSweepBase()
{
    Document *document = currentDocument();
    if (!document || !document->hasResult() || !document->lastResult().success ||
        m_launchPanel->currentKernel().isEmpty()) {
        m_sweepPanel->clearBase(
            document ? tr("The source has no compiled kernel yet: the sweep varies the launch of "
                          "the kernel in the Launch panel.")
                     : tr("Open a project or a source: the sweep varies the launch of its "
                          "kernel."));
        return;
    }
    SweepContext context;
    context.projectName = toStdString(currentProjectName());
    context.throughput = m_projects->throughputFor(document);
    // The points are checked against the GPU's limits when there is one, else the target's;
    // the worker checks them against its device again.
    QString arch = m_deviceProbe->firstArchitecture();
    if (arch.isEmpty())
        arch = toQString(m_controller->options().arch);
    m_sweepPanel->setBase(m_launchPanel->runRequest(), context, archLimits(toStdString(arch)));
}

void MainWindow::applySweepPoint(const SweepPoint &point)
{
    // The launch as the point ran it (block, variables), and the compile flags a sweep can
    // vary; the rest of the options stay as the user set them.
    const CompileOptions before = m_optionsWidget->options();
    const CompileOptions options = point.appliedTo(before);
    m_launchPanel->setLaunch(point.request.launch, m_launchPanel->verification());
    if (!(options == before))
        m_optionsWidget->setOptions(options); // recompiles; the launch waits for its kernel
    m_launchDock->show();
    m_launchDock->raise();
    statusBar()->showMessage(tr("The launch panel now has %1").arg(toQString(point.label())),
                             10000);
    Q_EMIT sweepPointApplied(point);
}

void MainWindow::onSweepShown(const SweepResult &result)
{
    if (m_lessonAwaitsSweep) {
        m_lessonAwaitsSweep = false;
        m_lessonPanel->showSweepResult(result);
    }
    if (!result.error.empty() || m_historyPanel->databasePath().isEmpty())
        return;
    m_historyPanel->addEntry(
        sweepEntry(result, toStdString(currentProjectName()),
                   toStdString(m_projects->hasProject() ? m_projects->projectPath() : QString())));
}

void MainWindow::onHistoryOpen(qint64 id, const QString &jsonText, const QString &kind,
                               bool baseline)
{
    const HistoryDocument document = readHistoryDocument(toStdString(kind), toStdString(jsonText));
    if (!document.error.empty()) {
        statusBar()->showMessage(
            tr("History entry %1 could not be read: %2").arg(id).arg(toQString(document.error)),
            15000);
        return;
    }
    if (document.sweep) {
        const SweepResult &sweep = *document.sweep;
        const QString date = toQString(sweep.startedAt).left(10);
        if (baseline)
            m_sweepPanel->showBaseline(sweep, date.isEmpty() ? tr("baseline")
                                                             : tr("baseline %1").arg(date));
        else
            m_sweepPanel->showResult(
                sweep, date.isEmpty() ? tr("history %1").arg(id)
                                      : tr("%1 %2").arg(toQString(sweep.projectName), date));
        m_sweepDock->show();
        m_sweepDock->raise();
        return;
    }
    const Measurement &measurement = *document.measurement;
    m_measurementPanel->showMeasurement(toQString(measurement.provenance.kernel), measurement);
    m_measurementDock->show();
    m_measurementDock->raise();
    if (baseline)
        statusBar()->showMessage(tr("Only sweeps are overlaid as a baseline; the stored "
                                    "measurement is shown instead."),
                                 10000);
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
        setWindowTitle(tr("CUDA Workbench"));
        return;
    }
    const QString project =
        m_projects && m_projects->hasProject()
            ? QStringLiteral(" \u2014 ") + QFileInfo(m_projects->projectPath()).fileName()
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
}

} // namespace cuwb
