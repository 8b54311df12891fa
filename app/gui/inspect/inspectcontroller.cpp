#include "gui/inspect/inspectcontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspectpanel.h"
#include "inspect/sasslisting.h"
#include "run/runrequest.h"

#include <QAction>

namespace cuwb {

InspectController::InspectController(InspectPanel *panel, QObject *parent)
    : QObject(parent)
    , m_panel(panel)
{
    connect(m_panel->nextHotLineAction(), &QAction::triggered, this,
            &InspectController::nextHotLine);
    connect(m_panel->previousHotLineAction(), &QAction::triggered, this,
            &InspectController::previousHotLine);
    connect(m_panel, &InspectPanel::lineActivated, this, &InspectController::goToLine);
}

void InspectController::started(Document *document, const RunRequest &request)
{
    m_pendingDocument = document;
    m_pendingSource = request.source;
    m_pendingFileName = request.fileName;
    m_pending = true;
    m_panel->showInspecting(toQString(request.launch.kernel));
}

void InspectController::finished(const InspectResult &result)
{
    Document *document = m_pending ? m_pendingDocument.data() : nullptr;
    const std::string source = m_pendingSource;
    const std::string fileName = m_pendingFileName;
    m_pending = false;
    if (!result.ok()) {
        // The editor keeps what it showed: a refusal or a fault says nothing about the lines.
        m_panel->showFailure(toQString(result.error), result.permissionDenied);
        Q_EMIT statusMessage(result.permissionDenied
                                 ? tr("Inspect was refused: the GPU's performance counters need "
                                      "permission (see the Inspect dock)")
                                 : tr("The inspection failed: %1").arg(toQString(result.error)));
        Q_EMIT shown();
        return;
    }
    show(document, source, fileName, result);
}

void InspectController::showRecorded(Document *document, const InspectResult &result)
{
    m_pending = false;
    if (!document)
        return;
    const std::string fileName = document->hasResult() ? document->lastResult().fileName
                                                       : toStdString(document->displayName());
    show(document, toStdString(document->editor()->text()), fileName, result);
}

void InspectController::show(Document *document, const std::string &source,
                             const std::string &fileName, const InspectResult &result)
{
    clearEditor();
    m_document = document;
    m_fileName = fileName;
    m_result = result;
    m_summary = summarise(result);
    m_overlay = makeInspectOverlay(m_summary, fileName);
    m_hasResult = true;
    m_hotIndex = -1;
    // Edited while the GPU worked: the counters are for a text that is no longer there.
    m_stale = !document || toStdString(document->editor()->text()) != source;
    m_panel->showResult(result, m_summary, toQString(source).split(QLatin1Char('\n')), fileName,
                        m_overlay.bySamples);
    if (m_stale) {
        m_panel->setStale(true);
    } else {
        document->editor()->setHeat(m_overlay.heat);
        document->editor()->setInspectAnnotations(m_overlay.annotations);
    }
    updateNavigation();
    QString status;
    if (!result.lineInfo && !result.instructions.empty())
        status = tr("Inspected %1, but -lineinfo is off: turn it on to see the lines")
                     .arg(toQString(demangleSassName(result.kernel)));
    else if (m_stale)
        status = tr("Inspected %1; the source was edited meanwhile, so nothing is shown on it")
                     .arg(toQString(demangleSassName(result.kernel)));
    else
        status = tr("Inspected %1: %2 hot lines (F8 goes to the hottest)")
                     .arg(toQString(demangleSassName(result.kernel)))
                     .arg(m_overlay.hotLines.size());
    Q_EMIT statusMessage(status);
    Q_EMIT applicabilityChanged();
    Q_EMIT shown();
}

void InspectController::clearEditor()
{
    if (m_document)
        m_document->editor()->clearInspection();
}

void InspectController::documentEdited(Document *document)
{
    if (!m_hasResult || m_stale || document != m_document)
        return;
    m_stale = true;
    clearEditor();
    m_panel->setStale(true);
    updateNavigation();
    Q_EMIT applicabilityChanged();
}

bool InspectController::appliesTo(const Document *document) const
{
    return m_hasResult && !m_stale && document && document == m_document;
}

void InspectController::updateNavigation()
{
    m_panel->setNavigationEnabled(m_hasResult && !m_stale && m_document &&
                                  !m_overlay.hotLines.empty());
}

void InspectController::goToLine(int line)
{
    if (!m_hasResult || m_stale || !m_document || line <= 0)
        return;
    m_document->editor()->goToLocation(line, 1);
}

void InspectController::nextHotLine()
{
    goToHotLine(1);
}

void InspectController::previousHotLine()
{
    goToHotLine(-1);
}

void InspectController::goToHotLine(int step)
{
    const int count = int(m_overlay.hotLines.size());
    if (!m_hasResult || m_stale || !m_document || count == 0)
        return;
    m_hotIndex = m_hotIndex < 0 ? (step > 0 ? 0 : count - 1) : (m_hotIndex + step + count) % count;
    const int line = m_overlay.hotLines[std::size_t(m_hotIndex)];
    m_document->editor()->goToLocation(line, 1);
    m_panel->selectLine(line);
    double share = 0.0;
    for (const LineCounters &counters : m_summary.lines) {
        if (counters.line == line && isMainSourceLine(counters, m_fileName))
            share = heatShare(counters, m_summary);
    }
    Q_EMIT statusMessage((m_overlay.bySamples
                              ? tr("Hot line %1 of %2: line %3, %4 % of the PC samples")
                              : tr("Hot line %1 of %2: line %3, %4 % of the executed instructions"))
                             .arg(m_hotIndex + 1)
                             .arg(count)
                             .arg(line)
                             .arg(100.0 * share, 0, 'f', 1));
}

} // namespace cuwb
