// SweepChartView: the two line-chart pages of a SweepResultsView, built from a SweepChartData.
// Time per launch: the median line, the min–max band, markers where the grid's last wave is
// mostly empty. Bandwidth & occupancy: effective and DRAM bandwidth, lines at the theoretical
// peak and the measured copy ceiling, theoretical and achieved occupancy on a second axis. The
// best point and the points tied with it are marked on both; a baseline is drawn dashed. The
// series, axes and line labels are rebuilt only when what the data holds changes (its series,
// the quantities measured); a sweep streaming in only replaces the series' points. Hovering a
// point shows every statistic of it; clicking it emits pointClicked. The two QChartViews are
// children of the widget given, for the results view to put in its page stack; the heatmap page,
// the table and the exports are the results view's.
#pragma once

#include "gui/sweep/sweepchartbuilder.h"
#include "gui/sweep/sweepchartlabels.h"

#include <QObject>
#include <QPoint>
#include <QPointF>

#include <cstddef>
#include <optional>
#include <vector>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QWidget;

namespace cuwb {

class SweepChartView : public QObject
{
    Q_OBJECT

public:
    // The chart views are created as children of `parent`, as is this object.
    explicit SweepChartView(QWidget *parent);
    ~SweepChartView() override;

    // The charts of `data`, whose points index into `runs` (for the best point's name, the
    // tooltips and clicks). Like SweepHeatmap, the view keeps pointers rather than copies (they
    // are the results view's, updated once per streamed point): both must stay alive, at the
    // same address, until the next setData().
    void setData(const std::vector<NamedSweep> &runs, const SweepChartData &data);
    // While a sweep streams in, charts of more than kMaxMarkedPoints points are drawn without
    // antialiasing: a redraw of a 1,000-point line and its band then costs a frame no longer
    // (bench/bench_sweep_gui). The finished sweep, and every export, is drawn smooth.
    void setStreaming(bool streaming);

    [[nodiscard]] QChart *timeChart() const { return m_timeChart; }
    [[nodiscard]] QChart *bandwidthChart() const { return m_bandwidthChart; }
    [[nodiscard]] QChartView *timeView() const { return m_timeView; }
    [[nodiscard]] QChartView *bandwidthView() const { return m_bandwidthView; }

    // The tooltip of a point of a run; empty for a run there is not.
    [[nodiscard]] QString toolTipFor(std::size_t run, std::size_t point) const;
    // Where a point of a run is drawn in the viewport of `view` (timeView() or bandwidthView());
    // nullopt when it is not drawn there.
    [[nodiscard]] std::optional<QPoint> pointPosition(QChartView *view, std::size_t run,
                                                      std::size_t point) const;

Q_SIGNALS:
    // A left click (not a drag) on a point drawn on either chart.
    void pointClicked(std::size_t run, std::size_t point);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct SeriesItems;
    void updateSmoothing();
    struct Hit
    {
        std::size_t run = 0;
        std::size_t point = 0;
        QPointF position; // in the viewport
    };

    // The charts made again for a new structure (runs, series, what they carry), one step each:
    // the axes, the bands, the lines, the reference lines and the markers.
    void rebuildCharts();
    void addTimeAxes(bool bands);
    void addBandwidthAxes();
    void addBands(const std::vector<std::size_t> &order);
    void addLines(const std::vector<std::size_t> &order);
    void addReferenceLines();
    void addMarkers();
    // The charts' data for the data as it is now, one step each: a marker on every point or
    // not, each series' points, the marks (best, tied, waves) and their labels, the ranges.
    struct Marks;
    void updateChartData();
    void markPoints();
    void fillSeries(double unitNs, Marks &marks);
    void showMarks(Marks &marks);
    void setRanges(double slowest, double highestGBps);
    [[nodiscard]] QString structure() const;
    void clearChart(QChart *chart);
    QAbstractAxis *makeXAxis() const;
    [[nodiscard]] std::vector<Hit> hitTargets(QChartView *view) const;
    [[nodiscard]] std::optional<Hit> hitAt(QChartView *view, const QPointF &position) const;

    const std::vector<NamedSweep> *m_runs = nullptr;
    const SweepChartData *m_data = nullptr;
    QString m_structure;
    double m_timeUnitNs = 1e3;
    bool m_streaming = false;
    std::size_t m_drawnPoints = 0; // on the charts now, for updateSmoothing()

    QChart *m_timeChart = nullptr;
    QChart *m_bandwidthChart = nullptr;
    QChartView *m_timeView = nullptr;
    QChartView *m_bandwidthView = nullptr;

    std::vector<SeriesItems> m_items;
    QAbstractAxis *m_timeX = nullptr;
    QValueAxis *m_timeY = nullptr;
    QAbstractAxis *m_bandwidthX = nullptr;
    QValueAxis *m_bandwidthY = nullptr;
    QValueAxis *m_occupancyY = nullptr;
    QScatterSeries *m_timeBest = nullptr;
    QScatterSeries *m_timeTied = nullptr;
    QScatterSeries *m_partialWaves = nullptr;
    QScatterSeries *m_bandwidthBest = nullptr;
    QScatterSeries *m_bandwidthTied = nullptr;
    QLineSeries *m_peakLine = nullptr;
    QLineSeries *m_ceilingLine = nullptr;
    SweepChartLabels m_labels;
    QPoint m_pressPosition;
};

} // namespace cuwb
