#include "gui/launch/sequencewidget.h"

#include "gui/common/choicedelegate.h"
#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"
#include "gui/launch/stepargumentsmodel.h"

#include "project/project.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace cuwb {

namespace {

const char *const kAxes[] = {"x", "y", "z"};

QToolButton *button(const QString &text, const QString &tip, QWidget *parent)
{
    auto *made = new QToolButton(parent);
    made->setText(text);
    made->setToolTip(tip);
    return made;
}

} // namespace

SequenceWidget::SequenceWidget(QWidget *parent)
    : QGroupBox(tr("Sequence"), parent)
    , m_list(new QListWidget(this))
    , m_kernelChoice(new QComboBox(this))
    , m_add(button(tr("Add"), tr("Launch this kernel after the others, on the same buffers"), this))
    , m_remove(button(QStringLiteral("\u2212"), tr("Remove the chosen kernel"), this))
    , m_up(button(QStringLiteral("\u2191"), tr("Launch the chosen kernel earlier"), this))
    , m_down(button(QStringLiteral("\u2193"), tr("Launch the chosen kernel later"), this))
    , m_editor(new QWidget(this))
    , m_arguments(new StepArgumentsModel(this))
    , m_argumentsView(new QTableView(m_editor))
    , m_shared(new ExpressionField(m_editor))
{
    setToolTip(tr("Kernels launched after the launch's own, in order, on its buffers: timed as "
                  "a whole and each, verified after the last"));
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 5 + 8);
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_kernelChoice, 1);
    addRow->addWidget(m_add);
    addRow->addWidget(m_remove);
    addRow->addWidget(m_up);
    addRow->addWidget(m_down);

    m_argumentsView->setModel(m_arguments);
    m_argumentsView->setItemDelegate(
        new ChoiceDelegate(StepArgumentsModel::ChoicesRole, StepArgumentsModel::ChoiceRole, this));
    m_argumentsView->verticalHeader()->hide();
    m_argumentsView->horizontalHeader()->setStretchLastSection(true);
    m_argumentsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_argumentsView->setMaximumHeight(m_argumentsView->fontMetrics().height() * 9);
    auto *dimensions = new QGridLayout;
    dimensions->addWidget(new QLabel(tr("Block"), m_editor), 0, 1);
    dimensions->addWidget(new QLabel(tr("Grid"), m_editor), 0, 2);
    for (int axis = 0; axis < 3; ++axis) {
        dimensions->addWidget(new QLabel(QString::fromLatin1(kAxes[axis]), m_editor), axis + 1, 0);
        m_block[std::size_t(axis)] = new ExpressionField(m_editor);
        m_grid[std::size_t(axis)] = new ExpressionField(m_editor);
        dimensions->addWidget(m_block[std::size_t(axis)], axis + 1, 1);
        dimensions->addWidget(m_grid[std::size_t(axis)], axis + 1, 2);
    }
    dimensions->setColumnStretch(1, 1);
    dimensions->setColumnStretch(2, 1);
    m_block[0]->lineEdit()->setToolTip(
        tr("The block of this kernel; block.x here is the first kernel's"));
    m_grid[0]->lineEdit()->setToolTip(tr("The grid of this kernel; block.x here is its own"));
    auto *shared = new QFormLayout;
    shared->addRow(tr("Dynamic shared (bytes)"), m_shared);
    auto *editorLayout = new QVBoxLayout(m_editor);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(m_argumentsView);
    editorLayout->addLayout(dimensions);
    editorLayout->addLayout(shared);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addLayout(addRow);
    layout->addWidget(m_editor);

    connect(m_add, &QToolButton::clicked, this, [this] {
        if (m_kernelChoice->currentIndex() >= 0 && m_steps.size() < kMaxSequenceKernels)
            Q_EMIT addRequested(m_kernelChoice->currentIndex());
    });
    connect(m_remove, &QToolButton::clicked, this, &SequenceWidget::removeStep);
    connect(m_up, &QToolButton::clicked, this, [this] { moveStep(-1); });
    connect(m_down, &QToolButton::clicked, this, [this] { moveStep(1); });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_updating)
            chooseStep(row - 1); // row 0 is the launch's own kernel
    });
    connect(m_arguments, &StepArgumentsModel::argumentsEdited, this, &SequenceWidget::stepEdited);
    for (ExpressionField *field :
         {m_block[0], m_block[1], m_block[2], m_grid[0], m_grid[1], m_grid[2], m_shared})
        connect(field, &ExpressionField::expressionEdited, this, &SequenceWidget::stepEdited);
    showList();
    showStep();
}

void SequenceWidget::setKernels(const QStringList &kernels)
{
    const QString current = m_kernelChoice->currentText();
    m_kernelChoice->clear();
    m_kernelChoice->addItems(kernels);
    m_kernelChoice->setCurrentIndex(std::max<int>(0, int(kernels.indexOf(current))));
    m_add->setEnabled(!kernels.isEmpty());
}

void SequenceWidget::setSequence(const QString &firstKernel, const QStringList &firstBuffers,
                                 const std::vector<KernelStep> &steps,
                                 const std::vector<KernelSignature> &signatures)
{
    m_firstKernel = firstKernel;
    m_firstBuffers = firstBuffers;
    m_steps = steps;
    m_signatures = signatures;
    m_signatures.resize(m_steps.size());
    m_current = std::min(m_current, int(m_steps.size()) - 1);
    if (m_current < 0 && !m_steps.empty())
        m_current = 0;
    showList();
    showStep();
}

void SequenceWidget::setVariables(const Variables &variables)
{
    m_variables = variables;
    showValues();
}

QStringList SequenceWidget::buffersBefore(int step) const
{
    QStringList names = m_firstBuffers;
    for (int k = 0; k < step && k < int(m_steps.size()); ++k) {
        for (const ArgumentSpec &argument : m_steps[std::size_t(k)].arguments) {
            if (argument.isBuffer && argument.buffer.empty())
                names << toQString(argument.parameter);
        }
    }
    return names;
}

void SequenceWidget::chooseStep(int step)
{
    if (step < 0 || step >= int(m_steps.size()) || step == m_current) {
        showList();
        return;
    }
    m_current = step;
    showList();
    showStep();
}

void SequenceWidget::removeStep()
{
    if (m_current < 0 || m_current >= int(m_steps.size()))
        return;
    m_steps.erase(m_steps.begin() + m_current);
    m_signatures.erase(m_signatures.begin() + m_current);
    m_current = std::min(m_current, int(m_steps.size()) - 1);
    showList();
    showStep();
    Q_EMIT stepsEdited();
}

void SequenceWidget::moveStep(int by)
{
    const int to = m_current + by;
    if (m_current < 0 || to < 0 || to >= int(m_steps.size()))
        return;
    std::swap(m_steps[std::size_t(m_current)], m_steps[std::size_t(to)]);
    std::swap(m_signatures[std::size_t(m_current)], m_signatures[std::size_t(to)]);
    m_current = to;
    showList();
    showStep();
    Q_EMIT stepsEdited();
}

void SequenceWidget::showList()
{
    m_updating = true;
    m_list->clear();
    m_list->addItem(tr("1. %1 (the launch's kernel)").arg(m_firstKernel));
    for (std::size_t k = 0; k < m_steps.size(); ++k) {
        auto *item =
            new QListWidgetItem(tr("%1. %2").arg(k + 2).arg(toQString(m_steps[k].kernel)), m_list);
        if (k < m_signatures.size() && !m_signatures[k].error.empty())
            item->setToolTip(toQString(m_signatures[k].error));
    }
    if (QListWidgetItem *first = m_list->item(0))
        first->setFlags(first->flags() & ~Qt::ItemIsSelectable);
    m_list->setCurrentRow(m_current + 1);
    m_remove->setEnabled(m_current >= 0);
    m_up->setEnabled(m_current > 0);
    m_down->setEnabled(m_current >= 0 && m_current + 1 < int(m_steps.size()));
    m_add->setEnabled(m_kernelChoice->count() > 0 && m_steps.size() < kMaxSequenceKernels);
    m_updating = false;
}

void SequenceWidget::showStep()
{
    m_updating = true;
    const bool any = m_current >= 0 && m_current < int(m_steps.size());
    m_editor->setVisible(any);
    if (any) {
        const KernelStep &step = m_steps[std::size_t(m_current)];
        m_arguments->setStep(m_signatures[std::size_t(m_current)].parameters, step.arguments,
                             buffersBefore(m_current));
        for (std::size_t axis = 0; axis < 3; ++axis) {
            m_block[axis]->setExpression(toQString(step.block[axis]));
            m_grid[axis]->setExpression(toQString(step.grid[axis]));
        }
        m_shared->setExpression(toQString(step.dynamicSharedBytes));
        m_argumentsView->resizeColumnsToContents();
    } else {
        m_arguments->setStep({}, {}, {});
    }
    m_updating = false;
    showValues();
}

// The step's fields with their values: its block from the launch's names, its grid and the
// rest with its own block (and grid), as the worker evaluates them.
void SequenceWidget::showValues()
{
    if (m_current < 0 || m_current >= int(m_steps.size()))
        return;
    Variables names = m_variables;
    for (const char *dimension : {"block", "grid"}) {
        auto &fields = dimension[0] == 'b' ? m_block : m_grid;
        std::array<double, 3> values{1, 1, 1};
        for (std::size_t axis = 0; axis < 3; ++axis) {
            const ExpressionValue value =
                evaluateExpression(toStdString(fields[axis]->expression()), names);
            if (value.ok()) {
                fields[axis]->showValue(value.value);
                values[axis] = value.value;
            } else {
                fields[axis]->showError(*value.error);
            }
        }
        for (std::size_t axis = 0; axis < 3; ++axis)
            names[std::string(dimension) + "." + kAxes[axis]] = values[axis];
    }
    const ExpressionValue shared = evaluateExpression(toStdString(m_shared->expression()), names);
    if (shared.ok())
        m_shared->showValue(shared.value, tr("B"));
    else
        m_shared->showError(*shared.error);
    m_arguments->setVariables(names);
}

void SequenceWidget::stepEdited()
{
    if (m_updating || m_current < 0 || m_current >= int(m_steps.size()))
        return;
    KernelStep &step = m_steps[std::size_t(m_current)];
    step.arguments = m_arguments->arguments();
    for (std::size_t axis = 0; axis < 3; ++axis) {
        step.block[axis] = toStdString(m_block[axis]->expression().trimmed());
        step.grid[axis] = toStdString(m_grid[axis]->expression().trimmed());
    }
    step.dynamicSharedBytes = toStdString(m_shared->expression().trimmed());
    showValues();
    Q_EMIT stepsEdited();
}

} // namespace cuwb
