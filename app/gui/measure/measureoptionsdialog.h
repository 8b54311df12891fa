// MeasureOptionsDialog: how Measure samples — cold or hot, a fixed sample count or adaptive
// sampling (minimum samples, minimum GPU time, target relative noise), and the time cap — and
// whether a metrics pass follows the timing, with which metrics. A line under the metric list
// says how many replay passes they need on the device's chip (counted on the host, off the GUI
// thread, by MetricPassPlanner), or names a metric the chip does not know. The dialog edits a
// copy; the Workspace holds (and keeps) what it returns. "Roofline and speed of light" adds
// rooflineMetrics() to the list.
#pragma once

#include "gui/workspace/workspace.h"
#include "measure/measurement.h"
#include "measure/metrics.h"

#include <QDialog>
#include <QStringList>
#include <QTimer>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace cuwb {

class MetricPassPlanner;

class MeasureOptionsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit MeasureOptionsDialog(QWidget *parent = nullptr);

    void setSettings(const SampleSettings &settings);
    [[nodiscard]] SampleSettings settings() const;

    void setMetricsChoice(const MetricsChoice &choice);
    [[nodiscard]] MetricsChoice metricsChoice() const;
    // Metric names from text: separated by white space, commas or semicolons; repeats dropped.
    static QStringList parseMetricNames(const QString &text);

    // The architecture whose chip the passes are counted for: the device's, else the target's.
    void setArchitecture(const QString &arch);
    [[nodiscard]] QString architecture() const { return m_arch; }
    // The replay-passes line as shown, and whether it shows an error.
    [[nodiscard]] QString passesText() const;
    [[nodiscard]] bool passesIsError() const { return m_passesError; }
    [[nodiscard]] MetricPassPlanner *planner() const { return m_planner; }
    [[nodiscard]] QGroupBox *metricsGroup() const { return m_metricsGroup; }
    [[nodiscard]] QPlainTextEdit *metricsEdit() const { return m_metricsEdit; }
    // "Roofline and speed of light": checked while the list holds every rooflineMetrics();
    // checking it adds those missing, unchecking removes those the default set does not have.
    [[nodiscard]] QCheckBox *rooflineBox() const { return m_roofline; }

private:
    // The constructor's parts: the sampling form, the metrics group with its pass planning, and
    // the connections of the sampling fields and the buttons.
    QFormLayout *createSamplingForm();
    void createMetricsGroup();
    void connectFields(QDialogButtonBox *buttons);
    void updateState();
    void planPasses();
    void showPasses(const QString &text, bool error);
    void setRooflineMetrics(bool on);
    void updateRooflineBox();

    QComboBox *m_mode = nullptr;
    QComboBox *m_timer = nullptr;
    QCheckBox *m_fixed = nullptr;
    QCheckBox *m_roofline = nullptr;
    QSpinBox *m_fixedSamples = nullptr;
    QSpinBox *m_minSamples = nullptr;
    QDoubleSpinBox *m_minGpuTime = nullptr;
    QDoubleSpinBox *m_targetNoise = nullptr;
    QDoubleSpinBox *m_timeCap = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
    QGroupBox *m_metricsGroup = nullptr;
    QPlainTextEdit *m_metricsEdit = nullptr;
    QLabel *m_passes = nullptr;
    bool m_passesError = false;
    MetricPassPlanner *m_planner = nullptr;
    QTimer m_planDelay; // typing in the list replans once the typing pauses
    QString m_arch;
    QString m_plannedArch; // of the newest plan asked for
    QStringList m_plannedMetrics;
    SampleSettings m_base; // fields the dialog does not show keep their values
};

} // namespace cuwb
