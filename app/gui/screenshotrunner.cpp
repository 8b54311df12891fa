#include "screenshotrunner.h"

#include "deviceprobe.h"
#include "document.h"
#include "launchpanel.h"
#include "mainwindow.h"
#include "measureoptionsdialog.h"
#include "qtconvert.h"
#include "resultspanel.h"
#include "runcontroller.h"
#include "runworker.h"
#include "sourceeditor.h"
#include "windowcapture.h"

#include <QAction>

#include <algorithm>
#include <cstdio>

namespace cuwb {

ScreenshotRunner::ScreenshotRunner(MainWindow *window, const QString &outputPath, int cursorLine,
                                   Action action, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_outputPath(outputPath)
    , m_cursorLine(cursorLine)
    , m_action(action)
    , m_timeoutMessage(tr("no compile result appeared in time"))
{
    m_timeout.setSingleShot(true);
    m_devicePatience.setSingleShot(true);
    m_devicePatience.setInterval(10000);
    connect(&m_timeout, &QTimer::timeout, this, [this] { fail(m_timeoutMessage); });
    connect(&m_devicePatience, &QTimer::timeout, this, &ScreenshotRunner::proceed);
    connect(m_window, &MainWindow::resultShown, this, [this] {
        m_haveResult = true;
        check();
    });
    connect(m_window->deviceProbe(), &DeviceProbe::finished, this, &ScreenshotRunner::check);
}

void ScreenshotRunner::start(int timeoutMs)
{
    if (!m_window->currentDocument()) {
        if (m_action == Action::Measure) {
            fail(tr("there is no kernel to measure: open a .cuwb project or a .cu source"));
            return;
        }
        // Nothing to compile, so nothing to wait for.
        QTimer::singleShot(300, this, &ScreenshotRunner::capture);
        return;
    }
    m_timeout.start(timeoutMs);
}

void ScreenshotRunner::check()
{
    if (!m_haveResult || m_capturing || m_started)
        return;
    if (m_window->deviceProbe()->isFinished())
        proceed();
    else if (!m_devicePatience.isActive())
        m_devicePatience.start();
}

void ScreenshotRunner::proceed()
{
    m_devicePatience.stop();
    switch (m_action) {
    case Action::None:
        capture();
        break;
    case Action::Run:
        startRun();
        break;
    case Action::Measure:
        startMeasure();
        break;
    }
}

void ScreenshotRunner::startRun()
{
    if (m_started)
        return;
    m_started = true;
    m_window->showRunDocks();
    LaunchPanel *launch = m_window->launchPanel();
    if (!launch->canRun()) {
        std::fprintf(stderr, "cuda-workbench: not running: %s\n",
                     qPrintable(launch->runBlockedReason()));
        capture();
        return;
    }
    ResultsPanel *results = m_window->resultsPanel();
    // The result, then its first page of values; a result without buffers is shown as it is.
    connect(m_window, &MainWindow::runResultShown, this, [this, results] {
        bool pages = false;
        for (const BufferReport &buffer : results->result().buffers)
            pages = pages || (!buffer.handle.empty() && buffer.count > 0);
        if (!pages)
            capture();
    });
    connect(results, &ResultsPanel::valuesShown, this, &ScreenshotRunner::capture);
    m_timeoutMessage = tr("no run result appeared in time");
    m_timeout.start(120000);
    launch->runAction()->trigger();
}

int ScreenshotRunner::measureTimeoutMs(double deadlineSeconds, const SampleSettings &settings,
                                       bool metrics)
{
    double seconds = RunWorker::measureTimeoutSeconds(deadlineSeconds, settings) + 60.0;
    if (metrics)
        seconds += RunWorker::metricsTimeoutSeconds(deadlineSeconds);
    return int(std::min(seconds * 1000.0, 3.6e6 * 4));
}

void ScreenshotRunner::startMeasure()
{
    if (m_started)
        return;
    m_started = true;
    m_window->showMeasurementDocks();
    LaunchPanel *launch = m_window->launchPanel();
    if (!launch->canRun()) {
        m_exitCode = 1;
        m_failure = tr("cannot measure: %1").arg(launch->runBlockedReason());
        capture();
        return;
    }
    // What Measure reads when triggered, as the user would have set it in the options.
    MetricsChoice choice = MeasureOptionsDialog::loadMetricsChoice();
    choice.collect = m_collectMetrics;
    MeasureOptionsDialog::storeMetricsChoice(choice);

    connect(m_window, &MainWindow::measurementShown, this, &ScreenshotRunner::onMeasurementShown);
    connect(m_window, &MainWindow::metricsShown, this, &ScreenshotRunner::onMetricsShown);
    m_timeoutMessage = m_collectMetrics ? tr("no measurement with metrics appeared in time")
                                        : tr("no measurement appeared in time");
    m_timeout.start(measureTimeoutMs(launch->launchSpec().deadlineSeconds,
                                     MeasureOptionsDialog::load(), m_collectMetrics));
    launch->measureAction()->trigger();
}

void ScreenshotRunner::onMeasurementShown(const Measurement &measurement)
{
    if (!measurement.faultStatus.empty()) {
        m_exitCode = 1;
        m_failure =
            tr("the measurement stopped (%1): %2")
                .arg(toQString(measurement.faultStatus), toQString(measurement.faultMessage));
    } else if (measurement.statistics.count == 0) {
        m_exitCode = 1;
        m_failure =
            tr("the measurement took no samples: %1").arg(toQString(measurement.stop.message));
    }
    if (!m_window->runController()->isCollectingMetrics())
        capture();
}

void ScreenshotRunner::onMetricsShown(const MetricsResult &metrics)
{
    // As with cuwb measure --metrics: a refused pass is reported, the timing stands.
    if (!metrics.ok())
        std::fprintf(stderr, "cuda-workbench: hardware metrics not collected: %s\n",
                     qPrintable(toQString(metrics.error)));
    capture();
}

void ScreenshotRunner::capture()
{
    if (m_capturing)
        return;
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    if (m_cursorLine > 0) {
        if (Document *document = m_window->currentDocument())
            document->editor()->goToLocation(m_cursorLine, 1);
    }
    // Let the docks, the scroll positions and the status bar settle before grabbing.
    QTimer::singleShot(400, this, [this] {
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

void ScreenshotRunner::fail(const QString &message)
{
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    std::fprintf(stderr, "cuda-workbench: screenshot failed: %s\n", qPrintable(message));
    Q_EMIT finished(1);
}

} // namespace cuwb
