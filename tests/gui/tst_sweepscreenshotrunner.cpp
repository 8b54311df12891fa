// The --sweep and --open-sweep screenshot modes (SweepScreenshotRunner) offscreen. A stand-in
// for cuwb answers `devices` with an H200 (tests/core/fakeworker.cpp) and serves `worker` with
// the stand-in sweep worker (tests/core/fakesweepworker.cpp): the project opens and compiles,
// the preset's sweep runs, and the picture is taken with the finished sweep in the Sweep dock.
// A sweep that cannot run exits 1 with the reason; a stored result opens with its baseline.
#include "gui/automation/sweepscreenshotrunner.h"
#include "gui/roofline/rooflinechart.h"
#include "gui/shell/mainwindow.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptablemodel.h"
#include "gui/sweep/sweeptool.h"

#include "measure/roofline.h"
#include "sweep/sweepjson.h"
#include "sweeptestdata.h"

#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweepscreenshotrunner {

namespace {

constexpr int kFinishTimeoutMs = 120000;

QString samplePath(const char *relative)
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/") + QLatin1String(relative);
}

} // namespace

class TestSweepScreenshotRunner : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_png;
    QString m_page; // --sweep-page; empty: the view's own choice
    std::unique_ptr<MainWindow> m_window;

    // `devices` prints `devicesCommand`'s output; `worker` is the stand-in sweep worker.
    QString fakeCli(const QByteArray &devicesCommand) const
    {
        const QString path = m_dir->filePath(QStringLiteral("cuwb"));
        QFile script(path);
        if (!script.open(QIODevice::WriteOnly))
            return {};
        script.write("#!/bin/sh\nif [ \"$1\" = devices ]; then " + devicesCommand +
                     "; exit 0; fi\nexec '" CUWB_FAKE_SWEEP_WORKER_PATH "'\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    QString gpuCli() const { return fakeCli("exec '" CUWB_FAKE_WORKER_PATH "' devices"); }

    // Runs the screenshot in a fresh window; its exit code, -1 when it did not finish in time.
    int screenshot(const QString &cli, SweepScreenshotRunner::Mode mode, const QString &project,
                   const QString &preset, const QString &result = {}, const QString &baseline = {})
    {
        MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        settings.cliPath = cli;
        m_window = std::make_unique<MainWindow>(settings);
        if (!project.isEmpty() && !m_window->openPath(project))
            return -2;
        m_window->resize(1600, 1000);
        SweepScreenshotRunner runner(m_window.get(), m_png, mode);
        runner.setPreset(preset);
        runner.setResultFiles(result, baseline);
        runner.setPage(m_page);
        QSignalSpy finished(&runner, &SweepScreenshotRunner::finished);
        runner.start();
        m_window->show();
        if (!finished.wait(kFinishTimeoutMs) && finished.isEmpty())
            return -1;
        // Kept for a person to look at when CUWB_SWEEP_SCREENSHOT_DIR names a folder.
        const QString keep = qEnvironmentVariable("CUWB_SWEEP_SCREENSHOT_DIR");
        if (!keep.isEmpty() && QFile::exists(m_png)) {
            const QString name = QString::fromLatin1(QTest::currentTestFunction());
            QFile::remove(keep + QLatin1Char('/') + name + QStringLiteral(".png"));
            QFile::copy(m_png, keep + QLatin1Char('/') + name + QStringLiteral(".png"));
        }
        return finished.front().at(0).toInt();
    }

    QString writeResult(const QString &name, const SweepResult &result)
    {
        const QString path = m_dir->filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QByteArray::fromStdString(serializeSweepResult(result)));
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        cuwb::test::keepSettingsIn(m_settingsDir.path());
    }

    void init()
    {
        m_window.reset();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_png = m_dir->filePath(QStringLiteral("sweep.png"));
        m_page.clear();
    }

    void aPresetSweepIsCapturedWhenItHasFinished()
    {
        QCOMPARE(screenshot(gpuCli(), SweepScreenshotRunner::Mode::Run,
                            samplePath("copy/copy.cuwb"), QStringLiteral("block-32-step-32")),
                 0);
        SweepPanel *panel = m_window->sweepTool()->panel();
        QVERIFY(panel->isVisible());
        QCOMPARE(panel->result().count(PointStatus::Measured), std::size_t(32));
        QCOMPARE(panel->sweepResultsView()->tableModel()->rowCount(), 32);
        const QImage image(m_png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());
        // The dock spans most of the window, so that the chart and the table are readable.
        QVERIFY(panel->width() > m_window->width() * 3 / 4);
    }

    void theProjectsOwnSweepRuns()
    {
        // The transpose sample's block.x × block.y sweep, with its constraints.
        QCOMPARE(screenshot(gpuCli(), SweepScreenshotRunner::Mode::Run,
                            samplePath("transpose/transpose.cuwb"), {}),
                 0);
        const SweepResult &result = m_window->sweepTool()->panel()->result();
        QCOMPARE(result.spec.axes.size(), std::size_t(2));
        QVERIFY(result.count(PointStatus::Measured) > 0);
    }

    void aSweepThatCannotRunExitsWithTheReason()
    {
        // No sweep in the project and no preset: nothing to capture.
        QCOMPARE(screenshot(gpuCli(), SweepScreenshotRunner::Mode::Run,
                            samplePath("copy/copy.cuwb"), {}),
                 1);
        QVERIFY(!QFile::exists(m_png));
        QCOMPARE(screenshot(gpuCli(), SweepScreenshotRunner::Mode::Run,
                            samplePath("copy/copy.cuwb"), QStringLiteral("no-such-preset")),
                 1);
        // No GPU: the picture shows why.
        const QString noGpu = fakeCli("echo '{\"driverLoaded\": false, \"driverVersion\": 0, "
                                      "\"devices\": [], \"message\": \"No CUDA driver "
                                      "(libcuda.so.1 not found)\"}'");
        QCOMPARE(screenshot(noGpu, SweepScreenshotRunner::Mode::Run, samplePath("copy/copy.cuwb"),
                            QStringLiteral("block-pow2")),
                 1);
        QVERIFY(QFile::exists(m_png));
        QVERIFY(m_window->sweepTool()->panel()->messageText().contains(
            QStringLiteral("No CUDA driver")));
    }

    void aStoredSweepOpensWithItsBaseline()
    {
        const QString current = writeResult(QStringLiteral("heat.json"), testdata::heatmapSweep());
        const QString older =
            writeResult(QStringLiteral("copy.json"), testdata::copySweep(double(1 << 28), 1.3));
        QCOMPARE(screenshot({}, SweepScreenshotRunner::Mode::Open, {}, {}, current, older), 0);
        SweepPanel *panel = m_window->sweepTool()->panel();
        QCOMPARE(panel->sweepResultsView()->runs().size(), std::size_t(2));
        QVERIFY(panel->sweepResultsView()->showsHeatmap());
        QCOMPARE(panel->spec().axes.size(), std::size_t(2)); // the editor shows the stored sweep
        QVERIFY(!QImage(m_png).isNull());

        QCOMPARE(screenshot({}, SweepScreenshotRunner::Mode::Open, {}, {},
                            m_dir->filePath(QStringLiteral("missing.json"))),
                 1);
    }

    // --sweep --sweep-page roofline turns the sweep's Roofline metrics on: the stand-in worker
    // answers exactly the metrics asked for (with made-up values), so every measured point
    // carries the roofline's, and the capture shows the Roofline page.
    void aRunSweepOnItsRooflineAsksForTheRooflineMetrics()
    {
        QVERIFY(SweepScreenshotRunner::pageNames().contains(QStringLiteral("roofline")));
        m_page = QStringLiteral("roofline");
        QCOMPARE(screenshot(gpuCli(), SweepScreenshotRunner::Mode::Run,
                            samplePath("copy/copy.cuwb"), QStringLiteral("block-pow2")),
                 0);
        SweepPanel *panel = m_window->sweepTool()->panel();
        QVERIFY(panel->spec().roofline);
        const SweepResult &result = panel->result();
        QVERIFY(result.count(PointStatus::Measured) > 0);
        for (const SweepPointResult &p : result.points) {
            if (p.status != PointStatus::Measured)
                continue;
            QVERIFY(p.metrics.has_value());
            for (const std::string &name : rooflineMetrics())
                QVERIFY2(p.metrics->values.count(name) == 1, name.c_str());
        }
        QCOMPARE(panel->sweepResultsView()->page(), SweepResultsView::Page::Roofline);
        QVERIFY(!QImage(m_png).isNull());
    }

    // A recorded sweep drawn on its roofline, without a GPU. Its FLOP counts are made up.
    void aStoredSweepOpensOnItsRoofline()
    {
        SweepResult sweep = testdata::copySweep();
        for (SweepPointResult &p : sweep.points)
            p.metrics->values["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] = 1e8;
        const QString path = writeResult(QStringLiteral("roofline.json"), sweep);
        m_page = QStringLiteral("roofline");
        QCOMPARE(screenshot({}, SweepScreenshotRunner::Mode::Open, {}, {}, path), 0);
        SweepResultsView *view = m_window->sweepTool()->panel()->sweepResultsView();
        QCOMPARE(view->page(), SweepResultsView::Page::Roofline);
        QCOMPARE(view->rooflineChart()->data().points.size(), sweep.points.size());
        QVERIFY(!QImage(m_png).isNull());
    }

    void theTimeoutCoversTheSweepsWorstCase()
    {
        SweepSpec spec;
        spec.settings.timeCapSeconds = 15;
        const int ms = SweepScreenshotRunner::sweepTimeoutMs(spec, 32, 10);
        QVERIFY(ms >= 32 * 15 * 1000);
        QCOMPARE(SweepScreenshotRunner::sweepTimeoutMs(spec, 100000, 10), 4 * 3600 * 1000);
    }
};

CUWB_TEST_MAIN(TestSweepScreenshotRunner)
} // namespace tst_sweepscreenshotrunner
} // namespace

#include "tst_sweepscreenshotrunner.moc"
