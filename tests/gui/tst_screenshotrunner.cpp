// The --measure [--metrics] screenshot mode (ScreenshotRunner::Action::Measure) offscreen,
// against a stand-in for cuwb (tests/core/fakeworker.cpp) that reports an H200 and answers
// measure and metrics requests: the project opens and compiles, the measurement runs, the
// screenshot waits for the card (and the metrics when asked), and the PNG is written. Without a
// GPU it still writes the PNG but exits 1 with the reason.
#include "gui/automation/screenshotrunner.h"
#include "gui/measure/measurementpanel.h"
#include "gui/measure/measureoptionsdialog.h"
#include "gui/measure/measuretool.h"
#include "gui/roofline/speedoflightbars.h"
#include "gui/shell/mainwindow.h"
#include "gui/workspace/workspace.h"
#include "measure/roofline.h"

#include <QChart>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_screenshotrunner {

namespace {

// Compile (NVRTC), device probe, worker start and the measurement, on a slow machine.
constexpr int FinishTimeoutMs = 120000;

QString copyProject()
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/copy/copy.cuwb");
}

} // namespace

class TestScreenshotRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void measureWithMetricsWaitsForThePass();
    void measureWithoutMetricsSendsNoMetricsRequest();
    void rooflineAsksForItsMetricsAndShowsTheTab();
    void measureWithoutAGpuExitsWithTheReason();
    void measureTimeoutCoversTheWorkersLimits();

private:
    // A cuwb stand-in: `devices` prints `devicesCommand`'s output, anything else is the fake
    // worker in `mode`, logging each request.
    QString fakeCli(const QString &mode, const QByteArray &devicesCommand) const;
    QStringList requestLog() const;
    // Opens the copy sample's project in a window that uses `cli`, runs the screenshot and
    // returns its exit code (-1 when it did not finish in time).
    int screenshot(const QString &cli, bool metrics, bool roofline = false);

    QTemporaryDir m_settingsDir;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_log;
    QString m_png;
    std::unique_ptr<MainWindow> m_window;
};

void TestScreenshotRunner::initTestCase()
{
    QVERIFY(m_settingsDir.isValid());
    cuwb::test::keepSettingsIn(m_settingsDir.path());
}

void TestScreenshotRunner::init()
{
    m_window.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_log = m_dir->filePath(QStringLiteral("requests.log"));
    m_png = m_dir->filePath(QStringLiteral("measure.png"));
}

QString TestScreenshotRunner::fakeCli(const QString &mode, const QByteArray &devicesCommand) const
{
    const QString path = m_dir->filePath(QStringLiteral("cuwb"));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\nif [ \"$1\" = devices ]; then " + devicesCommand +
                 "; exit 0; fi\nCUWB_FAKE_WORKER_LOG='" + m_log.toUtf8() + "' exec '" +
                 CUWB_FAKE_WORKER_PATH "' " + mode.toUtf8() + "\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QStringList TestScreenshotRunner::requestLog() const
{
    QFile file(m_log);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

int TestScreenshotRunner::screenshot(const QString &cli, bool metrics, bool roofline)
{
    MainWindow::Settings settings;
    settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
    settings.restoreLayout = false;
    settings.prompts = false;
    settings.cliPath = cli;
    m_window = std::make_unique<MainWindow>(settings);
    if (!m_window->openPath(copyProject()))
        return -2;
    m_window->resize(1600, 1000);
    ScreenshotRunner runner(m_window.get(), m_png, 0, ScreenshotRunner::Action::Measure);
    runner.setCollectMetrics(metrics);
    runner.setRooflineMetrics(roofline);
    QSignalSpy finished(&runner, &ScreenshotRunner::finished);
    runner.start();
    m_window->show();
    if (!finished.wait(FinishTimeoutMs) && finished.isEmpty())
        return -1;
    return finished.front().at(0).toInt();
}

void TestScreenshotRunner::measureWithMetricsWaitsForThePass()
{
    const QString cli =
        fakeCli(QStringLiteral("measure-ok"), "exec '" CUWB_FAKE_WORKER_PATH "' devices");
    QCOMPARE(screenshot(cli, true), 0);
    QCOMPARE(requestLog(), QStringList({QStringLiteral("hello"), QStringLiteral("measure"),
                                        QStringLiteral("metrics")}));
    // The card shows the timing and the metrics beside it when the picture is taken.
    const MeasurementPanel *panel = m_window->measureTool()->panel();
    QVERIFY(panel->isVisible());
    QVERIFY(!panel->shownValue(QStringLiteral("median")).isEmpty());
    QVERIFY2(panel->shownValue(QStringLiteral("dramBytes")).startsWith(QStringLiteral("declared ")),
             qPrintable(panel->shownValue(QStringLiteral("dramBytes"))));
    QVERIFY(panel->shownValue(QStringLiteral("occupancy")).contains(QStringLiteral("achieved")));
    QVERIFY(!panel->chart()->series().isEmpty());
    const QImage image(m_png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());
}

void TestScreenshotRunner::measureWithoutMetricsSendsNoMetricsRequest()
{
    const QString cli =
        fakeCli(QStringLiteral("measure-ok"), "exec '" CUWB_FAKE_WORKER_PATH "' devices");
    QCOMPARE(screenshot(cli, false), 0);
    QCOMPARE(requestLog(), QStringList({QStringLiteral("hello"), QStringLiteral("measure")}));
    QVERIFY(m_window->measureTool()->panel()->shownValue(QStringLiteral("dramBytes")).isEmpty());
    QVERIFY(QFile::exists(m_png));
}

void TestScreenshotRunner::measureWithoutAGpuExitsWithTheReason()
{
    const QString cli =
        fakeCli(QStringLiteral("measure-ok"),
                "echo '{\"driverLoaded\": false, \"driverVersion\": 0, \"devices\": [], "
                "\"message\": \"No CUDA driver (libcuda.so.1 not found)\"}'");
    QCOMPARE(screenshot(cli, true), 1);
    QVERIFY(requestLog().isEmpty()); // no worker was started
    QVERIFY(QFile::exists(m_png));   // the picture shows why
}

void TestScreenshotRunner::measureTimeoutCoversTheWorkersLimits()
{
    SampleSettings settings;
    settings.timeCapSeconds = 15;
    const int timing = ScreenshotRunner::measureTimeoutMs(10, settings, false);
    QVERIFY(timing >= (15 + 10 + 60) * 1000);
    QVERIFY(ScreenshotRunner::measureTimeoutMs(10, settings, true) > timing + 10 * 1000);
}

// --measure --roofline: the metrics pass asks for the roofline's metrics too (the fake worker
// answers 1.0 for each, made up), and the Measurement dock shows its Roofline tab.
void TestScreenshotRunner::rooflineAsksForItsMetricsAndShowsTheTab()
{
    const QString cli =
        fakeCli(QStringLiteral("measure-ok"), "exec '" CUWB_FAKE_WORKER_PATH "' devices");
    QCOMPARE(screenshot(cli, true, true), 0);
    const MetricsChoice choice = Workspace::storedMetricsChoice();
    for (const std::string &name : rooflineMetrics())
        QVERIFY2(std::find(choice.metrics.begin(), choice.metrics.end(), name) !=
                     choice.metrics.end(),
                 name.c_str());
    const MeasurementPanel *panel = m_window->measureTool()->panel();
    QVERIFY(panel->tabs()->isTabEnabled(1));
    QCOMPARE(panel->speedOfLightBars()->valueText(0), QStringLiteral("1.0 %"));
    QVERIFY(QFile::exists(m_png));
    // The stored choice is the user's: put the default list back for the other tests.
    m_window->workspace()->setMetricsChoice(MetricsChoice{});
}

CUWB_TEST_MAIN(TestScreenshotRunner)
} // namespace tst_screenshotrunner
} // namespace

#include "tst_screenshotrunner.moc"
