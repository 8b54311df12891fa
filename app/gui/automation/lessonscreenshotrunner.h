// LessonScreenshotRunner: the evidence of a lesson as a picture of the main window with the
// Lesson dock in front: once the project's first compile is on screen and the device is known,
// fills in the given predictions, runs the lesson's experiment ("Run the experiment"), waits
// for the measurement to stand beside the predictions and captures; with a report path it
// writes the lab report too. An experiment that cannot start, measures nothing or does not
// finish in time exits 1 with the reason (captured when it can).
// For `cuda-workbench --lesson [--predict ID=VALUE]... --screenshot FILE [--report REPORT.html]
// PROJECT.cuwb`.
#pragma once

#include "gui/common/metatypes.h"
#include "sweep/sweep.h"

#include "gui/automation/capturerunner.h"

#include <QList>
#include <QPair>

namespace cuwb {

class MainWindow;

class LessonScreenshotRunner : public CaptureRunner
{
    Q_OBJECT

public:
    LessonScreenshotRunner(MainWindow *window, const QString &outputPath,
                           QObject *parent = nullptr);

    // The predictions to write in before running: id, value.
    void setPredictions(const QList<QPair<QString, QString>> &predictions)
    {
        m_predictions = predictions;
    }
    // Where to write the lab report; empty: none.
    void setReportPath(const QString &path) { m_reportPath = path; }

    // Emits finished(exit code) when captured or failed; waits at most timeoutMs for the
    // compile (the experiment gets its own limit).
    void start(int timeoutMs = 120000);

private:
    void act() override;
    void beforeCapture() override;
    QString afterCapture() override;
    void startExperiment();
    void onSweepShown(const SweepResult &result);

    QString m_reportPath;
    QList<QPair<QString, QString>> m_predictions;
};

} // namespace cuwb
