// ScreenshotRunner: renders the main window to a PNG once the first compile result is on
// screen, the device line is known and the docks are laid out; for documentation and tests.
// Action::Run then runs the launch and waits for the result and its first page of values.
// Action::Measure measures it instead (with the metrics pass when asked) and waits for the
// card and the histogram, so that the picture is evidence of a real measurement; a measurement
// that cannot start or stops on a fault is still captured, and finished() reports exit code 1.
#pragma once

#include "gui/common/metatypes.h"
#include "measure/measurement.h"
#include "measure/metrics.h"

#include "gui/automation/capturerunner.h"

namespace cuwb {

class MainWindow;

class ScreenshotRunner : public CaptureRunner
{
    Q_OBJECT

public:
    enum class Action { None, Run, Measure };

    ScreenshotRunner(MainWindow *window, const QString &outputPath, int cursorLine,
                     Action action = Action::None, QObject *parent = nullptr);

    // With Action::Measure: whether the metrics pass follows the timing. Stored in the
    // measurement options (QSettings), which a screenshot keeps in a scratch folder.
    void setCollectMetrics(bool collect) { m_collectMetrics = collect; }
    // With it: the pass also collects rooflineMetrics(), so the Measurement dock shows speed of
    // light and the run on the roofline.
    void setRooflineMetrics(bool roofline) { m_rooflineMetrics = roofline; }

    // Waits (at most timeoutMs for the compile; a measurement gets its own, longer limit) and
    // then emits finished with the exit code.
    void start(int timeoutMs = 60000);

    // How long to wait for a measurement (and its metrics pass) before giving up: the
    // worker's own limits plus a minute.
    static int measureTimeoutMs(double deadlineSeconds, const SampleSettings &settings,
                                bool metrics);

private:
    void act() override;
    void beforeCapture() override;
    void startRun();
    void startMeasure();
    void onMeasurementShown(const Measurement &measurement);
    void onMetricsShown(const MetricsResult &metrics);

    int m_cursorLine = 0;
    Action m_action = Action::None;
    bool m_collectMetrics = false;
    bool m_rooflineMetrics = false;
};

} // namespace cuwb
