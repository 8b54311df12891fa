#include "gui/compare/comparetool.h"

#include "gui/common/qtconvert.h"
#include "gui/compare/comparedialog.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/sweepcompareaction.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspecttool.h"
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"
#include "gui/run/runcontroller.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include "project/project.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>

#include <algorithm>
#include <filesystem>

namespace cuwb {

CompareTool::CompareTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("compareTool"));
    createDock();
    connectController();
    host->addTool(this);
}

void CompareTool::createDock()
{
    QMainWindow *window = m_host->window();
    m_panel = new ComparePanel(window);
    m_dock = m_host->addDock(tr("Compare"), QStringLiteral("compareDock"), m_panel,
                             Qt::BottomDockWidgetArea, QStringLiteral("inspectDock"));
    m_controller = new CompareController(m_host->worker(), this);
    m_compareAction = new QAction(tr("C&ompare\u2026"), this);
    m_compareAction->setToolTip(tr("Measure, profile and inspect the current kernel and another "
                                   "variant, and show them side by side"));
    m_host->addMenuAction(ToolHost::MenuSection::RunCompare, m_compareAction);
}

void CompareTool::connectController()
{
    connect(m_compareAction, &QAction::triggered, this, &CompareTool::onCompareRequested);
    connect(m_controller, &CompareController::progress, m_panel, &ComparePanel::showProgress);
    connect(m_controller, &CompareController::finished, this,
            [this] { showComparison(m_controller->side(0), m_controller->side(1)); });
    connect(m_controller, &CompareController::cancelled, this, [this] {
        m_panel->showMessage(tr("Comparison cancelled."));
        Q_EMIT shown();
    });
    connect(m_panel, &ComparePanel::cancelRequested, m_controller, &CompareController::cancel);
    connect(m_panel, &ComparePanel::lineActivated, m_host, &ToolHost::goToSourceLine);
    connect(m_host, &ToolHost::layoutReset, this, [this] { m_dockSized = false; });
    // The instruction mix comes from the SASS listing; one that arrives later completes it.
    if (InspectTool *inspect = m_host->tool<InspectTool>())
        connect(inspect, &InspectTool::sassShown, this, &CompareTool::onSassShown);
}

void CompareTool::attachSweepResults(SweepResultsView *view)
{
    m_sweepCompareAction = new SweepCompareAction(view);
    connect(m_sweepCompareAction, &SweepCompareAction::comparePointsRequested, this,
            &CompareTool::compareSweepPoints);
}

void CompareTool::onSassShown()
{
    if (!m_wantsMix)
        return;
    m_wantsMix = false;
    if (InspectTool *inspect = m_host->tool<InspectTool>())
        inspect->keepSassCurrent(false);
    if (m_panel->hasComparison())
        showComparison(m_panel->comparison().a, m_panel->comparison().b);
}

void CompareTool::showDock()
{
    m_dock->show();
    m_dock->raise();
    // The first time, unless the user's own layout was restored: tall enough for the table,
    // and most of the width for A and B side by side.
    QMainWindow *window = m_host->window();
    if (!m_dockSized && !m_host->layoutRestored()) {
        window->resizeDocks({m_dock}, {std::max(320, window->height() * 9 / 20)}, Qt::Vertical);
        window->resizeDocks({m_dock}, {window->width() * 3 / 4}, Qt::Horizontal);
    }
    m_dockSized = true;
}

void CompareTool::addInstructionMix(CompareSideInput &side) const
{
    const InspectTool *inspect = m_host->tool<InspectTool>();
    if (!inspect)
        return;
    const std::shared_ptr<const SassDocument> &document = inspect->sassController()->document();
    if (side.mix || !side.mixUnavailable.empty() || !document || !document->ok())
        return;
    std::string kernel = side.side.inspection ? side.side.inspection->kernel : std::string();
    if (kernel.empty() && side.side.measurement)
        kernel = side.side.measurement->provenance.kernel;
    if (kernel.empty())
        kernel = side.side.name;
    // Only the listing of the same source: another file's kernel of the same name is other code.
    const std::string listed = std::filesystem::path(document->fileName).filename().string();
    if (!side.sourceFile.empty() &&
        std::filesystem::path(side.sourceFile).filename().string() != listed)
        return;
    const int index = document->indexOfFunction(kernel);
    if (index >= 0)
        side.mix = document->functions[std::size_t(index)].mix.total;
}

void CompareTool::showComparison(CompareSideInput a, CompareSideInput b)
{
    a.mix.reset();
    b.mix.reset();
    addInstructionMix(a);
    addInstructionMix(b);
    if (InspectTool *inspect = m_host->tool<InspectTool>()) {
        const SassController *sass = inspect->sassController();
        if ((!a.mix || !b.mix) && !sass->isCurrent() && m_host->currentDocument() && !m_wantsMix) {
            // Disassemble the current compile once for the mix, as Inspect does for its listing.
            m_wantsMix = true;
            inspect->keepSassCurrent(true);
        }
        // The listing is on screen and still gives no mix: the SASS view says why (no nvdisasm).
        const QString sassMessage = inspect->sassView()->messageText();
        if (sass->isCurrent() && !sassMessage.isEmpty()) {
            for (CompareSideInput *side : {&a, &b}) {
                if (!side->mix && side->mixUnavailable.empty())
                    side->mixUnavailable = toStdString(sassMessage.section(QLatin1Char('.'), 0, 0));
            }
        }
    }
    showDock();
    const CompareData data = buildCompare(std::move(a), std::move(b));
    m_panel->showComparison(data);
    m_host->showStatus(data.comparison.verdict.empty() ? tr("Compared: no verdict on the time")
                                                       : toQString(data.comparison.verdict),
                       15000);
    Q_EMIT shown();
}

CompareController::Job CompareTool::currentJob() const
{
    CompareController::Job job;
    Document *document = m_host->currentDocument();
    job.side.side.name = toStdString(m_host->currentKernel());
    job.side.origin = toStdString(m_host->projectName());
    if (!document) {
        job.side.failure = "no kernel is open";
        return job;
    }
    const QString blocked = m_host->runBlockedReason();
    if (!blocked.isEmpty() && m_host->runController()->isAvailable()) {
        job.side.failure = toStdString(blocked);
        return job;
    }
    job.request = m_host->workspace()->runRequest();
    job.settings = m_host->workspace()->sampleSettings();
    job.throughput = m_host->throughputFor(document);
    return job;
}

CompareController::Job CompareTool::projectJob(const QString &path) const
{
    CompareController::Job job;
    const std::string file = toStdString(path);
    job.side.origin = toStdString(QFileInfo(path).fileName());
    job.side.side.name = toStdString(QFileInfo(path).completeBaseName());
    const ProjectLoad load = loadProject(file);
    std::string source;
    std::string error = load.error;
    if (!load.project || !readProjectSource(*load.project, file, source, error)) {
        job.side.failure = error.empty() ? "cannot read the project" : error;
        return job;
    }
    Project project = *load.project;
    resolveProjectPaths(project, file);
    job.request = projectRunRequest(project, std::move(source));
    job.settings = project.measure.settings;
    job.throughput = project.measure.throughput;
    if (!job.request->launch.kernel.empty())
        job.side.side.name = job.request->launch.kernel;
    return job;
}

namespace {

// The SASS listing on screen is the current editor's compile. A side compiled from other source
// or options (another project's -DTILE, tunerDefines, -maxrregcount) is other code, and that
// listing cannot give its instruction mix: say so rather than show the wrong one.
void markOtherCode(CompareController::Job &job, const std::optional<RunRequest> &onScreen)
{
    if (!job.request || !job.side.mixUnavailable.empty())
        return;
    const RunRequest &r = *job.request;
    // Defines are expressions over the launch (tunerDefines: its block and grid): with any,
    // only the same launch compiles the same code.
    const auto definesNothing = [](const LaunchSpec &launch) {
        return launch.defines.empty() && !launch.tunerDefines;
    };
    const bool same = onScreen && r.source == onScreen->source && r.options == onScreen->options &&
                      ((definesNothing(r.launch) && definesNothing(onScreen->launch)) ||
                       r.launch == onScreen->launch);
    if (!same)
        job.side.mixUnavailable = "it is compiled from other source or options than the SASS on "
                                  "screen";
}

} // namespace

void CompareTool::startComparison(CompareController::Job a, CompareController::Job b)
{
    std::optional<RunRequest> onScreen;
    if (m_host->currentDocument() && m_host->runBlockedReason().isEmpty())
        onScreen = m_host->workspace()->runRequest();
    markOtherCode(a, onScreen);
    markOtherCode(b, onScreen);
    // The comparison's worker follows the window's: the same cuwb and the same GPU verdict.
    const RunController *run = m_host->runController();
    m_controller->runController()->setCliPath(run->cliPath());
    m_controller->runController()->setAvailability(run->isAvailable(), run->unavailableReason());
    showDock();
    m_panel->showProgress(tr("Starting the comparison\u2026"), 0, 1);
    m_controller->start(std::move(a), std::move(b));
}

void CompareTool::onCompareRequested()
{
    QStringList tabs;
    QList<Document *> others;
    Document *current = m_host->currentDocument();
    for (Document *document : m_host->documents()->documents()) {
        if (document != current) {
            tabs << document->displayName();
            others << document;
        }
    }
    const QString aName = tr("%1 (%2)").arg(m_host->currentKernel(), m_host->projectName());
    CompareDialog dialog(aName, tabs, m_host->window());
    if (!m_host->projectPath().isEmpty())
        dialog.setProjectPath(QFileInfo(m_host->projectPath()).path() + QLatin1Char('/'));
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (dialog.choosesTab()) {
        Document *other = others.value(dialog.tabIndex());
        if (!other)
            return;
        CompareController::Job b = currentJob();
        b.side.origin = toStdString(other->displayName());
        if (b.request) {
            b.request->source = toStdString(other->editor()->text());
            b.request->fileName = toStdString(QFileInfo(other->filePath()).fileName());
        }
        startComparison(currentJob(), std::move(b));
        return;
    }
    compareWithProject(dialog.projectPath());
}

void CompareTool::compareWithProject(const QString &projectPath)
{
    startComparison(currentJob(), projectJob(projectPath));
}

void CompareTool::compareProjects(const QString &projectA, const QString &projectB)
{
    startComparison(projectJob(projectA), projectJob(projectB));
}

void CompareTool::compareWithHistoryEntry(qint64 id, const QString &jsonText, const QString &kind)
{
    CompareController::Job a;
    a.side = sideFromHistoryEntry(std::string(), toStdString(tr("history entry %1").arg(id)),
                                  toStdString(kind), toStdString(jsonText));
    startComparison(std::move(a), currentJob());
}

void CompareTool::compareSweepPoints()
{
    const auto points = m_sweepCompareAction->selectedPoints();
    if (!points)
        return;
    CompareSideInput a = sideFromSweepPoint(points->first);
    CompareSideInput b = sideFromSweepPoint(points->second);
    // Both points run the same source.
    a.sourceFile = b.sourceFile = points->first.point.request.fileName;
    showComparison(std::move(a), std::move(b));
}

} // namespace cuwb
