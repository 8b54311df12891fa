#include "gui/device/devicetool.h"

#include "gui/common/qtconvert.h"
#include "gui/common/sharedworker.h"
#include "gui/device/devicepanel.h"
#include "gui/device/deviceselector.h"
#include "gui/workspace/toolhost.h"

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
    applyTarget(m_selector->target()); // before the first device query starts
    connect(m_selector, &DeviceSelector::targetChanged, this, [this](const QString &target) {
        applyTarget(target);
        Q_EMIT targetChanged(target);
    });
    host->addTool(this);
}

QString DeviceTool::target() const
{
    return m_selector->target();
}

void DeviceTool::applyTarget(const QString &target)
{
    std::optional<WorkerProcess::Options> options;
    if (!target.isEmpty()) {
        const auto resolved = resolveTarget(toStdString(target), defaultTargetsPath());
        if (const auto *chosen = std::get_if<WorkerTarget>(&resolved))
            options = workerOptionsFor(*chosen, std::nullopt);
    }
    m_host->worker()->setTarget(options);
}

} // namespace cuwb
