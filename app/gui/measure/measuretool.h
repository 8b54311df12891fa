// MeasureTool: the Measurement dock, plugged into the window (gui/workspace/toolhost.h). The
// Launch dock's Measure (measure()) times the Workspace's launch through the window's run
// controller with the Workspace's sample settings and, when chosen, the metrics pass after it;
// the timing, the metrics and a cancellation come back to the dock. A stored measurement (the
// history's) is shown with showStored().
#pragma once

#include "gui/common/metatypes.h"

#include <QObject>

class QDockWidget;

namespace cuwb {

class MeasurementPanel;
class ToolHost;
struct Measurement;
struct MetricsResult;

class MeasureTool : public QObject
{
    Q_OBJECT

public:
    explicit MeasureTool(ToolHost *host);

    [[nodiscard]] MeasurementPanel *panel() const { return m_panel; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }
    // Brings the Launch and Measurement docks to the front, the Measurement dock tall enough
    // for its card and histogram (the --measure screenshot).
    void showDocks();

public Q_SLOTS:
    // Measures the launch as it is set up (the Launch dock's Measure, which checks first that
    // it can run).
    void measure();
    // Cancels the measurement in flight, if it can be.
    void cancel();
    // A measurement read back (a history entry), as if it had just been taken.
    void showStored(const cuwb::Measurement &measurement);

Q_SIGNALS:
    // A measurement's timing is on screen; when a metrics pass follows
    // (RunController::isCollectingMetrics()), metricsShown comes after it.
    void shown(const cuwb::Measurement &measurement);
    void metricsShown(const cuwb::MetricsResult &metrics);

private:
    void onMeasured(const Measurement &measurement);
    void onMetrics(const MetricsResult &metrics);

    ToolHost *m_host;
    MeasurementPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
};

} // namespace cuwb
