// SequenceWidget: the kernels the launch runs after its own, in order (a kernel and its
// finishing pass, or a multi-kernel algorithm): the list of the sequence (the launch's kernel
// first, fixed), a kernel of the module to add, remove, move up and down, and for the chosen
// further kernel its arguments (each pointer bound to a buffer of the sequence by name, or a
// new buffer; each scalar a value), block, grid and dynamic shared memory. Every kernel comes
// from the project's one module. Edits LaunchSpec::then; the panel asks the session for a new
// step's defaults (LaunchSession::newStep).
#pragma once

#include "kernel/kernelsignature.h"
#include "launch/launchspec.h"

#include <QGroupBox>
#include <QStringList>

#include <array>
#include <vector>

class QComboBox;
class QListWidget;
class QTableView;
class QToolButton;

namespace cuwb {

class ExpressionField;
class StepArgumentsModel;

class SequenceWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit SequenceWidget(QWidget *parent = nullptr);

    // The module's kernels that can be added (their preferred names).
    void setKernels(const QStringList &kernels);
    // The sequence: the launch's own kernel and its buffers, then the further kernels with
    // their signatures (one per step; an error where the module lacks the kernel).
    void setSequence(const QString &firstKernel, const QStringList &firstBuffers,
                     const std::vector<KernelStep> &steps,
                     const std::vector<KernelSignature> &signatures);
    [[nodiscard]] const std::vector<KernelStep> &steps() const { return m_steps; }
    // The launch's names, for the values shown beside the expressions.
    void setVariables(const Variables &variables);

    // The further kernel being edited (0 is the first of `then`); -1 when none.
    [[nodiscard]] int currentStep() const { return m_current; }
    void chooseStep(int step);
    void removeStep();
    void moveStep(int by); // -1 up, +1 down

    [[nodiscard]] QListWidget *list() const { return m_list; }
    [[nodiscard]] QComboBox *kernelChoice() const { return m_kernelChoice; }
    [[nodiscard]] QToolButton *addButton() const { return m_add; }
    [[nodiscard]] StepArgumentsModel *argumentsModel() const { return m_arguments; }
    [[nodiscard]] ExpressionField *blockField(int axis) const { return m_block[std::size_t(axis)]; }
    [[nodiscard]] ExpressionField *gridField(int axis) const { return m_grid[std::size_t(axis)]; }
    [[nodiscard]] ExpressionField *sharedField() const { return m_shared; }
    // The names of the sequence's buffers a step may bind: the first kernel's and those the
    // steps before `step` declare.
    [[nodiscard]] QStringList buffersBefore(int step) const;

Q_SIGNALS:
    // Add kernels()[index] at the end of the sequence.
    void addRequested(int index);
    void stepsEdited();

private:
    void showList();
    void showStep();
    void showValues();
    void stepEdited();

    QListWidget *m_list = nullptr;
    QComboBox *m_kernelChoice = nullptr;
    QToolButton *m_add = nullptr;
    QToolButton *m_remove = nullptr;
    QToolButton *m_up = nullptr;
    QToolButton *m_down = nullptr;
    QWidget *m_editor = nullptr;
    StepArgumentsModel *m_arguments = nullptr;
    QTableView *m_argumentsView = nullptr;
    std::array<ExpressionField *, 3> m_block{};
    std::array<ExpressionField *, 3> m_grid{};
    ExpressionField *m_shared = nullptr;

    QString m_firstKernel;
    QStringList m_firstBuffers;
    std::vector<KernelStep> m_steps;
    std::vector<KernelSignature> m_signatures;
    Variables m_variables;
    int m_current = -1;
    bool m_updating = false;
};

} // namespace cuwb
