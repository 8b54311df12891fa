// SweepPanel: the Sweep dock. On the left the SweepEditor: a preset, the axes (target, kind,
// values or from / to / step; rows added and removed), cartesian or zipped, constraints (one
// per line), verification and metrics at each point, the samples per point (a fixed count or
// adaptive, hot or cold), and a live count of the points with the time they take ("32
// points, 0 skipped; at least 640 ms, at most 8 min"), counted off the GUI thread as the
// sweep or the launch changes. Below it, Run starts the sweep on the SweepController (above 1,000
// points only after the user confirmed the count and the estimate); a sweep that is empty,
// cannot be expanded or whose points are all skipped shows why and does not run. While it runs,
// the progress bar shows the points done and the time left, and Cancel stops it after the
// point in flight, keeping what was measured.
//
// On the right the SweepResultsView: the charts and the table, the points streaming in as they
// finish (coalesced to one redraw per frame), a stored result or a baseline beside the
// current one. Exports: CSV, JSON (readable back), T4, and the chart as PNG or SVG. Clicking
// a point emits pointActivated with its configuration.
#pragma once

#include "device/archlimits.h"
#include "gui/sweep/sweepchartbuilder.h"
#include "gui/sweep/sweepeditor.h"
#include "sweep/sweeprunner.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QToolButton;

namespace cuwb {

class SweepResultsView;
class SweepAxesModel;
class SweepController;
class SlurmSweepBox;
class SweepDeviceBox;

class SweepPanel : public QWidget
{
    Q_OBJECT

public:
    enum class ExportFormat { Csv, Json, T4, Png, Svg };

    // Above this many points Run asks first, with the count and the estimate.
    static constexpr std::size_t kConfirmPoints = 1000;
    // Up to this many points the skipped ones are counted before running; above it the count
    // is the product of the axes, and skips show as the sweep runs.
    static constexpr std::size_t kCountLimit = SweepEditor::kCountLimit;

    // The sweep it edits is `workspace`'s (the project's "sweep" section).
    SweepPanel(SweepController *controller, Workspace *workspace, QWidget *parent = nullptr);
    ~SweepPanel() override;

    // The sweep being edited: the Workspace's.
    [[nodiscard]] const SweepSpec &spec() const { return m_editor->spec(); }
    // Replaces the axes, combination and constraints by a preset's ("block-32-step-32",
    // "block-pow2"); sampling, verification and metrics stay. False when there is no such id.
    bool applyPreset(const QString &id);

    // What the points apply their values to: the launch of the current kernel (the launch
    // panel's request), the project's name and measure section, and the limits the points are
    // checked against before running (the device's, else the target architecture's).
    void setBase(const RunRequest &base, const SweepContext &context,
                 const std::optional<ArchLimits> &limits);
    // No kernel to sweep; Run says why.
    void clearBase(const QString &reason);
    [[nodiscard]] bool hasBase() const { return m_editor->base().has_value(); }
    // The machine's GPUs: with two or more the dock offers to sweep on several at once.
    void setDevices(const std::vector<DeviceInfo> &devices);
    // Whether a GPU is there to measure on, and why not.
    void setRunAvailability(bool available, const QString &reason);
    // A run or a measurement uses the GPU: the sweep waits, since two measurements at once on
    // one GPU would disturb each other.
    void setRunInProgress(bool running);

    // The count of the edited sweep against the base: "32 points, 0 skipped; at least 640 ms,
    // at most 8 min"; "counting…" while it is being counted.
    [[nodiscard]] QString countText() const { return m_editor->countText(); }
    // Why the sweep cannot run as it is (empty sweep, an error in it, every point skipped, no
    // kernel, no GPU), or the last failure of an export or a run; empty when none.
    [[nodiscard]] QString messageText() const;
    [[nodiscard]] bool isCounting() const { return m_editor->isCounting(); }
    [[nodiscard]] std::optional<std::size_t> pointCount() const { return m_editor->pointCount(); }
    [[nodiscard]] std::optional<std::size_t> runnableCount() const
    {
        return m_editor->runnableCount();
    }
    [[nodiscard]] bool canRun() const;

    // Starts the sweep, asking first above kConfirmPoints. Returns false, with messageText()
    // saying why, when it did not start (or the user declined). While the count is still
    // running the sweep starts once it is known.
    bool runSweep();
    void cancelSweep();
    // The question asked above kConfirmPoints; returns whether to go on. A message box by
    // default; tests answer it themselves.
    void setConfirmation(std::function<bool(const QString &question)> confirm);

    // A result to show as the current run (a stored sweep from the History or a file), and a
    // baseline drawn beside it.
    void showResult(const SweepResult &result, const QString &name = {});
    void showBaseline(const SweepResult &baseline, const QString &name);
    void clearBaseline();
    // Reads a result file (sweepjson.h); an empty string on success, else why not.
    QString openResult(const QString &path);
    QString openBaseline(const QString &path);
    // The sweep shown as the current run, as far as it has come.
    [[nodiscard]] const SweepResult &result() const { return m_result; }
    [[nodiscard]] bool hasBaseline() const { return m_baseline.has_value(); }

    // Writes the current result (or, for PNG and SVG, the chart on screen) to `path`; an empty
    // string on success, else why not. The result stays as it was either way.
    QString exportTo(ExportFormat format, const QString &path) const;

    [[nodiscard]] SweepEditor *editor() const { return m_editor; }
    [[nodiscard]] SweepResultsView *sweepResultsView() const { return m_view; }
    [[nodiscard]] SweepAxesModel *axesModel() const { return m_editor->axesModel(); }
    [[nodiscard]] QTableView *axesView() const { return m_editor->axesView(); }
    [[nodiscard]] QComboBox *presetCombo() const { return m_editor->presetCombo(); }
    [[nodiscard]] QComboBox *combinationCombo() const { return m_editor->combinationCombo(); }
    [[nodiscard]] QPlainTextEdit *constraintsEdit() const { return m_editor->constraintsEdit(); }
    [[nodiscard]] QCheckBox *verifyCheck() const { return m_editor->verifyCheck(); }
    [[nodiscard]] QCheckBox *rooflineCheck() const { return m_editor->rooflineCheck(); }
    [[nodiscard]] QCheckBox *metricsCheck() const { return m_editor->metricsCheck(); }
    [[nodiscard]] QSpinBox *samplesSpin() const { return m_editor->samplesSpin(); }
    [[nodiscard]] QComboBox *modeCombo() const { return m_editor->modeCombo(); }
    [[nodiscard]] QPushButton *runButton() const { return m_run; }
    [[nodiscard]] QPushButton *cancelButton() const { return m_cancel; }
    [[nodiscard]] QProgressBar *progressBar() const { return m_progress; }
    [[nodiscard]] QLabel *countLabel() const { return m_editor->countLabel(); }
    [[nodiscard]] QLabel *messageLabel() const { return m_message; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    [[nodiscard]] SlurmSweepBox *slurmBox() const { return m_slurm; }
    [[nodiscard]] SweepDeviceBox *deviceBox() const { return m_devices; }

Q_SIGNALS:
    // The user changed the sweep (the project has unsaved changes).
    void specEdited();
    // The count of the edited sweep changed (countText(), messageText()).
    void countChanged();
    // A point of the chart or the table was clicked: its configuration, for the launch panel.
    void pointActivated(const cuwb::SweepPoint &point);
    // A sweep run from this panel finished (measured, cancelled or failed); it is on screen
    // unless another result was opened while it ran.
    void sweepShown(const cuwb::SweepResult &result);
    // A status line for the main window (an export written, a sweep finished).
    void statusMessage(const QString &message);

private:
    void buildColumn(QWidget *column);
    // The GPUs and the Slurm group into the Workspace's placement.
    void placeSweep();
    // The controller and the run button follow the Workspace's placement from now on.
    void followPlacement();
    void onCounted();
    void updateRunState();
    void setMessage(const QString &message);
    [[nodiscard]] QString blockedReason() const;

    void onSweepStarted(const SweepResult &skeleton);
    void onPointFinished(const SweepPointResult &point, const SweepProgress &progress);
    void onSweepFinished(const SweepResult &result);
    void onWorkerRestarted(int starts);
    void flushPoints();
    void updateProgress();
    void showRuns();
    void exportWithDialog(ExportFormat format);

    SweepController *m_controller = nullptr;
    Workspace *m_workspace = nullptr;
    SweepContext m_context;
    QString m_noBaseReason;
    bool m_available = true;
    bool m_runInProgress = false;
    QString m_unavailableReason;

    // Run was asked for while the editor was counting: it starts once counted.
    bool m_runWhenCounted = false;
    std::function<bool(const QString &)> m_confirm;

    // The sweep on screen.
    SweepResult m_result;
    QString m_resultName;
    std::optional<NamedSweep> m_baseline;
    std::vector<SweepPointResult> m_pending; // arrived, not drawn yet
    QTimer m_flush;
    QElapsedTimer m_sinceFlush;
    std::optional<SweepProgress> m_lastProgress;
    QString m_failureNote;    // the worker died at a point and a fresh one went on
    bool m_streaming = false; // the controller's sweep is the current run on screen

    SweepResultsView *m_view = nullptr;
    SweepEditor *m_editor = nullptr;
    SlurmSweepBox *m_slurm = nullptr;
    SweepDeviceBox *m_devices = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_timeLeft = nullptr;
    QLabel *m_status = nullptr;
    std::vector<QToolButton *> m_exportButtons;
};

} // namespace cuwb
