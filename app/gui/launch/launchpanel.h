// LaunchPanel: the Launch dock: how to run the selected kernel. Shows its signature, the
// variables, one argument per parameter (buffers: count, role, initial contents; scalars: a
// value), block, grid and dynamic shared memory, the deadline, the kernels a sequence runs
// after it, and the verification's checks. Every expression shows its value or its error, and
// the launch is validated as it is edited against the device's limits (or the target
// architecture's); the device.* names an expression may use come from the device, else the
// architecture's catalogue entry, and the panel says which. The state is the Workspace's
// LaunchSession (core/launch/launchsession.h): the panel shows it whenever the Workspace says
// it changed, and writes the user's edits to it; it holds none of its own. Run (Ctrl+R),
// Measure (Ctrl+Shift+R) and Inspect (Ctrl+Shift+I) are disabled while the launch is invalid
// or there is no GPU, with the reason in their tooltips; the button beside Measure edits the
// Workspace's measurement options. While a measurement samples, Cancel (Esc in the panel)
// stops it early; the samples taken are kept.
#pragma once

#include "launch/expression.h"
#include "launch/launchsession.h"

#include <QWidget>

#include <array>
#include <functional>
#include <map>
#include <optional>

class QAction;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QTableView;
class QCheckBox;
class QToolButton;

namespace cuwb {

class ArgumentsModel;
class BufferInitWidget;
class ExpressionField;
class GlobalsModel;
class SequenceWidget;
class VariablesModel;
class VerificationWidget;
class Workspace;

class LaunchPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LaunchPanel(Workspace *workspace, QWidget *parent = nullptr);
    ~LaunchPanel() override;

    // Selects a kernel by lowered name (from the Kernels panel); false when unknown.
    bool selectKernel(const QString &loweredName);
    [[nodiscard]] QString currentKernel() const;

    void setRunAvailability(bool available, const QString &reason);
    void setRunning(bool running);
    // A sweep measures on the GPU: Run and Measure wait, since two measurements at once on one
    // GPU would disturb each other.
    void setSweepRunning(bool running);

    [[nodiscard]] const std::vector<LaunchIssue> &issues() const { return m_issues; }
    [[nodiscard]] bool canRun() const;
    // Why Run is disabled; empty when it is enabled.
    [[nodiscard]] QString runBlockedReason() const { return m_blockedReason; }
    [[nodiscard]] QAction *runAction() const { return m_runAction; }
    [[nodiscard]] QAction *measureAction() const { return m_measureAction; }
    // Why the kernel is slow, line by line (docs/inspect.md): enabled when Run is. The Inspect
    // tool acts on it (gui/inspect/inspecttool.h); the Run menu and the Inspect dock show it; the
    // panel's row keeps to Run and Measure, so that its width leaves the editor its columns on a
    // small screen.
    [[nodiscard]] QAction *inspectAction() const { return m_inspectAction; }
    [[nodiscard]] QToolButton *measureOptionsButton() const { return m_measureOptionsButton; }
    [[nodiscard]] QAction *cancelMeasurementAction() const { return m_cancelMeasurementAction; }
    [[nodiscard]] QToolButton *cancelMeasurementButton() const { return m_cancelMeasurementButton; }
    // Shows and enables Cancel while a measurement can be cancelled.
    void setMeasurementCancellable(bool cancellable);
    // The architecture the metrics pass would profile: the device's, else the target's.
    [[nodiscard]] QString metricsArchitecture() const;
    [[nodiscard]] VariablesModel *variablesModel() const { return m_variablesModel; }
    [[nodiscard]] VariablesModel *definesModel() const { return m_definesModel; }
    [[nodiscard]] GlobalsModel *globalsModel() const { return m_globalsModel; }
    [[nodiscard]] ArgumentsModel *argumentsModel() const { return m_argumentsModel; }
    [[nodiscard]] QTableView *argumentsView() const { return m_argumentsView; }
    [[nodiscard]] ExpressionField *blockField(int axis) const { return m_block[std::size_t(axis)]; }
    [[nodiscard]] ExpressionField *gridField(int axis) const { return m_grid[std::size_t(axis)]; }
    [[nodiscard]] ExpressionField *sharedField() const { return m_shared; }
    [[nodiscard]] VerificationWidget *verificationWidget() const { return m_verificationWidget; }
    [[nodiscard]] SequenceWidget *sequenceWidget() const { return m_sequenceWidget; }
    // "device.* from NVIDIA H200 (catalogue entry for sm_90; no GPU)".
    [[nodiscard]] QLabel *deviceNamesLabel() const { return m_deviceNamesLabel; }
    [[nodiscard]] QListWidget *issuesList() const { return m_issuesList; }
    [[nodiscard]] QString signatureText() const;

    // "vector_add(const float *a, const float *b, float *c, int n)"
    static QString formatSignature(const KernelSignature &signature, const QString &name);

    // The source's __global__ templates are listed after its compiled kernels; choosing one
    // asks for its arguments ("scale<T>" -> "scale<float>") and launches that instantiation,
    // which the next compile adds. The question goes to a dialog unless a test sets this.
    using TemplateArgumentsPrompt =
        std::function<QString(const QString &placeholder, const QString &declaration)>;
    void setTemplateArgumentsPrompt(TemplateArgumentsPrompt prompt)
    {
        m_askTemplateArguments = std::move(prompt);
    }
    // Launches `expression` (a template kernel with its arguments) once it is compiled.
    void instantiateTemplate(const QString &expression);

Q_SIGNALS:
    void runRequested();
    void measureRequested();
    void cancelMeasurementRequested();
    // The launch was checked again (issues()): the window says so where the panel is covered.
    void issuesChanged();

private:
    // The constructor's parts: the scrolling form (kernel, tables, launch, sequence,
    // verification, checks), its Launch box, the row of Run and Measure below it, and the
    // connections of the tables, the launch's fields and the actions.
    QWidget *createForm();
    QGroupBox *createLaunchBox(QWidget *content);
    QHBoxLayout *createRunRow();
    void connectTables();
    void connectFields();
    void connectActions();
    [[nodiscard]] const LaunchSession &session() const;
    // The Workspace's launch changed (not by this panel's own edit): shows what changed.
    void onLaunchChanged(const LaunchSession::Change &change);
    void onKernelChosen(int index);
    void showKernels();
    void showNoKernels();
    void showSpec();
    void syncFromWidgets();
    void revalidate();
    // Each block, grid and shared-memory field shows its value or its error.
    void showFieldValues(bool haveKernel, const Variables &variables);
    void verificationEdited(const Verification &verification);
    // The sequence widget shows the session's further kernels (their signatures, the buffers).
    void showSequence();
    void showVerificationChoices();
    void addStep(int kernelIndex);
    // Fits a table's height to its rows (between min and max), so short lists take no room.
    static void fitRows(QTableView *view, int minRows, int maxRows);
    void updateInitEditor();
    void updateGlobalInitEditor();
    void updateRunState();
    void edited();
    void editMeasureOptions();

    Workspace *m_workspace = nullptr;
    bool m_editing = false; // the panel's own edit is being written to the Workspace
    TemplateArgumentsPrompt m_askTemplateArguments;
    std::vector<LaunchIssue> m_issues;
    bool m_available = true;
    QString m_unavailableReason;
    bool m_running = false;
    bool m_sweepRunning = false;
    QString m_blockedReason;
    bool m_updating = false;

    // Widgets.
    QComboBox *m_kernelCombo = nullptr;
    QLabel *m_signatureLabel = nullptr;
    VariablesModel *m_variablesModel = nullptr;
    QTableView *m_variablesView = nullptr;
    QToolButton *m_addVariable = nullptr;
    QToolButton *m_removeVariable = nullptr;
    VariablesModel *m_definesModel = nullptr; // launch defines: -DNAME=value, evaluated per run
    QTableView *m_definesView = nullptr;
    QToolButton *m_addDefine = nullptr;
    QToolButton *m_removeDefine = nullptr;
    QCheckBox *m_tunerDefines = nullptr;
    GlobalsModel *m_globalsModel = nullptr; // __constant__/__device__ variables to set
    QTableView *m_globalsView = nullptr;
    QToolButton *m_addGlobal = nullptr;
    QToolButton *m_removeGlobal = nullptr;
    BufferInitWidget *m_globalInitWidget = nullptr;
    ArgumentsModel *m_argumentsModel = nullptr;
    QTableView *m_argumentsView = nullptr;
    BufferInitWidget *m_initWidget = nullptr;
    std::array<ExpressionField *, 3> m_block{};
    std::array<ExpressionField *, 3> m_grid{};
    ExpressionField *m_shared = nullptr;
    QDoubleSpinBox *m_deadline = nullptr;
    VerificationWidget *m_verificationWidget = nullptr;
    SequenceWidget *m_sequenceWidget = nullptr;
    QListWidget *m_issuesList = nullptr;
    QLabel *m_limitsLabel = nullptr;
    QLabel *m_deviceNamesLabel = nullptr;
    QAction *m_runAction = nullptr;
    QToolButton *m_runButton = nullptr;
    QLabel *m_runReason = nullptr;
    QAction *m_measureAction = nullptr;
    QToolButton *m_measureButton = nullptr;
    QToolButton *m_measureOptionsButton = nullptr;
    QAction *m_inspectAction = nullptr; // its buttons are in the Inspect dock's tool bar
    QAction *m_cancelMeasurementAction = nullptr;
    QToolButton *m_cancelMeasurementButton = nullptr;
};

} // namespace cuwb
