#include "gui/inspect/inspecttool.h"

#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspectcontroller.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"
#include "gui/run/runcontroller.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include "inspect/listingcounters.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>

#include <algorithm>

namespace cuwb {

InspectTool::InspectTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("inspectTool"));
    createSassTab();
    createDock();
    connectSass();
    connectInspection();
    host->addTool(this);
}

void InspectTool::createSassTab()
{
    // The SASS beside the PTX: what ptxas made of it, disassembled when its tab is shown.
    QTabWidget *tabs = m_host->codeTabs();
    m_sassView = new SassView(tabs);
    m_sassController = new SassController(this);
    const int index = tabs->addTab(m_sassView, tr("SASS"));
    tabs->setTabToolTip(index, tr("The machine code (SASS) of the current file, from nvdisasm. "
                                  "The instructions of the source line under the cursor are "
                                  "highlighted; click one to find its source line."));
}

void InspectTool::createDock()
{
    QAction *inspect = m_host->action(ToolHost::kInspectActionId);
    m_panel = new InspectPanel(m_host->window());
    m_panel->setInspectAction(inspect);
    m_dock = m_host->addDock(tr("Inspect"), QStringLiteral("inspectDock"), m_panel,
                             Qt::BottomDockWidgetArea, QStringLiteral("measurementDock"));
    m_controller = new InspectController(m_panel, this);
    m_host->addMenuAction(ToolHost::MenuSection::RunInspect, inspect);
    m_host->addMenuAction(ToolHost::MenuSection::RunInspect, m_panel->nextHotLineAction());
    m_host->addMenuAction(ToolHost::MenuSection::RunInspect, m_panel->previousHotLineAction());
}

void InspectTool::connectSass()
{
    connect(m_sassView, &SassView::sourceLineActivated, m_host, &ToolHost::goToSourceLine);
    connect(m_sassController, &SassController::disassemblyStarted, this, [this] {
        if (!m_sassView->hasListing())
            m_sassView->showMessage(tr("Disassembling\u2026"));
    });
    connect(m_sassController, &SassController::documentReady, this,
            [this](const std::shared_ptr<const SassDocument> &document) {
                m_sassView->setDocument(document);
                if (Document *current = m_host->currentDocument())
                    m_sassView->showSourceLine(current->editor()->cursorLine());
                updateSassCounters();
                Q_EMIT sassShown();
            });
    connect(m_host->codeTabs(), &QTabWidget::currentChanged, this,
            [this] { keepSassCurrent(m_sassAlways); });
    connect(m_host, &ToolHost::documentShown, this, &InspectTool::onDocumentShown);
    DocumentTabs *documents = m_host->documents();
    connect(documents, &DocumentTabs::currentDocumentChanged, this,
            &InspectTool::updateSassCounters); // the inspection's figures belong to one document
    connect(documents, &DocumentTabs::documentCursorLineChanged, this,
            [this](Document *document, int line) {
                if (document == m_host->currentDocument())
                    m_sassView->showSourceLine(line);
            });
    connect(m_host, &ToolHost::zoomRequested, this, [this](int steps) {
        QsciScintilla *listing = m_sassView->listing();
        if (steps > 0)
            listing->zoomIn(steps);
        else if (steps < 0)
            listing->zoomOut(-steps);
        else
            listing->zoomTo(0);
    });
    connect(m_host, &ToolHost::layoutReset, this, [this] { m_dockSized = false; });
}

void InspectTool::connectInspection()
{
    // Inspecting: the request goes through the window's worker; the result to the editor, the
    // Inspect dock and the SASS view; an edit takes it off the editor.
    connect(m_host->action(ToolHost::kInspectActionId), &QAction::triggered, this,
            &InspectTool::onInspectRequested);
    connect(m_host->runController(), &RunController::inspectFinished, m_controller,
            [this](quint64, const InspectResult &result) { m_controller->finished(result); });
    connect(m_host->documents(), &DocumentTabs::documentTextChanged, m_controller,
            &InspectController::documentEdited);
    connect(m_controller, &InspectController::applicabilityChanged, this,
            &InspectTool::updateSassCounters);
    connect(m_controller, &InspectController::shown, this, &InspectTool::shown);
    connect(m_controller, &InspectController::statusMessage, this,
            [this](const QString &message) { m_host->showStatus(message, 15000); });
    connect(m_panel, &InspectPanel::lineInfoFixRequested, this,
            &InspectTool::onLineInfoFixRequested);
}

void InspectTool::onDocumentShown(Document *document)
{
    if (!document) {
        m_sassController->clear();
        m_sassView->setDocument(nullptr);
        updateSassCounters();
        return;
    }
    const CompileResult &result = document->lastResult();
    m_sassController->setCompile(result, document->editor()->text());
    if (m_inspectWhenCompiled && result.success && result.options.lineInfo) {
        m_inspectWhenCompiled = false;
        const QString blocked = m_host->runBlockedReason();
        if (blocked.isEmpty())
            m_host->action(ToolHost::kInspectActionId)->trigger();
        else
            m_host->showStatus(
                tr("-lineinfo is on; inspect again once the kernel can run: %1").arg(blocked),
                15000);
    }
}

void InspectTool::showDock()
{
    m_dock->show();
    m_dock->raise();
    // The first time, unless the user's own layout was restored: room for the summary, a
    // message and several rows of the table.
    QMainWindow *window = m_host->window();
    if (!m_dockSized && !m_host->layoutRestored())
        window->resizeDocks({m_dock}, {std::max(300, window->height() * 2 / 5)}, Qt::Vertical);
    m_dockSized = true;
}

void InspectTool::showSassTab()
{
    m_host->codeTabs()->setCurrentWidget(m_sassView);
}

void InspectTool::keepSassCurrent(bool always)
{
    m_sassAlways = always;
    m_sassController->setActive(always || m_host->codeTabs()->currentWidget() == m_sassView);
}

void InspectTool::onInspectRequested()
{
    if (!m_host->runBlockedReason().isEmpty())
        return; // the action is disabled and says why
    showDock();
    const RunRequest request = m_host->workspace()->runRequest();
    m_controller->started(m_host->currentDocument(), request);
    m_host->runController()->inspect(request);
}

void InspectTool::showResult(const InspectResult &result)
{
    showDock();
    m_controller->showRecorded(m_host->currentDocument(), result);
}

void InspectTool::onLineInfoFixRequested()
{
    Workspace *workspace = m_host->workspace();
    CompileOptions options = workspace->compileOptions();
    if (options.lineInfo) {
        // Already on (turned on by hand since): the next inspection has the lines.
        m_host->action(ToolHost::kInspectActionId)->trigger();
        return;
    }
    options.lineInfo = true;
    m_inspectWhenCompiled = true;
    workspace->setCompileOptions(options); // recompiles; the inspection follows the compile
    m_host->showStatus(tr("-lineinfo is on: compiling, then inspecting again"), 10000);
}

void InspectTool::updateSassCounters()
{
    const std::shared_ptr<const SassDocument> &document = m_sassView->document();
    if (!m_controller->appliesTo(m_host->currentDocument()) || !document || !document->ok()) {
        m_sassView->clearCounters();
        return;
    }
    m_sassView->setCounters(placeOnListing(m_controller->result(), document->listing()));
}

} // namespace cuwb
