// SweepScreenshotRunner: the evidence of a sweep as a picture of the main window, with the
// Sweep dock in front showing its chart and table. Two ways:
//   Run:  once the project's first compile is on screen and the device is known, runs the
//         project's sweep (or a preset), waits for it to finish (as long as the sweep's own
//         worst case, plus a margin) and captures; a sweep that cannot start, measures
//         nothing or does not finish in time exits 1 with the reason (captured when it can).
//   Open: shows a stored result (and a baseline beside it) and captures.
// For `cuda-workbench --sweep [--preset ID] --screenshot FILE PROJECT.cuwb` and
// `cuda-workbench --open-sweep RESULT.json [--baseline OTHER.json] --screenshot FILE`.
#pragma once

#include "gui/common/metatypes.h"
#include "sweep/sweep.h"

#include "gui/automation/capturerunner.h"

#include <QStringList>

namespace cuwb {

class MainWindow;

class SweepScreenshotRunner : public CaptureRunner
{
    Q_OBJECT

public:
    enum class Mode { Run, Open };

    SweepScreenshotRunner(MainWindow *window, const QString &outputPath, Mode mode,
                          QObject *parent = nullptr);

    // Run: a preset instead of the project's sweep ("block-32-step-32", "block-pow2").
    void setPreset(const QString &id) { m_preset = id; }
    // Open: the result to show and an optional baseline.
    void setResultFiles(const QString &result, const QString &baseline = {});
    // The chart page to capture: "time", "bandwidth", "heatmap" or "roofline" (which, in Run
    // mode, turns the sweep's Roofline metrics on); empty keeps the view's own choice (the
    // heatmap for a block.x × block.y sweep, else time).
    void setPage(const QString &page) { m_page = page; }
    // The pages setPage() takes.
    static QStringList pageNames();

    // Emits finished(exit code) when captured or failed; waits at most timeoutMs for the
    // compile (the sweep gets its own limit).
    void start(int timeoutMs = 120000);

    // How long to wait for a sweep of `runnablePoints`: its worst case (every point at its
    // time cap, plus a verification's deadline) and five minutes for the worker's start and
    // the host compiles, capped at four hours.
    static int sweepTimeoutMs(const SweepSpec &spec, std::size_t runnablePoints,
                              double deadlineSeconds);

private:
    void act() override;
    void beforeCapture() override;
    void startSweep();
    void onSweepShown(const SweepResult &result);
    void open();

    Mode m_mode = Mode::Run;
    QString m_preset;
    QString m_page;
    QString m_resultPath;
    QString m_baselinePath;
};

} // namespace cuwb
