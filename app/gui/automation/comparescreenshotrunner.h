// CompareScreenshotRunner: the evidence of an A/B comparison as a picture of the main window.
// Once the project's first compile is on screen it either collects the comparison on the worker
// (Run: the project against a second project file, each measured, profiled and inspected, on a
// GPU) or shows one from recorded JSON (Open: for each side the files of `cuwb measure --json`
// and `cuwb inspect --json`, and/or the two measurements of `cuwb compare --json`), without a
// GPU. It brings the SASS tab (whose listing gives the instruction mix) and the Compare dock to
// the front, puts the editor on the first line that differs, and captures. A side that could
// not be collected is captured too, and finished() reports exit code 1 with its reason.
// For `cuda-workbench --compare B.cuwb --screenshot FILE A.cuwb` and
// `cuda-workbench --compare-a A.json[,A2.json] --compare-b B.json[,...] --screenshot FILE P.cuwb`.
#pragma once

#include "gui/automation/capturerunner.h"

#include <QStringList>

namespace cuwb {

class CompareScreenshotRunner : public CaptureRunner
{
    Q_OBJECT

public:
    enum class Mode { Run, Open };

    CompareScreenshotRunner(MainWindow *window, const QString &outputPath, Mode mode,
                            QObject *parent = nullptr);

    // Run: the project compared with the current one (B).
    void setProjectB(const QString &path) { m_projectB = path; }
    // Open: the recorded files of each side, and the output of `cuwb compare --json`.
    void setRecorded(const QStringList &a, const QStringList &b, const QString &compareJson)
    {
        m_filesA = a;
        m_filesB = b;
        m_compareJson = compareJson;
    }

    void start(int timeoutMs = 120000);

private:
    void act() override;
    void beforeCapture() override;
    void onComparisonShown();
    bool loadRecorded();

    Mode m_mode = Mode::Run;
    QString m_projectB;
    QStringList m_filesA;
    QStringList m_filesB;
    QString m_compareJson;
    bool m_shown = false;
};

} // namespace cuwb
