// The Sweep dock's panel: the live point count and the reasons a sweep does not run (empty,
// every point skipped, an error in the spec, no kernel), the question before a large sweep,
// presets, the axes table; a sweep through the SweepController against the stand-in worker
// (tests/support/fakesweepworker.cpp) streaming into the table and chart, cancelling it, a stored
// sweep opened and rendered offscreen with a baseline, the exports, and a clicked row giving
// its point's configuration; on two GPUs of different models (the stand-in playing them), the
// dock's choice of GPUs, the table's GPU column and a best point per GPU instead of one.
#include "gui/sweep/sweepaxesmodel.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweepdevicebox.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptablemodel.h"
#include "gui/workspace/workspace.h"

#include "../support/sweeptesthelpers.h"
#include "project/project.h"
#include "sweep/sweepjson.h"
#include "sweeptestdata.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sweeppanel {

namespace {

struct Fixture
{
    std::unique_ptr<SweepController> controller;
    std::unique_ptr<Workspace> workspace = std::make_unique<Workspace>();
    std::unique_ptr<SweepPanel> panel;
};

Fixture makePanel(const QStringList &workerArguments = {})
{
    Fixture f;
    f.controller = std::make_unique<SweepController>();
    f.controller->setWorkerCommand(QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH), workerArguments);
    f.panel = std::make_unique<SweepPanel>(f.controller.get(), f.workspace.get());
    SweepContext context;
    context.projectName = "add_one";
    f.panel->setBase(addOneRequest(), context, archLimits("sm_90"));
    return f;
}

void waitForCount(SweepPanel &panel)
{
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isCounting(), 20000);
}

constexpr int kSweepTimeoutMs = 60000;

} // namespace

class TestSweepPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoGpusOfDifferentModelsShowTheGpuColumnAndEachBest()
    {
        qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
        const QVariant kept = QSettings().value(QStringLiteral("sweep/gpus"));
        Fixture f = makePanel();
        f.panel->resize(1400, 600);
        f.panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(f.panel.get()));
        SweepDeviceBox *box = f.panel->deviceBox();
        // One GPU: nothing to choose.
        DeviceInfo h200;
        h200.name = "Fake H200";
        h200.major = 9;
        DeviceInfo a100;
        a100.ordinal = 1;
        a100.name = "Fake A100";
        a100.major = 8;
        f.panel->setDevices({h200});
        QVERIFY(!box->isVisible());
        QVERIFY(box->chosenDevices().empty());
        f.panel->setDevices({h200, a100});
        QVERIFY(box->isVisible());
        // A list naming a GPU the machine lacks holds the sweep, with the reason.
        box->setChoice(QStringLiteral("0,3"));
        QVERIFY(!box->problem().isEmpty());
        QVERIFY(box->chosenDevices().empty());
        QVERIFY(f.workspace->placement().devices.empty());
        box->setChoice(QStringLiteral("all"));
        QCOMPARE(box->chosenDevices(), (std::vector<int>{0, 1}));
        // The choice is the sweep's part of the Workspace's placement, which the controller
        // takes.
        QCOMPARE(f.workspace->placement().devices, (std::vector<int>{0, 1}));
        QCOMPARE(f.controller->placement(), f.workspace->placement());

        f.panel->applyPreset(QStringLiteral("block-pow2"));
        waitForCount(*f.panel);
        QSignalSpy shown(f.panel.get(), &SweepPanel::sweepShown);
        QVERIFY(f.panel->runSweep());
        QVERIFY(shown.wait(kSweepTimeoutMs));
        QSettings().setValue(QStringLiteral("sweep/gpus"),
                             kept.isValid() ? kept : QVariant(QStringLiteral("this")));
        qunsetenv("CUWB_FAKE_DEVICES");

        SweepTableModel *table = f.panel->sweepResultsView()->tableModel();
        QTableView *view = f.panel->sweepResultsView()->tableView();
        const int gpuColumn = table->column(SweepTableModel::DeviceColumn);
        QVERIFY(!view->isColumnHidden(gpuColumn));
        QCOMPARE(table->headerData(gpuColumn, Qt::Horizontal).toString(), QStringLiteral("GPU"));
        QCOMPARE(table->rowCount(), 6);
        QSet<QString> gpus;
        int bestRows = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString gpu = table->index(row, gpuColumn).data().toString();
            QVERIFY2(gpu == QStringLiteral("GPU 0") || gpu == QStringLiteral("GPU 1"),
                     qPrintable(gpu));
            gpus.insert(gpu);
            if (table->isBestOnDevice(row)) {
                ++bestRows;
                QCOMPARE(
                    table->index(row, table->column(SweepTableModel::BestColumn)).data().toString(),
                    QStringLiteral("best on ") + gpu);
            }
        }
        // Different models: no single best, one per GPU that measured.
        QVERIFY(!table->bestRow());
        QCOMPARE(bestRows, gpus.size());
        const QString status = f.panel->statusLabel()->text();
        QVERIFY2(status.contains(QStringLiteral("no single best")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("on 2 GPUs")), qPrintable(status));

        // A one-GPU result hides the column again.
        f.panel->showResult(SweepResult{});
        QVERIFY(view->isColumnHidden(table->column(SweepTableModel::DeviceColumn)));
    }

    void aRunInProgressHoldsTheSweep()
    {
        // One measurement on the GPU at a time: the sweep waits for a run, and says so.
        Fixture f = makePanel();
        QVERIFY(f.panel->applyPreset(QStringLiteral("block-pow2")));
        waitForCount(*f.panel);
        QVERIFY(f.panel->canRun());
        f.panel->setRunInProgress(true);
        QVERIFY(!f.panel->canRun());
        QVERIFY(!f.panel->runButton()->isEnabled());
        QVERIFY2(f.panel->runButton()->toolTip().contains(QStringLiteral("using the GPU")),
                 qPrintable(f.panel->runButton()->toolTip()));
        QVERIFY(!f.panel->runSweep());
        f.panel->setRunInProgress(false);
        QVERIFY(f.panel->canRun());
        QVERIFY(f.panel->runButton()->isEnabled());
    }

    void countsThePointsOfAPreset()
    {
        Fixture f = makePanel();
        QVERIFY(f.panel->applyPreset(QStringLiteral("block-32-step-32")));
        QCOMPARE(f.panel->presetCombo()->currentData().toString(),
                 QStringLiteral("block-32-step-32"));
        waitForCount(*f.panel);
        QVERIFY2(f.panel->countText().startsWith(QStringLiteral("32 points, 0 skipped; at least ")),
                 qPrintable(f.panel->countText()));
        QCOMPARE(f.panel->pointCount(), std::optional<std::size_t>(32));
        QCOMPARE(f.panel->runnableCount(), std::optional<std::size_t>(32));
        QVERIFY(f.panel->canRun());
        QVERIFY(f.panel->runButton()->isEnabled());
        QVERIFY(f.panel->messageText().isEmpty());

        // A point over the limits is counted as skipped.
        SweepSpec spec = f.panel->spec();
        spec.axes = {listAxis("block.x", {"256", "2048"})};
        f.workspace->setSweep(spec);
        QCOMPARE(f.panel->presetCombo()->currentIndex(), 0); // Custom
        waitForCount(*f.panel);
        QVERIFY2(f.panel->countText().startsWith(QStringLiteral("2 points, 1 skipped")),
                 qPrintable(f.panel->countText()));
        QVERIFY(f.panel->canRun());
    }

    void emptySweepShowsWhyAndDoesNotRun()
    {
        Fixture f = makePanel();
        f.workspace->setSweep(SweepSpec{});
        waitForCount(*f.panel);
        QVERIFY(!f.panel->canRun());
        QVERIFY(!f.panel->runButton()->isEnabled());
        QVERIFY2(f.panel->messageText().contains(QStringLiteral("no axes")),
                 qPrintable(f.panel->messageText()));
        QSignalSpy finished(f.controller.get(), &SweepController::sweepFinished);
        QVERIFY(!f.panel->runSweep());
        QVERIFY(!f.controller->isRunning());
        QCOMPARE(finished.size(), 0);
    }

    void allPointsSkippedShowsWhyAndDoesNotRun()
    {
        Fixture f = makePanel();
        SweepSpec spec;
        spec.axes = {listAxis("block.x", {"2048", "4096"})};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QVERIFY(!f.panel->canRun());
        const QString message = f.panel->messageText();
        QVERIFY2(message.startsWith(QStringLiteral("Nothing to measure: all 2 points are skipped")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("block.x=2048: ")), qPrintable(message));
        QVERIFY(!f.panel->runSweep());
        QVERIFY(!f.controller->isRunning());

        // And a constraint that excludes everything.
        spec.axes = {listAxis("block.x", {"32", "64"})};
        spec.constraints = {"block.x > 1000"};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QVERIFY(!f.panel->canRun());
        QVERIFY2(f.panel->messageText().contains(QStringLiteral("constraint")),
                 qPrintable(f.panel->messageText()));
    }

    void aSpecErrorIsShown()
    {
        Fixture f = makePanel();
        SweepSpec spec;
        spec.axes = {listAxis("M", {"1", "2"})};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QVERIFY(!f.panel->canRun());
        QVERIFY2(f.panel->messageText().contains(QStringLiteral("`M` is not a variable")),
                 qPrintable(f.panel->messageText()));
        QCOMPARE(f.panel->countText(), QStringLiteral("No points"));

        spec.axes = {rangeAxis("block.x", 32, 1024, 0)};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QVERIFY2(f.panel->messageText().contains(QStringLiteral("step 0")),
                 qPrintable(f.panel->messageText()));
    }

    void withoutAKernelOrAGpuRunSaysWhy()
    {
        Fixture f = makePanel();
        f.panel->applyPreset(QStringLiteral("block-pow2"));
        f.panel->clearBase(QStringLiteral("Compile the kernel first."));
        waitForCount(*f.panel);
        QCOMPARE(f.panel->messageText(), QStringLiteral("Compile the kernel first."));
        QVERIFY(!f.panel->runSweep());

        f.panel->setBase(addOneRequest(), {}, archLimits("sm_90"));
        f.panel->setRunAvailability(false, QStringLiteral("Run needs a CUDA GPU: none"));
        waitForCount(*f.panel);
        QCOMPARE(f.panel->messageText(), QStringLiteral("Run needs a CUDA GPU: none"));
        QVERIFY(!f.panel->runButton()->isEnabled());
        f.panel->setRunAvailability(true, {});
        QVERIFY(f.panel->runButton()->isEnabled());
    }

    void aLargeSweepAsksFirst()
    {
        Fixture f = makePanel();
        SweepSpec spec;
        spec.axes = {rangeAxis("block.x", 1, 1024, 1), listAxis("-DX", {"1", "2"})};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QCOMPARE(f.panel->pointCount(), std::optional<std::size_t>(2048));
        QString asked;
        f.panel->setConfirmation([&asked](const QString &question) {
            asked = question;
            return false;
        });
        QVERIFY(!f.panel->runSweep());
        QVERIFY(!f.controller->isRunning());
        QVERIFY2(asked.contains(QLocale().toString(2048) + QStringLiteral(" points")),
                 qPrintable(asked));
        QVERIFY2(asked.contains(QStringLiteral("at least")), qPrintable(asked));
        QVERIFY(f.panel->messageText().startsWith(QStringLiteral("Not started")));

        // 1000 points run without asking.
        spec.axes = {rangeAxis("block.x", 1, 1000, 1)};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        asked.clear();
        QCOMPARE(f.panel->pointCount(), std::optional<std::size_t>(1000));
        QVERIFY(f.panel->runSweep());
        QVERIFY(asked.isEmpty());
        f.panel->cancelSweep();
        QTRY_VERIFY_WITH_TIMEOUT(!f.controller->isRunning(), kSweepTimeoutMs);
    }

    void aSweepOverTheLimitIsRefusedWithItsCount()
    {
        Fixture f = makePanel();
        SweepSpec spec;
        spec.axes = {rangeAxis("block.x", 1, 1000, 1), rangeAxis("N", 1, 1000, 1)};
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QCOMPARE(f.panel->pointCount(), std::optional<std::size_t>());
        QVERIFY2(f.panel->messageText().contains(
                     QStringLiteral("the sweep has 1,000,000 points (1000 × 1000); the limit is "
                                    "10,000 points")),
                 qPrintable(f.panel->messageText()));
        QVERIFY(!f.panel->runSweep());
        // Its targets are still checked.
        spec.axes[1].target = "M";
        f.workspace->setSweep(spec);
        waitForCount(*f.panel);
        QVERIFY2(f.panel->messageText().contains(QStringLiteral("`M` is not a variable")),
                 qPrintable(f.panel->messageText()));
    }

    void editsReachTheSpec()
    {
        Fixture f = makePanel();
        QSignalSpy edited(f.panel.get(), &SweepPanel::specEdited);
        f.panel->applyPreset(QStringLiteral("block-pow2"));
        SweepAxesModel *model = f.panel->axesModel();
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->index(0, SweepAxesModel::KindColumn).data().toString(),
                 QStringLiteral("powers of two"));
        QCOMPARE(model->index(0, SweepAxesModel::ValuesColumn).data().toString(),
                 QStringLiteral("32, 64, 128, 256, 512, 1024"));
        QVERIFY(!(model->flags(model->index(0, SweepAxesModel::StepColumn)) & Qt::ItemIsEnabled));

        // To a range, then a list: the values carry over.
        QVERIFY(model->setData(model->index(0, SweepAxesModel::KindColumn), 1,
                               SweepAxesModel::ChoiceRole));
        QCOMPARE(f.panel->spec().axes.front().kind, AxisValues::Range);
        QVERIFY(model->setData(model->index(0, SweepAxesModel::StepColumn), QStringLiteral("64")));
        QCOMPARE(f.panel->spec().axes.front().step, 64.0);
        QVERIFY(!model->setData(model->index(0, SweepAxesModel::StepColumn), QStringLiteral("x")));
        QVERIFY(model->setData(model->index(0, SweepAxesModel::KindColumn), 0,
                               SweepAxesModel::ChoiceRole));
        QCOMPARE(f.panel->spec().axes.front().values.size(), std::size_t(16));
        QVERIFY(model->setData(model->index(0, SweepAxesModel::ValuesColumn),
                               QStringLiteral("64, min(N, 128) ,256")));
        QCOMPARE(f.panel->spec().axes.front().values,
                 (std::vector<std::string>{"64", "min(N, 128)", "256"}));
        QCOMPARE(f.panel->presetCombo()->currentIndex(), 0);
        QVERIFY(edited.size() >= 4);
        // The group column: axes of one group zip, groups combine as a product.
        QCOMPARE(model->headerData(SweepAxesModel::GroupColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Group"));
        QVERIFY(model->setData(model->index(0, SweepAxesModel::GroupColumn),
                               QStringLiteral(" shape ")));
        QCOMPARE(f.panel->spec().axes.front().group, std::string("shape"));
        QVERIFY(model->setData(model->index(0, SweepAxesModel::GroupColumn), QString()));
        QVERIFY(f.panel->spec().axes.front().group.empty());

        // A second axis, cartesian or zipped, constraints, sampling.
        const int row = model->addAxis();
        QCOMPARE(row, 1);
        QCOMPARE(f.panel->spec().axes[1].target, std::string("block.y"));
        f.panel->combinationCombo()->setCurrentIndex(1);
        QCOMPARE(f.panel->spec().combination, AxisCombination::Zip);
        waitForCount(*f.panel);
        QCOMPARE(f.panel->pointCount(), std::optional<std::size_t>(3));
        f.panel->constraintsEdit()->setPlainText(QStringLiteral("block.x*block.y <= 512\n\n"));
        QCOMPARE(f.panel->spec().constraints, std::vector<std::string>{"block.x*block.y <= 512"});
        f.panel->verifyCheck()->setChecked(true);
        QVERIFY(f.panel->spec().verify);
        // Roofline: each point's metrics pass also collects the roofline's metrics.
        QCOMPARE(f.panel->rooflineCheck()->text(), QStringLiteral("Roofline"));
        f.panel->rooflineCheck()->setChecked(true);
        QVERIFY(f.panel->spec().roofline);
        f.panel->rooflineCheck()->setChecked(false);
        QVERIFY(!f.panel->spec().roofline);
        f.panel->samplesSpin()->setValue(0);
        QCOMPARE(f.panel->spec().settings.fixedSamples, 0);
        f.panel->modeCombo()->setCurrentIndex(1);
        QCOMPARE(f.panel->spec().settings.mode, SampleMode::Cold);
        QVERIFY(model->removeAxis(1));
        QCOMPARE(f.panel->spec().axes.size(), std::size_t(1));
    }

    void aSweepStreamsIntoTheTableAndFinishes()
    {
        Fixture f = makePanel();
        f.panel->resize(1400, 600);
        f.panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(f.panel.get()));
        f.panel->applyPreset(QStringLiteral("block-pow2"));
        waitForCount(*f.panel);
        QSignalSpy shown(f.panel.get(), &SweepPanel::sweepShown);
        SweepTableModel *table = f.panel->sweepResultsView()->tableModel();
        QVERIFY(f.panel->runSweep());
        QVERIFY(!f.panel->runButton()->isEnabled());
        QVERIFY(f.panel->cancelButton()->isEnabled());
        QVERIFY(!f.panel->axesView()->isEnabled()); // the spec is fixed while it runs
        QVERIFY(shown.wait(kSweepTimeoutMs));
        QCOMPARE(table->rowCount(), 6);
        for (int row = 0; row < 6; ++row) {
            QCOMPARE(
                table->index(row, table->column(SweepTableModel::StatusColumn)).data().toString(),
                QStringLiteral("measured"));
        }
        QVERIFY(table->bestRow());
        QCOMPARE(f.panel->result().count(PointStatus::Measured), std::size_t(6));
        QCOMPARE(f.panel->progressBar()->value(), 6);
        QVERIFY2(
            f.panel->statusLabel()->text().startsWith(QStringLiteral("Measured 6 of 6 points")),
            qPrintable(f.panel->statusLabel()->text()));
        QVERIFY2(f.panel->statusLabel()->text().contains(QStringLiteral("\nTime: compiling ")),
                 qPrintable(f.panel->statusLabel()->text()));
        // The measurements' phases and what a point cost beyond its samples.
        QVERIFY2(f.panel->statusLabel()->text().contains(
                     QStringLiteral("\nMeasuring: load and buffers ")) &&
                     f.panel->statusLabel()->text().contains(QStringLiteral("beyond its samples")),
                 qPrintable(f.panel->statusLabel()->text()));
        QVERIFY(f.panel->runButton()->isEnabled());
        QVERIFY(!f.panel->cancelButton()->isEnabled());
        QVERIFY(!f.panel->sweepResultsView()->chartData().series.empty());
        const QString keep = qEnvironmentVariable("CUWB_SWEEP_SCREENSHOT_DIR");
        if (!keep.isEmpty()) {
            QTest::qWait(200);
            f.panel->grab().save(keep + QStringLiteral("/sweeppanel-run.png"));
        }
    }

    void pointsThatArriveWithTheEndAreShown()
    {
        // A busy GUI thread can find every point and the end of a sweep queued at once, before
        // the timer that draws points in batches has fired: the end alone must show them all.
        Fixture f = makePanel();
        SweepResult finished = testdata::copySweep();
        SweepResult skeleton = finished;
        for (SweepPointResult &point : skeleton.points) {
            point.status = PointStatus::Pending;
            point.measurement.reset();
            point.metrics.reset();
        }
        QSignalSpy shown(f.panel.get(), &SweepPanel::sweepShown);
        Q_EMIT f.controller->sweepStarted(skeleton);
        SweepProgress progress;
        progress.total = finished.points.size();
        for (const SweepPointResult &point : finished.points) {
            ++progress.done;
            ++progress.measured;
            Q_EMIT f.controller->pointFinished(point, progress);
        }
        Q_EMIT f.controller->sweepFinished(finished);
        QCOMPARE(shown.size(), 1);
        SweepTableModel *table = f.panel->sweepResultsView()->tableModel();
        QCOMPARE(table->rowCount(), 32);
        const int status = table->column(SweepTableModel::StatusColumn);
        for (int row = 0; row < 32; ++row)
            QCOMPARE(table->index(row, status).data().toString(), QStringLiteral("measured"));
        QCOMPARE(f.panel->progressBar()->value(), 32);
        QVERIFY2(
            f.panel->statusLabel()->text().startsWith(QStringLiteral("Measured 32 of 32 points")),
            qPrintable(f.panel->statusLabel()->text()));
    }

    void cancelKeepsTheMeasuredPoints()
    {
        Fixture f = makePanel({QStringLiteral("cancel-at-3")});
        f.panel->applyPreset(QStringLiteral("block-pow2"));
        waitForCount(*f.panel);
        QSignalSpy shown(f.panel.get(), &SweepPanel::sweepShown);
        QSignalSpy points(f.controller.get(), &SweepController::pointFinished);
        SweepTableModel *table = f.panel->sweepResultsView()->tableModel();
        QVERIFY(f.panel->runSweep());
        QTRY_COMPARE_WITH_TIMEOUT(points.size(), 2, kSweepTimeoutMs);
        // The worker holds the third point until the cancel, so the sweep cannot finish
        // before the two points are drawn: they stream into the table while it runs.
        const auto statusOf = [table](int row) {
            return table->index(row, table->column(SweepTableModel::StatusColumn))
                .data()
                .toString();
        };
        const QString measured = QStringLiteral("measured");
        QTRY_VERIFY(statusOf(0) == measured && statusOf(1) == measured);
        QCOMPARE(statusOf(2), QStringLiteral("pending"));
        QVERIFY(f.controller->isRunning());
        QTest::mouseClick(f.panel->cancelButton(), Qt::LeftButton);
        QVERIFY(!f.panel->cancelButton()->isEnabled());
        QVERIFY(shown.wait(kSweepTimeoutMs));
        const SweepResult &result = f.panel->result();
        QVERIFY(result.cancelled);
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(2));
        QCOMPARE(table->rowCount(), 6);
        const int status = table->column(SweepTableModel::StatusColumn);
        QCOMPARE(table->index(1, status).data().toString(), QStringLiteral("measured"));
        QCOMPARE(table->index(2, status).data().toString(), QStringLiteral("pending"));
        QVERIFY2(f.panel->statusLabel()->text().startsWith(QStringLiteral("Cancelled: Measured 2")),
                 qPrintable(f.panel->statusLabel()->text()));
    }

    void aWorkerCrashIsShownAndTheSweepGoesOn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Fixture f = makePanel({QStringLiteral("crash-at-2"), dir.filePath(QStringLiteral("m"))});
        f.panel->applyPreset(QStringLiteral("block-pow2"));
        waitForCount(*f.panel);
        QSignalSpy shown(f.panel.get(), &SweepPanel::sweepShown);
        QVERIFY(f.panel->runSweep());
        QVERIFY(shown.wait(kSweepTimeoutMs));
        const QString status = f.panel->statusLabel()->text();
        QVERIFY2(status.startsWith(QStringLiteral("Measured 5 of 6 points")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("block.x=64 failed: ")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("The worker was restarted; the sweep goes on.")),
                 qPrintable(status));
        SweepTableModel *table = f.panel->sweepResultsView()->tableModel();
        QCOMPARE(table->index(1, table->column(SweepTableModel::StatusColumn)).data().toString(),
                 QStringLiteral("failed"));
    }

    void aStoredResultOpenedDuringASweepStaysOnScreen()
    {
        Fixture f = makePanel({QStringLiteral("cancel-at-3")});
        f.panel->applyPreset(QStringLiteral("block-pow2"));
        waitForCount(*f.panel);
        QSignalSpy shown(f.panel.get(), &SweepPanel::sweepShown);
        QSignalSpy points(f.controller.get(), &SweepController::pointFinished);
        QVERIFY(f.panel->runSweep());
        QTRY_COMPARE_WITH_TIMEOUT(points.size(), 2, kSweepTimeoutMs);
        f.panel->showResult(testdata::copySweep(), QStringLiteral("stored"));
        f.panel->cancelSweep();
        QVERIFY(shown.wait(kSweepTimeoutMs));
        QCOMPARE(f.panel->sweepResultsView()->runs().front().name, QStringLiteral("stored"));
        QCOMPARE(f.panel->result().points.size(), std::size_t(32));
        QCOMPARE(f.panel->result().count(PointStatus::Measured), std::size_t(32));
    }

    void aStoredSweepOpensAndRendersWithABaseline()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString current = dir.filePath(QStringLiteral("copy.json"));
        const QString baseline = dir.filePath(QStringLiteral("older.json"));
        {
            QFile file(current);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(serializeSweepResult(testdata::copySweep())));
        }
        {
            QFile file(baseline);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(
                serializeSweepResult(testdata::copySweep(double(1 << 28), 1.3))));
        }
        SweepController controller;
        Workspace workspace;
        SweepPanel panel(&controller, &workspace);
        panel.resize(1500, 560);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.openResult(current), QString());
        QCOMPARE(panel.openBaseline(baseline), QString());
        QVERIFY(panel.hasBaseline());
        QCoreApplication::processEvents();
        SweepResultsView *view = panel.sweepResultsView();
        QCOMPARE(view->runs().size(), std::size_t(2));
        QCOMPARE(view->runs().front().name, QStringLiteral("copy"));
        QVERIFY(view->runs().back().baseline);
        QCOMPARE(view->tableModel()->rowCount(), 32);
        QVERIFY(view->chartData().series.size() >= 2);

        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QCOMPARE(panel.exportTo(SweepPanel::ExportFormat::Png, png), QString());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 400);
        const QString keep = qEnvironmentVariable("CUWB_SWEEP_SCREENSHOT_DIR");
        if (!keep.isEmpty()) {
            QTest::qWait(200); // the charts' new axes are laid out
            panel.grab().save(keep + QStringLiteral("/sweeppanel-stored.png"));
        }

        // The exports of the current result, and a failure that loses nothing.
        const QString csv = dir.filePath(QStringLiteral("copy.csv"));
        QCOMPARE(panel.exportTo(SweepPanel::ExportFormat::Csv, csv), QString());
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QCOMPARE(csvFile.readAll().count('\n'), 33);
        const QString json = dir.filePath(QStringLiteral("again.json"));
        QCOMPARE(panel.exportTo(SweepPanel::ExportFormat::Json, json), QString());
        QVERIFY(loadSweepResult(json.toStdString()).result);
        QCOMPARE(
            panel.exportTo(SweepPanel::ExportFormat::T4, dir.filePath(QStringLiteral("t4.json"))),
            QString());
        QCOMPARE(
            panel.exportTo(SweepPanel::ExportFormat::Svg, dir.filePath(QStringLiteral("c.svg"))),
            QString());
        const QString error = panel.exportTo(SweepPanel::ExportFormat::Csv,
                                             dir.filePath(QStringLiteral("no/such/folder/x.csv")));
        QVERIFY(!error.isEmpty());
        QCOMPARE(panel.result().points.size(), std::size_t(32));

        // A file that is not a result says why and changes nothing.
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        {
            QFile file(bad);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"format\": \"cuwb-sweep-result\", \"formatVersion\": 2}");
        }
        QVERIFY(panel.openResult(bad).contains(QStringLiteral("version")));
        QCOMPARE(view->tableModel()->rowCount(), 32);
        panel.clearBaseline();
        QCOMPARE(view->runs().size(), std::size_t(1));
    }

    void aLargeSweepIsDrawnWithoutMarkers()
    {
        // A marker on each of a few dozen points; none on hundreds, which would only cover
        // the line (and cost a frame a redraw while the sweep streams in).
        SweepController controller;
        Workspace workspace;
        SweepPanel panel(&controller, &workspace);
        const auto medianLine = [&panel]() -> QLineSeries * {
            const QList<QAbstractSeries *> all = panel.sweepResultsView()->timeChart()->series();
            for (QAbstractSeries *series : all) {
                auto *line = qobject_cast<QLineSeries *>(series);
                if (line && line->name() == QStringLiteral("median"))
                    return line;
            }
            return nullptr;
        };
        panel.showResult(testdata::copySweep(), QStringLiteral("copy"));
        QVERIFY(medianLine());
        QVERIFY(medianLine()->pointsVisible());
        SweepResult large;
        large.spec.axes = {rangeAxis("block.x", 1, 1000, 1)};
        for (int block = 1; block <= 1000; ++block)
            large.points.push_back(testdata::copyPoint({{"block.x", std::to_string(block)}}, block,
                                                       double(1 << 26), 1000.0 + block));
        panel.showResult(testdata::withHeader(large), QStringLiteral("large"));
        QVERIFY(medianLine());
        QVERIFY(!medianLine()->pointsVisible());
    }

    void aClickedRowGivesItsConfiguration()
    {
        SweepController controller;
        Workspace workspace;
        SweepPanel panel(&controller, &workspace);
        panel.resize(1400, 560);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showResult(testdata::copySweep(), QStringLiteral("copy"));
        QCoreApplication::processEvents();
        QSignalSpy activated(&panel, &SweepPanel::pointActivated);
        SweepResultsView *view = panel.sweepResultsView();
        const std::optional<QPoint> at = view->pointPosition(0, 7); // block.x = 256
        QVERIFY(at);
        QWidget *viewport =
            static_cast<QChartView *>(view->timeChart()->scene()->views().front())->viewport();
        QTest::mouseClick(viewport, Qt::LeftButton, {}, *at);
        QCOMPARE(activated.size(), 1);
        const auto point = activated.first().first().value<SweepPoint>();
        QCOMPARE(point.request.launch.block[0], std::string("256"));
    }

    void addingAxesStopsAtTheProjectLimit()
    {
        // One axis more than a project may hold would save, and then be refused on load.
        SweepController controller;
        Workspace workspace;
        SweepPanel panel(&controller, &workspace);
        SweepSpec spec;
        for (std::size_t i = 0; i + 1 < kMaxSweepAxes; ++i) {
            SweepAxis axis;
            axis.target = "block.x";
            axis.kind = AxisValues::List;
            axis.values = {"32"};
            spec.axes.push_back(axis);
        }
        workspace.setSweep(spec);
        auto *add = panel.findChild<QToolButton *>(QStringLiteral("addAxisButton"));
        QVERIFY(add);
        QVERIFY(add->isEnabled());
        QTest::mouseClick(add, Qt::LeftButton);
        QCOMPARE(panel.axesModel()->rowCount(), int(kMaxSweepAxes));
        QVERIFY(!add->isEnabled());
        QCOMPARE(add->toolTip(),
                 QStringLiteral("A sweep has at most 32 axes; remove one to add another."));
        add->click();
        QCOMPARE(panel.spec().axes.size(), kMaxSweepAxes);
        // Removing one makes room again.
        panel.axesModel()->removeAxis(0);
        QVERIFY(add->isEnabled());
        QCOMPARE(add->toolTip(), QStringLiteral("Add an axis"));
    }
};

CUWB_TEST_MAIN(TestSweepPanel)
} // namespace tst_sweeppanel
} // namespace

#include "tst_sweeppanel.moc"
