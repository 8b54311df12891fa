#include "gui/sweep/sweeptool.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/workspace/toolhost.h"
#include "gui/workspace/workspace.h"

#include "device/archlimits.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QTimer>

#include <algorithm>

namespace cuwb {

SweepTool::SweepTool(ToolHost *host)
    : QObject(host)
    , m_host(host)
{
    setObjectName(QStringLiteral("sweepTool"));
    createDock();
    createActions();
    Workspace *workspace = host->workspace();
    // Whoever changed the launch or the compile, the sweep's base follows.
    connect(workspace, &Workspace::launchChanged, this, &SweepTool::updateBase);
    connect(host, &ToolHost::documentShown, this, &SweepTool::onDocumentShown);
    connect(host->documents(), &DocumentTabs::currentDocumentChanged, this, &SweepTool::updateBase);
    connect(host, &ToolHost::layoutReset, this, [this] { m_dockSized = false; });
    connect(m_panel, &SweepPanel::pointActivated, this, &SweepTool::applyPoint);
    connect(m_panel, &SweepPanel::sweepShown, this, &SweepTool::shown);
    connect(m_panel, &SweepPanel::statusMessage, this,
            [this](const QString &message) { m_host->showStatus(message, 10000); });
    host->addTool(this);
    updateBase();
}

void SweepTool::createDock()
{
    QMainWindow *window = m_host->window();
    m_controller = new SweepController(m_host->worker(), this);
    m_panel = new SweepPanel(m_controller, m_host->workspace(), window);
    m_dock = m_host->addDock(tr("Sweep"), QStringLiteral("sweepDock"), m_panel,
                             Qt::BottomDockWidgetArea, QStringLiteral("measurementDock"));
    // The first time it comes to the front (its tab, the View menu), the dock gets the room
    // its editor, chart and table need, unless the user's own layout was restored.
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_dockSized && !m_host->layoutRestored())
            QTimer::singleShot(0, this, [this] {
                if (!m_dockSized)
                    showDock();
            });
    });
}

void SweepTool::createActions()
{
    auto *run = new QAction(tr("Run S&weep"), this);
    connect(run, &QAction::triggered, this, [this] {
        showDock();
        m_panel->runSweep();
    });
    auto *cancel = new QAction(tr("Cancel Sweep"), this);
    connect(cancel, &QAction::triggered, m_panel, &SweepPanel::cancelSweep);
    m_host->addMenuAction(ToolHost::MenuSection::RunSweep, run);
    m_host->addMenuAction(ToolHost::MenuSection::RunSweep, cancel);
}

void SweepTool::showDock()
{
    m_dockSized = true;
    m_dock->show();
    m_dock->raise();
    // The editor, the chart and the table side by side want the window's width, the chart
    // and the table's rows its height.
    QMainWindow *window = m_host->window();
    const int width = window->width();
    if (auto *problems = window->findChild<QDockWidget *>(QStringLiteral("problemsDock")))
        window->resizeDocks({problems, m_dock}, {width / 8, width * 7 / 8}, Qt::Horizontal);
    window->resizeDocks({m_dock}, {std::max(420, window->height() * 3 / 5)}, Qt::Vertical);
}

void SweepTool::setRunAvailability(bool available, const QString &reason)
{
    m_controller->setAvailability(available, reason);
    m_panel->setRunAvailability(available, reason);
}

void SweepTool::setDevices(const std::vector<DeviceInfo> &devices, const QString &architecture)
{
    m_panel->setDevices(devices);
    m_deviceArchitecture = architecture;
    updateBase(); // the device's limits replace the target's
}

void SweepTool::sweepWhenCompiled(const QString &projectPath, const QString &presetId)
{
    showDock();
    // The project's own sweep was loaded with it; the preset replaces its axes.
    m_panel->applyPreset(presetId);
    m_panel->clearBase(tr("Compiling %1\u2026").arg(QFileInfo(projectPath).fileName()));
    m_projectWhenCompiled = QFileInfo(projectPath).absoluteFilePath();
    m_presetWhenCompiled = presetId;
}

void SweepTool::onDocumentShown(Document *document)
{
    updateBase();
    if (!document || m_presetWhenCompiled.isEmpty())
        return;
    const QString project = m_host->projectPath();
    if (m_projectWhenCompiled.isEmpty() || project.isEmpty() || project == m_projectWhenCompiled) {
        m_presetWhenCompiled.clear();
        m_projectWhenCompiled.clear();
        m_panel->runSweep(); // says why in the panel when it cannot
    }
}

void SweepTool::updateBase()
{
    Document *document = m_host->currentDocument();
    if (!document || !document->hasResult() || !document->lastResult().success ||
        m_host->currentKernel().isEmpty()) {
        m_panel->clearBase(
            document ? tr("The source has no compiled kernel yet: the sweep varies the launch of "
                          "the kernel in the Launch panel.")
                     : tr("Open a project or a source: the sweep varies the launch of its "
                          "kernel."));
        return;
    }
    Workspace *workspace = m_host->workspace();
    SweepContext context;
    context.projectName = toStdString(m_host->projectName());
    context.throughput = m_host->throughputFor(document);
    // The points are checked against the GPU's limits when there is one, else the target's;
    // the worker checks them against its device again.
    const std::string arch = m_deviceArchitecture.isEmpty() ? workspace->editorCompileOptions().arch
                                                            : toStdString(m_deviceArchitecture);
    m_panel->setBase(workspace->runRequest(), context, archLimits(arch));
}

void SweepTool::applyPoint(const SweepPoint &point)
{
    // The launch as the point ran it (block, variables), and the compile flags a sweep can
    // vary; the rest of the options stay as the user set them. The user's choice: an edit of
    // the project.
    Workspace *workspace = m_host->workspace();
    const CompileOptions options = point.appliedTo(workspace->compileOptions());
    workspace->setLaunch(point.request.launch, workspace->launch().verification(),
                         Workspace::Edit::User);
    workspace->setCompileOptions(options); // recompiles; the launch waits for its kernel
    m_host->showStatus(tr("The launch panel now has %1").arg(toQString(point.label())), 10000);
    Q_EMIT pointApplied(point);
}

} // namespace cuwb
