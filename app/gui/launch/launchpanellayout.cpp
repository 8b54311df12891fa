// The Launch dock's widgets, their layout and their connections (behaviour: launchpanel.cpp).
#include "gui/launch/launchpanel.h"

#include "gui/common/choicedelegate.h"
#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"
#include "gui/launch/argumentsmodel.h"
#include "gui/launch/bufferinitwidget.h"
#include "gui/launch/globalsmodel.h"
#include "gui/launch/sequencewidget.h"
#include "gui/launch/variablesmodel.h"
#include "gui/launch/verificationwidget.h"
#include "gui/workspace/workspace.h"

#include "project/project.h"
#include "util/format.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
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
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

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

} // namespace

void LaunchPanel::fitRows(QTableView *view, int minRows, int maxRows)
{
    const int rows = std::clamp(view->model() ? view->model()->rowCount() : 0, minRows, maxRows);
    const int height = view->horizontalHeader()->sizeHint().height() +
                       rows * view->verticalHeader()->defaultSectionSize() +
                       view->horizontalScrollBar()->sizeHint().height() + 2 * view->frameWidth() +
                       2;
    view->setFixedHeight(height);
}

namespace {

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

// A table section's title row: its name, then `extra` (when given), then + and − buttons.
QHBoxLayout *tableTitle(const QString &text, QWidget *parent, QWidget *extra, QToolButton *&add,
                        const QString &addTip, QToolButton *&remove, const QString &removeTip)
{
    auto *row = new QHBoxLayout;
    row->addWidget(sectionTitle(text, parent));
    row->addStretch(1);
    if (extra)
        row->addWidget(extra);
    add = new QToolButton(parent);
    add->setText(QStringLiteral("+"));
    add->setToolTip(addTip);
    remove = new QToolButton(parent);
    remove->setText(QStringLiteral("\u2212"));
    remove->setToolTip(removeTip);
    row->addWidget(add);
    row->addWidget(remove);
    return row;
}

// A list's add button stops at the entries a project may hold (project/project.h): a project
// with one more would save, and then be refused when it is opened. Its tooltip then names the
// limit.
void limitAdding(QToolButton *add, QAbstractItemModel *model, const QString &entries)
{
    const QString tip = add->toolTip();
    const auto update = [add, model, tip, entries] {
        const bool full = std::size_t(model->rowCount()) >= kMaxProjectListEntries;
        add->setEnabled(!full);
        add->setToolTip(full ? QCoreApplication::translate(
                                   "cuwb::LaunchPanel",
                                   "A project holds at most %1 %2; remove one to add another.")
                                   .arg(toQString(formatCount(kMaxProjectListEntries)), entries)
                             : tip);
    };
    QObject::connect(model, &QAbstractItemModel::rowsInserted, add, update);
    QObject::connect(model, &QAbstractItemModel::rowsRemoved, add, update);
    QObject::connect(model, &QAbstractItemModel::modelReset, add, update);
    update();
}

} // namespace

LaunchPanel::LaunchPanel(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
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
    , m_sequenceWidget(new SequenceWidget(this))
    , m_issuesList(new QListWidget(this))
    , m_limitsLabel(new QLabel(this))
    , m_deviceNamesLabel(new QLabel(this))
    , m_runAction(new QAction(tr("&Run"), this))
    , m_runButton(new QToolButton(this))
    , m_runReason(new QLabel(this))
    , m_measureAction(new QAction(tr("&Measure"), this))
    , m_measureButton(new QToolButton(this))
    , m_measureOptionsButton(new QToolButton(this))
    , m_inspectAction(new QAction(tr("&Inspect"), this))
    , m_cancelMeasurementAction(new QAction(tr("&Cancel Measurement"), this))
    , m_cancelMeasurementButton(new QToolButton(this))
{
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(createForm());
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    outer->addWidget(scroll, 1);
    outer->addLayout(createRunRow());

    connectTables();
    connectFields();
    connectActions();

    connect(m_workspace, &Workspace::launchChanged, this, &LaunchPanel::onLaunchChanged);
    onLaunchChanged({true, true, true});
}

QWidget *LaunchPanel::createForm()
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
    layout->addLayout(tableTitle(tr("Variables"), content, nullptr, m_addVariable,
                                 tr("Add a variable"), m_removeVariable,
                                 tr("Remove the selected variable")));
    m_addVariable->setObjectName(QStringLiteral("addVariableButton"));
    limitAdding(m_addVariable, m_variablesModel, tr("launch variables"));
    m_variablesView = makeTable(content);
    m_variablesView->setModel(m_variablesModel);
    layout->addWidget(m_variablesView);

    // Defines: passed to the compiler as -DNAME=value with the value of each launch; names
    // every expression may use, as an auto-tuner's tunable parameters are.
    m_tunerDefines = new QCheckBox(tr("Tuner defines"), content);
    m_tunerDefines->setToolTip(
        tr("Define block_size_x/y/z and grid_size_x/y/z from the launch, and kernel_tuner as 1, "
           "as Kernel Tuner does"));
    layout->addLayout(tableTitle(tr("Defines"), content, m_tunerDefines, m_addDefine,
                                 tr("Add a define whose value is an expression (TILE = block.x / "
                                    "8)"),
                                 m_removeDefine, tr("Remove the selected define")));
    m_addDefine->setObjectName(QStringLiteral("addDefineButton"));
    limitAdding(m_addDefine, m_definesModel, tr("launch defines"));
    m_definesView = makeTable(content);
    m_definesView->setModel(m_definesModel);
    layout->addWidget(m_definesView);

    // Globals: __constant__ and __device__ variables set before each launch.
    layout->addLayout(tableTitle(tr("Globals"), content, nullptr, m_addGlobal,
                                 tr("Set a __constant__ or __device__ variable before each "
                                    "launch"),
                                 m_removeGlobal, tr("Remove the selected global")));
    m_addGlobal->setObjectName(QStringLiteral("addGlobalButton"));
    limitAdding(m_addGlobal, m_globalsModel, tr("globals"));
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

    layout->addWidget(createLaunchBox(content));

    // The kernels launched after this one, on its buffers.
    m_sequenceWidget->setObjectName(QStringLiteral("sequenceWidget"));
    layout->addWidget(m_sequenceWidget);

    layout->addWidget(m_verificationWidget);

    // Checks.
    layout->addWidget(sectionTitle(tr("Checks"), content));
    m_limitsLabel->setEnabled(false);
    m_limitsLabel->setWordWrap(true);
    layout->addWidget(m_limitsLabel);
    m_deviceNamesLabel->setEnabled(false);
    m_deviceNamesLabel->setWordWrap(true);
    layout->addWidget(m_deviceNamesLabel);
    m_issuesList->setWordWrap(true);
    m_issuesList->setMaximumHeight(m_issuesList->fontMetrics().height() * 7);
    m_issuesList->setSelectionMode(QAbstractItemView::NoSelection);
    layout->addWidget(m_issuesList);
    layout->addStretch(1);
    return content;
}

QGroupBox *LaunchPanel::createLaunchBox(QWidget *content)
{
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
    return launchBox;
}

QHBoxLayout *LaunchPanel::createRunRow()
{
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
    m_inspectAction->setObjectName(QStringLiteral("inspectAction"));
    m_inspectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_inspectAction->setIcon(style()->standardIcon(QStyle::SP_FileDialogContentsView));
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
    return runRow;
}

void LaunchPanel::connectTables()
{
    connect(m_kernelCombo, &QComboBox::currentIndexChanged, this, &LaunchPanel::onKernelChosen);
    connect(m_addVariable, &QToolButton::clicked, this, [this] {
        const int row = m_variablesModel->addVariable();
        fitRows(m_variablesView, 1, 6);
        m_variablesView->edit(m_variablesModel->index(row, VariablesModel::NameColumn));
    });
    connect(m_removeVariable, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_variablesView->currentIndex();
        if (current.isValid())
            m_variablesModel->removeVariable(current.row());
        fitRows(m_variablesView, 1, 6);
    });
    connect(m_variablesModel, &VariablesModel::definitionsEdited, this, &LaunchPanel::edited);
    connect(m_addDefine, &QToolButton::clicked, this, [this] {
        const int row = m_definesModel->addVariable(QStringLiteral("TILE"));
        fitRows(m_definesView, 1, 6);
        m_definesView->edit(m_definesModel->index(row, VariablesModel::NameColumn));
    });
    connect(m_removeDefine, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_definesView->currentIndex();
        if (current.isValid())
            m_definesModel->removeVariable(current.row());
        fitRows(m_definesView, 1, 6);
    });
    connect(m_definesModel, &VariablesModel::definitionsEdited, this, &LaunchPanel::edited);
    connect(m_tunerDefines, &QCheckBox::toggled, this, &LaunchPanel::edited);
    connect(m_addGlobal, &QToolButton::clicked, this, [this] {
        const int row = m_globalsModel->addGlobal();
        fitRows(m_globalsView, 1, 6);
        m_globalsView->selectRow(row);
    });
    connect(m_removeGlobal, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_globalsView->currentIndex();
        if (current.isValid())
            m_globalsModel->removeGlobal(current.row());
        fitRows(m_globalsView, 1, 6);
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
}

void LaunchPanel::connectFields()
{
    for (ExpressionField *field :
         {m_block[0], m_block[1], m_block[2], m_grid[0], m_grid[1], m_grid[2], m_shared})
        connect(field, &ExpressionField::expressionEdited, this, &LaunchPanel::edited);
    connect(m_deadline, &QDoubleSpinBox::valueChanged, this, &LaunchPanel::edited);
    connect(m_verificationWidget, &VerificationWidget::verificationEdited, this,
            &LaunchPanel::verificationEdited);
    connect(m_sequenceWidget, &SequenceWidget::addRequested, this, &LaunchPanel::addStep);
    connect(m_sequenceWidget, &SequenceWidget::stepsEdited, this, [this] {
        if (m_updating)
            return;
        edited();
        // The further kernels' buffers are outputs a check may verify.
        m_updating = true;
        showVerificationChoices();
        m_updating = false;
    });
}

void LaunchPanel::connectActions()
{
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
}

} // namespace cuwb
