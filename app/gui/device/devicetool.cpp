#include "gui/device/devicetool.h"

#include "gui/common/qtconvert.h"
#include "gui/common/sharedworker.h"
#include "gui/device/devicepanel.h"
#include "gui/device/deviceselector.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include "worker/workertarget.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QVBoxLayout>

#include <variant>

namespace cuwb {

DeviceTool::DeviceTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("deviceTool"));
    QMainWindow *window = host->window();
    m_panel = new DevicePanel(window);
    // Where kernels run, above the GPU it is.
    m_selector = new DeviceSelector(window);
    m_selector->setObjectName(QStringLiteral("deviceSelector"));
    auto *column = new QWidget(window);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_selector);
    layout->addWidget(m_panel, 1);
    m_dock = host->addDock(tr("Device"), QStringLiteral("deviceDock"), column,
                           Qt::RightDockWidgetArea, QStringLiteral("launchDock"));
    Workspace *workspace = host->workspace();
    const auto placeTarget = [workspace](const QString &target) {
        Placement placement = workspace->placement();
        placement.target =
            target.isEmpty() ? std::optional<std::string>() : std::optional(toStdString(target));
        workspace->setPlacement(placement);
    };
    connect(workspace, &Workspace::placementChanged, this, &DeviceTool::followPlacement);
    placeTarget(m_selector->target()); // the worker follows before the first device query
    followPlacement();
    connect(m_selector, &DeviceSelector::targetChanged, this, placeTarget);
    host->addTool(this);
}

QString DeviceTool::target() const
{
    return m_target;
}

void DeviceTool::followPlacement()
{
    const std::optional<std::string> &chosen = m_host->workspace()->placement().target;
    const QString target = chosen ? toQString(*chosen) : QString();
    if (target == m_target)
        return;
    m_target = target;
    std::optional<WorkerProcess::Options> options;
    if (!target.isEmpty()) {
        const auto resolved = resolveTarget(toStdString(target), defaultTargetsPath());
        if (const auto *worker = std::get_if<WorkerTarget>(&resolved))
            options = workerOptionsFor(*worker, std::nullopt);
    }
    m_host->worker()->setTarget(options);
    Q_EMIT targetChanged(target);
}

} // namespace cuwb
