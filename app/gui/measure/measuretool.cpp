#include "gui/measure/measuretool.h"

#include "gui/common/qtconvert.h"
#include "gui/measure/measurementpanel.h"
#include "gui/run/runcontroller.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include <QDockWidget>
#include <QMainWindow>

#include <algorithm>

namespace cuwb {

MeasureTool::MeasureTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("measureTool"));
    QMainWindow *window = host->window();
    m_panel = new MeasurementPanel(window);
    m_dock = host->addDock(tr("Measurement"), QStringLiteral("measurementDock"), m_panel,
                           Qt::BottomDockWidgetArea, QStringLiteral("resultsDock"));

    RunController *run = host->runController();
    connect(run, &RunController::measurementFinished, this,
            [this](quint64, const Measurement &measurement) { onMeasured(measurement); });
    connect(run, &RunController::metricsStarted, m_panel,
            [this](quint64, int metricCount) { m_panel->showMetricsPending(metricCount); });
    connect(run, &RunController::metricsFinished, this,
            [this](quint64, const MetricsResult &metrics) { onMetrics(metrics); });
    connect(run, &RunController::measurementCancellableChanged, m_panel,
            &MeasurementPanel::setCancellable);
    // The roofline's ceilings are the GPU's the worker reports.
    connect(run, &RunController::helloReceived, m_panel,
            [this](const HelloReply &hello) { m_panel->setDevice(hello.device); });
    host->addTool(this);
}

void MeasureTool::showDocks()
{
    QMainWindow *window = m_host->window();
    if (auto *launch = window->findChild<QDockWidget *>(QStringLiteral("launchDock"))) {
        launch->show();
        launch->raise();
    }
    m_dock->show();
    m_dock->raise();
    // The card and the histogram side by side want width, the card's rows height.
    if (auto *problems = window->findChild<QDockWidget *>(QStringLiteral("problemsDock")))
        window->resizeDocks({problems, m_dock}, {window->width() / 5, window->width() * 4 / 5},
                            Qt::Horizontal);
    window->resizeDocks({m_dock}, {std::max(400, window->height() * 11 / 20)}, Qt::Vertical);
}

void MeasureTool::measure()
{
    m_panel->showMeasuring(m_host->currentKernel());
    m_dock->show();
    m_dock->raise();
    const Workspace *workspace = m_host->workspace();
    const MetricsChoice &choice = workspace->metricsChoice();
    std::optional<MetricsRequest> metrics;
    if (choice.collect)
        metrics = MetricsRequest{choice.metrics};
    m_host->runController()->measure(workspace->runRequest(), workspace->sampleSettings(),
                                     m_host->throughputFor(m_host->currentDocument()), metrics);
}

void MeasureTool::cancel()
{
    if (m_host->runController()->cancelMeasurement())
        m_panel->showCancelling();
}

void MeasureTool::showStored(const Measurement &measurement)
{
    m_panel->showMeasurement(toQString(measurement.provenance.kernel), measurement);
    m_dock->show();
    m_dock->raise();
}

void MeasureTool::onMeasured(const Measurement &measurement)
{
    m_panel->showMeasurement(m_host->currentKernel(), measurement);
    m_host->showStatus(m_panel->statusText(), 10000);
    Q_EMIT shown(measurement);
}

void MeasureTool::onMetrics(const MetricsResult &metrics)
{
    m_panel->showMetrics(metrics);
    if (!metrics.ok())
        m_host->showStatus(tr("Hardware metrics not collected: %1").arg(toQString(metrics.error)),
                           15000);
    Q_EMIT metricsShown(metrics);
}

} // namespace cuwb
