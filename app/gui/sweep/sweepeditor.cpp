#include "gui/sweep/sweepeditor.h"

#include "gui/common/format.h"

#include "gui/common/choicedelegate.h"
#include "gui/common/qtconvert.h"
#include "gui/sweep/sweepaxesmodel.h"
#include "gui/sweep/sweeptargetdelegate.h"
#include "project/project.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace cuwb {

namespace {

// The count waits for the typing to pause.
constexpr int kCountDelayMs = 120;

} // namespace

SweepEditor::SweepEditor(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_counts(this, nullptr, [this](quint64, Count &&count) { onCounted(std::move(count)); })
    , m_axesModel(new SweepAxesModel(this))
{
    createPresetBox();
    createAxesTable();
    createAxisButtons();
    createCombinationFields();
    createPointOptions();

    m_count = new QLabel(this);
    m_count->setWordWrap(true);
    QFont bold = m_count->font();
    bold.setBold(true);
    m_count->setFont(bold);

    buildLayout();

    m_countDelay.setSingleShot(true);
    m_countDelay.setInterval(kCountDelayMs);
    connect(&m_countDelay, &QTimer::timeout, this, &SweepEditor::startCount);

    connect(m_workspace, &Workspace::sweepChanged, this, [this] {
        if (m_editing)
            return; // the fields show it already
        showSpec();
        scheduleCount();
    });
    showSpec();
    scheduleCount();
}

void SweepEditor::createPresetBox()
{
    m_preset = new QComboBox(this);
    m_preset->addItem(tr("Custom"), QString());
    for (const SweepPreset &preset : sweepPresets())
        m_preset->addItem(toQString(preset.title), toQString(preset.id));
    m_preset->setToolTip(tr("A ready-made sweep; its axes replace the ones below"));
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString id = m_preset->itemData(index).toString();
        if (!id.isEmpty())
            applyPreset(id, Workspace::Edit::User);
    });
}

void SweepEditor::createAxesTable()
{
    m_axesView = new QTableView(this);
    m_axesView->setModel(m_axesModel);
    m_axesView->verticalHeader()->hide();
    m_axesView->verticalHeader()->setDefaultSectionSize(m_axesView->fontMetrics().height() + 8);
    m_axesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_axesView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_axesView->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_axesView->setItemDelegateForColumn(
        SweepAxesModel::KindColumn,
        new ChoiceDelegate(SweepAxesModel::ChoicesRole, SweepAxesModel::ChoiceRole, m_axesView));
    m_targetDelegate = new SweepTargetDelegate(m_axesView);
    m_axesView->setItemDelegateForColumn(SweepAxesModel::TargetColumn, m_targetDelegate);
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
        edit([this](SweepSpec &spec) { spec.axes = m_axesModel->axes(); });
    });
}

void SweepEditor::createAxisButtons()
{
    m_addAxis = new QToolButton(this);
    m_addAxis->setText(tr("+"));
    m_addAxis->setToolTip(tr("Add an axis"));
    m_addAxis->setObjectName(QStringLiteral("addAxisButton"));
    connect(m_addAxis, &QToolButton::clicked, this, [this] {
        const int row = m_axesModel->addAxis();
        m_axesView->selectRow(row);
    });
    // A sweep with one axis more than a project may hold would save, and then be refused when
    // the project is opened (project/project.h): adding stops there, and says why.
    const auto limitAxes = [this] {
        const bool full = std::size_t(m_axesModel->rowCount()) >= kMaxSweepAxes;
        m_addAxis->setEnabled(!full);
        m_addAxis->setToolTip(
            full ? tr("A sweep has at most %1 axes; remove one to add another.").arg(kMaxSweepAxes)
                 : tr("Add an axis"));
    };
    connect(m_axesModel, &QAbstractItemModel::rowsInserted, this, limitAxes);
    connect(m_axesModel, &QAbstractItemModel::rowsRemoved, this, limitAxes);
    connect(m_axesModel, &QAbstractItemModel::modelReset, this, limitAxes);
    m_removeAxis = new QToolButton(this);
    m_removeAxis->setText(tr("\u2212"));
    m_removeAxis->setToolTip(tr("Remove the selected axis"));
    connect(m_removeAxis, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_axesView->currentIndex();
        m_axesModel->removeAxis(current.isValid() ? current.row() : m_axesModel->rowCount() - 1);
    });
}

void SweepEditor::createCombinationFields()
{
    m_combination = new QComboBox(this);
    m_combination->addItem(tr("every combination (cartesian)"));
    m_combination->addItem(tr("n-th values together (zip)"));
    m_combination->setToolTip(tr("Cartesian: every combination of the axes' values, the first "
                                 "axis varying slowest. Zip: the n-th values of every axis "
                                 "together (the axes need as many values each)."));
    connect(m_combination, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_updating)
            return;
        edit([index](SweepSpec &spec) {
            spec.combination = index == 1 ? AxisCombination::Zip : AxisCombination::Cartesian;
        });
    });

    m_constraints = new QPlainTextEdit(this);
    m_constraints->setPlaceholderText(tr("block.x*block.y <= 1024"));
    m_constraints->setToolTip(tr("One expression a line over block.x/y/z, grid.x/y/z and the "
                                 "variables; a point where one is 0 is skipped"));
    m_constraints->setTabChangesFocus(true);
    m_constraints->setFixedHeight(m_constraints->fontMetrics().lineSpacing() * 3 + 12);
    connect(m_constraints, &QPlainTextEdit::textChanged, this, [this] {
        if (m_updating)
            return;
        edit([this](SweepSpec &spec) {
            spec.constraints.clear();
            const QStringList lines = m_constraints->toPlainText().split(QLatin1Char('\n'));
            for (const QString &line : lines) {
                if (!line.trimmed().isEmpty())
                    spec.constraints.push_back(toStdString(line.trimmed()));
            }
        });
    });
}

void SweepEditor::createPointOptions()
{
    m_verify = new QCheckBox(tr("Verify each point"), this);
    m_verify->setToolTip(tr("Run and verify the output at every point before measuring it; a "
                            "point with wrong output is measured but never the best"));
    connect(m_verify, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        edit([on](SweepSpec &spec) { spec.verify = on; });
    });
    m_metrics = new QCheckBox(tr("Hardware metrics"), this);
    m_metrics->setToolTip(tr("A metrics pass at every point (achieved occupancy, DRAM bytes); "
                             "needs profiling permission"));
    connect(m_metrics, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        edit([on](SweepSpec &spec) { spec.metrics = on; });
    });
    m_roofline = new QCheckBox(tr("Roofline"), this);
    m_roofline->setToolTip(tr("The metrics pass also collects speed of light and the FP32/FP64/"
                              "FP16 instruction counts, for the Roofline view of the results"));
    connect(m_roofline, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        edit([on](SweepSpec &spec) { spec.roofline = on; });
    });

    m_samples = new QSpinBox(this);
    m_samples->setRange(0, 1000000);
    m_samples->setSpecialValueText(tr("adaptive"));
    m_samples->setSuffix(tr(" samples"));
    m_samples->setToolTip(tr("Samples at each point: a fixed count, or adaptive (until the "
                             "noise is low enough or stops shrinking)"));
    connect(m_samples, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_updating)
            return;
        edit([value](SweepSpec &spec) { spec.settings.fixedSamples = value; });
    });
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("hot"));
    m_mode->addItem(tr("cold"));
    m_mode->setToolTip(tr("Hot: launches back to back, L2 kept. Cold: L2 flushed before each "
                          "sample."));
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_updating)
            return;
        edit([index](SweepSpec &spec) {
            spec.settings.mode = index == 1 ? SampleMode::Cold : SampleMode::Hot;
        });
    });
}

// A count in flight finishes on its pool thread with copies of its inputs; its result has
// nowhere to go (the tracker drops it).
SweepEditor::~SweepEditor() = default;

void SweepEditor::buildLayout()
{
    auto *axesButtons = new QHBoxLayout;
    axesButtons->setContentsMargins(0, 0, 0, 0);
    axesButtons->setSpacing(2);
    axesButtons->addWidget(new QLabel(tr("Axes"), this));
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
    checks->addWidget(m_roofline);
    checks->addStretch(1);

    auto *form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Preset"), m_preset);
    form->addRow(tr("Combine"), m_combination);
    form->addRow(tr("Constraints"), m_constraints);
    form->addRow(tr("Samples"), samplesRow);

    // No margins: the dock's column around it has them, and the same spacing.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(axesButtons);
    layout->addWidget(m_axesView);
    layout->addLayout(form);
    layout->addLayout(checks);
    layout->addWidget(m_count);
}

const SweepSpec &SweepEditor::spec() const
{
    return m_workspace->sweep();
}

void SweepEditor::showSpec()
{
    const SweepSpec &shown = spec();
    m_updating = true;
    m_axesModel->setAxes(shown.axes);
    m_combination->setCurrentIndex(shown.combination == AxisCombination::Zip ? 1 : 0);
    QStringList constraints;
    for (const std::string &constraint : shown.constraints)
        constraints << toQString(constraint);
    if (m_constraints->toPlainText() != constraints.join(QLatin1Char('\n')))
        m_constraints->setPlainText(constraints.join(QLatin1Char('\n')));
    m_verify->setChecked(shown.verify);
    m_metrics->setChecked(shown.metrics);
    m_roofline->setChecked(shown.roofline);
    m_samples->setValue(std::max(0, shown.settings.fixedSamples));
    m_mode->setCurrentIndex(shown.settings.mode == SampleMode::Cold ? 1 : 0);
    m_updating = false;
    syncPreset();
}

bool SweepEditor::applyPreset(const QString &id, Workspace::Edit how)
{
    for (const SweepPreset &preset : sweepPresets()) {
        if (toQString(preset.id) != id)
            continue;
        SweepSpec changed = spec();
        changed.axes = preset.spec.axes;
        changed.combination = preset.spec.combination;
        changed.constraints = preset.spec.constraints;
        m_workspace->setSweep(changed, how); // shown and counted by sweepChanged
        if (how == Workspace::Edit::User)
            Q_EMIT specEdited();
        return true;
    }
    return false;
}

void SweepEditor::syncPreset()
{
    int found = 0;
    const std::vector<SweepPreset> &presets = sweepPresets();
    for (std::size_t i = 0; i < presets.size(); ++i) {
        const SweepSpec &p = presets[i].spec;
        if (p.axes == spec().axes && p.combination == spec().combination &&
            p.constraints == spec().constraints)
            found = int(i) + 1;
    }
    const QSignalBlocker blocker(m_preset);
    m_preset->setCurrentIndex(found);
}

void SweepEditor::edit(const std::function<void(SweepSpec &)> &change)
{
    SweepSpec changed = spec();
    change(changed);
    m_editing = true;
    m_workspace->setSweep(changed, Workspace::Edit::User);
    m_editing = false;
    syncPreset();
    scheduleCount();
    Q_EMIT specEdited();
}

void SweepEditor::setBase(const RunRequest &base, const std::optional<ArchLimits> &limits)
{
    m_base = base;
    m_limits = limits;
    QStringList suggestions = {QStringLiteral("block.x"), QStringLiteral("block.y"),
                               QStringLiteral("block.z")};
    for (const auto &variable : base.launch.variables)
        suggestions << toQString(variable.first);
    suggestions << QStringLiteral("-maxrregcount") << QStringLiteral("--use_fast_math");
    m_targetDelegate->setSuggestions(suggestions);
    scheduleCount();
}

void SweepEditor::clearBase()
{
    m_base.reset();
    scheduleCount();
}

void SweepEditor::setEditable(bool editable)
{
    for (QWidget *w : std::initializer_list<QWidget *>{
             m_preset, m_axesView, m_addAxis, m_removeAxis, m_combination, m_constraints, m_verify,
             m_metrics, m_roofline, m_samples, m_mode})
        w->setEnabled(editable);
    if (std::size_t(m_axesModel->rowCount()) >= kMaxSweepAxes)
        m_addAxis->setEnabled(false); // at the limit of axes
}

void SweepEditor::scheduleCount()
{
    ++m_generation;
    m_countResult.reset();
    updateCountText();
    m_countDelay.start();
}

void SweepEditor::countNow()
{
    if (m_countResult)
        return;
    m_countDelay.stop();
    startCount();
}

void SweepEditor::startCount()
{
    // The count runs off the GUI thread, one at a time; the newest spec is counted next and
    // an older count's result is dropped (JobTracker).
    std::string nothingToCount;
    if (spec().axes.empty())
        nothingToCount = toStdString(tr("the sweep has no axes; add one, such as block.x from "
                                        "32 to 1024 in steps of 32 (or choose a preset)"));
    const bool haveBase = m_base.has_value();
    RunRequest base = haveBase ? *m_base : RunRequest{};
    base.source.clear(); // not needed to expand the launch, and copied into every point
    m_counts.submit([generation = m_generation, spec = spec(), base = std::move(base),
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

void SweepEditor::onCounted(Count &&count)
{
    if (count.generation != m_generation)
        return; // the spec changed since; its own count is scheduled
    m_countResult = std::move(count);
    updateCountText();
    Q_EMIT counted();
}

const SweepCount *SweepEditor::count() const
{
    return m_countResult ? &*m_countResult : nullptr;
}

bool SweepEditor::isCounting() const
{
    return !m_countResult.has_value();
}

std::optional<std::size_t> SweepEditor::pointCount() const
{
    if (!m_countResult || !m_countResult->error.empty() || !m_base)
        return std::nullopt;
    return m_countResult->points;
}

std::optional<std::size_t> SweepEditor::runnableCount() const
{
    if (!m_countResult || !m_countResult->error.empty() || !m_base)
        return std::nullopt;
    return m_countResult->runnable;
}

QString SweepEditor::countText() const
{
    return m_count->text();
}

void SweepEditor::updateCountText()
{
    QString text;
    if (spec().axes.empty() || !m_base) {
        text = spec().axes.empty() ? tr("No points")
                                   : tr("Points are counted once a kernel is "
                                        "compiled");
    } else if (!m_countResult) {
        text = tr("Counting\u2026");
    } else if (!m_countResult->error.empty()) {
        text = tr("No points");
    } else {
        const Count &c = *m_countResult;
        const SweepEstimate estimate =
            estimateSweep(spec(), c.runnable, m_base->launch.deadlineSeconds);
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
                .arg(durationText(spec().settings.timeCapSeconds),
                     spec().verify ? tr(" plus a verification run's deadline") : QString()));
    }
    m_count->setText(text);
    Q_EMIT countTextChanged();
}

} // namespace cuwb
