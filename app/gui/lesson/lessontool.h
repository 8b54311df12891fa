// LessonTool: the Lesson dock, plugged into the window (gui/workspace/toolhost.h). When a project
// is opened it loads the lesson.md beside it (or says there is none); the lesson's experiment
// runs through the window as the user would run it — the sweep through the Sweep tool, once the
// project's kernel is compiled, Measure and Run through the Launch dock's actions — and its
// result comes back to the lesson. The lab report is filled from the editor, the sweep and the
// device. A lesson's "compare these two projects" is a signal of the panel the shell connects.
#pragma once

#include "lesson/lesson.h"

#include <QObject>

class QDockWidget;

namespace cuwb {

class Document;
class LessonPanel;
class ToolHost;
struct LabReportInput;
struct Measurement;
struct SweepResult;

class LessonTool : public QObject
{
    Q_OBJECT

public:
    explicit LessonTool(ToolHost *host);

    [[nodiscard]] LessonPanel *panel() const { return m_panel; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }
    // Brings the Lesson dock to the front, beside the Sweep dock (the --lesson screenshot).
    void showDock();
    // The lesson beside the project at `projectPath` (lesson.md), or none.
    void loadLessonFor(const QString &projectPath);

private:
    void onExperiment(LessonExperiment experiment);
    void onDocumentShown(Document *document);
    void onSweepShown(const SweepResult &result);
    void onMeasured(const Measurement &measurement);
    void fillReport(LabReportInput &input) const;
    // Starts the sweep; false, with the panel told why, when it cannot.
    bool runSweep();

    ToolHost *m_host;
    LessonPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    // The lesson asked for a sweep or a measurement and waits for its result; a sweep waits
    // for the project's kernel to compile first when it has no base yet.
    bool m_awaitsSweep = false;
    bool m_sweepWhenCompiled = false;
    bool m_awaitsMeasurement = false;
};

} // namespace cuwb
