// WindowHost: the window's side of ToolHost (gui/workspace/toolhost.h), what MainWindow offers
// the tools plugged into it. It reads the shell's own state (the project controller, the Launch
// dock's verdict, the restored layout) for the tools, adds their docks to the window and puts
// their actions at the places the menus keep for them.
#pragma once

#include "gui/workspace/toolhost.h"

#include <QHash>
#include <QList>

class QMenu;

namespace cuwb {

class MainWindow;

class WindowHost final : public ToolHost
{
    Q_OBJECT

public:
    explicit WindowHost(MainWindow *window);

    [[nodiscard]] QMainWindow *window() const override;
    [[nodiscard]] Workspace *workspace() const override;
    [[nodiscard]] DocumentTabs *documents() const override;
    [[nodiscard]] QTabWidget *codeTabs() const override;
    [[nodiscard]] std::shared_ptr<SharedWorker> worker() const override;
    [[nodiscard]] RunController *runController() const override;
    [[nodiscard]] QString projectPath() const override;
    [[nodiscard]] QString projectName() const override;
    [[nodiscard]] ThroughputExpressions throughputFor(const Document *document) const override;
    [[nodiscard]] QString runBlockedReason() const override;
    [[nodiscard]] QString deviceSummary() const override;
    [[nodiscard]] bool layoutRestored() const override;
    void placeDock(QDockWidget *dock, Qt::DockWidgetArea area, const QString &tabbedWith) override;
    void addMenuAction(MenuSection section, QAction *action) override;
    void showStatus(const QString &message, int timeoutMs) override;

    // The menus' places for the tools' actions: each goes in `menu` before `anchor` (a
    // separator). Actions added before the menus were made wait for their place.
    void setMenuPlace(MenuSection section, QMenu *menu, QAction *anchor);

private:
    struct Place
    {
        QMenu *menu = nullptr;
        QAction *anchor = nullptr;
    };

    MainWindow *m_window;
    QHash<int, Place> m_places;
    QHash<int, QList<QAction *>> m_waiting;
};

} // namespace cuwb
