// SweepTool: the Sweep dock, plugged into the window (gui/workspace/toolhost.h). It owns the
// sweep's controller and panel, adds the dock beside the Measurement dock and Run Sweep and
// Cancel Sweep to the Run menu, and keeps the sweep's base (the launch it varies) following
// the Workspace's launch, the current compile and the GPU. A clicked point's configuration goes
// back to the Workspace's launch and compile options; a finished sweep is announced with
// shown(), which the window hands to the lesson and the history.
#pragma once

#include "device/deviceinfo.h"

#include "gui/common/metatypes.h"

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QDockWidget;

namespace cuwb {

class Document;
class SweepController;
class SweepPanel;
class ToolHost;
struct SweepPoint;
struct SweepResult;

class SweepTool : public QObject
{
    Q_OBJECT

public:
    explicit SweepTool(ToolHost *host);

    [[nodiscard]] SweepPanel *panel() const { return m_panel; }
    [[nodiscard]] SweepController *controller() const { return m_controller; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }

    // Brings the Sweep dock to the front, across the window and tall enough for its chart and
    // table (the --sweep screenshots).
    void showDock();
    // Whether a sweep can start (a GPU is there), and why not.
    void setRunAvailability(bool available, const QString &reason);
    // The GPUs the device query found, and the architecture of the first, whose limits the
    // points are checked against (else the compile target's).
    void setDevices(const std::vector<DeviceInfo> &devices, const QString &architecture);
    // Runs the sweep preset `presetId` once the kernel of the project at `projectPath` is
    // compiled, not against the launch on screen now (the Samples menu's classroom entry).
    void sweepWhenCompiled(const QString &projectPath, const QString &presetId);
    // The launch the sweep varies: the Workspace's, for the current compile.
    void updateBase();

Q_SIGNALS:
    // A point's configuration was applied to the launch (and compile options).
    void pointApplied(const cuwb::SweepPoint &point);
    // A finished sweep is on screen.
    void shown(const cuwb::SweepResult &result);

private:
    void createDock();
    void createActions();
    void onDocumentShown(Document *document);
    void applyPoint(const SweepPoint &point);

    ToolHost *m_host;
    SweepController *m_controller = nullptr;
    SweepPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    QString m_deviceArchitecture; // the first GPU's, once the device query has answered
    bool m_dockSized = false;     // the dock was given room once
    QString m_presetWhenCompiled; // sweepWhenCompiled: run this preset once compiled
    QString m_projectWhenCompiled;
};

} // namespace cuwb
