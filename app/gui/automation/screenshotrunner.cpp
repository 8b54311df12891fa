#include "gui/automation/screenshotrunner.h"

#include "measure/roofline.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/measure/measuretool.h"
#include "gui/run/resultspanel.h"
#include "gui/run/runcontroller.h"
#include "gui/run/runtool.h"
#include "gui/shell/mainwindow.h"
#include "gui/workspace/workspace.h"
#include "worker/workerclient.h"

#include <QAction>

#include <algorithm>
#include <cstdio>

namespace cuwb {

ScreenshotRunner::ScreenshotRunner(MainWindow *window, const QString &outputPath, int cursorLine,
                                   Action action, QObject *parent)
    : CaptureRunner(window, outputPath, 400, parent)
    , m_cursorLine(cursorLine)
    , m_action(action)
{}

void ScreenshotRunner::start(int timeoutMs)
{
    if (!window()->currentDocument()) {
        if (m_action == Action::Measure) {
            fail(tr("there is no kernel to measure: open a .cuwb project or a .cu source"));
            return;
        }
        // Nothing to compile, so nothing to wait for.
        QTimer::singleShot(300, this, &ScreenshotRunner::capture);
        return;
    }
    waitForCompile(timeoutMs);
}

void ScreenshotRunner::act()
{
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
    window()->runTool()->showDocks();
    LaunchPanel *launch = window()->launchPanel();
    if (!launch->canRun()) {
        std::fprintf(stderr, "cuda-workbench: not running: %s\n",
                     qPrintable(launch->runBlockedReason()));
        capture();
        return;
    }
    ResultsPanel *results = window()->runTool()->panel();
    // The result, then its first page of values; a result without buffers is shown as it is.
    connect(window()->runTool(), &RunTool::shown, this, [this, results] {
        bool pages = false;
        for (const BufferReport &buffer : results->result().buffers)
            pages = pages || (!buffer.handle.empty() && buffer.count > 0);
        if (!pages)
            capture();
    });
    connect(results, &ResultsPanel::valuesShown, this, &ScreenshotRunner::capture);
    expectWithin(120000, tr("no run result appeared in time"));
    launch->runAction()->trigger();
}

int ScreenshotRunner::measureTimeoutMs(double deadlineSeconds, const SampleSettings &settings,
                                       bool metrics)
{
    double seconds = WorkerClient::measureTimeoutSeconds(deadlineSeconds, settings) + 60.0;
    if (metrics)
        seconds += WorkerClient::metricsTimeoutSeconds(deadlineSeconds);
    return int(std::min(seconds * 1000.0, 3.6e6 * 4));
}

void ScreenshotRunner::startMeasure()
{
    window()->measureTool()->showDocks();
    LaunchPanel *launch = window()->launchPanel();
    if (!launch->canRun()) {
        reportFailure(tr("cannot measure: %1").arg(launch->runBlockedReason()));
        capture();
        return;
    }
    // What Measure reads when triggered, as the user would have set it in the options.
    Workspace *workspace = window()->workspace();
    MetricsChoice choice = workspace->metricsChoice();
    choice.collect = m_collectMetrics;
    if (m_rooflineMetrics)
        choice.metrics = withRooflineMetrics(std::move(choice.metrics));
    workspace->setMetricsChoice(choice);

    connect(window()->measureTool(), &MeasureTool::shown, this,
            &ScreenshotRunner::onMeasurementShown);
    connect(window()->measureTool(), &MeasureTool::metricsShown, this,
            &ScreenshotRunner::onMetricsShown);
    expectWithin(measureTimeoutMs(workspace->launch().spec().deadlineSeconds,
                                  workspace->sampleSettings(), m_collectMetrics),
                 m_collectMetrics ? tr("no measurement with metrics appeared in time")
                                  : tr("no measurement appeared in time"));
    launch->measureAction()->trigger();
}

void ScreenshotRunner::onMeasurementShown(const Measurement &measurement)
{
    if (!measurement.faultStatus.empty()) {
        reportFailure(
            tr("the measurement stopped (%1): %2")
                .arg(toQString(measurement.faultStatus), toQString(measurement.faultMessage)));
    } else if (measurement.statistics.count == 0) {
        reportFailure(
            tr("the measurement took no samples: %1").arg(toQString(measurement.stop.message)));
    }
    if (!window()->runController()->isCollectingMetrics())
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

void ScreenshotRunner::beforeCapture()
{
    if (m_cursorLine > 0) {
        if (Document *document = window()->currentDocument())
            document->editor()->goToLocation(m_cursorLine, 1);
    }
}

} // namespace cuwb
