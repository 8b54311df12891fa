// DeviceTool: the Device dock, plugged into the window (gui/workspace/toolhost.h): where kernels
// run (the DeviceSelector: this machine or a remote target of ~/.config/cuwb/targets.json) above
// the GPU it is (the DevicePanel). The choice is the target of the Workspace's placement; the
// window's shared worker follows the placement's target, whoever set it, and the device query,
// which the window owns since every feature's availability follows it, is told through
// targetChanged().
#pragma once

#include <QObject>
#include <QString>

class QDockWidget;

namespace cuwb {

class DevicePanel;
class DeviceSelector;
class ToolHost;
struct DeviceQuery;

class DeviceTool : public QObject
{
    Q_OBJECT

public:
    explicit DeviceTool(ToolHost *host);

    [[nodiscard]] DevicePanel *panel() const { return m_panel; }
    [[nodiscard]] DeviceSelector *selector() const { return m_selector; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }
    // The target chosen ("" for this machine), as the device query must be started with.
    [[nodiscard]] QString target() const;

Q_SIGNALS:
    // The placement's target changed; the shared worker follows already.
    void targetChanged(const QString &target);

private:
    // The shared worker on the placement's target, once per change of it.
    void followPlacement();

    QString m_target; // the target the shared worker has

    ToolHost *m_host;
    DevicePanel *m_panel = nullptr;
    DeviceSelector *m_selector = nullptr;
    QDockWidget *m_dock = nullptr;
};

} // namespace cuwb
