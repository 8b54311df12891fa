#include "mainwindow.h"

#include "compilecontroller.h"
#include "compileoptionswidget.h"
#include "compilestatuswidget.h"
#include "deviceprobe.h"
#include "document.h"
#include "documenttabs.h"
#include "findreplacebar.h"
#include "kernelsmodel.h"
#include "kernelspanel.h"
#include "problemsmodel.h"
#include "problemspanel.h"
#include "projectsource.h"
#include "ptxview.h"
#include "qtconvert.h"
#include "recentfiles.h"
#include "samplesmenu.h"
#include "sourceeditor.h"

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
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));
    createWidgets();
    createDocks();
    createMenus();
    connectSignals();
    restoreSettings();
    m_controller->setOptions(m_optionsWidget->options());
    m_kernelsModel->setArchitecture(m_controller->options().arch);
    updateWindowTitle();
    if (!m_settings.cliPath.isEmpty())
        m_deviceProbe->setCliPath(m_settings.cliPath);
    if (m_settings.probeDevices)
        m_deviceProbe->start();
    else
        m_deviceLabel->setText(tr("Device query off"));
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

    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
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

    QMenu *build = menuBar()->addMenu(tr("&Build"));
    QAction *compile =
        build->addAction(tr("&Compile"), m_controller, &CompileController::compileNow);
    compile->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));

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
        resizeDocks({m_optionsDock}, {std::max(250, w / 6)}, Qt::Horizontal);
        resizeDocks({m_problemsDock, m_kernelsDock}, {w / 3, w * 2 / 3}, Qt::Horizontal);
        resizeDocks({m_problemsDock}, {std::max(180, height() / 4)}, Qt::Vertical);
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
    QString sourcePath = path;
    if (path.endsWith(QStringLiteral(".cuwb"), Qt::CaseInsensitive)) {
        QString error;
        sourcePath = ProjectSource::sourcePath(path, &error);
        if (sourcePath.isEmpty()) {
            statusBar()->showMessage(error, 15000);
            return nullptr;
        }
    }
    return m_tabs->openFile(sourcePath);
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
        return;
    }
    connect(document, &Document::modificationChanged, this, &MainWindow::updateWindowTitle,
            Qt::UniqueConnection);
    if (document->hasResult())
        showDocumentResult(document);
    // Options may have changed since; an unchanged source is served from the cache.
    m_controller->compileNow();
}

void MainWindow::onOptionsChanged()
{
    m_controller->setOptions(m_optionsWidget->options());
    m_kernelsModel->setArchitecture(m_controller->options().arch);
    m_controller->compileNow();
}

void MainWindow::onDevicesProbed()
{
    m_deviceLabel->setText(m_deviceProbe->summary());
    m_optionsWidget->setDeviceArchitecture(m_deviceProbe->firstArchitecture());
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
    setWindowTitle(tr("%1%2 \u2014 CUDA Workbench")
                       .arg(document->displayName(),
                            document->isModified() ? QStringLiteral(" \u25cf") : QString()));
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
