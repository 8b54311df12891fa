// SweepEditor: the editing of a sweep (SweepSpec), the left column of the Sweep dock. A preset,
// the axes (target, kind, values or from / to / step; rows added and removed), cartesian or
// zipped, constraints (one per line), verification and metrics at each point, the samples per
// point (a fixed count or adaptive, hot or cold), and a live count of the points with the time
// they take ("32 points, 0 skipped; at least 640 ms, at most 8 min"), counted off the GUI
// thread as the sweep or the launch it varies (setBase) changes; a count of an older spec is
// dropped. The spec is the Workspace's: the editor shows it whenever it changes and writes the
// user's edits to it. Running the sweep is the SweepPanel's: it reads the spec, the base and the
// count.
#pragma once

#include "device/archlimits.h"
#include "gui/common/jobtracker.h"
#include "gui/workspace/workspace.h"
#include "sweep/sweepcount.h"
#include "sweep/sweeprunner.h"

#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QTableView;
class QToolButton;

namespace cuwb {

class SweepAxesModel;
class SweepTargetDelegate;

class SweepEditor : public QWidget
{
    Q_OBJECT

public:
    // Up to this many points the skipped ones are counted; above it the count is the product
    // of the axes, and skips show as the sweep runs.
    static constexpr std::size_t kCountLimit = kExactSweepCountLimit;

    SweepEditor(Workspace *workspace, QWidget *parent = nullptr);
    ~SweepEditor() override;

    // The sweep being edited: the Workspace's.
    [[nodiscard]] const SweepSpec &spec() const;
    // Replaces the axes, combination and constraints by a preset's; sampling, verification and
    // metrics stay. False when there is no such id. specEdited follows a user's choice only.
    bool applyPreset(const QString &id, Workspace::Edit how = Workspace::Edit::Automatic);

    // The launch the points apply their values to, and the limits they are checked against;
    // the targets' completer offers the launch's variables. Either recounts.
    void setBase(const RunRequest &base, const std::optional<ArchLimits> &limits);
    void clearBase();
    [[nodiscard]] const std::optional<RunRequest> &base() const { return m_base; }

    // The count of the spec against the base; null while it is being counted.
    [[nodiscard]] const SweepCount *count() const;
    // Counts now, without waiting for the typing to pause (nothing when counted already).
    void countNow();
    [[nodiscard]] QString countText() const;
    [[nodiscard]] bool isCounting() const;
    [[nodiscard]] std::optional<std::size_t> pointCount() const;
    [[nodiscard]] std::optional<std::size_t> runnableCount() const;

    // Whether the user can change the sweep (not while it runs).
    void setEditable(bool editable);

    [[nodiscard]] SweepAxesModel *axesModel() const { return m_axesModel; }
    [[nodiscard]] QTableView *axesView() const { return m_axesView; }
    [[nodiscard]] QComboBox *presetCombo() const { return m_preset; }
    [[nodiscard]] QComboBox *combinationCombo() const { return m_combination; }
    [[nodiscard]] QPlainTextEdit *constraintsEdit() const { return m_constraints; }
    [[nodiscard]] QCheckBox *verifyCheck() const { return m_verify; }
    [[nodiscard]] QCheckBox *metricsCheck() const { return m_metrics; }
    [[nodiscard]] QCheckBox *rooflineCheck() const { return m_roofline; }
    [[nodiscard]] QSpinBox *samplesSpin() const { return m_samples; }
    [[nodiscard]] QComboBox *modeCombo() const { return m_mode; }
    [[nodiscard]] QLabel *countLabel() const { return m_count; }

Q_SIGNALS:
    // The user changed the sweep (after countTextChanged of its recount).
    void specEdited();
    // countText() was set: a count started (the spec or the base changed) or arrived.
    void countTextChanged();
    // A count arrived (after its countTextChanged).
    void counted();

private:
    // The constructor's parts: the preset box, the axes table with its add and remove buttons,
    // the combination and constraints, and the options of each point (verify, metrics,
    // roofline, samples, mode), each connected to edit the Workspace's sweep.
    void createPresetBox();
    void createAxesTable();
    void createAxisButtons();
    void createCombinationFields();
    void createPointOptions();
    // A count (core/sweep/sweepcount.h) of the spec as it was at `generation`.
    struct Count : SweepCount
    {
        quint64 generation = 0;
    };

    void buildLayout();
    void showSpec();
    // The user changed a field: `change` applied to the Workspace's spec.
    void edit(const std::function<void(SweepSpec &)> &change);
    void syncPreset();
    void scheduleCount();
    void startCount();
    void onCounted(Count &&count);
    void updateCountText();

    Workspace *m_workspace = nullptr;
    std::optional<RunRequest> m_base;
    std::optional<ArchLimits> m_limits;
    bool m_updating = false; // the fields are being set from the spec
    bool m_editing = false;  // the user's edit is being written to the Workspace

    // Counting, off the GUI thread; a count of an older generation is dropped.
    quint64 m_generation = 0;
    std::optional<Count> m_countResult;
    JobTracker<Count> m_counts;
    QTimer m_countDelay;

    SweepAxesModel *m_axesModel = nullptr;
    SweepTargetDelegate *m_targetDelegate = nullptr;
    QTableView *m_axesView = nullptr;
    QToolButton *m_addAxis = nullptr;
    QToolButton *m_removeAxis = nullptr;
    QComboBox *m_preset = nullptr;
    QComboBox *m_combination = nullptr;
    QPlainTextEdit *m_constraints = nullptr;
    QCheckBox *m_verify = nullptr;
    QCheckBox *m_metrics = nullptr;
    QCheckBox *m_roofline = nullptr;
    QSpinBox *m_samples = nullptr;
    QComboBox *m_mode = nullptr;
    QLabel *m_count = nullptr;
};

} // namespace cuwb
