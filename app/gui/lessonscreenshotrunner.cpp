#include "lessonscreenshotrunner.h"

#include "deviceprobe.h"
#include "launchpanel.h"
#include "lessonpanel.h"
#include "mainwindow.h"
#include "qtconvert.h"
#include "sweeppanel.h"
#include "sweepscreenshotrunner.h"
#include "windowcapture.h"

#include <QTextBrowser>

#include <cstdio>

namespace cuwb {

LessonScreenshotRunner::LessonScreenshotRunner(MainWindow *window, const QString &outputPath,
                                               QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_outputPath(outputPath)
    , m_timeoutMessage(tr("no compile result appeared in time"))
{
    m_timeout.setSingleShot(true);
    m_devicePatience.setSingleShot(true);
    m_devicePatience.setInterval(10000);
    connect(&m_timeout, &QTimer::timeout, this, [this] { fail(m_timeoutMessage); });
    connect(&m_devicePatience, &QTimer::timeout, this, &LessonScreenshotRunner::proceed);
    connect(m_window, &MainWindow::resultShown, this, [this] {
        m_haveResult = true;
        check();
    });
    connect(m_window->deviceProbe(), &DeviceProbe::finished, this, &LessonScreenshotRunner::check);
}

void LessonScreenshotRunner::start(int timeoutMs)
{
    if (!m_window->currentDocument()) {
        fail(tr("there is no lesson to run: open a .cuwb project with a lesson.md beside it"));
        return;
    }
    if (!m_window->lessonPanel()->hasLesson()) {
        fail(tr("the project has no lesson: %1")
                 .arg(m_window->lessonPanel()->textBrowser()->toPlainText()));
        return;
    }
    for (const auto &[id, value] : m_predictions)
        if (!m_window->lessonPanel()->setPrediction(id, value)) {
            QStringList ids;
            for (const Prediction &prediction : m_window->lessonPanel()->lesson()->predictions)
                ids << toQString(prediction.id);
            fail(tr("the lesson has no prediction '%1'; its predictions are %2")
                     .arg(id, ids.join(QStringLiteral(", "))));
            return;
        }
    m_window->showLessonDock();
    m_timeout.start(timeoutMs);
}

void LessonScreenshotRunner::check()
{
    if (!m_haveResult || m_capturing || m_started)
        return;
    if (m_window->deviceProbe()->isFinished())
        proceed();
    else if (!m_devicePatience.isActive())
        m_devicePatience.start();
}

void LessonScreenshotRunner::proceed()
{
    m_devicePatience.stop();
    if (m_started || m_capturing)
        return;
    m_started = true;
    LessonPanel *lesson = m_window->lessonPanel();
    connect(lesson, &LessonPanel::resultShown, this, &LessonScreenshotRunner::capture);
    if (lesson->lesson()->experiment != LessonExperiment::Sweep) {
        m_timeoutMessage = tr("the experiment did not finish in time");
        m_timeout.start(10 * 60 * 1000);
        lesson->startExperiment();
        return;
    }
    SweepPanel *panel = m_window->sweepPanel();
    if (panel->spec().axes.empty()) {
        fail(tr("the project has no sweep for the lesson's experiment"));
        return;
    }
    // The person who asked for this screenshot asked for the sweep, whatever its size.
    panel->setConfirmation([](const QString &) { return true; });
    connect(panel, &SweepPanel::sweepShown, this, &LessonScreenshotRunner::onSweepShown);
    if (panel->isCounting()) {
        auto *connection = new QMetaObject::Connection;
        *connection = connect(panel, &SweepPanel::countChanged, this, [this, connection] {
            disconnect(*connection);
            delete connection;
            startExperiment();
        });
        return;
    }
    startExperiment();
}

void LessonScreenshotRunner::startExperiment()
{
    SweepPanel *panel = m_window->sweepPanel();
    if (!panel->canRun()) {
        m_exitCode = 1;
        m_failure = tr("the sweep cannot run: %1").arg(panel->messageText());
        m_window->lessonPanel()->showExperimentFailed(m_failure);
        capture();
        return;
    }
    m_timeoutMessage = tr("the sweep did not finish in time");
    m_timeout.start(SweepScreenshotRunner::sweepTimeoutMs(
        panel->spec(), panel->runnableCount().value_or(0),
        m_window->launchPanel()->launchSpec().deadlineSeconds));
    m_window->lessonPanel()->startExperiment();
    m_window->showLessonDock();
}

void LessonScreenshotRunner::onSweepShown(const SweepResult &result)
{
    const std::size_t measured = result.count(PointStatus::Measured);
    std::fprintf(stderr, "cuda-workbench: lesson sweep: measured %zu of %zu points\n", measured,
                 result.points.size());
    if (!result.bestPoint()) {
        m_exitCode = 1;
        m_failure = result.error.empty()
                        ? tr("the sweep measured no point")
                        : tr("the sweep did not run: %1").arg(toQString(result.error));
        capture();
    }
}

void LessonScreenshotRunner::capture()
{
    if (m_capturing)
        return;
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    m_window->showLessonDock();
    // The docks and the chart settle before grabbing (and before the report's chart).
    QTimer::singleShot(600, this, [this] {
        if (const QString error = WindowCapture::save(m_window, m_outputPath); !error.isEmpty()) {
            fail(error);
            return;
        }
        if (!m_reportPath.isEmpty() && m_exitCode == 0) {
            if (const QString error = m_window->lessonPanel()->exportReport(m_reportPath);
                !error.isEmpty()) {
                fail(tr("the lab report was not written: %1").arg(error));
                return;
            }
        }
        if (m_exitCode != 0)
            std::fprintf(stderr, "cuda-workbench: %s (the screenshot shows it)\n",
                         qPrintable(m_failure));
        Q_EMIT finished(m_exitCode);
    });
}

void LessonScreenshotRunner::fail(const QString &message)
{
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    std::fprintf(stderr, "cuda-workbench: screenshot failed: %s\n", qPrintable(message));
    Q_EMIT finished(1);
}

} // namespace cuwb
