// The features that plug themselves in (gui/workspace/toolhost.h), each against a stand-in
// host with only the pieces a tool uses and no main window: the Inspect tool adds the SASS
// tab, its dock, the hot-line actions and its View toggle; it refuses to inspect while the
// launch cannot run; its -lineinfo fix turns the option on and inspects once a compile with it
// is shown. The Compare tool adds its dock beside Inspect's and Run ▸ Compare…, finds the
// Inspect tool through the host, and reports two unreadable projects as a comparison with two
// failed sides, without starting a worker. The Sweep tool says what its base waits for as the
// documents change, and a clicked point becomes the Workspace's launch and options. The Lesson
// tool loads the lesson of the project opened, says why an experiment cannot start, and runs a
// sweep once a compile is shown; the History tool records a measurement that took samples and
// hands it back when it is opened. The Run and Measure tools show what the run controller
// answers; the Device tool announces the target chosen and refuses one that is not valid.

#include "gui/common/sharedworker.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/comparetool.h"
#include "gui/device/deviceselector.h"
#include "gui/device/devicetool.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/history/historypanel.h"
#include "gui/history/historytool.h"
#include "gui/inspect/inspectcontroller.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/inspecttool.h"
#include "gui/inspect/sassview.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/lesson/lessontool.h"
#include "gui/measure/measurementpanel.h"
#include "gui/measure/measuretool.h"
#include "gui/run/resultspanel.h"
#include "gui/run/runcontroller.h"
#include "gui/run/runtool.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "support/sweeptesthelpers.h"
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
        for (const QString &id : {kRunActionId, kMeasureActionId, kCompileActionId}) {
            auto *action = new QAction(id, this);
            registerAction(id, action);
        }
        auto *launch = new QDockWidget(QStringLiteral("Launch"), &m_window);
        launch->setObjectName(QStringLiteral("launchDock"));
        m_window.addDockWidget(Qt::RightDockWidgetArea, launch);
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
    QString deviceSummary() const override { return QStringLiteral("No GPU (stand-in)"); }
    bool layoutRestored() const override { return false; }
    void placeDock(QDockWidget *dock, Qt::DockWidgetArea area, const QString &tabbedWith) override
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
    void initTestCase()
    {
        // The tools' settings (the Device tool's target) in a folder of this test's own.
        QVERIFY(m_settingsDir.isValid());
        cuwb::test::keepSettingsIn(m_settingsDir.path());
    }

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
        spec.axes = {sweeptest::listAxis("block.x", {"64", "128"})};
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

    void lessonFollowsTheProjectAndItsExperiment()
    {
        StandInHost host;
        auto *sweep = new SweepTool(&host);
        auto *tool = new LessonTool(&host);
        QCOMPARE(host.tool<LessonTool>(), tool);
        QCOMPARE(host.window()->dockWidgetArea(tool->dock()), Qt::RightDockWidgetArea);
        QVERIFY(tool->dock()->isHidden()); // until a project with a lesson is opened
        QVERIFY(host.menuActions(ToolHost::MenuSection::ViewDocks)
                    .contains(tool->dock()->toggleViewAction()));

        Q_EMIT host.projectOpened(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cuwb"));
        QVERIFY(tool->panel()->hasLesson());
        QVERIFY(!tool->dock()->isHidden());
        QVERIFY(host.statuses.isEmpty());

        // Measure while the launch cannot run: the lesson says why rather than wait.
        host.blocked = QStringLiteral("Run needs a CUDA GPU");
        QSignalSpy measure(host.action(ToolHost::kMeasureActionId), &QAction::triggered);
        Q_EMIT tool->panel()->experimentRequested(LessonExperiment::Measure);
        QCOMPARE(measure.count(), 0);
        QVERIFY2(tool->panel()->statusLabel()->text().contains(host.blocked),
                 qPrintable(tool->panel()->statusLabel()->text()));
        // It can: Measure is triggered, and the measurement that comes back is the lesson's.
        host.blocked.clear();
        Q_EMIT tool->panel()->experimentRequested(LessonExperiment::Measure);
        QCOMPARE(measure.count(), 1);
        // A sweep with no compiled kernel yet asks for a compile and waits for it.
        QSignalSpy compile(host.action(ToolHost::kCompileActionId), &QAction::triggered);
        QVERIFY(!sweep->panel()->hasBase());
        Q_EMIT tool->panel()->experimentRequested(LessonExperiment::Sweep);
        QCOMPARE(compile.count(), 1);
        // The compile shown still gives the sweep no kernel: the lesson says what the sweep says.
        Document *document = host.documents()->newDocument();
        Q_EMIT host.documentShown(document);
        QVERIFY2(tool->panel()->statusLabel()->text().contains(sweep->panel()->messageText()),
                 qPrintable(tool->panel()->statusLabel()->text()));

        // A project without a lesson: the panel says so.
        QTemporaryDir elsewhere;
        QVERIFY(elsewhere.isValid());
        Q_EMIT host.projectOpened(elsewhere.filePath(QStringLiteral("plain.cuwb")));
        QVERIFY(!tool->panel()->hasLesson());
        QCOMPARE(tool->panel()->titleLabel()->text(), QStringLiteral("No lesson"));
    }

    void historyRecordsWhatWasMeasured()
    {
        StandInHost host;
        new SweepTool(&host);
        auto *tool = new HistoryTool(&host);
        QCOMPARE(host.tool<HistoryTool>(), tool);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        tool->panel()->setDatabasePath(dir.filePath(QStringLiteral("history.sqlite")));
        QSignalSpy added(tool->panel(), &HistoryPanel::entryAdded);

        Measurement none; // no samples: a measurement that never ran is not recorded
        Q_EMIT host.runController()->measurementFinished(1, none);
        Measurement measured;
        measured.provenance.kernel = "vector_add";
        measured.statistics.count = 3;
        measured.statistics.medianNs = 1000.0;
        Q_EMIT host.runController()->measurementFinished(2, measured);
        QVERIFY(added.wait(5000));
        QCOMPARE(added.count(), 1);

        // Opening it again hands the measurement to whoever shows measurements.
        QSignalSpy opened(tool, &HistoryTool::measurementOpened);
        QSignalSpy open(tool->panel(), &HistoryPanel::openRequested);
        tool->panel()->openEntry(added.first().first().toLongLong());
        QVERIFY(open.count() == 1 || open.wait(5000));
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().first().value<Measurement>().provenance.kernel,
                 std::string("vector_add"));
    }

    void runShowsTheVerdict()
    {
        StandInHost host;
        auto *tool = new RunTool(&host);
        QCOMPARE(host.tool<RunTool>(), tool);
        QVERIFY(host.menuActions(ToolHost::MenuSection::ViewDocks)
                    .contains(tool->dock()->toggleViewAction()));
        host.runController()->setAvailability(false, QStringLiteral("Run needs a CUDA GPU"));
        QSignalSpy shown(tool, &RunTool::shown);
        tool->run();
        QCOMPARE(shown.count(), 1);
        // The status bar has the verdict's first line; the dock has it all.
        QVERIFY(!host.statuses.isEmpty());
        QCOMPARE(host.statuses.last(),
                 tool->panel()->statusText().section(QLatin1Char('\n'), 0, 0));
        QVERIFY2(tool->panel()->statusText().contains(QStringLiteral("Run needs a CUDA GPU")),
                 qPrintable(tool->panel()->statusText()));
    }

    void measureReportsWhatTheRunControllerSays()
    {
        StandInHost host;
        auto *tool = new MeasureTool(&host);
        QCOMPARE(host.tool<MeasureTool>(), tool);
        QVERIFY(host.menuActions(ToolHost::MenuSection::ViewDocks)
                    .contains(tool->dock()->toggleViewAction()));
        // Without a GPU the run controller answers at once: the dock shows why, so does the
        // status bar, and shown() follows.
        host.runController()->setAvailability(false, QStringLiteral("Run needs a CUDA GPU"));
        QSignalSpy shown(tool, &MeasureTool::shown);
        tool->measure();
        QCOMPARE(shown.count(), 1);
        QVERIFY(!host.statuses.isEmpty());
        QCOMPARE(host.statuses.last(), tool->panel()->statusText());
        // A stored measurement is shown as it was taken.
        Measurement stored;
        stored.provenance.kernel = "copy";
        stored.statistics.count = 5;
        stored.statistics.medianNs = 2000.0;
        tool->showStored(stored);
        QCOMPARE(shown.count(), 1); // a stored one is not a new measurement
    }

    void deviceToolSaysWhereKernelsRun()
    {
        StandInHost host;
        auto *tool = new DeviceTool(&host);
        QCOMPARE(host.tool<DeviceTool>(), tool);
        QVERIFY(
            host.window()
                ->tabifiedDockWidgets(tool->dock())
                .contains(host.window()->findChild<QDockWidget *>(QStringLiteral("launchDock"))));
        QSignalSpy changed(tool, &DeviceTool::targetChanged);
        QCOMPARE(tool->target(), QString()); // this machine, in a fresh settings folder
        QVERIFY(tool->selector()->setTarget(QStringLiteral("student@gpu.example.org:2222")));
        QCOMPARE(tool->target(), QStringLiteral("student@gpu.example.org:2222"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().first().toString(), tool->target());
        QVERIFY(!tool->selector()->setTarget(QStringLiteral("not a host")));
        QCOMPARE(changed.count(), 1);
        // The choice is the target of the Workspace's placement, which the shared worker
        // follows whoever sets it.
        QCOMPARE(host.workspace()->placement().target,
                 std::optional<std::string>("student@gpu.example.org:2222"));
        QVERIFY(host.worker()->hasTarget());
        Placement here = host.workspace()->placement();
        here.target.reset();
        host.workspace()->setPlacement(here);
        QCOMPARE(tool->target(), QString());
        QVERIFY(!host.worker()->hasTarget());
        QCOMPARE(changed.count(), 2);
        // A change of the placement elsewhere (the sweep's GPUs) is not a change of target.
        here.devices = {0, 1};
        host.workspace()->setPlacement(here);
        QCOMPARE(changed.count(), 2);
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

private:
    QTemporaryDir m_settingsDir;
};

CUWB_TEST_MAIN(TestTools)
} // namespace tst_tools
} // namespace

#include "tst_tools.moc"
