#include "gui/sweep/sweeppanel.h"

#include "gui/common/format.h"

#include "gui/common/choicedelegate.h"
#include "gui/common/qtconvert.h"
#include "gui/sweep/sweepaxesmodel.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweepresultsview.h"
#include "sweep/sweepexport.h"
#include "sweep/sweepjson.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStringListModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace cuwb {

namespace {

// A new point is drawn at most this often; the points that arrive in between are drawn
// together, so that a burst (skipped points come back at once) costs one redraw.
constexpr int kFlushIntervalMs = 50;
// The count waits for the typing to pause.
constexpr int kCountDelayMs = 120;

// Edits a target with a completer over the usual targets and the launch's variables.
class TargetDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void setSuggestions(const QStringList &suggestions) { m_suggestions = suggestions; }

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override
    {
        QWidget *editor = QStyledItemDelegate::createEditor(parent, option, index);
        if (auto *line = qobject_cast<QLineEdit *>(editor)) {
            auto *completer = new QCompleter(m_suggestions, line);
            completer->setCaseSensitivity(Qt::CaseInsensitive);
            line->setCompleter(completer);
        }
        return editor;
    }

private:
    QStringList m_suggestions;
};

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

SweepPanel::SweepPanel(SweepController *controller, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_counts(this, nullptr, [this](quint64, Count &&count) { onCounted(std::move(count)); })
    , m_view(new SweepResultsView(this))
    , m_axesModel(new SweepAxesModel(this))
{
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Run a large sweep?"), question,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };

    auto *editor = new QWidget;
    buildEditor(editor);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(editor);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int editorWidth = std::max(editor->minimumWidth(), editor->minimumSizeHint().width());
    scroll->setMinimumWidth(editorWidth + scroll->verticalScrollBar()->sizeHint().width() + 4);

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

    m_countDelay.setSingleShot(true);
    m_countDelay.setInterval(kCountDelayMs);
    connect(&m_countDelay, &QTimer::timeout, this, &SweepPanel::startCount);
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
    setSpec(SweepSpec{});
}

// A count in flight finishes on its pool thread with copies of its inputs; its result has
// nowhere to go (the tracker drops it).
SweepPanel::~SweepPanel() = default;

void SweepPanel::buildEditor(QWidget *editor)
{
    m_preset = new QComboBox(editor);
    m_preset->addItem(tr("Custom"), QString());
    for (const SweepPreset &preset : sweepPresets())
        m_preset->addItem(toQString(preset.title), toQString(preset.id));
    m_preset->setToolTip(tr("A ready-made sweep; its axes replace the ones below"));
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString id = m_preset->itemData(index).toString();
        if (!id.isEmpty() && applyPreset(id))
            Q_EMIT specEdited();
    });

    m_axesView = new QTableView(editor);
    m_axesView->setModel(m_axesModel);
    m_axesView->verticalHeader()->hide();
    m_axesView->verticalHeader()->setDefaultSectionSize(m_axesView->fontMetrics().height() + 8);
    m_axesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_axesView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_axesView->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_axesView->setItemDelegateForColumn(
        SweepAxesModel::KindColumn,
        new ChoiceDelegate(SweepAxesModel::ChoicesRole, SweepAxesModel::ChoiceRole, m_axesView));
    m_axesView->setItemDelegateForColumn(SweepAxesModel::TargetColumn,
                                         new TargetDelegate(m_axesView));
    QHeaderView *header = m_axesView->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(SweepAxesModel::ValuesColumn, QHeaderView::Stretch);
    const int digits = m_axesView->fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 12;
    m_axesView->setColumnWidth(
        SweepAxesModel::TargetColumn,
        m_axesView->fontMetrics().horizontalAdvance(QStringLiteral("block.x__")) + 12);
    m_axesView->setColumnWidth(
        SweepAxesModel::KindColumn,
        m_axesView->fontMetrics().horizontalAdvance(QStringLiteral("powers of two")) + 24);
    for (int column :
         {SweepAxesModel::FromColumn, SweepAxesModel::ToColumn, SweepAxesModel::StepColumn})
        m_axesView->setColumnWidth(column, digits);
    m_axesView->setMinimumHeight(m_axesView->verticalHeader()->defaultSectionSize() * 3 +
                                 header->sizeHint().height() + 4);
    m_axesView->setMaximumHeight(m_axesView->verticalHeader()->defaultSectionSize() * 5 +
                                 header->sizeHint().height() + 4);
    connect(m_axesModel, &SweepAxesModel::axesChanged, this, [this] {
        if (m_updating)
            return;
        m_spec.axes = m_axesModel->axes();
        edited();
    });

    m_addAxis = new QToolButton(editor);
    m_addAxis->setText(tr("+"));
    m_addAxis->setToolTip(tr("Add an axis"));
    connect(m_addAxis, &QToolButton::clicked, this, [this] {
        const int row = m_axesModel->addAxis();
        m_axesView->selectRow(row);
    });
    m_removeAxis = new QToolButton(editor);
    m_removeAxis->setText(tr("\u2212"));
    m_removeAxis->setToolTip(tr("Remove the selected axis"));
    connect(m_removeAxis, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_axesView->currentIndex();
        m_axesModel->removeAxis(current.isValid() ? current.row() : m_axesModel->rowCount() - 1);
    });

    m_combination = new QComboBox(editor);
    m_combination->addItem(tr("every combination (cartesian)"));
    m_combination->addItem(tr("n-th values together (zip)"));
    m_combination->setToolTip(tr("Cartesian: every combination of the axes' values, the first "
                                 "axis varying slowest. Zip: the n-th values of every axis "
                                 "together (the axes need as many values each)."));
    connect(m_combination, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_updating)
            return;
        m_spec.combination = index == 1 ? AxisCombination::Zip : AxisCombination::Cartesian;
        edited();
    });

    m_constraints = new QPlainTextEdit(editor);
    m_constraints->setPlaceholderText(tr("block.x*block.y <= 1024"));
    m_constraints->setToolTip(tr("One expression a line over block.x/y/z, grid.x/y/z and the "
                                 "variables; a point where one is 0 is skipped"));
    m_constraints->setTabChangesFocus(true);
    m_constraints->setFixedHeight(m_constraints->fontMetrics().lineSpacing() * 3 + 12);
    connect(m_constraints, &QPlainTextEdit::textChanged, this, [this] {
        if (m_updating)
            return;
        m_spec.constraints.clear();
        const QStringList lines = m_constraints->toPlainText().split(QLatin1Char('\n'));
        for (const QString &line : lines) {
            if (!line.trimmed().isEmpty())
                m_spec.constraints.push_back(toStdString(line.trimmed()));
        }
        edited();
    });

    m_verify = new QCheckBox(tr("Verify each point"), editor);
    m_verify->setToolTip(tr("Run and verify the output at every point before measuring it; a "
                            "point with wrong output is measured but never the best"));
    connect(m_verify, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        m_spec.verify = on;
        edited();
    });
    m_metrics = new QCheckBox(tr("Hardware metrics"), editor);
    m_metrics->setToolTip(tr("A metrics pass at every point (achieved occupancy, DRAM bytes); "
                             "needs profiling permission"));
    connect(m_metrics, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        m_spec.metrics = on;
        edited();
    });

    m_samples = new QSpinBox(editor);
    m_samples->setRange(0, 1000000);
    m_samples->setSpecialValueText(tr("adaptive"));
    m_samples->setSuffix(tr(" samples"));
    m_samples->setToolTip(tr("Samples at each point: a fixed count, or adaptive (until the "
                             "noise is low enough or stops shrinking)"));
    connect(m_samples, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_updating)
            return;
        m_spec.settings.fixedSamples = value;
        edited();
    });
    m_mode = new QComboBox(editor);
    m_mode->addItem(tr("hot"));
    m_mode->addItem(tr("cold"));
    m_mode->setToolTip(tr("Hot: launches back to back, L2 kept. Cold: L2 flushed before each "
                          "sample."));
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_updating)
            return;
        m_spec.settings.mode = index == 1 ? SampleMode::Cold : SampleMode::Hot;
        edited();
    });

    m_count = new QLabel(editor);
    m_count->setWordWrap(true);
    QFont bold = m_count->font();
    bold.setBold(true);
    m_count->setFont(bold);
    m_message = new QLabel(editor);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_message->setVisible(false);

    m_run = new QPushButton(tr("Run sweep"), editor);
    m_run->setDefault(false);
    connect(m_run, &QPushButton::clicked, this, &SweepPanel::runSweep);
    m_cancel = new QPushButton(tr("Cancel"), editor);
    m_cancel->setToolTip(tr("Stop after the point being measured; the points measured so far "
                            "are kept"));
    m_cancel->setEnabled(false);
    connect(m_cancel, &QPushButton::clicked, this, &SweepPanel::cancelSweep);

    m_progress = new QProgressBar(editor);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m points"));
    m_progress->setVisible(false); // until a sweep runs
    m_timeLeft = new QLabel(editor);
    m_timeLeft->setVisible(false);
    m_status = new QLabel(editor);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *exportRow = new QHBoxLayout;
    exportRow->setContentsMargins(0, 0, 0, 0);
    exportRow->setSpacing(2);
    exportRow->addWidget(new QLabel(tr("Export:"), editor));
    const std::pair<ExportFormat, QString> formats[] = {{ExportFormat::Csv, tr("CSV")},
                                                        {ExportFormat::Json, tr("JSON")},
                                                        {ExportFormat::T4, tr("T4")},
                                                        {ExportFormat::Png, tr("PNG")},
                                                        {ExportFormat::Svg, tr("SVG")}};
    for (const auto &[format, text] : formats) {
        auto *button = new QToolButton(editor);
        button->setText(text);
        button->setToolTip(fileFilter(format));
        connect(button, &QToolButton::clicked, this,
                [this, format = format] { exportWithDialog(format); });
        exportRow->addWidget(button);
        m_exportButtons.push_back(button);
    }
    exportRow->addStretch(1);

    auto *axesButtons = new QHBoxLayout;
    axesButtons->setContentsMargins(0, 0, 0, 0);
    axesButtons->setSpacing(2);
    axesButtons->addWidget(new QLabel(tr("Axes"), editor));
    axesButtons->addStretch(1);
    axesButtons->addWidget(m_addAxis);
    axesButtons->addWidget(m_removeAxis);

    auto *samplesRow = new QHBoxLayout;
    samplesRow->setContentsMargins(0, 0, 0, 0);
    samplesRow->addWidget(m_samples, 1);
    samplesRow->addWidget(m_mode);

    auto *checks = new QHBoxLayout;
    checks->setContentsMargins(0, 0, 0, 0);
    checks->addWidget(m_verify);
    checks->addWidget(m_metrics);
    checks->addStretch(1);

    auto *form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Preset"), m_preset);
    form->addRow(tr("Combine"), m_combination);
    form->addRow(tr("Constraints"), m_constraints);
    form->addRow(tr("Samples"), samplesRow);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(editor);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addLayout(axesButtons);
    layout->addWidget(m_axesView);
    layout->addLayout(form);
    layout->addLayout(checks);
    layout->addWidget(m_count);
    layout->addWidget(m_message);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_timeLeft);
    layout->addWidget(m_status);
    layout->addLayout(exportRow);
    layout->addStretch(1);
    editor->setMinimumWidth(420);
}

void SweepPanel::setSpec(const SweepSpec &spec)
{
    m_spec = spec;
    showSpec();
    scheduleCount();
}

void SweepPanel::showSpec()
{
    m_updating = true;
    m_axesModel->setAxes(m_spec.axes);
    m_combination->setCurrentIndex(m_spec.combination == AxisCombination::Zip ? 1 : 0);
    QStringList constraints;
    for (const std::string &constraint : m_spec.constraints)
        constraints << toQString(constraint);
    if (m_constraints->toPlainText() != constraints.join(QLatin1Char('\n')))
        m_constraints->setPlainText(constraints.join(QLatin1Char('\n')));
    m_verify->setChecked(m_spec.verify);
    m_metrics->setChecked(m_spec.metrics);
    m_samples->setValue(std::max(0, m_spec.settings.fixedSamples));
    m_mode->setCurrentIndex(m_spec.settings.mode == SampleMode::Cold ? 1 : 0);
    m_updating = false;
    syncPreset();
}

bool SweepPanel::applyPreset(const QString &id)
{
    for (const SweepPreset &preset : sweepPresets()) {
        if (toQString(preset.id) != id)
            continue;
        m_spec.axes = preset.spec.axes;
        m_spec.combination = preset.spec.combination;
        m_spec.constraints = preset.spec.constraints;
        showSpec();
        scheduleCount();
        return true;
    }
    return false;
}

void SweepPanel::syncPreset()
{
    int found = 0;
    const std::vector<SweepPreset> &presets = sweepPresets();
    for (std::size_t i = 0; i < presets.size(); ++i) {
        const SweepSpec &p = presets[i].spec;
        if (p.axes == m_spec.axes && p.combination == m_spec.combination &&
            p.constraints == m_spec.constraints)
            found = int(i) + 1;
    }
    const QSignalBlocker blocker(m_preset);
    m_preset->setCurrentIndex(found);
}

void SweepPanel::edited()
{
    syncPreset();
    scheduleCount();
    Q_EMIT specEdited();
}

void SweepPanel::setBase(const RunRequest &base, const SweepContext &context,
                         const std::optional<ArchLimits> &limits)
{
    m_base = base;
    m_context = context;
    m_limits = limits;
    QStringList suggestions = {QStringLiteral("block.x"), QStringLiteral("block.y"),
                               QStringLiteral("block.z")};
    for (const auto &variable : base.launch.variables)
        suggestions << toQString(variable.first);
    suggestions << QStringLiteral("-maxrregcount") << QStringLiteral("--use_fast_math");
    if (auto *delegate = dynamic_cast<TargetDelegate *>(
            m_axesView->itemDelegateForColumn(SweepAxesModel::TargetColumn)))
        delegate->setSuggestions(suggestions);
    scheduleCount();
}

void SweepPanel::clearBase(const QString &reason)
{
    m_base.reset();
    if (!reason.isEmpty())
        m_noBaseReason = reason;
    scheduleCount();
}

void SweepPanel::setRunAvailability(bool available, const QString &reason)
{
    m_available = available;
    m_unavailableReason = available ? QString() : reason;
    updateRunState();
}

void SweepPanel::scheduleCount()
{
    ++m_generation;
    m_countResult.reset();
    updateCountText();
    m_countDelay.start();
}

void SweepPanel::startCount()
{
    // The count runs off the GUI thread, one at a time; the newest spec is counted next and
    // an older count's result is dropped (JobTracker).
    std::string nothingToCount;
    if (m_spec.axes.empty())
        nothingToCount = toStdString(tr("the sweep has no axes; add one, such as block.x from "
                                        "32 to 1024 in steps of 32 (or choose a preset)"));
    const bool haveBase = m_base.has_value();
    RunRequest base = haveBase ? *m_base : RunRequest{};
    base.source.clear(); // not needed to expand the launch, and copied into every point
    m_counts.submit([generation = m_generation, spec = m_spec, base = std::move(base),
                     limits = m_limits, haveBase, nothingToCount] {
        Count count;
        if (!spec.axes.empty() && haveBase)
            static_cast<SweepCount &>(count) =
                countSweep(spec, base, limits ? &*limits : nullptr, kCountLimit);
        else
            count.error = nothingToCount; // and without a base, the reason is known already
        count.generation = generation;
        return count;
    });
}

void SweepPanel::onCounted(Count &&count)
{
    if (count.generation != m_generation)
        return; // the spec changed since; its own count is scheduled
    m_countResult = std::move(count);
    updateCountText();
    Q_EMIT countChanged();
    if (m_runWhenCounted) {
        m_runWhenCounted = false;
        runSweep();
    }
}

bool SweepPanel::isCounting() const
{
    return !m_countResult.has_value();
}

std::optional<std::size_t> SweepPanel::pointCount() const
{
    if (!m_countResult || !m_countResult->error.empty() || !m_base)
        return std::nullopt;
    return m_countResult->points;
}

std::optional<std::size_t> SweepPanel::runnableCount() const
{
    if (!m_countResult || !m_countResult->error.empty() || !m_base)
        return std::nullopt;
    return m_countResult->runnable;
}

QString SweepPanel::countText() const
{
    return m_count->text();
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
    if (m_spec.axes.empty())
        return tr("The sweep is empty: it has no axes, so there is nothing to measure. Add an "
                  "axis (+) or choose a preset.");
    if (!m_base)
        return m_noBaseReason;
    if (!m_countResult)
        return {}; // still counting: Run starts it once counted
    if (!m_countResult->error.empty())
        return tr("The sweep cannot run: %1.").arg(toQString(m_countResult->error));
    if (m_countResult->runnable == 0) {
        const QString skip = toQString(m_countResult->firstSkip);
        return m_countResult->points == 1
                   ? tr("Nothing to measure: its only point is skipped (%1).").arg(skip)
                   : tr("Nothing to measure: all %1 points are skipped (%2).")
                         .arg(QLocale().toString(qulonglong(m_countResult->points)), skip);
    }
    if (!m_available)
        return m_unavailableReason;
    return {};
}

bool SweepPanel::canRun() const
{
    return m_countResult && blockedReason().isEmpty();
}

void SweepPanel::updateCountText()
{
    QString text;
    if (m_spec.axes.empty() || !m_base) {
        text = m_spec.axes.empty() ? tr("No points")
                                   : tr("Points are counted once a kernel is "
                                        "compiled");
    } else if (!m_countResult) {
        text = tr("Counting\u2026");
    } else if (!m_countResult->error.empty()) {
        text = tr("No points");
    } else {
        const Count &c = *m_countResult;
        const SweepEstimate estimate =
            estimateSweep(m_spec, c.runnable, m_base->launch.deadlineSeconds);
        const QString points = QLocale().toString(qulonglong(c.points));
        text = c.exact
                   ? tr("%1 points, %2 skipped; at least %3, at most %4")
                         .arg(points, QLocale().toString(qulonglong(c.points - c.runnable)),
                              durationText(estimate.minSeconds), durationText(estimate.maxSeconds))
                   : tr("%1 points (skips are found as it runs); at least %2, at most %3")
                         .arg(points, durationText(estimate.minSeconds),
                              durationText(estimate.maxSeconds));
        m_count->setToolTip(
            tr("At least the per-point overhead (and the minimum GPU time of adaptive "
               "sampling), at most the %1 time cap per point%2")
                .arg(durationText(m_spec.settings.timeCapSeconds),
                     m_spec.verify ? tr(" plus a verification run's deadline") : QString()));
    }
    m_count->setText(text);
    updateRunState();
}

void SweepPanel::updateRunState()
{
    const bool running = m_controller && m_controller->isRunning();
    const QString reason = blockedReason();
    m_run->setEnabled(!running && reason.isEmpty() && !m_runWhenCounted);
    m_run->setToolTip(reason.isEmpty() ? tr("Measure every point of the sweep") : reason);
    m_cancel->setEnabled(running && !m_controller->isCancelling());
    // Why it cannot run, unless a sweep is running (its own progress says enough).
    if (!running)
        setMessage(reason);
    for (QWidget *w : std::initializer_list<QWidget *>{m_preset, m_axesView, m_addAxis,
                                                       m_removeAxis, m_combination, m_constraints,
                                                       m_verify, m_metrics, m_samples, m_mode})
        w->setEnabled(!running);
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
    if (m_spec.axes.empty() || !m_base || (m_countResult && !blockedReason().isEmpty())) {
        setMessage(blockedReason());
        return false;
    }
    if (!m_countResult) {
        // Counting still: run once the count is in (and only if it allows it).
        m_runWhenCounted = true;
        m_countDelay.stop();
        startCount();
        updateRunState();
        return true;
    }
    const Count &c = *m_countResult;
    if (c.points > kConfirmPoints) {
        const SweepEstimate estimate =
            estimateSweep(m_spec, c.runnable, m_base->launch.deadlineSeconds);
        const QString question =
            tr("The sweep has %1 points (%2 to measure). It takes at least %3 and at most %4 "
               "(the %5 time cap per point).\n\nRun it?")
                .arg(QLocale().toString(qulonglong(c.points)),
                     QLocale().toString(qulonglong(c.runnable)), durationText(estimate.minSeconds),
                     durationText(estimate.maxSeconds),
                     durationText(m_spec.settings.timeCapSeconds));
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
    if (!m_controller->start(m_spec, *m_base, m_context)) {
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
    const std::size_t measured =
        result.count(PointStatus::Measured) + result.count(PointStatus::Wrong);
    QString status;
    if (!result.error.empty()) {
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
        if (const std::optional<std::size_t> best = result.bestPoint())
            status += tr("; best %1").arg(toQString(result.points[*best].point.label()));
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
                          durationText(t.otherMs / 1e3));
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
