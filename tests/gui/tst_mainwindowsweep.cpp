// The Sweep and History docks wired into the main window: a project's sweep is loaded and
// saved with it; a clicked point of the chart sets the launch panel's block; the Samples
// menu's classroom entry opens the copy project and sweeps it in one click (against the
// stand-in worker, tests/core/fakesweepworker.cpp); the finished sweep lands in the history,
// which reopens it and overlays it as a baseline.
#include "gui/common/expressionfield.h"
#include "gui/editor/document.h"
#include "gui/history/historymodel.h"
#include "gui/history/historypanel.h"
#include "gui/history/historytool.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/projectcontroller.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptablemodel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"

#include "project/project.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_mainwindowsweep {

namespace {

constexpr int kCompileTimeoutMs = 30000;
constexpr int kSweepTimeoutMs = 90000;

QString samplePath(const char *relative)
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/") + QLatin1String(relative);
}

QAction *findAction(QWidget *root, const QString &objectName)
{
    const QList<QAction *> actions = root->findChildren<QAction *>(objectName);
    return actions.isEmpty() ? nullptr : actions.front();
}

} // namespace

class TestMainWindowSweep : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    bool waitForKernel()
    {
        return QTest::qWaitFor(
            [this] {
                Document *document = m_window->currentDocument();
                return document && document->hasResult() && document->lastResult().success &&
                       !m_window->launchPanel()->currentKernel().isEmpty() &&
                       m_window->sweepTool()->panel()->hasBase();
            },
            kCompileTimeoutMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        MainWindow::Settings settings;
        settings.restoreLayout = false;
        settings.probeDevices = false;
        settings.prompts = false;
        settings.historyPath = m_dir.filePath(QStringLiteral("history.sqlite"));
        m_window = std::make_unique<MainWindow>(settings);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        // Measure on the stand-in worker, as if a GPU had been found.
        m_window->sweepTool()->controller()->setWorkerCommand(
            QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH), {});
        m_window->sweepTool()->controller()->setAvailability(true, {});
        m_window->sweepTool()->panel()->setRunAvailability(true, {});
        QTRY_VERIFY_WITH_TIMEOUT(m_window->historyTool()->panel()->isDatabaseOpen(), 10000);
    }

    void cleanupTestCase() { m_window.reset(); }

    void theProjectsSweepIsLoadedAndSaved()
    {
        QVERIFY(m_window->openPath(samplePath("transpose/transpose.cuwb")));
        SweepPanel *panel = m_window->sweepTool()->panel();
        QCOMPARE(panel->spec().axes.size(), std::size_t(2));
        QCOMPARE(panel->spec().constraints.size(), std::size_t(2));

        QVERIFY(panel->applyPreset(QStringLiteral("block-pow2")));
        const QString saved = m_dir.filePath(QStringLiteral("transpose-copy.cuwb"));
        QVERIFY2(m_window->projectController()->saveTo(saved),
                 qPrintable(m_window->projectController()->lastError()));
        const ProjectLoad load = loadProject(saved.toStdString());
        QVERIFY2(load.project, load.error.c_str());
        QVERIFY(load.project->sweep);
        QCOMPARE(load.project->sweep->axes, panel->spec().axes);
        QCOMPARE(load.project->sweep->axes.front().kind, AxisValues::PowersOfTwo);

        // A project without a sweep shows none, and saves none.
        QVERIFY(m_window->openPath(samplePath("copy/copy.cuwb")));
        QVERIFY(panel->spec().axes.empty());
        const QString copy = m_dir.filePath(QStringLiteral("copy-again.cuwb"));
        QVERIFY(m_window->projectController()->saveTo(copy));
        QVERIFY(!loadProject(copy.toStdString()).project->sweep);
    }

    void theClassroomEntrySweepsTheCopyInOneClick()
    {
        QAction *classroom = findAction(m_window.get(), QStringLiteral("classroomCopySweep"));
        QVERIFY(classroom);
        QCOMPARE(classroom->text(), QStringLiteral("Classroom: copy block-size sweep"));
        SweepPanel *panel = m_window->sweepTool()->panel();
        QSignalSpy shown(panel, &SweepPanel::sweepShown);
        QSignalSpy stored(m_window->historyTool()->panel(), &HistoryPanel::entryAdded);
        // While the sweep measures, Run waits for it: one measurement on the GPU at a time.
        LaunchPanel *launch = m_window->launchPanel();
        launch->setRunAvailability(true, {});
        QStringList blockedWhileSweeping;
        const QMetaObject::Connection watch =
            connect(m_window->sweepTool()->controller(), &SweepController::runningChanged, this,
                    [&](bool running) {
                        if (running)
                            blockedWhileSweeping << launch->runBlockedReason();
                    });
        const auto unwatch = qScopeGuard([watch] { QObject::disconnect(watch); });
        classroom->trigger();
        QCOMPARE(panel->presetCombo()->currentData().toString(),
                 QStringLiteral("block-32-step-32"));
        QVERIFY(shown.wait(kSweepTimeoutMs));
        const auto result = shown.first().first().value<SweepResult>();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QCOMPARE(result.points.size(), std::size_t(32));
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(32));
        QCOMPARE(result.kernel, std::string("copy"));
        QCOMPARE(panel->sweepResultsView()->tableModel()->rowCount(), 32);
        QCOMPARE(blockedWhileSweeping.size(), 1);
        QVERIFY2(blockedWhileSweeping.first().contains(QStringLiteral("A sweep is measuring")),
                 qPrintable(blockedWhileSweeping.first()));
        QVERIFY2(!launch->runBlockedReason().contains(QStringLiteral("sweep")),
                 qPrintable(launch->runBlockedReason()));

        // Kept in the history.
        QVERIFY(stored.wait(10000) || stored.size() == 1);
        HistoryModel *history = m_window->historyTool()->panel()->model();
        QTRY_VERIFY_WITH_TIMEOUT(history->rowCount() >= 1, 10000);
        QCOMPARE(
            history->index(0, HistoryModel::KindColumn).data(HistoryModel::KindRole).toString(),
            QStringLiteral("sweep"));
        QVERIFY(history->index(0, HistoryModel::SummaryColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("32 points, best block.x=")));
        const qint64 id = history->index(0, 0).data(HistoryModel::IdRole).toLongLong();

        // Reopened and compared as a baseline.
        panel->showResult(SweepResult{}, QStringLiteral("empty"));
        QCOMPARE(panel->sweepResultsView()->tableModel()->rowCount(), 0);
        m_window->historyTool()->panel()->openEntry(id);
        QTRY_COMPARE_WITH_TIMEOUT(panel->sweepResultsView()->tableModel()->rowCount(), 32, 10000);
        m_window->historyTool()->panel()->compareEntry(id);
        QTRY_VERIFY_WITH_TIMEOUT(panel->hasBaseline(), 10000);
        QCOMPARE(panel->sweepResultsView()->runs().size(), std::size_t(2));
    }

    void aClickedPointSetsTheLaunchBlock()
    {
        QVERIFY(m_window->openPath(samplePath("copy/copy.cuwb")));
        QVERIFY(waitForKernel());
        LaunchPanel *launch = m_window->launchPanel();
        QCOMPARE(m_window->workspace()->launch().spec().block[0], std::string("256"));
        SweepPanel *panel = m_window->sweepTool()->panel();
        panel->applyPreset(QStringLiteral("block-pow2"));
        QSignalSpy shown(panel, &SweepPanel::sweepShown);
        QVERIFY(panel->runSweep());
        QVERIFY(shown.wait(kSweepTimeoutMs));
        m_window->sweepTool()->showDock();
        QTest::qWait(300); // the dock's new size is laid out

        SweepResultsView *view = panel->sweepResultsView();
        const std::optional<QPoint> at = view->pointPosition(0, 1); // block.x = 64
        QVERIFY(at);
        QWidget *viewport =
            static_cast<QChartView *>(view->timeChart()->scene()->views().front())->viewport();
        QSignalSpy applied(m_window->sweepTool(), &SweepTool::pointApplied);
        QTest::mouseClick(viewport, Qt::LeftButton, {}, *at);
        QCOMPARE(applied.size(), 1);
        QCOMPARE(m_window->workspace()->launch().spec().block[0], std::string("64"));
        QCOMPARE(launch->blockField(0)->expression(), QStringLiteral("64"));
        QCOMPARE(m_window->workspace()->launch().spec().kernel, std::string("copy"));
        QCOMPARE(m_window->workspace()->launch().spec().arguments.size(), std::size_t(3));
    }
};

CUWB_TEST_MAIN(TestMainWindowSweep)
} // namespace tst_mainwindowsweep
} // namespace

#include "tst_mainwindowsweep.moc"
