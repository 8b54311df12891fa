#include "gui/automation/sweepscreenshotrunner.h"

#include "gui/common/qtconvert.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"
#include "sweep/sweeprunner.h"

#include <algorithm>
#include <cstdio>

namespace cuwb {

SweepScreenshotRunner::SweepScreenshotRunner(MainWindow *window, const QString &outputPath,
                                             Mode mode, QObject *parent)
    : CaptureRunner(window, outputPath, 600, parent)
    , m_mode(mode)
{}

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
    if (!window()->currentDocument()) {
        fail(tr("there is no kernel to sweep: open a .cuwb project"));
        return;
    }
    waitForCompile(timeoutMs);
}

void SweepScreenshotRunner::act()
{
    window()->sweepTool()->showDock();
    SweepPanel *panel = window()->sweepTool()->panel();
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
    if (m_page == QLatin1String("roofline") && !panel->spec().roofline) {
        // A picture of the roofline needs each point's metrics pass to collect its metrics.
        SweepSpec spec = panel->spec();
        spec.roofline = true;
        window()->workspace()->setSweep(spec, Workspace::Edit::Automatic);
    }
    // The person who asked for this screenshot asked for the sweep, whatever its size.
    panel->setConfirmation([](const QString &) { return true; });
    connect(panel, &SweepPanel::sweepShown, this, &SweepScreenshotRunner::onSweepShown);
    whenCounted(panel, [this] { startSweep(); });
}

void SweepScreenshotRunner::startSweep()
{
    SweepPanel *panel = window()->sweepTool()->panel();
    if (!panel->canRun() || !panel->runSweep()) {
        reportFailure(tr("the sweep cannot run: %1").arg(panel->messageText()));
        capture();
        return;
    }
    expectWithin(sweepTimeoutMs(panel->spec(), panel->runnableCount().value_or(0),
                                window()->workspace()->launch().spec().deadlineSeconds),
                 tr("the sweep did not finish in time"));
}

void SweepScreenshotRunner::onSweepShown(const SweepResult &result)
{
    const std::size_t measured =
        result.count(PointStatus::Measured) + result.count(PointStatus::Wrong);
    if (!result.error.empty())
        reportFailure(tr("the sweep did not run: %1").arg(toQString(result.error)));
    else if (measured == 0)
        reportFailure(tr("the sweep measured no point"));
    std::fprintf(stderr, "cuda-workbench: sweep: measured %zu of %zu points in %s\n", measured,
                 result.points.size(), formatDuration(result.wallSeconds).c_str());
    capture();
}

void SweepScreenshotRunner::open()
{
    window()->sweepTool()->showDock();
    SweepPanel *panel = window()->sweepTool()->panel();
    QString error = panel->openResult(m_resultPath);
    if (error.isEmpty() && !m_baselinePath.isEmpty())
        error = panel->openBaseline(m_baselinePath);
    if (!error.isEmpty()) {
        fail(error);
        return;
    }
    // The editor beside the chart shows the stored sweep, as it was set up.
    window()->workspace()->setSweep(panel->result().spec, Workspace::Edit::Automatic);
    capture();
}

QStringList SweepScreenshotRunner::pageNames()
{
    return {QStringLiteral("time"), QStringLiteral("bandwidth"), QStringLiteral("heatmap"),
            QStringLiteral("roofline")};
}

void SweepScreenshotRunner::beforeCapture()
{
    if (m_page.isEmpty())
        return;
    SweepResultsView *view = window()->sweepTool()->panel()->sweepResultsView();
    view->setPage(m_page == QLatin1String("bandwidth")  ? SweepResultsView::Page::Bandwidth
                  : m_page == QLatin1String("heatmap")  ? SweepResultsView::Page::Heatmap
                  : m_page == QLatin1String("roofline") ? SweepResultsView::Page::Roofline
                                                        : SweepResultsView::Page::Time);
}

} // namespace cuwb
