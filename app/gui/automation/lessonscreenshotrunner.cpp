#include "gui/automation/lessonscreenshotrunner.h"

#include "gui/automation/sweepscreenshotrunner.h"
#include "gui/common/qtconvert.h"
#include "gui/launch/launchpanel.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/lesson/lessontool.h"
#include "gui/shell/mainwindow.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"

#include <QTextBrowser>

#include <cstdio>

namespace cuwb {

LessonScreenshotRunner::LessonScreenshotRunner(MainWindow *window, const QString &outputPath,
                                               QObject *parent)
    : CaptureRunner(window, outputPath, 600, parent)
{}

void LessonScreenshotRunner::start(int timeoutMs)
{
    if (!window()->currentDocument()) {
        fail(tr("there is no lesson to run: open a .cuwb project with a lesson.md beside it"));
        return;
    }
    if (!window()->lessonTool()->panel()->hasLesson()) {
        fail(tr("the project has no lesson: %1")
                 .arg(window()->lessonTool()->panel()->textBrowser()->toPlainText()));
        return;
    }
    for (const auto &[id, value] : m_predictions)
        if (!window()->lessonTool()->panel()->setPrediction(id, value)) {
            QStringList ids;
            for (const Prediction &prediction :
                 window()->lessonTool()->panel()->lesson()->predictions)
                ids << toQString(prediction.id);
            fail(tr("the lesson has no prediction '%1'; its predictions are %2")
                     .arg(id, ids.join(QStringLiteral(", "))));
            return;
        }
    window()->lessonTool()->showDock();
    waitForCompile(timeoutMs);
}

void LessonScreenshotRunner::act()
{
    LessonPanel *lesson = window()->lessonTool()->panel();
    connect(lesson, &LessonPanel::resultShown, this, &LessonScreenshotRunner::capture);
    if (lesson->lesson()->experiment != LessonExperiment::Sweep) {
        expectWithin(10 * 60 * 1000, tr("the experiment did not finish in time"));
        lesson->startExperiment();
        return;
    }
    SweepPanel *panel = window()->sweepTool()->panel();
    if (panel->spec().axes.empty()) {
        fail(tr("the project has no sweep for the lesson's experiment"));
        return;
    }
    // The person who asked for this screenshot asked for the sweep, whatever its size.
    panel->setConfirmation([](const QString &) { return true; });
    connect(panel, &SweepPanel::sweepShown, this, &LessonScreenshotRunner::onSweepShown);
    whenCounted(panel, [this] { startExperiment(); });
}

void LessonScreenshotRunner::startExperiment()
{
    SweepPanel *panel = window()->sweepTool()->panel();
    if (!panel->canRun()) {
        const QString failure = tr("the sweep cannot run: %1").arg(panel->messageText());
        reportFailure(failure);
        window()->lessonTool()->panel()->showExperimentFailed(failure);
        capture();
        return;
    }
    expectWithin(SweepScreenshotRunner::sweepTimeoutMs(
                     panel->spec(), panel->runnableCount().value_or(0),
                     window()->workspace()->launch().spec().deadlineSeconds),
                 tr("the sweep did not finish in time"));
    window()->lessonTool()->panel()->startExperiment();
    window()->lessonTool()->showDock();
}

void LessonScreenshotRunner::onSweepShown(const SweepResult &result)
{
    const std::size_t measured = result.count(PointStatus::Measured);
    std::fprintf(stderr, "cuda-workbench: lesson sweep: measured %zu of %zu points\n", measured,
                 result.points.size());
    if (!result.bestPoint()) {
        reportFailure(result.error.empty()
                          ? tr("the sweep measured no point")
                          : tr("the sweep did not run: %1").arg(toQString(result.error)));
        capture();
    }
}

void LessonScreenshotRunner::beforeCapture()
{
    window()->lessonTool()->showDock();
}

QString LessonScreenshotRunner::afterCapture()
{
    if (m_reportPath.isEmpty() || exitCode() != 0)
        return {};
    if (const QString error = window()->lessonTool()->panel()->exportReport(m_reportPath);
        !error.isEmpty())
        return tr("the lab report was not written: %1").arg(error);
    return {};
}

} // namespace cuwb
