#include "gui/run/runtool.h"

#include "gui/run/bufferpagemodel.h"
#include "gui/run/resultspanel.h"
#include "gui/run/runcontroller.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include <QDockWidget>
#include <QMainWindow>

namespace cuwb {

RunTool::RunTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("runTool"));
    QMainWindow *window = host->window();
    m_panel = new ResultsPanel(window);
    // Results share the wide bottom slot with the Kernels table.
    m_dock = host->addDock(tr("Results"), QStringLiteral("resultsDock"), m_panel,
                           Qt::BottomDockWidgetArea, QStringLiteral("kernelsDock"));

    RunController *controller = host->runController();
    connect(controller, &RunController::runFinished, this,
            [this](quint64, const RunResult &result) { onFinished(result); });
    BufferPageModel *pages = m_panel->pageModel();
    connect(pages, &BufferPageModel::pageRequested, controller, &RunController::requestPage);
    connect(controller, &RunController::pageReady, pages, &BufferPageModel::addPage);
    connect(controller, &RunController::pageFailed, pages, &BufferPageModel::pageFailed);
    connect(controller, &RunController::pageDropped, pages, &BufferPageModel::requestDropped);
    connect(m_panel, &ResultsPanel::exportRequested, controller, &RunController::exportBuffer);
    connect(controller, &RunController::exportFinished, m_panel, &ResultsPanel::showExportResult);
    host->addTool(this);
}

void RunTool::showDocks()
{
    if (auto *launch = m_host->window()->findChild<QDockWidget *>(QStringLiteral("launchDock"))) {
        launch->show();
        launch->raise();
    }
    m_dock->show();
    m_dock->raise();
}

void RunTool::run()
{
    m_panel->showRunning(m_host->currentKernel());
    m_dock->show();
    m_dock->raise();
    m_host->runController()->run(m_host->workspace()->runRequest());
}

void RunTool::onFinished(const RunResult &result)
{
    m_panel->showResult(result, m_host->workspace()->bufferTypeNames());
    // The verdict and its first reason; the dock has the rest.
    m_host->showStatus(m_panel->statusText().section(QLatin1Char('\n'), 0, 0), 10000);
    Q_EMIT shown();
}

} // namespace cuwb
