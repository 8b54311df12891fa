#include "gui/automation/comparescreenshotrunner.h"

#include "gui/common/qtconvert.h"
#include "gui/compare/comparelinesmodel.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/comparetool.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspecttool.h"
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"
#include "gui/shell/mainwindow.h"
#include "worker/workerclient.h"

#include <QFile>
#include <QFileInfo>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace cuwb {

namespace {

std::string readText(const QString &path, QString &error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = CompareScreenshotRunner::tr("cannot read %1: %2").arg(path, file.errorString());
        return {};
    }
    return file.readAll().toStdString();
}

} // namespace

CompareScreenshotRunner::CompareScreenshotRunner(MainWindow *window, const QString &outputPath,
                                                 Mode mode, QObject *parent)
    : CaptureRunner(window, outputPath, 600, parent)
    , m_mode(mode)
{}

void CompareScreenshotRunner::start(int timeoutMs)
{
    if (!window()->currentDocument()) {
        fail(tr("there is no kernel to compare: open a .cuwb project or a .cu source"));
        return;
    }
    waitForCompile(timeoutMs);
}

bool CompareScreenshotRunner::loadRecorded()
{
    CompareSideInput a;
    CompareSideInput b;
    QString error;
    if (!m_compareJson.isEmpty()) {
        const std::string text = readText(m_compareJson, error);
        if (!error.isEmpty()) {
            fail(error);
            return false;
        }
        const std::string problem = sidesFromCompareJson(text, a, b);
        if (!problem.empty()) {
            fail(tr("%1: %2").arg(m_compareJson, toQString(problem)));
            return false;
        }
    }
    const std::pair<const QStringList *, CompareSideInput *> sides[] = {{&m_filesA, &a},
                                                                        {&m_filesB, &b}};
    for (const auto &[files, side] : sides) {
        QStringList names;
        for (const QString &path : *files) {
            const std::string text = readText(path, error);
            if (!error.isEmpty()) {
                fail(error);
                return false;
            }
            const std::string problem = addRecordedJson(*side, text);
            if (!problem.empty()) {
                fail(tr("%1: %2").arg(path, toQString(problem)));
                return false;
            }
            names << QFileInfo(path).fileName();
        }
        if (side->origin.empty())
            side->origin = toStdString(tr("recorded: %1").arg(names.join(QStringLiteral(", "))));
    }
    window()->compareTool()->showComparison(std::move(a), std::move(b));
    return true;
}

void CompareScreenshotRunner::act()
{
    // The SASS of the current compile gives the instruction mix of kernels of its source.
    window()->inspectTool()->showSassTab();
    connect(window()->compareTool(), &CompareTool::shown, this,
            &CompareScreenshotRunner::onComparisonShown);
    connect(window()->inspectTool(), &InspectTool::sassShown, this,
            &CompareScreenshotRunner::onComparisonShown);
    if (m_mode == Mode::Open) {
        expectWithin(60000, tr("the comparison and the SASS listing did not appear in time"));
        loadRecorded();
        return;
    }
    // Two measurements, two metrics passes and two inspections.
    const double seconds = 2.0 * (WorkerClient::metricsTimeoutSeconds(60.0) + 120.0);
    expectWithin(int(seconds * 1000.0), tr("no comparison appeared in time"));
    window()->compareTool()->compareWithProject(m_projectB);
}

void CompareScreenshotRunner::onComparisonShown()
{
    const ComparePanel *panel = window()->compareTool()->panel();
    if (!panel->hasComparison()) {
        if (!panel->messageText().isEmpty() && !window()->compareTool()->controller()->isBusy()) {
            reportFailure(panel->messageText());
            capture();
        }
        return;
    }
    if (window()->compareTool()->controller()->isBusy())
        return;
    // The listing of this compile, or the view's word on why there is none.
    const SassController *sass = window()->inspectTool()->sassController();
    if (!sass->isCurrent() &&
        (sass->isBusy() || window()->inspectTool()->sassView()->messageText().isEmpty()))
        return;
    if (m_shown)
        return;
    m_shown = true;
    const CompareData &data = panel->comparison();
    QStringList failures;
    for (const CompareSideInput *side : {&data.a, &data.b}) {
        if (side->failed())
            failures << tr("%1: %2").arg(toQString(side->side.name), toQString(side->failure));
    }
    if (!failures.isEmpty())
        reportFailure(failures.join(QStringLiteral("; ")));
    // Once the listing's second pass (with the mix) has rebuilt the comparison.
    QTimer::singleShot(200, this, [this] { capture(); });
}

void CompareScreenshotRunner::beforeCapture()
{
    window()->compareTool()->showDock();
    QTableView *lines = window()->compareTool()->panel()->linesView();
    const CompareLinesModel *model = window()->compareTool()->panel()->linesModel();
    int row = -1;
    for (int r = 0; r < model->rowCount() && row < 0; ++r) {
        const LineDelta &l = model->lines()[std::size_t(r)];
        if (!l.findingsA.empty() || !l.findingsB.empty())
            row = r;
    }
    if (row < 0)
        return;
    lines->selectRow(row);
    const int line = model->lines()[std::size_t(row)].line;
    QTimer::singleShot(100, this, [this, line] {
        if (Document *document = window()->currentDocument()) {
            SourceEditor *editor = document->editor();
            editor->goToLocation(line, 1);
            const int visible = int(editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN));
            editor->setFirstVisibleLine(std::max(0, line - 1 - visible / 3));
        }
    });
}

} // namespace cuwb
