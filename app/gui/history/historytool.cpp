#include "gui/history/historytool.h"

#include "gui/common/qtconvert.h"
#include "gui/history/historypanel.h"
#include "gui/run/runcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/toolhost.h"

#include "history/historystore.h"
#include "sweep/sweephistory.h"

#include <QDockWidget>
#include <QMainWindow>

namespace cuwb {

HistoryTool::HistoryTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("historyTool"));
    QMainWindow *window = host->window();
    m_panel = new HistoryPanel(window);
    m_dock = host->addDock(tr("History"), QStringLiteral("historyDock"), m_panel,
                           Qt::BottomDockWidgetArea, QStringLiteral("measurementDock"));

    connect(host->runController(), &RunController::measurementFinished, this,
            [this](quint64, const Measurement &measurement) { record(measurement); });
    if (SweepTool *sweep = host->tool<SweepTool>())
        connect(sweep, &SweepTool::shown, this, &HistoryTool::recordSweep);
    connect(m_panel, &HistoryPanel::openRequested, this,
            [this](qint64 id, const QString &json, const QString &kind) {
                open(id, json, kind, false);
            });
    connect(m_panel, &HistoryPanel::baselineRequested, this,
            [this](qint64 id, const QString &json, const QString &kind) {
                open(id, json, kind, true);
            });
    host->addTool(this);
}

void HistoryTool::record(const Measurement &measurement)
{
    // Every measurement that took samples is kept, faulted and cancelled ones too: the history
    // is a record of what was run.
    if (m_panel->databasePath().isEmpty() || measurement.statistics.count == 0)
        return;
    m_panel->addEntry(measurementEntry(measurement, toStdString(m_host->projectName()),
                                       toStdString(m_host->projectPath())));
}

void HistoryTool::recordSweep(const SweepResult &result)
{
    if (!result.error.empty() || m_panel->databasePath().isEmpty())
        return;
    m_panel->addEntry(
        sweepEntry(result, toStdString(m_host->projectName()), toStdString(m_host->projectPath())));
}

void HistoryTool::open(qint64 id, const QString &jsonText, const QString &kind, bool baseline)
{
    const HistoryDocument document = readHistoryDocument(toStdString(kind), toStdString(jsonText));
    if (!document.error.empty()) {
        m_host->showStatus(
            tr("History entry %1 could not be read: %2").arg(id).arg(toQString(document.error)),
            15000);
        return;
    }
    if (document.sweep) {
        SweepTool *sweepTool = m_host->tool<SweepTool>();
        if (!sweepTool)
            return;
        const SweepResult &sweep = *document.sweep;
        const QString date = toQString(sweep.startedAt).left(10);
        if (baseline)
            sweepTool->panel()->showBaseline(sweep, date.isEmpty() ? tr("baseline")
                                                                   : tr("baseline %1").arg(date));
        else
            sweepTool->panel()->showResult(
                sweep, date.isEmpty() ? tr("history %1").arg(id)
                                      : tr("%1 %2").arg(toQString(sweep.projectName), date));
        sweepTool->dock()->show();
        sweepTool->dock()->raise();
        return;
    }
    Q_EMIT measurementOpened(*document.measurement);
    if (baseline)
        m_host->showStatus(tr("Only sweeps are overlaid as a baseline; the stored measurement is "
                              "shown instead."),
                           10000);
}

} // namespace cuwb
