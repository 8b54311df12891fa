#include "gui/automation/inspectscreenshotrunner.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspectcontroller.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/inspecttool.h"
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/workspace/workspace.h"
#include "inspect/instructioncountersjson.h"
#include "worker/workerclient.h"

#include <QAction>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace cuwb {

InspectScreenshotRunner::InspectScreenshotRunner(MainWindow *window, const QString &outputPath,
                                                 Mode mode, QObject *parent)
    : CaptureRunner(window, outputPath, 600, parent)
    , m_mode(mode)
{}

void InspectScreenshotRunner::start(int timeoutMs)
{
    if (!window()->currentDocument()) {
        fail(tr("there is no kernel to inspect: open a .cuwb project or a .cu source"));
        return;
    }
    waitForCompile(timeoutMs);
}

void InspectScreenshotRunner::act()
{
    // The SASS is disassembled while the inspection runs.
    window()->inspectTool()->showSassTab();
    connect(window()->inspectTool(), &InspectTool::sassShown, this,
            &InspectScreenshotRunner::captureWhenReady);
    connect(window()->inspectTool(), &InspectTool::shown, this,
            &InspectScreenshotRunner::onInspectShown);
    if (m_mode == Mode::Open) {
        QFile file(m_resultPath);
        if (!file.open(QIODevice::ReadOnly)) {
            fail(tr("cannot read %1").arg(m_resultPath));
            return;
        }
        InspectResult result;
        try {
            const nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString());
            result = (json.contains("result") ? json.at("result") : json).get<InspectResult>();
        } catch (const std::exception &error) {
            fail(tr("%1 is not an inspection's result: %2")
                     .arg(m_resultPath, QString::fromUtf8(error.what())));
            return;
        }
        expectWithin(60000, tr("the SASS listing did not appear in time"));
        window()->inspectTool()->showResult(result);
        return;
    }
    LaunchPanel *launch = window()->launchPanel();
    window()->inspectTool()->showDock();
    if (!launch->canRun()) {
        reportFailure(tr("cannot inspect: %1").arg(launch->runBlockedReason()));
        capture();
        return;
    }
    const double seconds = WorkerClient::metricsTimeoutSeconds(
                               window()->workspace()->launch().spec().deadlineSeconds) +
                           60.0;
    expectWithin(int(seconds * 1000.0), tr("no inspection appeared in time"));
    m_sinceAction.start();
    launch->inspectAction()->trigger();
}

void InspectScreenshotRunner::onInspectShown()
{
    m_inspected = true;
    if (m_sinceAction.isValid()) {
        // What a user waits for: the action to the annotations (docs/benchmarks.md).
        std::fprintf(stderr,
                     "cuda-workbench: inspected in %lld ms (Run > Inspect to the "
                     "annotated editor)\n",
                     static_cast<long long>(m_sinceAction.elapsed()));
    }
    // A refused or failed inspection: the dock says why, and so does the exit code.
    if (!window()->inspectTool()->controller()->hasResult())
        reportFailure(window()->inspectTool()->panel()->messageText());
    captureWhenReady();
}

void InspectScreenshotRunner::captureWhenReady()
{
    if (!m_inspected)
        return;
    // The listing of this compile, or the view's word on why there is none.
    const SassController *sass = window()->inspectTool()->sassController();
    if (!sass->isCurrent() && window()->inspectTool()->sassView()->messageText().isEmpty())
        return;
    capture();
}

void InspectScreenshotRunner::beforeCapture()
{
    window()->inspectTool()->showDock();
    const InspectController *inspect = window()->inspectTool()->controller();
    int line = m_cursorLine;
    if (line <= 0 && inspect->hasResult() && !inspect->overlay().hotLines.empty())
        line = inspect->overlay().hotLines.front();
    if (line <= 0)
        return;
    window()->inspectTool()->panel()->selectLine(line);
    // Once the docks have their sizes: the line a third of the way down, with the annotation
    // under it in view.
    QTimer::singleShot(100, this, [this, line] {
        Document *document = window()->currentDocument();
        if (!document)
            return;
        SourceEditor *editor = document->editor();
        editor->goToLocation(line, 1);
        const int visible = int(editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN));
        editor->setFirstVisibleLine(std::max(0, line - 1 - visible / 3));
    });
}

} // namespace cuwb
