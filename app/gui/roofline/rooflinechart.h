// RooflineChart: a roofline on log-log axes (FLOP/byte across, FLOP/s up), drawn from a
// RooflineData: the DRAM roof rising to the device's FP32, FP64 and FP16 ceilings (each named
// with its TFLOP/s in the legend), the ridge of the dominant precision, and the points: one
// run's marker with its label, or a sweep's cloud in a few colours by the swept parameter (one
// scatter series per colour, so a thousand points are a handful of series), the best point
// starred, a baseline sweep's points hollow. Hovering a point shows its configuration, GFLOP/s,
// FLOP/byte and share of the roof. Points that could not be placed are counted under the chart
// with the reason. The series are built once per setData(); nothing is recomputed per frame.
#pragma once

#include "gui/roofline/rooflinedata.h"

#include <QChartView>

#include <optional>
#include <vector>

class QGraphicsSimpleTextItem;
class QLabel;
class QLogValueAxis;
class QScatterSeries;

namespace cuwb {

class RooflineChart : public QWidget
{
    Q_OBJECT

public:
    explicit RooflineChart(QWidget *parent = nullptr);

    void setData(RooflineData data);
    void clear();
    [[nodiscard]] const RooflineData &data() const { return m_data; }

    // For tests and exports: the chart, its axes, the note under it, and the series that draw
    // each bucket of points (in RooflineData::buckets order).
    [[nodiscard]] QChart *chart() const;
    [[nodiscard]] QChartView *chartView() const { return m_view; }
    [[nodiscard]] QLogValueAxis *xAxis() const { return m_x; }
    [[nodiscard]] QLogValueAxis *yAxis() const { return m_y; }
    [[nodiscard]] QString noteText() const;
    [[nodiscard]] const std::vector<QScatterSeries *> &bucketSeries() const { return m_buckets; }
    // The colour of bucket `index` of `count`: a sequential ramp, low values dark blue.
    static QColor bucketColor(std::size_t index, std::size_t count);
    // The tooltip of the marker nearest `value` in `series`; empty when it draws none.
    [[nodiscard]] QString toolTipAt(const QScatterSeries *series, const QPointF &value) const;

private:
    // The chart made again for new data, one step each: the axes, the roofs (DRAM and each
    // precision's ceiling, the ridge), the markers, the one run's label, the title and notes.
    void rebuild();
    void addAxes(QChart *chart);
    void addRoofs(QChart *chart);
    void addMarkers(QChart *chart, bool single);
    void addRunLabel(QChart *chart);
    void showTitleAndNotes(QChart *chart);
    void placeRunLabel();

    RooflineData m_data;
    QChartView *m_view = nullptr;
    QLabel *m_note = nullptr;
    QLogValueAxis *m_x = nullptr;
    QLogValueAxis *m_y = nullptr;
    std::vector<QScatterSeries *> m_buckets;
    QScatterSeries *m_baselineSeries = nullptr;
    QScatterSeries *m_bestSeries = nullptr;
    QGraphicsSimpleTextItem *m_runLabel = nullptr;
};

} // namespace cuwb
