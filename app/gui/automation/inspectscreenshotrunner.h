// InspectScreenshotRunner: the evidence of an inspection as a picture of the main window. Once
// the project's first compile is on screen it either inspects the kernel on the worker (Run,
// on a GPU) or shows a recorded result (Open: the JSON of `cuwb inspect --json`, or its bare
// "result"), brings the SASS tab (waiting for its listing) and the Inspect dock to the front,
// puts the cursor on the hottest line (or --cursor-line) and captures. An inspection that
// fails or is refused is captured too, and finished() reports exit code 1 with the reason.
// For `cuda-workbench --inspect --screenshot FILE PROJECT.cuwb` and
// `cuda-workbench --inspect-result RESULT.json --screenshot FILE PROJECT.cuwb`.
#pragma once

#include "gui/automation/capturerunner.h"

#include <QElapsedTimer>

namespace cuwb {

class MainWindow;

class InspectScreenshotRunner : public CaptureRunner
{
    Q_OBJECT

public:
    enum class Mode { Run, Open };

    InspectScreenshotRunner(MainWindow *window, const QString &outputPath, Mode mode,
                            QObject *parent = nullptr);

    // Open: the recorded result.
    void setResultFile(const QString &path) { m_resultPath = path; }
    // The source line to put the cursor on; 0: the hottest line.
    void setCursorLine(int line) { m_cursorLine = line; }

    // Emits finished(exit code) once captured or failed; waits at most timeoutMs for the
    // compile (an inspection on the worker gets its own limit).
    void start(int timeoutMs = 120000);

private:
    void act() override;
    void beforeCapture() override;
    void onInspectShown();
    void captureWhenReady();

    Mode m_mode = Mode::Run;
    QString m_resultPath;
    int m_cursorLine = 0;
    bool m_inspected = false;
    QElapsedTimer m_sinceAction; // from Run ▸ Inspect to the annotated editor
};

} // namespace cuwb
