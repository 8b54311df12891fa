// MainWindow's SASS tab and Inspect, apart from the rest of its wiring: the PTX and SASS tabs,
// the Inspect dock, the connections of the SASS controller and view and of the inspection
// (request, result, edits, the -lineinfo fix), and an inspection's counters on the SASS listing.
#include "gui/shell/mainwindow.h"

#include "gui/compile/compileoptionswidget.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspectcontroller.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"
#include "gui/launch/launchpanel.h"
#include "gui/run/runcontroller.h"
#include "gui/workspace/workspace.h"

#include "inspect/listingcounters.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>

namespace cuwb {

void MainWindow::createCodeTabs(QWidget *ptxPane)
{
    // The SASS beside the PTX: what ptxas made of it, disassembled when its tab is shown.
    m_sassView = new SassView(this);
    m_sassController = new SassController(this);
    m_codeTabs = new QTabWidget(this);
    m_codeTabs->setObjectName(QStringLiteral("codeTabs"));
    m_codeTabs->setDocumentMode(true);
    m_codeTabs->addTab(ptxPane, tr("PTX"));
    m_codeTabs->addTab(m_sassView, tr("SASS"));
    m_codeTabs->setTabToolTip(0, m_ptxTitle->toolTip());
    m_codeTabs->setTabToolTip(1, tr("The machine code (SASS) of the current file, from "
                                    "nvdisasm. The instructions of the source line under the "
                                    "cursor are highlighted; click one to find its source line."));
}

void MainWindow::createInspectDock()
{
    m_inspectPanel = new InspectPanel(this);
    m_inspectPanel->setInspectAction(m_launchPanel->inspectAction());
    m_inspectDock = new QDockWidget(tr("Inspect"), this);
    m_inspectDock->setObjectName(QStringLiteral("inspectDock"));
    m_inspectDock->setWidget(m_inspectPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_inspectDock);
    tabifyDockWidget(m_measurementDock, m_inspectDock);
    m_inspect = new InspectController(m_inspectPanel, this);
}

void MainWindow::connectInspect()
{
    connect(m_sassView, &SassView::sourceLineActivated, this, &MainWindow::goToSourceLine);
    connect(m_sassController, &SassController::disassemblyStarted, this, [this] {
        if (!m_sassView->hasListing())
            m_sassView->showMessage(tr("Disassembling\u2026"));
    });
    connect(m_sassController, &SassController::documentReady, this,
            [this](const std::shared_ptr<const SassDocument> &document) {
                m_sassView->setDocument(document);
                if (Document *current = currentDocument())
                    m_sassView->showSourceLine(current->editor()->cursorLine());
                updateSassCounters();
                Q_EMIT sassShown();
            });
    connect(m_codeTabs, &QTabWidget::currentChanged, this, &MainWindow::onCodeTabChanged);

    // Inspecting: the request goes through the run's worker; the result to the editor, the
    // Inspect dock and the SASS view; an edit takes it off the editor.
    connect(m_launchPanel, &LaunchPanel::inspectRequested, this, &MainWindow::onInspectRequested);
    connect(m_runController, &RunController::inspectFinished, this, &MainWindow::onInspectFinished);
    connect(m_tabs, &DocumentTabs::documentTextChanged, m_inspect,
            &InspectController::documentEdited);
    connect(m_inspect, &InspectController::applicabilityChanged, this,
            &MainWindow::updateSassCounters);
    connect(m_inspect, &InspectController::shown, this, &MainWindow::inspectShown);
    connect(m_inspect, &InspectController::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    connect(m_inspectPanel, &InspectPanel::lineInfoFixRequested, this,
            &MainWindow::onLineInfoFixRequested);
}

void MainWindow::showInspectDock()
{
    m_inspectDock->show();
    m_inspectDock->raise();
    // The first time, unless the user's own layout was restored: room for the summary, a
    // message and several rows of the table.
    if (!m_inspectDockSized && !m_layoutRestored)
        resizeDocks({m_inspectDock}, {std::max(300, height() * 2 / 5)}, Qt::Vertical);
    m_inspectDockSized = true;
}

void MainWindow::showSassTab()
{
    m_codeTabs->setCurrentWidget(m_sassView);
}

void MainWindow::onCodeTabChanged()
{
    m_sassController->setActive(m_codeTabs->currentWidget() == m_sassView);
}

void MainWindow::onInspectRequested()
{
    showInspectDock();
    const RunRequest request = m_workspace->runRequest();
    m_inspect->started(currentDocument(), request);
    m_runController->inspect(request);
    showRunning();
}

void MainWindow::onInspectFinished(quint64 jobId, const InspectResult &result)
{
    Q_UNUSED(jobId)
    showRunning();
    m_inspect->finished(result);
}

void MainWindow::showInspectResult(const InspectResult &result)
{
    showInspectDock();
    m_inspect->showRecorded(currentDocument(), result);
}

void MainWindow::onLineInfoFixRequested()
{
    CompileOptions options = m_workspace->compileOptions();
    if (options.lineInfo) {
        // Already on (turned on by hand since): the next inspection has the lines.
        m_launchPanel->inspectAction()->trigger();
        return;
    }
    options.lineInfo = true;
    m_inspectWhenCompiled = true;
    m_workspace->setCompileOptions(options); // recompiles; the inspection follows the compile
    statusBar()->showMessage(tr("-lineinfo is on: compiling, then inspecting again"), 10000);
}

void MainWindow::updateSassCounters()
{
    const std::shared_ptr<const SassDocument> &document = m_sassView->document();
    if (!m_inspect->appliesTo(currentDocument()) || !document || !document->ok()) {
        m_sassView->clearCounters();
        return;
    }
    m_sassView->setCounters(placeOnListing(m_inspect->result(), document->listing()));
}

} // namespace cuwb
