#include "gui/shell/windowhost.h"

#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/projectcontroller.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>

namespace cuwb {

WindowHost::WindowHost(MainWindow *window)
    : ToolHost(window)
    , m_window(window)
{}

QMainWindow *WindowHost::window() const
{
    return m_window;
}

Workspace *WindowHost::workspace() const
{
    return m_window->workspace();
}

DocumentTabs *WindowHost::documents() const
{
    return m_window->documentTabs();
}

QTabWidget *WindowHost::codeTabs() const
{
    return m_window->codeTabs();
}

std::shared_ptr<SharedWorker> WindowHost::worker() const
{
    return m_window->m_worker;
}

RunController *WindowHost::runController() const
{
    return m_window->runController();
}

QString WindowHost::projectPath() const
{
    const ProjectController *projects = m_window->projectController();
    return projects && projects->hasProject() ? projects->projectPath() : QString();
}

QString WindowHost::projectName() const
{
    return m_window->currentProjectName();
}

ThroughputExpressions WindowHost::throughputFor(const Document *document) const
{
    const ProjectController *projects = m_window->projectController();
    return projects ? projects->throughputFor(document) : ThroughputExpressions{};
}

QString WindowHost::runBlockedReason() const
{
    return m_window->launchPanel()->runBlockedReason();
}

QString WindowHost::deviceSummary() const
{
    return m_window->deviceStatusText();
}

bool WindowHost::layoutRestored() const
{
    return m_window->m_layoutRestored;
}

void WindowHost::placeDock(QDockWidget *dock, Qt::DockWidgetArea area, const QString &tabbedWith)
{
    m_window->addDockWidget(area, dock);
    if (!tabbedWith.isEmpty()) {
        if (auto *beside = m_window->findChild<QDockWidget *>(tabbedWith))
            m_window->tabifyDockWidget(beside, dock);
    }
    addMenuAction(MenuSection::ViewDocks, dock->toggleViewAction());
}

void WindowHost::addMenuAction(MenuSection section, QAction *action)
{
    const auto place = m_places.constFind(int(section));
    if (place == m_places.constEnd()) {
        m_waiting[int(section)].append(action);
        return;
    }
    place->menu->insertAction(place->anchor, action);
}

void WindowHost::setMenuPlace(MenuSection section, QMenu *menu, QAction *anchor)
{
    m_places.insert(int(section), Place{menu, anchor});
    const QList<QAction *> waiting = m_waiting.take(int(section));
    for (QAction *action : waiting)
        menu->insertAction(anchor, action);
}

void WindowHost::showStatus(const QString &message, int timeoutMs)
{
    m_window->statusBar()->showMessage(message, timeoutMs);
}

} // namespace cuwb
