#include "gui/lesson/lessontool.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/lesson/labreport.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/run/runcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include "lesson/lesson.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QTemporaryDir>

#include <algorithm>

namespace cuwb {

LessonTool::LessonTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("lessonTool"));
    QMainWindow *window = host->window();
    m_panel = new LessonPanel(window);
    m_dock = host->addDock(tr("Lesson"), QStringLiteral("lessonDock"), m_panel,
                           Qt::RightDockWidgetArea, QStringLiteral("launchDock"));
    m_dock->hide(); // shown when a project with a lesson is opened

    connect(host, &ToolHost::projectOpened, this, &LessonTool::loadLessonFor);
    connect(m_panel, &LessonPanel::experimentRequested, this, &LessonTool::onExperiment);
    connect(m_panel, &LessonPanel::statusMessage, this,
            [this](const QString &message) { m_host->showStatus(message, 10000); });
    connect(host, &ToolHost::documentShown, this, &LessonTool::onDocumentShown);
    connect(host->runController(), &RunController::measurementFinished, this,
            [this](quint64, const Measurement &measurement) { onMeasured(measurement); });
    if (SweepTool *sweep = host->tool<SweepTool>())
        connect(sweep, &SweepTool::shown, this, &LessonTool::onSweepShown);
    m_panel->setReportContext([this](LabReportInput &input) { fillReport(input); });
    host->addTool(this);
}

void LessonTool::showDock()
{
    // The lesson beside the sweep's chart: the Sweep dock below, the Lesson dock on the right.
    QMainWindow *window = m_host->window();
    if (SweepTool *sweep = m_host->tool<SweepTool>()) {
        sweep->showDock();
        window->resizeDocks({sweep->dock()}, {std::max(360, window->height() * 2 / 5)},
                            Qt::Vertical);
    }
    m_dock->show();
    m_dock->raise();
    window->resizeDocks({m_dock}, {std::max(560, window->width() * 9 / 20)}, Qt::Horizontal);
}

void LessonTool::loadLessonFor(const QString &projectPath)
{
    m_awaitsSweep = m_sweepWhenCompiled = m_awaitsMeasurement = false;
    const std::optional<std::string> lesson = lessonPathFor(toStdString(projectPath));
    if (!lesson) {
        m_panel->clearLesson(
            tr("%1 has no lesson.md beside it.").arg(QFileInfo(projectPath).fileName()));
        return;
    }
    const QString error = m_panel->loadLesson(toQString(*lesson), projectPath);
    if (!error.isEmpty())
        m_host->showStatus(error, 10000);
    m_dock->show();
}

bool LessonTool::runSweep()
{
    SweepTool *sweep = m_host->tool<SweepTool>();
    if (sweep && sweep->panel()->runSweep())
        return true;
    m_awaitsSweep = false;
    m_panel->showExperimentFailed(sweep ? sweep->panel()->messageText()
                                        : tr("this window has no Sweep dock."));
    return false;
}

void LessonTool::onExperiment(LessonExperiment experiment)
{
    switch (experiment) {
    case LessonExperiment::Sweep: {
        m_awaitsSweep = true;
        const SweepTool *sweep = m_host->tool<SweepTool>();
        if (sweep && !sweep->panel()->hasBase()) {
            // The project's kernel is not compiled yet: the sweep runs once it is.
            m_sweepWhenCompiled = true;
            m_host->action(ToolHost::kCompileActionId)->trigger();
            return;
        }
        runSweep();
        return;
    }
    case LessonExperiment::Measure:
    case LessonExperiment::Run: {
        const QString blocked = m_host->runBlockedReason();
        if (!blocked.isEmpty()) {
            m_panel->showExperimentFailed(blocked);
            return;
        }
        if (experiment == LessonExperiment::Run) {
            m_host->action(ToolHost::kRunActionId)->trigger();
            m_panel->showExperimentFailed(tr("a run measures nothing; see the Results dock."));
            return;
        }
        m_awaitsMeasurement = true;
        m_host->action(ToolHost::kMeasureActionId)->trigger();
        return;
    }
    }
}

void LessonTool::onDocumentShown(Document *document)
{
    // The Sweep tool has taken the new compile as its base first (it was plugged in first).
    if (document && m_sweepWhenCompiled) {
        m_sweepWhenCompiled = false;
        runSweep();
    }
}

void LessonTool::onSweepShown(const SweepResult &result)
{
    if (m_awaitsSweep) {
        m_awaitsSweep = false;
        m_panel->showSweepResult(result);
    }
}

void LessonTool::onMeasured(const Measurement &measurement)
{
    if (m_awaitsMeasurement) {
        m_awaitsMeasurement = false;
        m_panel->showMeasurement(measurement);
    }
}

void LessonTool::fillReport(LabReportInput &input) const
{
    if (Document *document = m_host->currentDocument())
        input.source = document->editor()->text();
    SweepPanel *sweepPanel = nullptr;
    if (const SweepTool *sweep = m_host->tool<SweepTool>())
        sweepPanel = sweep->panel();
    const std::string kernel = input.sweep  ? input.sweep->kernel
                               : sweepPanel ? sweepPanel->result().kernel
                                            : std::string();
    input.kernel = toQString(kernel);
    input.deviceName = input.sweep ? toQString(input.sweep->deviceName) : m_host->deviceSummary();
    QStringList configuration;
    configuration
        << tr("Architecture: %1").arg(toQString(m_host->workspace()->editorCompileOptions().arch));
    if (input.sweep)
        configuration << tr("Sweep: %1 points, %2 measured")
                             .arg(input.sweep->points.size())
                             .arg(input.sweep->count(PointStatus::Measured));
    input.configuration = configuration.join(QLatin1Char('\n'));
    if (input.sweep && sweepPanel) {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        if (dir.isValid() && sweepPanel->exportTo(SweepPanel::ExportFormat::Png, png).isEmpty())
            input.chart = QImage(png);
    }
}

} // namespace cuwb
