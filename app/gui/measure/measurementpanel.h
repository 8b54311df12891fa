// MeasurementPanel: the Measurement dock: what the last measurement found. A status line (kernel,
// samples, why sampling stopped or what stopped it), a result card of the figures — median,
// mean, min, max, standard deviation, relative noise, timing source, SM clocks and throttling,
// effective bandwidth against the peak and the copy ceiling, GFLOP/s, notes — and a histogram
// of the samples. After the timing, the optional metrics pass adds its rows beside the
// effective figures: DRAM bytes moved against the declared bytes, DRAM throughput, achieved
// beside theoretical occupancy, the limiter, the waves and the replay passes; a pass that was
// refused (no profiling permission, an unknown metric) shows why, and the timing stays. Every
// figure comes from the Measurement and the MetricsResult; the panel only formats them. A pass
// that collected rooflineMetrics() also fills the Roofline tab beside the histogram: the speed
// of light bars and the run's point under the device's roofs (set with setDevice).
#pragma once

#include "measure/measurement.h"
#include "measure/metrics.h"
#include "measure/roofline.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>

class QAction;
class QChart;
class QChartView;
class QFormLayout;
class QLabel;
class QTabWidget;
class QToolButton;

namespace cuwb {

class RooflineChart;
class SpeedOfLightBars;

class MeasurementPanel : public QWidget
{
    Q_OBJECT

public:
    explicit MeasurementPanel(QWidget *parent = nullptr);

    void showMeasuring(const QString &kernel);
    // A cancel was asked for; the measurement then arrives with the samples taken.
    void showCancelling();
    void showMeasurement(const QString &kernel, const Measurement &measurement);
    // The metrics pass of the measurement shown is running / has finished.
    void showMetricsPending(int metricCount);
    void showMetrics(const MetricsResult &metrics);
    void clear();
    // The GPU measured on, for the roofline's ceilings; without one the roofline has none.
    void setDevice(const std::optional<DeviceInfo> &device);

    // The Cancel button beside the status line triggers `action` (Esc in the panel too); it is
    // shown while setCancellable(true).
    void setCancelAction(QAction *action);
    void setCancellable(bool cancellable);
    [[nodiscard]] QToolButton *cancelButton() const { return m_cancelButton; }

    // One row of the result card; `key` names the value label (its objectName) for tests. A
    // row without a label is a heading across the card.
    struct Figure
    {
        QString key;
        QString label;
        QString value;
    };
    static QList<Figure> figures(const Measurement &measurement);
    // The rows of a metrics pass; `measurement` gives the declared bytes, `peaks` (when known)
    // the roofline's ceilings.
    static QList<Figure> metricFigures(const Measurement &measurement, const MetricsResult &metrics,
                                       const DevicePeaks *peaks = nullptr);
    // "812 ns", "12.4 µs", "3.07 ms", "1.25 s"
    static QString formatTime(double ns);
    // "2.15 GB" (GB = 1e9 bytes) from 0.1 GB up, as cuwb measure prints them; "512.00 kB" below.
    static QString formatBytes(double bytes);

    [[nodiscard]] QString statusText() const;
    // The value shown for a figure's key; empty when the card has no such row.
    [[nodiscard]] QString shownValue(const QString &key) const;
    [[nodiscard]] QChart *chart() const { return m_chart; }
    [[nodiscard]] SpeedOfLightBars *speedOfLightBars() const { return m_sol; }
    [[nodiscard]] RooflineChart *rooflineChart() const { return m_roofline; }
    // The tab of the histogram (0) or the roofline (1), and whether the roofline tab has values.
    [[nodiscard]] QTabWidget *tabs() const { return m_tabs; }

private:
    void showCard();
    void setFigures(const QList<Figure> &figures);
    void setHistogram(const Measurement &measurement);
    void setRoofline();

    // What the card shows, kept so that the metrics can join the timing later.
    QString m_kernel;
    std::optional<Measurement> m_measurement;
    std::optional<MetricsResult> m_metrics;
    int m_metricsPending = 0; // metrics being collected; 0 when no pass runs

    QLabel *m_status = nullptr;
    QToolButton *m_cancelButton = nullptr;
    QFormLayout *m_card = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QTabWidget *m_tabs = nullptr;
    SpeedOfLightBars *m_sol = nullptr;
    RooflineChart *m_roofline = nullptr;
    std::optional<DevicePeaks> m_peaks;
};

} // namespace cuwb
