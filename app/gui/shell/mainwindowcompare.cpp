// MainWindow's Compare, apart from the rest of its wiring: the Compare dock and Run ▸ Compare…,
// the ways to pick the two sides (the current kernel against another tab or a project file, a
// history entry against the current kernel, two points of a sweep, a lesson's two projects),
// their collection on the shared worker, and the instruction mix from the SASS listing when
// one is at hand.
#include "gui/shell/mainwindow.h"

#include "gui/common/qtconvert.h"
#include "gui/compare/comparecontroller.h"
#include "gui/compare/comparedialog.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/sweepcompareaction.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/history/historypanel.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"
#include "gui/launch/launchpanel.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/run/runcontroller.h"
#include "gui/shell/projectcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/workspace/workspace.h"

#include "project/project.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>
#include <filesystem>

namespace cuwb {

void MainWindow::createCompareDock()
{
    m_comparePanel = new ComparePanel(this);
    m_compareDock = new QDockWidget(tr("Compare"), this);
    m_compareDock->setObjectName(QStringLiteral("compareDock"));
    m_compareDock->setWidget(m_comparePanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_compareDock);
    tabifyDockWidget(m_inspectDock, m_compareDock);
    m_compare = new CompareController(m_worker, this);
    m_compareAction = new QAction(tr("C&ompare\u2026"), this);
    m_compareAction->setToolTip(tr("Measure, profile and inspect the current kernel and another "
                                   "variant, and show them side by side"));
    m_sweepCompareAction = new SweepCompareAction(m_sweepPanel->sweepResultsView());
}

void MainWindow::connectCompare()
{
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::onCompareRequested);
    connect(m_compare, &CompareController::progress, m_comparePanel, &ComparePanel::showProgress);
    connect(m_compare, &CompareController::finished, this,
            [this] { showComparison(m_compare->side(0), m_compare->side(1)); });
    connect(m_compare, &CompareController::cancelled, this, [this] {
        m_comparePanel->showMessage(tr("Comparison cancelled."));
        Q_EMIT comparisonShown();
    });
    connect(m_comparePanel, &ComparePanel::cancelRequested, m_compare, &CompareController::cancel);
    connect(m_comparePanel, &ComparePanel::lineActivated, this, &MainWindow::goToSourceLine);
    connect(m_historyPanel, &HistoryPanel::compareWithCurrentRequested, this,
            &MainWindow::compareWithHistoryEntry);
    connect(m_sweepCompareAction, &SweepCompareAction::comparePointsRequested, this,
            &MainWindow::compareSweepPoints);
    connect(m_lessonPanel, &LessonPanel::compareRequested, this, &MainWindow::compareProjects);
    // The instruction mix comes from the SASS listing; one that arrives later completes it.
    connect(this, &MainWindow::sassShown, this, [this] {
        if (m_compareWantsMix) {
            m_compareWantsMix = false;
            m_sassController->setActive(m_codeTabs->currentWidget() == m_sassView);
            if (m_comparePanel->hasComparison())
                showComparison(m_comparePanel->comparison().a, m_comparePanel->comparison().b);
        }
    });
}

void MainWindow::showCompareDock()
{
    m_compareDock->show();
    m_compareDock->raise();
    // The first time, unless the user's own layout was restored: tall enough for the table,
    // and most of the width for A and B side by side.
    if (!m_compareDockSized && !m_layoutRestored) {
        resizeDocks({m_compareDock}, {std::max(320, height() * 9 / 20)}, Qt::Vertical);
        resizeDocks({m_compareDock}, {width() * 3 / 4}, Qt::Horizontal);
    }
    m_compareDockSized = true;
}

void MainWindow::addInstructionMix(CompareSideInput &side) const
{
    const std::shared_ptr<const SassDocument> &document = m_sassController->document();
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

void MainWindow::showComparison(CompareSideInput a, CompareSideInput b)
{
    a.mix.reset();
    b.mix.reset();
    addInstructionMix(a);
    addInstructionMix(b);
    if ((!a.mix || !b.mix) && !m_sassController->isCurrent() && currentDocument() &&
        !m_compareWantsMix) {
        // Disassemble the current compile once for the mix, as Inspect does for its listing.
        m_compareWantsMix = true;
        m_sassController->setActive(true);
    }
    // The listing is on screen and still gives no mix: the SASS view says why (no nvdisasm).
    const QString sassMessage = m_sassView->messageText();
    if (m_sassController->isCurrent() && !sassMessage.isEmpty()) {
        for (CompareSideInput *side : {&a, &b}) {
            if (!side->mix && side->mixUnavailable.empty())
                side->mixUnavailable = toStdString(sassMessage.section(QLatin1Char('.'), 0, 0));
        }
    }
    showCompareDock();
    const CompareData data = buildCompare(std::move(a), std::move(b));
    m_comparePanel->showComparison(data);
    statusBar()->showMessage(data.comparison.verdict.empty()
                                 ? tr("Compared: no verdict on the time")
                                 : toQString(data.comparison.verdict),
                             15000);
    Q_EMIT comparisonShown();
}

CompareController::Job MainWindow::currentCompareJob() const
{
    CompareController::Job job;
    Document *document = currentDocument();
    job.side.side.name = toStdString(m_launchPanel->currentKernel());
    job.side.origin = toStdString(currentProjectName());
    if (!document) {
        job.side.failure = "no kernel is open";
        return job;
    }
    if (!m_launchPanel->canRun() && m_runController->isAvailable()) {
        job.side.failure = toStdString(m_launchPanel->runBlockedReason());
        return job;
    }
    job.request = m_workspace->runRequest();
    job.settings = m_workspace->sampleSettings();
    job.throughput = m_projects->throughputFor(document);
    return job;
}

CompareController::Job MainWindow::projectCompareJob(const QString &path) const
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

void MainWindow::startComparison(CompareController::Job a, CompareController::Job b)
{
    std::optional<RunRequest> onScreen;
    if (currentDocument() && m_launchPanel->canRun())
        onScreen = m_workspace->runRequest();
    markOtherCode(a, onScreen);
    markOtherCode(b, onScreen);
    // The comparison's worker follows the window's: the same cuwb and the same GPU verdict.
    m_compare->runController()->setCliPath(m_runController->cliPath());
    m_compare->runController()->setAvailability(m_runController->isAvailable(),
                                                m_runController->unavailableReason());
    showCompareDock();
    m_comparePanel->showProgress(tr("Starting the comparison\u2026"), 0, 1);
    m_compare->start(std::move(a), std::move(b));
}

void MainWindow::onCompareRequested()
{
    QStringList tabs;
    QList<Document *> others;
    for (Document *document : m_tabs->documents()) {
        if (document != currentDocument()) {
            tabs << document->displayName();
            others << document;
        }
    }
    const QString aName = tr("%1 (%2)").arg(m_launchPanel->currentKernel(), currentProjectName());
    CompareDialog dialog(aName, tabs, this);
    if (m_projects->hasProject())
        dialog.setProjectPath(QFileInfo(m_projects->projectPath()).path() + QLatin1Char('/'));
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (dialog.choosesTab()) {
        Document *other = others.value(dialog.tabIndex());
        if (!other)
            return;
        CompareController::Job b = currentCompareJob();
        b.side.origin = toStdString(other->displayName());
        if (b.request) {
            b.request->source = toStdString(other->editor()->text());
            b.request->fileName = toStdString(QFileInfo(other->filePath()).fileName());
        }
        startComparison(currentCompareJob(), std::move(b));
        return;
    }
    compareWithProject(dialog.projectPath());
}

void MainWindow::compareWithProject(const QString &projectPath)
{
    startComparison(currentCompareJob(), projectCompareJob(projectPath));
}

void MainWindow::compareProjects(const QString &projectA, const QString &projectB)
{
    startComparison(projectCompareJob(projectA), projectCompareJob(projectB));
}

void MainWindow::compareWithHistoryEntry(qint64 id, const QString &jsonText, const QString &kind)
{
    CompareController::Job a;
    a.side = sideFromHistoryEntry(std::string(), toStdString(tr("history entry %1").arg(id)),
                                  toStdString(kind), toStdString(jsonText));
    startComparison(std::move(a), currentCompareJob());
}

void MainWindow::compareSweepPoints()
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
