#include "gui/sweep/sweeppanel.h"

#include "gui/common/format.h"

#include "gui/common/qtconvert.h"
#include "gui/sweep/slurmsweepbox.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweepdevicebox.h"
#include "gui/sweep/sweepresultsview.h"
#include "sweep/sweepexport.h"
#include "sweep/sweepjson.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace cuwb {

namespace {

// A new point is drawn at most this often; the points that arrive in between are drawn
// together, so that a burst (skipped points come back at once) costs one redraw.
constexpr int kFlushIntervalMs = 50;

QString fileFilter(SweepPanel::ExportFormat format)
{
    switch (format) {
    case SweepPanel::ExportFormat::Csv:
        return SweepPanel::tr("CSV (*.csv)");
    case SweepPanel::ExportFormat::Json:
        return SweepPanel::tr("CUDA Workbench sweep result (*.json)");
    case SweepPanel::ExportFormat::T4:
        return SweepPanel::tr("T4 autotuning results (*.json)");
    case SweepPanel::ExportFormat::Png:
        return SweepPanel::tr("PNG image (*.png)");
    case SweepPanel::ExportFormat::Svg:
        return SweepPanel::tr("SVG drawing (*.svg)");
    }
    return {};
}

QString fileSuffix(SweepPanel::ExportFormat format)
{
    switch (format) {
    case SweepPanel::ExportFormat::Csv:
        return QStringLiteral(".csv");
    case SweepPanel::ExportFormat::Json:
        return QStringLiteral(".json");
    case SweepPanel::ExportFormat::T4:
        return QStringLiteral("-t4.json");
    case SweepPanel::ExportFormat::Png:
        return QStringLiteral(".png");
    case SweepPanel::ExportFormat::Svg:
        return QStringLiteral(".svg");
    }
    return {};
}

} // namespace

SweepPanel::SweepPanel(SweepController *controller, Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_workspace(workspace)
    , m_view(new SweepResultsView(this))
{
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Run a large sweep?"), question,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };

    auto *column = new QWidget;
    buildColumn(column);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(column);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int columnWidth = std::max(column->minimumWidth(), column->minimumSizeHint().width());
    scroll->setMinimumWidth(columnWidth + scroll->verticalScrollBar()->sizeHint().width() + 4);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({scroll->minimumWidth(), 1200});

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    m_flush.setSingleShot(true);
    connect(&m_flush, &QTimer::timeout, this, &SweepPanel::flushPoints);
    m_sinceFlush.start();

    connect(m_view, &SweepResultsView::pointActivated, this, &SweepPanel::pointActivated);
    if (m_controller) {
        connect(m_controller, &SweepController::sweepStarted, this, &SweepPanel::onSweepStarted);
        connect(m_controller, &SweepController::pointFinished, this, &SweepPanel::onPointFinished);
        connect(m_controller, &SweepController::sweepFinished, this, &SweepPanel::onSweepFinished);
        connect(m_controller, &SweepController::workerRestarted, this,
                &SweepPanel::onWorkerRestarted);
        connect(m_controller, &SweepController::runningChanged, this, &SweepPanel::updateRunState);
    }

    m_noBaseReason = tr("Open a project or a source and compile it: the sweep varies the "
                        "launch of its kernel.");
    followPlacement();
}

SweepPanel::~SweepPanel() = default;

void SweepPanel::followPlacement()
{
    connect(m_workspace, &Workspace::placementChanged, this, [this] {
        if (m_controller && !m_controller->isRunning())
            m_controller->setPlacement(m_workspace->placement());
        updateRunState();
    });
    placeSweep();
    if (m_controller)
        m_controller->setPlacement(m_workspace->placement());
}

// The dock's left column: the editor, and below it running the sweep and exporting it.
void SweepPanel::buildColumn(QWidget *column)
{
    m_editor = new SweepEditor(m_workspace, column);
    connect(m_editor, &SweepEditor::specEdited, this, &SweepPanel::specEdited);
    connect(m_editor, &SweepEditor::countTextChanged, this, &SweepPanel::updateRunState);
    connect(m_editor, &SweepEditor::counted, this, &SweepPanel::onCounted);

    // The GPUs and the Slurm group are the sweep's part of the Workspace's placement; the
    // controller takes the placement as it is whenever no sweep runs.
    m_devices = new SweepDeviceBox(column);
    connect(m_devices, &SweepDeviceBox::choiceChanged, this, &SweepPanel::placeSweep);
    m_slurm = new SlurmSweepBox(column);
    connect(m_slurm, &SlurmSweepBox::settingsChanged, this, &SweepPanel::placeSweep);

    m_message = new QLabel(column);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_message->setVisible(false);

    m_run = new QPushButton(tr("Run sweep"), column);
    m_run->setDefault(false);
    connect(m_run, &QPushButton::clicked, this, &SweepPanel::runSweep);
    m_cancel = new QPushButton(tr("Cancel"), column);
    m_cancel->setToolTip(tr("Stop after the point being measured; the points measured so far "
                            "are kept"));
    m_cancel->setEnabled(false);
    connect(m_cancel, &QPushButton::clicked, this, &SweepPanel::cancelSweep);

    m_progress = new QProgressBar(column);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m points"));
    m_progress->setVisible(false); // until a sweep runs
    m_timeLeft = new QLabel(column);
    m_timeLeft->setVisible(false);
    m_status = new QLabel(column);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (m_controller)
        connect(m_controller, &SweepController::statusMessage, m_status, &QLabel::setText);

    auto *exportRow = new QHBoxLayout;
    exportRow->setContentsMargins(0, 0, 0, 0);
    exportRow->setSpacing(2);
    exportRow->addWidget(new QLabel(tr("Export:"), column));
    const std::pair<ExportFormat, QString> formats[] = {{ExportFormat::Csv, tr("CSV")},
                                                        {ExportFormat::Json, tr("JSON")},
                                                        {ExportFormat::T4, tr("T4")},
                                                        {ExportFormat::Png, tr("PNG")},
                                                        {ExportFormat::Svg, tr("SVG")}};
    for (const auto &[format, text] : formats) {
        auto *button = new QToolButton(column);
        button->setText(text);
        button->setToolTip(fileFilter(format));
        connect(button, &QToolButton::clicked, this,
                [this, format = format] { exportWithDialog(format); });
        exportRow->addWidget(button);
        m_exportButtons.push_back(button);
    }
    exportRow->addStretch(1);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addWidget(m_editor);
    layout->addWidget(m_devices);
    layout->addWidget(m_slurm);
    layout->addWidget(m_message);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_timeLeft);
    layout->addWidget(m_status);
    layout->addLayout(exportRow);
    layout->addStretch(1);
    column->setMinimumWidth(420);
}

bool SweepPanel::applyPreset(const QString &id)
{
    return m_editor->applyPreset(id);
}

void SweepPanel::setBase(const RunRequest &base, const SweepContext &context,
                         const std::optional<ArchLimits> &limits)
{
    m_context = context;
    m_editor->setBase(base, limits);
}

void SweepPanel::clearBase(const QString &reason)
{
    if (!reason.isEmpty())
        m_noBaseReason = reason;
    m_editor->clearBase();
}

void SweepPanel::placeSweep()
{
    const std::optional<SlurmSweepSettings> slurm = m_slurm->settings();
    Placement placement = m_workspace->placement();
    // Through Slurm the tasks get their GPUs from the scheduler: this machine's are not chosen.
    placement.devices = slurm ? std::vector<int>() : m_devices->chosenDevices();
    placement.allDevices = false;
    placement.perDevice = false;
    placement.slurm = slurm ? std::optional(slurm->options()) : std::nullopt;
    if (m_controller)
        m_controller->setSlurmJobFolder(slurm ? slurm->jobFolder : QString());
    m_workspace->setPlacement(placement);
    updateRunState();
}

void SweepPanel::setDevices(const std::vector<DeviceInfo> &devices)
{
    m_devices->setDevices(devices);
    placeSweep(); // the choice remembered may name GPUs only now known
    updateRunState();
}

void SweepPanel::setRunAvailability(bool available, const QString &reason)
{
    m_available = available;
    m_unavailableReason = available ? QString() : reason;
    updateRunState();
}

void SweepPanel::setRunInProgress(bool running)
{
    m_runInProgress = running;
    updateRunState();
}

void SweepPanel::onCounted()
{
    Q_EMIT countChanged();
    if (m_runWhenCounted) {
        m_runWhenCounted = false;
        runSweep();
    }
}

QString SweepPanel::messageText() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void SweepPanel::setMessage(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

QString SweepPanel::blockedReason() const
{
    if (m_controller && m_controller->isRunning())
        return tr("A sweep is running.");
    if (m_editor->spec().axes.empty())
        return tr("The sweep is empty: it has no axes, so there is nothing to measure. Add an "
                  "axis (+) or choose a preset.");
    if (!m_editor->base())
        return m_noBaseReason;
    const SweepCount *count = m_editor->count();
    if (!count)
        return {}; // still counting: Run starts it once counted
    if (!count->error.empty())
        return tr("The sweep cannot run: %1.").arg(toQString(count->error));
    if (count->runnable == 0) {
        const QString skip = toQString(count->firstSkip);
        return count->points == 1
                   ? tr("Nothing to measure: its only point is skipped (%1).").arg(skip)
                   : tr("Nothing to measure: all %1 points are skipped (%2).")
                         .arg(QLocale().toString(qulonglong(count->points)), skip);
    }
    // A Slurm sweep measures on the cluster's GPUs, not on this machine's.
    const bool onSlurm = m_workspace->placement().slurm.has_value();
    if (!m_available && !onSlurm)
        return m_unavailableReason;
    if (!onSlurm && !m_devices->problem().isEmpty())
        return m_devices->problem();
    if (m_runInProgress && !onSlurm)
        return tr("A run or measurement is using the GPU; the sweep can start when it ends (two "
                  "measurements at once would disturb each other).");
    return {};
}

bool SweepPanel::canRun() const
{
    return m_editor->count() && blockedReason().isEmpty();
}

void SweepPanel::updateRunState()
{
    const bool running = m_controller && m_controller->isRunning();
    const QString reason = blockedReason();
    const bool onSlurm = m_workspace->placement().slurm.has_value();
    m_run->setEnabled(!running && reason.isEmpty() && !m_runWhenCounted);
    m_run->setText(onSlurm ? tr("Submit to Slurm") : tr("Run sweep"));
    m_run->setToolTip(!reason.isEmpty() ? reason
                      : onSlurm         ? tr("Submit every point of the sweep as a Slurm job "
                                                     "array")
                                        : tr("Measure every point of the sweep"));
    m_slurm->setEnabled(!running);
    m_cancel->setEnabled(running && !m_controller->isCancelling());
    // Why it cannot run, unless a sweep is running (its own progress says enough).
    if (!running)
        setMessage(reason);
    m_editor->setEditable(!running);
}

void SweepPanel::setConfirmation(std::function<bool(const QString &)> confirm)
{
    m_confirm = std::move(confirm);
}

bool SweepPanel::runSweep()
{
    if (!m_controller)
        return false;
    if (m_controller->isRunning()) {
        setMessage(tr("A sweep is running; cancel it first."));
        return false;
    }
    const SweepSpec &spec = m_editor->spec();
    const std::optional<RunRequest> &base = m_editor->base();
    const SweepCount *count = m_editor->count();
    if (spec.axes.empty() || !base || (count && !blockedReason().isEmpty())) {
        setMessage(blockedReason());
        return false;
    }
    if (!count) {
        // Counting still: run once the count is in (and only if it allows it).
        m_runWhenCounted = true;
        m_editor->countNow();
        updateRunState();
        return true;
    }
    const SweepCount &c = *count;
    if (c.points > kConfirmPoints) {
        const SweepEstimate estimate =
            estimateSweep(spec, c.runnable, base->launch.deadlineSeconds);
        const QString question =
            tr("The sweep has %1 points (%2 to measure). It takes at least %3 and at most %4 "
               "(the %5 time cap per point).\n\nRun it?")
                .arg(QLocale().toString(qulonglong(c.points)),
                     QLocale().toString(qulonglong(c.runnable)), durationText(estimate.minSeconds),
                     durationText(estimate.maxSeconds), durationText(spec.settings.timeCapSeconds));
        if (!m_confirm || !m_confirm(question)) {
            setMessage(tr("Not started: the sweep has %1 points. Narrow its axes, or run it "
                          "and confirm.")
                           .arg(QLocale().toString(qulonglong(c.points))));
            return false;
        }
    }
    m_failureNote.clear();
    m_status->clear();
    m_timeLeft->clear();
    m_timeLeft->setVisible(false);
    m_pending.clear();
    m_lastProgress.reset();
    m_progress->setRange(0, int(std::min<std::size_t>(c.points, INT_MAX)));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    setMessage({});
    m_controller->setPlacement(m_workspace->placement());
    if (!m_controller->start(spec, *base, m_context)) {
        setMessage(tr("A sweep is running; cancel it first."));
        return false;
    }
    if (m_controller->isRunning())
        m_status->setText(tr("Starting the worker\u2026"));
    updateRunState();
    return true;
}

void SweepPanel::cancelSweep()
{
    if (!m_controller || !m_controller->isRunning())
        return;
    m_controller->cancel();
    m_status->setText(tr("Cancelling: the point being measured stops, the points measured so "
                         "far are kept\u2026"));
    updateRunState();
}

void SweepPanel::onSweepStarted(const SweepResult &skeleton)
{
    m_pending.clear();
    m_streaming = true;
    m_view->setStreaming(true);
    m_result = skeleton;
    m_resultName = tr("current");
    m_progress->setRange(0, int(std::min<std::size_t>(skeleton.points.size(), INT_MAX)));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_status->setText(tr("Measuring on %1").arg(toQString(skeleton.deviceName)));
    showRuns();
}

void SweepPanel::onPointFinished(const SweepPointResult &point, const SweepProgress &progress)
{
    // While another result is on screen (opened from the History during the sweep), the
    // points only move the progress on.
    if (m_streaming) {
        if (point.point.index < m_result.points.size())
            m_result.points[point.point.index] = point;
        m_pending.push_back(point);
    }
    m_lastProgress = progress;
    if (point.status == PointStatus::Failed)
        m_failureNote =
            tr("%1 failed: %2").arg(toQString(point.point.label()), toQString(point.message));
    if (!m_flush.isActive()) {
        const qint64 since = m_sinceFlush.elapsed();
        m_flush.start(since >= kFlushIntervalMs ? 0 : int(kFlushIntervalMs - since));
    }
}

void SweepPanel::flushPoints()
{
    m_sinceFlush.restart();
    if (!m_pending.empty()) {
        std::vector<SweepPointResult> points;
        points.swap(m_pending);
        m_view->setPoints(points);
    }
    updateProgress();
}

void SweepPanel::updateProgress()
{
    if (!m_lastProgress)
        return;
    const SweepProgress &p = *m_lastProgress;
    m_progress->setMaximum(int(std::min<std::size_t>(p.total, INT_MAX)));
    m_progress->setValue(int(std::min<std::size_t>(p.done, INT_MAX)));
    QString left;
    if (p.secondsLeft && p.done < p.total)
        left = tr("about %1 left").arg(durationText(*p.secondsLeft));
    m_timeLeft->setText(
        tr("%1 measured, %2 elapsed").arg(p.measured).arg(durationText(p.elapsedSeconds)) +
        (left.isEmpty() ? QString() : QStringLiteral("; ") + left));
    m_timeLeft->setVisible(true);
    if (!m_failureNote.isEmpty() && !(m_controller && m_controller->isCancelling()))
        m_status->setText(m_failureNote);
}

void SweepPanel::onWorkerRestarted(int starts)
{
    Q_UNUSED(starts)
    QString note = m_failureNote;
    while (note.endsWith(QLatin1Char('.')))
        note.chop(1);
    m_failureNote = tr("%1. The worker was restarted; the sweep goes on.").arg(note);
    m_status->setText(m_failureNote);
}

void SweepPanel::onSweepFinished(const SweepResult &result)
{
    m_flush.stop();
    m_pending.clear();
    if (m_streaming) {
        m_result = result;
        m_resultName = tr("current");
        showRuns();
    }
    m_streaming = false;
    m_view->setStreaming(false);
    const std::size_t measured =
        result.count(PointStatus::Measured) + result.count(PointStatus::Wrong);
    QString status;
    if (!result.error.empty() && measured > 0) {
        // Part of it ran (a Slurm shard failed): what was measured stays on screen.
        status = tr("Measured %1 of %2 points; the rest failed: %3")
                     .arg(measured)
                     .arg(result.points.size())
                     .arg(toQString(result.error));
        setMessage(status);
    } else if (!result.error.empty()) {
        status = tr("The sweep did not run: %1").arg(toQString(result.error));
        setMessage(status);
    } else {
        status = tr("Measured %1 of %2 points in %3")
                     .arg(measured)
                     .arg(result.points.size())
                     .arg(durationText(result.wallSeconds));
        if (result.cancelled)
            status = tr("Cancelled: %1").arg(status);
        const std::size_t failed = result.count(PointStatus::Failed);
        if (failed > 0)
            status += tr("; %1 failed").arg(failed);
        if (const std::optional<std::size_t> best = result.bestPoint()) {
            const SweepPointResult &point = result.points[*best];
            status += point.deviceIndex ? tr("; best %1 (on GPU %2)")
                                              .arg(toQString(point.point.label()))
                                              .arg(*point.deviceIndex)
                                        : tr("; best %1").arg(toQString(point.point.label()));
        } else if (result.mixedModels()) {
            // GPUs of different models are not comparable: each one's best instead.
            QStringList bests;
            for (const auto &[device, index] : result.bestPointPerDevice())
                bests << tr("GPU %1 %2")
                             .arg(device)
                             .arg(toQString(result.points[index].point.label()));
            status += tr("; no single best, the GPUs are of different models; best on %1")
                          .arg(bests.join(QStringLiteral(", ")));
        }
        if (result.devices.size() > 1)
            status += tr("; on %1 GPUs").arg(result.devices.size());
        for (const std::string &note : result.notes) {
            if (note.find("took no further part") != std::string::npos)
                status += QLatin1Char('\n') + toQString(note);
        }
    }
    m_progress->setMaximum(std::max(1, int(std::min<std::size_t>(result.points.size(), INT_MAX))));
    m_progress->setValue(int(
        std::min<std::size_t>(result.points.size() - result.count(PointStatus::Pending), INT_MAX)));
    m_timeLeft->clear();
    m_timeLeft->setVisible(false);
    // Where the time went (SweepResult::timeBreakdown), on a line of its own.
    QString label = status;
    if (const SweepTimeBreakdown t = result.timeBreakdown(); t.measuredPoints > 0) {
        label += QLatin1Char('\n') +
                 tr("Time: compiling %1, verifying %2, measuring %3 (the kernels %4), other %5")
                     .arg(durationText(t.hostCompileMs / 1e3), durationText(t.verifyMs / 1e3),
                          durationText(t.measureMs / 1e3), durationText(t.gpuSampleMs / 1e3),
                          durationText(t.otherMs / 1e3)) +
                 QLatin1Char('\n') +
                 tr("Measuring: load and buffers %1, timer set-up %2, warm-up %3, sampling %4; "
                    "a point took %5 beyond its samples (median)")
                     .arg(durationText(t.prepareMs / 1e3), durationText(t.setupMs / 1e3),
                          durationText(t.warmupMs / 1e3), durationText(t.samplingMs / 1e3),
                          durationText(t.medianOverheadMs / 1e3));
    }
    m_status->setText(m_failureNote.isEmpty() ? label : label + QLatin1Char('\n') + m_failureNote);
    updateRunState();
    Q_EMIT statusMessage(status);
    Q_EMIT sweepShown(result);
}

void SweepPanel::showRuns()
{
    std::vector<NamedSweep> runs;
    runs.push_back({m_resultName.isEmpty() ? tr("current") : m_resultName, m_result, false});
    if (m_baseline)
        runs.push_back(*m_baseline);
    m_view->setRuns(std::move(runs));
}

void SweepPanel::showResult(const SweepResult &result, const QString &name)
{
    m_streaming = false;
    m_view->setStreaming(false);
    m_pending.clear();
    m_result = result;
    m_resultName = name.isEmpty() ? tr("current") : name;
    showRuns();
}

void SweepPanel::showBaseline(const SweepResult &baseline, const QString &name)
{
    m_baseline = NamedSweep{name, baseline, true};
    showRuns();
}

void SweepPanel::clearBaseline()
{
    m_baseline.reset();
    showRuns();
}

QString SweepPanel::openResult(const QString &path)
{
    const SweepResultLoad load = loadSweepResult(toStdString(path));
    if (!load.result)
        return tr("Could not open %1: %2")
            .arg(QDir::toNativeSeparators(path), toQString(load.error));
    showResult(*load.result, QFileInfo(path).completeBaseName());
    return {};
}

QString SweepPanel::openBaseline(const QString &path)
{
    const SweepResultLoad load = loadSweepResult(toStdString(path));
    if (!load.result)
        return tr("Could not open %1: %2")
            .arg(QDir::toNativeSeparators(path), toQString(load.error));
    const QString date = toQString(load.result->startedAt).left(10);
    showBaseline(*load.result, date.isEmpty() ? tr("baseline") : tr("baseline %1").arg(date));
    return {};
}

QString SweepPanel::exportTo(ExportFormat format, const QString &path) const
{
    if (format == ExportFormat::Png)
        return m_view->exportPng(path);
    if (format == ExportFormat::Svg)
        return m_view->exportSvg(path);
    if (m_result.points.empty())
        return tr("There is no sweep to export yet: run one or open a stored one.");
    std::string text;
    switch (format) {
    case ExportFormat::Csv:
        text = sweepResultToCsv(m_result);
        break;
    case ExportFormat::Json:
        text = serializeSweepResult(m_result);
        break;
    case ExportFormat::T4:
        text = sweepResultToT4(m_result).dump(2) + "\n";
        break;
    default:
        break;
    }
    const std::string error = writeTextFile(toStdString(path), text);
    return toQString(error);
}

void SweepPanel::exportWithDialog(ExportFormat format)
{
    const bool chart = format == ExportFormat::Png || format == ExportFormat::Svg;
    if (!chart && m_result.points.empty()) {
        QMessageBox::information(this, tr("Export sweep"),
                                 tr("There is no sweep to export yet: run one or open a stored "
                                    "one."));
        return;
    }
    QString base = toQString(m_result.projectName);
    if (base.isEmpty())
        base = QStringLiteral("sweep");
    else
        base += QStringLiteral("-sweep");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export sweep"), base + fileSuffix(format), fileFilter(format));
    if (path.isEmpty())
        return;
    const QString error = exportTo(format, path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export sweep"), error);
        return;
    }
    Q_EMIT statusMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace cuwb
