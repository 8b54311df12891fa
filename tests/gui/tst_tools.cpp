// The features that plug themselves in (gui/workspace/toolhost.h), each against a stand-in
// host with only the pieces a tool uses and no main window: the Inspect tool adds the SASS
// tab, its dock, the hot-line actions and its View toggle; it refuses to inspect while the
// launch cannot run; its -lineinfo fix turns the option on and inspects once a compile with it
// is shown. The Compare tool adds its dock beside Inspect's and Run ▸ Compare…, finds the
// Inspect tool through the host, and reports two unreadable projects as a comparison with two
// failed sides, without starting a worker. The Sweep tool says what its base waits for as the
// documents change, and a clicked point becomes the Workspace's launch and options.

#include "gui/common/sharedworker.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/comparetool.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/inspect/inspectcontroller.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/inspecttool.h"
#include "gui/inspect/sassview.h"
#include "gui/run/runcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_tools {

// A host around a bare QMainWindow: docks go into it, menu actions into one menu per section,
// status messages into a list.
class StandInHost final : public ToolHost
{
public:
    StandInHost()
        : m_workspace(new Workspace(this))
        , m_documents(new DocumentTabs(&m_window))
        , m_codeTabs(new QTabWidget(&m_window))
        , m_worker(std::make_shared<SharedWorker>())
        , m_run(new RunController(m_worker, this))
        , m_inspectAction(new QAction(QStringLiteral("Inspect"), this))
    {
        m_documents->setPromptsEnabled(false);
        m_codeTabs->addTab(new QWidget(m_codeTabs), QStringLiteral("PTX"));
        m_window.setCentralWidget(m_codeTabs);
        auto *measurement = new QDockWidget(QStringLiteral("Measurement"), &m_window);
        measurement->setObjectName(QStringLiteral("measurementDock"));
        m_window.addDockWidget(Qt::BottomDockWidgetArea, measurement);
        registerAction(kInspectActionId, m_inspectAction);
        for (MenuSection section : {MenuSection::ViewDocks, MenuSection::RunInspect,
                                    MenuSection::RunCompare, MenuSection::RunSweep})
            m_menus[int(section)] = new QMenu(&m_window);
    }

    QMainWindow *window() const override { return const_cast<QMainWindow *>(&m_window); }
    Workspace *workspace() const override { return m_workspace; }
    DocumentTabs *documents() const override { return m_documents; }
    QTabWidget *codeTabs() const override { return m_codeTabs; }
    std::shared_ptr<SharedWorker> worker() const override { return m_worker; }
    RunController *runController() const override { return m_run; }
    QString projectPath() const override { return {}; }
    QString projectName() const override { return QStringLiteral("stand-in"); }
    ThroughputExpressions throughputFor(const Document *) const override { return {}; }
    QString runBlockedReason() const override { return blocked; }
    bool layoutRestored() const override { return false; }
    void addDock(QDockWidget *dock, Qt::DockWidgetArea area, const QString &tabbedWith) override
    {
        m_window.addDockWidget(area, dock);
        if (auto *beside = m_window.findChild<QDockWidget *>(tabbedWith))
            m_window.tabifyDockWidget(beside, dock);
        addMenuAction(MenuSection::ViewDocks, dock->toggleViewAction());
    }
    void addMenuAction(MenuSection section, QAction *action) override
    {
        m_menus[int(section)]->addAction(action);
    }
    void showStatus(const QString &message, int) override { statuses << message; }

    [[nodiscard]] QList<QAction *> menuActions(MenuSection section) const
    {
        return m_menus[int(section)]->actions();
    }
    [[nodiscard]] QAction *inspectAction() const { return m_inspectAction; }

    QString blocked;
    QStringList statuses;

private:
    QMainWindow m_window;
    Workspace *m_workspace;
    DocumentTabs *m_documents;
    QTabWidget *m_codeTabs;
    std::shared_ptr<SharedWorker> m_worker;
    RunController *m_run;
    QAction *m_inspectAction;
    QMenu *m_menus[4] = {};
};

class TestTools : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void inspectPlugsItselfIn()
    {
        StandInHost host;
        auto *tool = new InspectTool(&host);
        QCOMPARE(host.tool<InspectTool>(), tool);
        QCOMPARE(host.tool<CompareTool>(), nullptr);
        // The SASS tab beside the PTX, with its tooltip.
        QCOMPARE(host.codeTabs()->count(), 2);
        QCOMPARE(host.codeTabs()->widget(1), tool->sassView());
        QVERIFY(host.codeTabs()->tabToolTip(1).contains(QStringLiteral("nvdisasm")));
        tool->showSassTab();
        QCOMPARE(host.codeTabs()->currentWidget(), tool->sassView());
        // Its dock, tabbed with the Measurement dock, and its toggle in View.
        QCOMPARE(tool->dock()->objectName(), QStringLiteral("inspectDock"));
        QVERIFY(host.window()
                    ->tabifiedDockWidgets(tool->dock())
                    .contains(host.window()->findChild<QDockWidget *>(
                        QStringLiteral("measurementDock"))));
        QVERIFY(host.menuActions(ToolHost::MenuSection::ViewDocks)
                    .contains(tool->dock()->toggleViewAction()));
        // Inspect and the hot-line navigation in the Run menu, in that order.
        const QList<QAction *> run = host.menuActions(ToolHost::MenuSection::RunInspect);
        QCOMPARE(run.size(), 3);
        QCOMPARE(run.at(0), host.inspectAction());
        QCOMPARE(run.at(1), tool->panel()->nextHotLineAction());
        QCOMPARE(run.at(2), tool->panel()->previousHotLineAction());
    }

    void inspectWaitsForARunnableLaunch()
    {
        StandInHost host;
        auto *tool = new InspectTool(&host);
        host.documents()->newDocument();
        host.blocked = QStringLiteral("There is no kernel to run");
        QSignalSpy started(host.runController(), &RunController::inspectStarted);
        host.inspectAction()->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(started.count(), 0);
        QVERIFY(!tool->controller()->hasResult());
        QVERIFY(!tool->dock()->isVisible());
    }

    void theLineInfoFixCompilesThenInspects()
    {
        StandInHost host;
        auto *tool = new InspectTool(&host);
        Document *document = host.documents()->newDocument();
        CompileOptions without = host.workspace()->compileOptions();
        without.lineInfo = false;
        host.workspace()->setCompileOptions(without);
        QSignalSpy triggered(host.inspectAction(), &QAction::triggered);
        host.blocked = QStringLiteral("A run is in progress");

        Q_EMIT tool->panel()->lineInfoFixRequested();
        QVERIFY(host.workspace()->compileOptions().lineInfo);
        QVERIFY(host.statuses.last().contains(QStringLiteral("-lineinfo is on")));

        // A compile without the option (an older one) does not inspect yet.
        CompileResult result;
        result.success = true;
        document->setResult(result);
        Q_EMIT host.documentShown(document);
        QCOMPARE(triggered.count(), 0);
        // With it, but the launch cannot run: the status says why, and nothing is triggered.
        result.options.lineInfo = true;
        document->setResult(result);
        Q_EMIT host.documentShown(document);
        QCOMPARE(triggered.count(), 0);
        QVERIFY(host.statuses.last().contains(QStringLiteral("A run is in progress")));
        // Once only: the next compile shown does not inspect again.
        host.blocked.clear();
        Q_EMIT host.documentShown(document);
        QCOMPARE(triggered.count(), 0);

        // Asked again, with the option already on, it inspects at once.
        Q_EMIT tool->panel()->lineInfoFixRequested();
        QCOMPARE(triggered.count(), 1);
    }

    void compareTakesItsPlaceBesideInspect()
    {
        StandInHost host;
        auto *inspect = new InspectTool(&host);
        auto *compare = new CompareTool(&host);
        QCOMPARE(host.tool<CompareTool>(), compare);
        QVERIFY(host.window()->tabifiedDockWidgets(compare->dock()).contains(inspect->dock()));
        QCOMPARE(host.menuActions(ToolHost::MenuSection::RunCompare),
                 QList<QAction *>{compare->compareAction()});
        QVERIFY(host.menuActions(ToolHost::MenuSection::ViewDocks)
                    .contains(compare->dock()->toggleViewAction()));
    }

    void sweepFollowsTheDocumentsAndAppliesAPoint()
    {
        StandInHost host;
        SweepSpec spec;
        SweepAxis axis;
        axis.target = "block.x";
        axis.kind = AxisValues::List;
        axis.values = {"64", "128"};
        spec.axes = {axis};
        host.workspace()->setSweep(spec, Workspace::Edit::Automatic);
        auto *tool = new SweepTool(&host);
        QCOMPARE(host.tool<SweepTool>(), tool);
        QVERIFY(host.window()
                    ->tabifiedDockWidgets(tool->dock())
                    .contains(host.window()->findChild<QDockWidget *>(
                        QStringLiteral("measurementDock"))));
        const QList<QAction *> run = host.menuActions(ToolHost::MenuSection::RunSweep);
        QCOMPARE(run.size(), 2); // Run Sweep, Cancel Sweep
        // No document: nothing to vary, and the panel says what to open.
        QVERIFY(!tool->panel()->hasBase());
        QVERIFY2(tool->panel()->messageText().contains(QStringLiteral("Open a project")),
                 qPrintable(tool->panel()->messageText()));
        // A document without a compile: the panel says so.
        Document *document = host.documents()->newDocument();
        Q_EMIT host.documentShown(document);
        QVERIFY(!tool->panel()->hasBase());
        QVERIFY2(tool->panel()->messageText().contains(QStringLiteral("no compiled kernel")),
                 qPrintable(tool->panel()->messageText()));
        // A clicked point's configuration becomes the launch and the compile options.
        SweepPoint point;
        point.values = {{"block.x", "128"}};
        point.request.launch.block = {"128", "1", "1"};
        point.request.options.maxRegisters = 64;
        QSignalSpy applied(tool, &SweepTool::pointApplied);
        Q_EMIT tool->panel()->pointActivated(point);
        QCOMPARE(applied.count(), 1);
        QCOMPARE(host.workspace()->compileOptions().maxRegisters, 64);
        QCOMPARE(host.statuses.last(), QStringLiteral("The launch panel now has block.x=128"));
    }

    void unreadableProjectsAreTwoFailedSides()
    {
        StandInHost host;
        new InspectTool(&host);
        auto *compare = new CompareTool(&host);
        QSignalSpy shown(compare, &CompareTool::shown);
        QSignalSpy helloes(host.runController(), &RunController::helloReceived);
        compare->compareProjects(QStringLiteral("/nonexistent/a.cuwb"),
                                 QStringLiteral("/nonexistent/b.cuwb"));
        QVERIFY(shown.count() == 1 || shown.wait(5000));
        QVERIFY(!compare->controller()->isBusy());
        QVERIFY(compare->panel()->hasComparison());
        const CompareData &data = compare->panel()->comparison();
        QVERIFY(!data.a.failure.empty());
        QVERIFY(!data.b.failure.empty());
        QCOMPARE(helloes.count(), 0); // no worker was started for them
        QVERIFY(!host.statuses.isEmpty());
    }
};

CUWB_TEST_MAIN(TestTools)
} // namespace tst_tools
} // namespace

#include "tst_tools.moc"
