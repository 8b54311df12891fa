#include "sweepscreenshotrunner.h"

#include "deviceprobe.h"
#include "launchpanel.h"
#include "mainwindow.h"
#include "profilerview.h"
#include "qtconvert.h"
#include "sweep/sweeprunner.h"
#include "sweeppanel.h"
#include "windowcapture.h"

#include <algorithm>
#include <cstdio>

namespace cuwb {

SweepScreenshotRunner::SweepScreenshotRunner(MainWindow *window, const QString &outputPath,
                                             Mode mode, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_outputPath(outputPath)
    , m_mode(mode)
    , m_timeoutMessage(tr("no compile result appeared in time"))
{
    m_timeout.setSingleShot(true);
    m_devicePatience.setSingleShot(true);
    m_devicePatience.setInterval(10000);
    connect(&m_timeout, &QTimer::timeout, this, [this] { fail(m_timeoutMessage); });
    connect(&m_devicePatience, &QTimer::timeout, this, &SweepScreenshotRunner::proceed);
    if (m_mode == Mode::Run) {
        connect(m_window, &MainWindow::resultShown, this, [this] {
            m_haveResult = true;
            check();
        });
        connect(m_window->deviceProbe(), &DeviceProbe::finished, this,
                &SweepScreenshotRunner::check);
    }
}

void SweepScreenshotRunner::setResultFiles(const QString &result, const QString &baseline)
{
    m_resultPath = result;
    m_baselinePath = baseline;
}

int SweepScreenshotRunner::sweepTimeoutMs(const SweepSpec &spec, std::size_t runnablePoints,
                                          double deadlineSeconds)
{
    const SweepEstimate estimate = estimateSweep(spec, runnablePoints, deadlineSeconds);
    const double seconds = estimate.maxSeconds + 300.0;
    return int(std::min(seconds, 4.0 * 3600.0) * 1000.0);
}

void SweepScreenshotRunner::start(int timeoutMs)
{
    if (m_mode == Mode::Open) {
        QTimer::singleShot(0, this, &SweepScreenshotRunner::open);
        return;
    }
    if (!m_window->currentDocument()) {
        fail(tr("there is no kernel to sweep: open a .cuwb project"));
        return;
    }
    m_timeout.start(timeoutMs);
}

void SweepScreenshotRunner::check()
{
    if (!m_haveResult || m_capturing || m_started)
        return;
    if (m_window->deviceProbe()->isFinished())
        proceed();
    else if (!m_devicePatience.isActive())
        m_devicePatience.start();
}

void SweepScreenshotRunner::proceed()
{
    m_devicePatience.stop();
    if (m_started || m_capturing)
        return;
    m_started = true;
    m_window->showSweepDock();
    SweepPanel *panel = m_window->sweepPanel();
    if (!m_preset.isEmpty() && !panel->applyPreset(m_preset)) {
        QStringList ids;
        for (const SweepPreset &preset : sweepPresets())
            ids << toQString(preset.id);
        fail(
            tr("no preset '%1'; the presets are %2").arg(m_preset, ids.join(QStringLiteral(", "))));
        return;
    }
    if (panel->spec().axes.empty()) {
        fail(tr("the project has no sweep; add a \"sweep\" section or use --preset "
                "block-32-step-32"));
        return;
    }
    // The person who asked for this screenshot asked for the sweep, whatever its size.
    panel->setConfirmation([](const QString &) { return true; });
    connect(panel, &SweepPanel::sweepShown, this, &SweepScreenshotRunner::onSweepShown);
    if (panel->isCounting()) {
        auto *connection = new QMetaObject::Connection;
        *connection = connect(panel, &SweepPanel::countChanged, this, [this, connection] {
            disconnect(*connection);
            delete connection;
            startSweep();
        });
        return;
    }
    startSweep();
}

void SweepScreenshotRunner::startSweep()
{
    SweepPanel *panel = m_window->sweepPanel();
    if (!panel->canRun() || !panel->runSweep()) {
        m_exitCode = 1;
        m_failure = tr("the sweep cannot run: %1").arg(panel->messageText());
        capture();
        return;
    }
    m_timeoutMessage = tr("the sweep did not finish in time");
    m_timeout.start(sweepTimeoutMs(panel->spec(), panel->runnableCount().value_or(0),
                                   m_window->launchPanel()->launchSpec().deadlineSeconds));
}

void SweepScreenshotRunner::onSweepShown(const SweepResult &result)
{
    const std::size_t measured =
        result.count(PointStatus::Measured) + result.count(PointStatus::Wrong);
    if (!result.error.empty()) {
        m_exitCode = 1;
        m_failure = tr("the sweep did not run: %1").arg(toQString(result.error));
    } else if (measured == 0) {
        m_exitCode = 1;
        m_failure = tr("the sweep measured no point");
    }
    std::fprintf(stderr, "cuda-workbench: sweep: measured %zu of %zu points in %s\n", measured,
                 result.points.size(), formatDuration(result.wallSeconds).c_str());
    capture();
}

void SweepScreenshotRunner::open()
{
    m_window->showSweepDock();
    SweepPanel *panel = m_window->sweepPanel();
    QString error = panel->openResult(m_resultPath);
    if (error.isEmpty() && !m_baselinePath.isEmpty())
        error = panel->openBaseline(m_baselinePath);
    if (!error.isEmpty()) {
        fail(error);
        return;
    }
    // The editor beside the chart shows the stored sweep, as it was set up.
    panel->setSpec(panel->result().spec);
    capture();
}

QStringList SweepScreenshotRunner::pageNames()
{
    return {QStringLiteral("time"), QStringLiteral("bandwidth"), QStringLiteral("heatmap")};
}

void SweepScreenshotRunner::capture()
{
    if (m_capturing)
        return;
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    if (!m_page.isEmpty()) {
        ProfilerView *view = m_window->sweepPanel()->profilerView();
        view->setPage(m_page == QLatin1String("bandwidth") ? ProfilerView::Page::Bandwidth
                      : m_page == QLatin1String("heatmap") ? ProfilerView::Page::Heatmap
                                                           : ProfilerView::Page::Time);
    }
    // The docks, the charts' layout and the table's columns settle before grabbing.
    QTimer::singleShot(600, this, [this] {
        if (const QString error = WindowCapture::save(m_window, m_outputPath); !error.isEmpty()) {
            fail(error);
            return;
        }
        if (m_exitCode != 0)
            std::fprintf(stderr, "cuda-workbench: %s (the screenshot shows it)\n",
                         qPrintable(m_failure));
        Q_EMIT finished(m_exitCode);
    });
}

void SweepScreenshotRunner::fail(const QString &message)
{
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    std::fprintf(stderr, "cuda-workbench: screenshot failed: %s\n", qPrintable(message));
    Q_EMIT finished(1);
}

} // namespace cuwb
