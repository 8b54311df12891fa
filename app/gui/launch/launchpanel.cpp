#include "gui/launch/launchpanel.h"

#include "launch/launchmerge.h"

#include "gui/common/choicedelegate.h"
#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"
#include "gui/launch/argumentsmodel.h"
#include "gui/launch/bufferinitwidget.h"
#include "gui/launch/globalsmodel.h"
#include "gui/launch/variablesmodel.h"
#include "gui/launch/verificationwidget.h"
#include "gui/measure/measureoptionsdialog.h"

#include "compiler/kernellookup.h"
#include "launch/launchenvironment.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace cuwb {

namespace {

const char *const Axes[] = {"x", "y", "z"};

QTableView *makeTable(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::SelectedClicked | QAbstractItemView::AnyKeyPressed);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    return view;
}

// Fits a table's height to its rows (between min and max rows), so short lists take no room.
void fitHeight(QTableView *view, int minRows, int maxRows)
{
    const int rows = std::clamp(view->model() ? view->model()->rowCount() : 0, minRows, maxRows);
    const int height = view->horizontalHeader()->sizeHint().height() +
                       rows * view->verticalHeader()->defaultSectionSize() +
                       view->horizontalScrollBar()->sizeHint().height() + 2 * view->frameWidth() +
                       2;
    view->setFixedHeight(height);
}

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

} // namespace

LaunchPanel::LaunchPanel(QWidget *parent)
    : QWidget(parent)
    , m_kernelCombo(new QComboBox(this))
    , m_signatureLabel(new QLabel(this))
    , m_variablesModel(new VariablesModel(this))
    , m_definesModel(new VariablesModel(this))
    , m_globalsModel(new GlobalsModel(this))
    , m_globalInitWidget(new BufferInitWidget(this))
    , m_argumentsModel(new ArgumentsModel(this))
    , m_initWidget(new BufferInitWidget(this))
    , m_shared(new ExpressionField(this))
    , m_deadline(new QDoubleSpinBox(this))
    , m_verificationWidget(new VerificationWidget(this))
    , m_issuesList(new QListWidget(this))
    , m_limitsLabel(new QLabel(this))
    , m_runAction(new QAction(tr("&Run"), this))
    , m_runButton(new QToolButton(this))
    , m_runReason(new QLabel(this))
    , m_measureAction(new QAction(tr("&Measure"), this))
    , m_measureButton(new QToolButton(this))
    , m_measureOptionsButton(new QToolButton(this))
    , m_cancelMeasurementAction(new QAction(tr("&Cancel Measurement"), this))
    , m_cancelMeasurementButton(new QToolButton(this))
{
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);

    // Kernel and signature.
    auto *kernelRow = new QHBoxLayout;
    kernelRow->addWidget(new QLabel(tr("Kernel"), content));
    kernelRow->addWidget(m_kernelCombo, 1);
    layout->addLayout(kernelRow);
    m_signatureLabel->setWordWrap(true);
    m_signatureLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_signatureLabel->setFont(mono);
    m_signatureLabel->setStyleSheet(
        QStringLiteral("QLabel { background: palette(alternate-base); padding: 4px 6px; }"));
    layout->addWidget(m_signatureLabel);

    // Variables.
    auto *variablesTitle = new QHBoxLayout;
    variablesTitle->addWidget(sectionTitle(tr("Variables"), content));
    variablesTitle->addStretch(1);
    m_addVariable = new QToolButton(content);
    m_addVariable->setText(QStringLiteral("+"));
    m_addVariable->setToolTip(tr("Add a variable"));
    m_removeVariable = new QToolButton(content);
    m_removeVariable->setText(QStringLiteral("\u2212"));
    m_removeVariable->setToolTip(tr("Remove the selected variable"));
    variablesTitle->addWidget(m_addVariable);
    variablesTitle->addWidget(m_removeVariable);
    layout->addLayout(variablesTitle);
    m_variablesView = makeTable(content);
    m_variablesView->setModel(m_variablesModel);
    layout->addWidget(m_variablesView);

    // Defines: passed to the compiler as -DNAME=value with the value of each launch; names
    // every expression may use, as an auto-tuner's tunable parameters are.
    auto *definesTitle = new QHBoxLayout;
    definesTitle->addWidget(sectionTitle(tr("Defines"), content));
    definesTitle->addStretch(1);
    m_tunerDefines = new QCheckBox(tr("Tuner defines"), content);
    m_tunerDefines->setToolTip(
        tr("Define block_size_x/y/z and grid_size_x/y/z from the launch, as auto-tuners do"));
    definesTitle->addWidget(m_tunerDefines);
    m_addDefine = new QToolButton(content);
    m_addDefine->setText(QStringLiteral("+"));
    m_addDefine->setToolTip(tr("Add a define whose value is an expression (TILE = block.x / 8)"));
    m_removeDefine = new QToolButton(content);
    m_removeDefine->setText(QStringLiteral("\u2212"));
    m_removeDefine->setToolTip(tr("Remove the selected define"));
    definesTitle->addWidget(m_addDefine);
    definesTitle->addWidget(m_removeDefine);
    layout->addLayout(definesTitle);
    m_definesView = makeTable(content);
    m_definesView->setModel(m_definesModel);
    layout->addWidget(m_definesView);

    // Globals: __constant__ and __device__ variables set before each launch.
    auto *globalsTitle = new QHBoxLayout;
    globalsTitle->addWidget(sectionTitle(tr("Globals"), content));
    globalsTitle->addStretch(1);
    m_addGlobal = new QToolButton(content);
    m_addGlobal->setText(QStringLiteral("+"));
    m_addGlobal->setToolTip(tr("Set a __constant__ or __device__ variable before each launch"));
    m_removeGlobal = new QToolButton(content);
    m_removeGlobal->setText(QStringLiteral("\u2212"));
    m_removeGlobal->setToolTip(tr("Remove the selected global"));
    globalsTitle->addWidget(m_addGlobal);
    globalsTitle->addWidget(m_removeGlobal);
    layout->addLayout(globalsTitle);
    m_globalsView = makeTable(content);
    m_globalsView->setModel(m_globalsModel);
    m_globalsView->setItemDelegate(
        new ChoiceDelegate(GlobalsModel::ChoicesRole, GlobalsModel::ChoiceRole, this));
    layout->addWidget(m_globalsView);
    layout->addWidget(m_globalInitWidget);

    // Arguments.
    layout->addWidget(sectionTitle(tr("Arguments"), content));
    m_argumentsView = makeTable(content);
    m_argumentsView->setModel(m_argumentsModel);
    m_argumentsView->setItemDelegate(
        new ChoiceDelegate(ArgumentsModel::ChoicesRole, ArgumentsModel::ChoiceRole, this));
    layout->addWidget(m_argumentsView);
    layout->addWidget(m_initWidget);

    // Block, grid, shared memory, deadline.
    auto *launchBox = new QGroupBox(tr("Launch"), content);
    auto *grid = new QGridLayout(launchBox);
    grid->addWidget(new QLabel(tr("Block"), launchBox), 0, 1);
    grid->addWidget(new QLabel(tr("Grid"), launchBox), 0, 2);
    for (int axis = 0; axis < 3; ++axis) {
        grid->addWidget(new QLabel(QString::fromLatin1(Axes[axis]), launchBox), axis + 1, 0);
        m_block[std::size_t(axis)] = new ExpressionField(launchBox);
        m_grid[std::size_t(axis)] = new ExpressionField(launchBox);
        grid->addWidget(m_block[std::size_t(axis)], axis + 1, 1);
        grid->addWidget(m_grid[std::size_t(axis)], axis + 1, 2);
    }
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 1);
    auto *extra = new QFormLayout;
    extra->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_shared->lineEdit()->setToolTip(tr("Dynamic shared memory per block, in bytes"));
    extra->addRow(tr("Dynamic shared (bytes)"), m_shared);
    m_deadline->setRange(0.1, 3600.0);
    m_deadline->setDecimals(1);
    m_deadline->setSuffix(tr(" s"));
    m_deadline->setToolTip(tr("A run that takes longer is stopped; the worker starts afresh"));
    extra->addRow(tr("Deadline"), m_deadline);
    grid->addLayout(extra, 4, 0, 1, 3);
    layout->addWidget(launchBox);

    layout->addWidget(m_verificationWidget);

    // Checks.
    layout->addWidget(sectionTitle(tr("Checks"), content));
    m_limitsLabel->setEnabled(false);
    m_limitsLabel->setWordWrap(true);
    layout->addWidget(m_limitsLabel);
    m_issuesList->setWordWrap(true);
    m_issuesList->setMaximumHeight(m_issuesList->fontMetrics().height() * 7);
    m_issuesList->setSelectionMode(QAbstractItemView::NoSelection);
    layout->addWidget(m_issuesList);
    layout->addStretch(1);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    // Run: always visible, below the scrolling form.
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_runButton->setDefaultAction(m_runAction);
    m_runButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_runButton->setMinimumWidth(110);
    m_measureAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_measureAction->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_measureButton->setDefaultAction(m_measureAction);
    m_measureButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_measureOptionsButton->setText(tr("\u2026"));
    m_measureOptionsButton->setToolTip(tr("Measurement options: cold or hot, sample count, "
                                          "stopping criteria, time cap, hardware metrics"));
    m_measureOptionsButton->setAccessibleName(tr("Measurement options"));
    m_cancelMeasurementAction->setIconText(tr("Cancel"));
    m_cancelMeasurementAction->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_cancelMeasurementAction->setShortcut(QKeySequence(Qt::Key_Escape));
    // Esc only where the measurement is: in this panel or the Measurement dock (which adds the
    // action too), never for the editor or a dialog.
    m_cancelMeasurementAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_cancelMeasurementAction->setToolTip(tr("Stop sampling now and keep the samples taken (Esc)"));
    m_cancelMeasurementAction->setEnabled(false);
    addAction(m_cancelMeasurementAction);
    m_cancelMeasurementButton->setDefaultAction(m_cancelMeasurementAction);
    m_cancelMeasurementButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_cancelMeasurementButton->setVisible(false);
    m_runReason->setWordWrap(true);
    auto *runRow = new QHBoxLayout;
    runRow->setContentsMargins(8, 4, 8, 6);
    runRow->addWidget(m_runButton);
    runRow->addWidget(m_measureButton);
    runRow->addWidget(m_measureOptionsButton);
    runRow->addWidget(m_cancelMeasurementButton);
    runRow->addWidget(m_runReason, 1);

    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    outer->addWidget(scroll, 1);
    outer->addLayout(runRow);

    connect(m_kernelCombo, &QComboBox::currentIndexChanged, this, &LaunchPanel::onKernelChosen);
    connect(m_addVariable, &QToolButton::clicked, this, [this] {
        const int row = m_variablesModel->addVariable();
        fitHeight(m_variablesView, 1, 6);
        m_variablesView->edit(m_variablesModel->index(row, VariablesModel::NameColumn));
    });
    connect(m_removeVariable, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_variablesView->currentIndex();
        if (current.isValid())
            m_variablesModel->removeVariable(current.row());
        fitHeight(m_variablesView, 1, 6);
    });
    connect(m_variablesModel, &VariablesModel::definitionsEdited, this, &LaunchPanel::edited);
    connect(m_addDefine, &QToolButton::clicked, this, [this] {
        const int row = m_definesModel->addVariable(QStringLiteral("TILE"));
        fitHeight(m_definesView, 1, 6);
        m_definesView->edit(m_definesModel->index(row, VariablesModel::NameColumn));
    });
    connect(m_removeDefine, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_definesView->currentIndex();
        if (current.isValid())
            m_definesModel->removeVariable(current.row());
        fitHeight(m_definesView, 1, 6);
    });
    connect(m_definesModel, &VariablesModel::definitionsEdited, this, &LaunchPanel::edited);
    connect(m_tunerDefines, &QCheckBox::toggled, this, &LaunchPanel::edited);
    connect(m_addGlobal, &QToolButton::clicked, this, [this] {
        const int row = m_globalsModel->addGlobal();
        fitHeight(m_globalsView, 1, 6);
        m_globalsView->selectRow(row);
    });
    connect(m_removeGlobal, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_globalsView->currentIndex();
        if (current.isValid())
            m_globalsModel->removeGlobal(current.row());
        fitHeight(m_globalsView, 1, 6);
        updateGlobalInitEditor();
    });
    connect(m_globalsModel, &GlobalsModel::globalsEdited, this, [this] {
        edited();
        updateGlobalInitEditor();
    });
    connect(m_globalsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &LaunchPanel::updateGlobalInitEditor);
    connect(m_globalInitWidget, &BufferInitWidget::initEdited, this,
            [this](const BufferInit &init) {
                m_globalsModel->setInit(m_globalsView->currentIndex().row(), init);
            });
    connect(m_argumentsModel, &ArgumentsModel::argumentsEdited, this, [this] {
        edited();
        updateInitEditor();
    });
    connect(m_argumentsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &LaunchPanel::updateInitEditor);
    connect(m_initWidget, &BufferInitWidget::initEdited, this, [this](const BufferInit &init) {
        m_argumentsModel->setInit(m_argumentsView->currentIndex().row(), init);
    });
    for (ExpressionField *field :
         {m_block[0], m_block[1], m_block[2], m_grid[0], m_grid[1], m_grid[2], m_shared})
        connect(field, &ExpressionField::expressionEdited, this, &LaunchPanel::edited);
    connect(m_deadline, &QDoubleSpinBox::valueChanged, this, &LaunchPanel::edited);
    connect(m_verificationWidget, &VerificationWidget::specEdited, this,
            [this](const VerificationSpec &spec) {
                if (m_updating)
                    return;
                m_verification = spec;
                revalidate();
                Q_EMIT launchEdited();
            });
    connect(m_runAction, &QAction::triggered, this, [this] {
        if (canRun())
            Q_EMIT runRequested();
    });
    connect(m_measureAction, &QAction::triggered, this, [this] {
        if (canRun())
            Q_EMIT measureRequested();
    });
    connect(m_measureOptionsButton, &QToolButton::clicked, this, &LaunchPanel::editMeasureOptions);
    connect(m_cancelMeasurementAction, &QAction::triggered, this, [this] {
        if (m_cancelMeasurementAction->isEnabled())
            Q_EMIT cancelMeasurementRequested();
    });

    clearKernels(tr("Compile a source with a __global__ function to set up a launch."));
}

LaunchPanel::~LaunchPanel() = default;

QString LaunchPanel::formatSignature(const KernelSignature &signature, const QString &name)
{
    QStringList parameters;
    for (const KernelParameter &parameter : signature.parameters) {
        QString text = toQString(parameter.typeText);
        if (!text.endsWith(QLatin1Char('*')) && !text.endsWith(QLatin1Char('&')))
            text += QLatin1Char(' ');
        parameters << text + toQString(parameter.name);
    }
    return QStringLiteral("%1(%2)").arg(name, parameters.join(QStringLiteral(", ")));
}

void LaunchPanel::setCompileResult(const CompileResult &result, const QString &source,
                                   const QString &fileName)
{
    if (!result.success) {
        m_compiled = false;
        revalidate();
        return;
    }
    m_compiled = true;
    m_source = toStdString(source);
    m_fileName = toStdString(fileName);
    m_ptx = result.ptx;
    m_options = result.options;
    // The worker compiles for its own device; include folders of the document still apply.
    const QString previous = currentKernel();
    m_kernels = result.kernels;

    // The project names its kernel as written in the source; the lookup finds it in this
    // compiled variant, whatever its lowered name is now.
    const std::string wanted = m_pendingSpec ? m_pendingSpec->kernel : toStdString(previous);
    int index = kernelIndex(wanted);
    if (index < 0 && !m_kernels.empty())
        index = 0;

    {
        const QSignalBlocker blocker(m_kernelCombo);
        m_kernelCombo->clear();
        for (const KernelInfo &kernel : m_kernels) {
            const QString readable = toQString(kernel.readableName);
            m_kernelCombo->addItem(readable.isEmpty() ? toQString(kernel.loweredName)
                                                      : readable.section(QLatin1Char('('), 0, 0),
                                   toQString(kernel.loweredName));
        }
        m_kernelCombo->setCurrentIndex(index);
        m_kernelCombo->setEnabled(m_kernels.size() > 1);
    }
    m_kernelIndex = index;
    if (m_kernels.empty()) {
        clearKernels(tr("The source has no __global__ function to launch."));
        return;
    }
    adoptSignature();
    if (toQString(m_kernels[std::size_t(index)].loweredName) != previous)
        Q_EMIT kernelChanged(currentKernel());
}

void LaunchPanel::clearKernels(const QString &reason)
{
    m_kernels.clear();
    m_kernelIndex = -1;
    m_compiled = false;
    m_signature = KernelSignature{};
    {
        const QSignalBlocker blocker(m_kernelCombo);
        m_kernelCombo->clear();
        m_kernelCombo->setEnabled(false);
    }
    m_updating = true;
    m_argumentsModel->setArguments({}, {});
    m_updating = false;
    m_signatureLabel->setText(reason);
    fitHeight(m_argumentsView, 1, 1);
    fitHeight(m_variablesView, 1, 6);
    updateInitEditor();
    revalidate();
}

bool LaunchPanel::selectKernel(const QString &loweredName)
{
    const int index = m_kernelCombo->findData(loweredName);
    if (index < 0)
        return false;
    m_kernelCombo->setCurrentIndex(index);
    return true;
}

int LaunchPanel::kernelIndex(const std::string &name) const
{
    const KernelLookup lookup = findKernel(m_kernels, name);
    return lookup.found() ? int(lookup.kernel - m_kernels.data()) : -1;
}

QString LaunchPanel::currentKernel() const
{
    if (m_kernelIndex < 0 || std::size_t(m_kernelIndex) >= m_kernels.size())
        return {};
    return toQString(m_kernels[std::size_t(m_kernelIndex)].loweredName);
}

void LaunchPanel::onKernelChosen(int index)
{
    if (index == m_kernelIndex)
        return;
    syncFromWidgets();
    m_kernelIndex = index;
    adoptSignature();
    Q_EMIT kernelChanged(currentKernel());
}

void LaunchPanel::setLaunch(const LaunchSpec &spec, const VerificationSpec &verification)
{
    m_verification = verification;
    m_specsByKernel.clear();
    m_pendingSpec = spec;
    const QString kernel = toQString(spec.kernel);
    if (!m_kernels.empty() && (kernel.isEmpty() || kernelIndex(spec.kernel) >= 0)) {
        if (kernel.isEmpty())
            m_pendingSpec->kernel =
                preferredName(m_kernels, m_kernels[std::size_t(std::max(0, m_kernelIndex))]);
        const int index = kernelIndex(m_pendingSpec->kernel);
        {
            const QSignalBlocker blocker(m_kernelCombo);
            m_kernelCombo->setCurrentIndex(index);
        }
        m_kernelIndex = index;
        adoptSignature();
    } else {
        m_updating = true;
        m_verificationWidget->setSpec(m_verification);
        m_updating = false;
    }
}

void LaunchPanel::adoptSignature()
{
    if (m_kernelIndex < 0 || std::size_t(m_kernelIndex) >= m_kernels.size()) {
        revalidate();
        return;
    }
    const KernelInfo &kernel = m_kernels[std::size_t(m_kernelIndex)];
    KernelSignature signature;
    try {
        signature = parseKernelSignature(m_source, m_ptx, kernel);
    } catch (const std::exception &error) {
        signature.kernelName = kernel.loweredName;
        signature.error = error.what();
    }
    if (signature.kernelName.empty())
        signature.kernelName = kernel.loweredName;

    std::optional<LaunchSpec> base;
    const auto names = [&](const std::string &name) {
        return findKernel(m_kernels, name).kernel == &kernel;
    };
    if (m_pendingSpec && names(m_pendingSpec->kernel)) {
        base = *m_pendingSpec;
        m_pendingSpec.reset();
    } else if (const auto found = m_specsByKernel.find(kernel.loweredName);
               found != m_specsByKernel.end()) {
        base = found->second;
    } else if (!m_spec.kernel.empty() && names(m_spec.kernel)) {
        base = m_spec;
    }
    LaunchSpec spec;
    try {
        spec = base ? mergeLaunch(*base, signature) : defaultLaunchSpec(signature);
    } catch (const std::exception &) {
        spec = base.value_or(LaunchSpec{});
    }
    // Keep the user's spelling when it names this kernel; else the shortest name that does,
    // which survives a define that changes the kernel's parameter types.
    spec.kernel = base && names(base->kernel) ? base->kernel : preferredName(m_kernels, kernel);

    const bool unchanged = signature.parameters == m_signature.parameters &&
                           signature.error == m_signature.error && spec == m_spec;
    m_signature = signature;
    m_spec = spec;
    m_specsByKernel[kernel.loweredName] = spec;
    if (!unchanged)
        showSpec();
    revalidate();
}

void LaunchPanel::showSpec()
{
    m_updating = true;
    const QString name = m_kernelCombo->currentText();
    if (!m_signature.error.empty())
        m_signatureLabel->setText(tr("%1: %2").arg(name, toQString(m_signature.error)));
    else
        m_signatureLabel->setText(formatSignature(m_signature, name));

    m_variablesModel->setDefinitions(m_spec.variables);
    m_definesModel->setDefinitions(m_spec.defines);
    m_tunerDefines->setChecked(m_spec.tunerDefines);
    m_globalsModel->setGlobals(m_spec.globals);
    m_argumentsModel->setArguments(m_signature.parameters, m_spec.arguments);
    m_argumentsModel->setVariables(m_variablesModel->values());
    for (int axis = 0; axis < 3; ++axis) {
        m_block[std::size_t(axis)]->setExpression(toQString(m_spec.block[std::size_t(axis)]));
        m_grid[std::size_t(axis)]->setExpression(toQString(m_spec.grid[std::size_t(axis)]));
    }
    m_shared->setExpression(toQString(m_spec.dynamicSharedBytes));
    m_deadline->setValue(m_spec.deadlineSeconds);

    QStringList buffers;
    QString firstOutput;
    for (const ArgumentSpec &argument : m_spec.arguments) {
        if (!argument.isBuffer)
            continue;
        buffers << toQString(argument.parameter);
        if (firstOutput.isEmpty() && argument.role != BufferRole::In)
            firstOutput = toQString(argument.parameter);
    }
    QStringList otherKernels;
    for (const KernelInfo &kernel : m_kernels) {
        if (&kernel != &m_kernels[std::size_t(m_kernelIndex)])
            otherKernels << toQString(preferredName(m_kernels, kernel));
    }
    if (m_verification.kind != ReferenceKind::None && m_verification.output.empty() &&
        !firstOutput.isEmpty())
        m_verification.output = toStdString(firstOutput);
    m_verificationWidget->setChoices(buffers, otherKernels);
    m_verificationWidget->setSpec(m_verification);

    m_argumentsView->resizeColumnsToContents();
    fitHeight(m_argumentsView, 1, 8);
    m_variablesView->resizeColumnsToContents();
    fitHeight(m_variablesView, 1, 6);
    m_definesView->resizeColumnsToContents();
    fitHeight(m_definesView, 1, 6);
    m_globalsView->resizeColumnsToContents();
    fitHeight(m_globalsView, 1, 6);
    m_updating = false;
    updateGlobalInitEditor();
    updateInitEditor();
}

void LaunchPanel::syncFromWidgets()
{
    if (m_spec.kernel.empty())
        return;
    m_spec.variables = m_variablesModel->definitions();
    m_spec.defines = m_definesModel->definitions();
    m_spec.globals = m_globalsModel->globals();
    m_spec.tunerDefines = m_tunerDefines->isChecked();
    if (!m_argumentsModel->arguments().empty() || m_signature.parameters.empty())
        m_spec.arguments = m_argumentsModel->arguments();
    for (int axis = 0; axis < 3; ++axis) {
        m_spec.block[std::size_t(axis)] =
            toStdString(m_block[std::size_t(axis)]->expression().trimmed());
        m_spec.grid[std::size_t(axis)] =
            toStdString(m_grid[std::size_t(axis)]->expression().trimmed());
    }
    m_spec.dynamicSharedBytes = toStdString(m_shared->expression().trimmed());
    m_spec.deadlineSeconds = m_deadline->value();
    if (m_kernelIndex >= 0 && std::size_t(m_kernelIndex) < m_kernels.size())
        m_specsByKernel[m_kernels[std::size_t(m_kernelIndex)].loweredName] = m_spec;
}

void LaunchPanel::edited()
{
    if (m_updating)
        return;
    syncFromWidgets();
    revalidate();
    Q_EMIT launchEdited();
}

void LaunchPanel::setDevice(const std::optional<DeviceInfo> &device,
                            std::optional<std::uint64_t> freeMemoryBytes)
{
    m_device = device;
    m_freeMemory = freeMemoryBytes;
    revalidate();
}

void LaunchPanel::setRunAvailability(bool available, const QString &reason)
{
    m_available = available;
    m_unavailableReason = reason;
    updateRunState();
}

void LaunchPanel::setRunning(bool running)
{
    m_running = running;
    updateRunState();
}

LaunchSpec LaunchPanel::launchForCompile() const
{
    return m_pendingSpec ? *m_pendingSpec : m_spec;
}

void LaunchPanel::revalidate()
{
    const bool haveKernel = m_kernelIndex >= 0 && std::size_t(m_kernelIndex) < m_kernels.size();
    // Each field shows its own value or error; the launch's defines and the tuner defines are
    // names the fields may use (launch/launchenvironment.h).
    const LaunchEnvironment environment = evaluateLaunchEnvironment(m_spec, m_options.defines);
    m_variablesModel->setContext(environment.values);
    m_definesModel->setContext(environment.values);
    m_globalsModel->setModule(haveKernel ? std::optional(moduleVariables(m_ptx, m_source))
                                         : std::nullopt,
                              environment.values);
    Variables variables = m_variablesModel->values();
    for (const auto &[name, value] : environment.values) {
        if (name.find('.') == std::string::npos)
            variables.emplace(name, value);
    }
    m_argumentsModel->setVariables(variables);
    Variables withBlock = variables;
    for (int axis = 0; axis < 3; ++axis) {
        ExpressionField *field = m_block[std::size_t(axis)];
        if (!haveKernel) {
            field->showNothing();
            continue;
        }
        const ExpressionValue value =
            evaluateExpression(toStdString(field->expression()), variables);
        if (value.ok()) {
            field->showValue(value.value);
            withBlock[std::string("block.") + Axes[axis]] = value.value;
        } else {
            field->showError(*value.error);
        }
    }
    for (int axis = 0; axis < 3; ++axis) {
        ExpressionField *field = m_grid[std::size_t(axis)];
        if (!haveKernel) {
            field->showNothing();
            continue;
        }
        const ExpressionValue value =
            evaluateExpression(toStdString(field->expression()), withBlock);
        if (value.ok())
            field->showValue(value.value);
        else
            field->showError(*value.error);
    }
    if (haveKernel) {
        const ExpressionValue shared =
            evaluateExpression(toStdString(m_shared->expression()), withBlock);
        if (shared.ok())
            m_shared->showValue(shared.value, tr("B"));
        else
            m_shared->showError(*shared.error);
    } else {
        m_shared->showNothing();
    }

    // The whole launch against the limits.
    m_issues.clear();
    ValidationContext context;
    if (m_device) {
        context.limits = m_device->limits();
        context.limitsName = m_device->name;
        context.freeMemoryBytes = m_freeMemory;
    } else if (const auto limits = archLimits(m_options.arch)) {
        context.limits = *limits;
        context.limitsName = m_options.arch;
    } else {
        context.limitsName = m_options.arch;
    }
    m_limitsLabel->setText(
        tr("Checked against the limits of %1%2")
            .arg(toQString(context.limitsName),
                 m_device ? QString() : tr(" (no GPU: the target architecture)")));
    if (haveKernel) {
        try {
            const ResolvedLaunch resolved = resolveLaunch(m_spec, m_signature, m_options.defines);
            m_issues =
                validateLaunch(resolved, m_kernels[std::size_t(m_kernelIndex)].resources, context);
        } catch (const std::exception &error) {
            m_issues.push_back({"launch", error.what(), -1});
        }
        for (int row = 0; row < m_globalsModel->rowCount(); ++row) {
            const QString problem =
                m_globalsModel->index(row, 0).data(GlobalsModel::ErrorRole).toString();
            if (!problem.isEmpty())
                m_issues.push_back(
                    {toStdString(
                         tr("global %1").arg(m_globalsModel->index(row, 0).data().toString())),
                     toStdString(problem), -1});
        }
        const VerificationSpec &verification = m_verification;
        if (verification.kind != ReferenceKind::None) {
            const bool outputKnown = std::any_of(
                m_spec.arguments.begin(), m_spec.arguments.end(),
                [&](const ArgumentSpec &argument) {
                    return argument.isBuffer && argument.parameter == verification.output;
                });
            if (!outputKnown)
                m_issues.push_back({toStdString(tr("verification")),
                                    toStdString(tr("choose the output buffer to check")), -1});
            if (verification.kind == ReferenceKind::Expression && verification.expression.empty())
                m_issues.push_back({toStdString(tr("verification")),
                                    toStdString(tr("enter the expected value of element i")), -1});
            if (verification.kind == ReferenceKind::Kernel && verification.referenceKernel.empty())
                m_issues.push_back({toStdString(tr("verification")),
                                    toStdString(tr("choose the reference kernel")), -1});
            if (verification.kind == ReferenceKind::File && verification.file.empty())
                m_issues.push_back({toStdString(tr("verification")),
                                    toStdString(tr("choose the reference file")), -1});
            if (verification.kind == ReferenceKind::Aggregate && verification.of.empty() &&
                verification.expected.empty())
                m_issues.push_back({toStdString(tr("verification")),
                                    toStdString(tr("give the expected value, or an input to "
                                                   "compare with")),
                                    -1});
        }
    }

    m_issuesList->clear();
    for (const LaunchIssue &issue : m_issues) {
        auto *item = new QListWidgetItem(
            style()->standardIcon(QStyle::SP_MessageBoxWarning),
            tr("%1: %2").arg(toQString(issue.field), toQString(issue.message)), m_issuesList);
        if (issue.position >= 0)
            item->setToolTip(tr("at character %1").arg(issue.position));
    }
    if (m_issues.empty() && haveKernel) {
        new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton),
                            tr("The launch fits the limits."), m_issuesList);
    }
    updateRunState();
}

void LaunchPanel::updateGlobalInitEditor()
{
    const int row = m_globalsView->currentIndex().row();
    m_globalInitWidget->setVisible(m_globalsModel->rowCount() > 0);
    if (row < 0 || row >= m_globalsModel->rowCount()) {
        m_globalInitWidget->showHint(tr("Select a global to edit its initial contents."));
        return;
    }
    const GlobalSpec &global = m_globalsModel->globals()[std::size_t(row)];
    m_globalInitWidget->setInit(toQString(global.name), global.init, {});
}

void LaunchPanel::updateInitEditor()
{
    const int row = m_argumentsView->currentIndex().row();
    const auto &arguments = m_argumentsModel->arguments();
    if (row < 0 || std::size_t(row) >= arguments.size()) {
        m_initWidget->showHint(tr("Select a buffer to edit its initial contents."));
        return;
    }
    const ArgumentSpec &argument = arguments[std::size_t(row)];
    const QString name = toQString(argument.parameter);
    if (!m_argumentsModel->parameters()[std::size_t(row)].supported) {
        m_initWidget->showHint(
            toQString(m_argumentsModel->parameters()[std::size_t(row)].unsupportedReason));
    } else if (!argument.isBuffer) {
        m_initWidget->showHint(
            tr("%1 is a scalar: its value is the expression in the table.").arg(name));
    } else if (argument.role == BufferRole::Out) {
        m_initWidget->showHint(tr("%1 is an output: it starts filled with a poison value (NaN or "
                                  "0xFF bytes) so that elements never written are found.")
                                   .arg(name));
    } else {
        m_initWidget->setInit(name, argument.init, m_argumentsModel->otherBuffers(row));
    }
}

bool LaunchPanel::canRun() const
{
    return m_blockedReason.isEmpty();
}

void LaunchPanel::updateRunState()
{
    QString reason;
    const bool haveKernel = m_kernelIndex >= 0 && std::size_t(m_kernelIndex) < m_kernels.size();
    if (!m_available)
        reason = m_unavailableReason.isEmpty() ? tr("Run needs a CUDA GPU") : m_unavailableReason;
    else if (!haveKernel)
        reason = tr("There is no kernel to run");
    else if (!m_compiled)
        reason = tr("The source does not compile");
    else if (!m_signature.error.empty())
        reason =
            tr("The kernel's parameters could not be read: %1").arg(toQString(m_signature.error));
    else if (!m_signature.drivable())
        reason = tr("A parameter of this kernel cannot be driven from the launch panel");
    else if (!m_issues.empty())
        reason = tr("Fix the launch first: %1: %2")
                     .arg(toQString(m_issues.front().field), toQString(m_issues.front().message));
    else if (m_running)
        reason = tr("A run is in progress");
    m_blockedReason = reason;
    m_runAction->setEnabled(reason.isEmpty());
    m_runAction->setToolTip(reason.isEmpty() ? tr("Run %1 on the GPU (Ctrl+R)").arg(currentKernel())
                                             : reason);
    m_runReason->setText(reason);
    m_runReason->setToolTip(reason);
    m_measureAction->setEnabled(reason.isEmpty());
    m_measureAction->setToolTip(
        reason.isEmpty()
            ? tr("Measure %1: time it over many launches (Ctrl+Shift+R)").arg(currentKernel())
            : reason);
}

void LaunchPanel::setMeasurementCancellable(bool cancellable)
{
    m_cancelMeasurementAction->setEnabled(cancellable);
    m_cancelMeasurementButton->setVisible(cancellable);
}

QString LaunchPanel::metricsArchitecture() const
{
    if (m_device)
        return toQString(m_device->arch());
    // "sm_90a" profiles as "sm_90"; the limits table knows the base name.
    if (const auto limits = archLimits(m_options.arch))
        return toQString(limits->name());
    return toQString(m_options.arch);
}

void LaunchPanel::editMeasureOptions()
{
    MeasureOptionsDialog dialog(this);
    dialog.setSettings(MeasureOptionsDialog::load());
    dialog.setMetricsChoice(MeasureOptionsDialog::loadMetricsChoice());
    dialog.setArchitecture(metricsArchitecture());
    if (dialog.exec() == QDialog::Accepted) {
        MeasureOptionsDialog::store(dialog.settings());
        MeasureOptionsDialog::storeMetricsChoice(dialog.metricsChoice());
    }
}

RunRequest LaunchPanel::runRequest() const
{
    RunRequest request;
    request.source = m_source;
    request.fileName = m_fileName.empty() ? std::string("kernel.cu") : m_fileName;
    request.options = m_options;
    request.launch = m_spec;
    request.verification = m_verification;
    return request;
}

QHash<QString, QString> LaunchPanel::bufferTypeNames() const
{
    QHash<QString, QString> names;
    for (const ArgumentSpec &argument : m_spec.arguments) {
        if (argument.isBuffer)
            names.insert(toQString(argument.parameter), toQString(argument.elementType.name()));
    }
    return names;
}

QString LaunchPanel::signatureText() const
{
    return m_signatureLabel->text();
}

} // namespace cuwb
