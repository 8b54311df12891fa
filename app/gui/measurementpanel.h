// MeasurementPanel: the Measurement dock: what the last measurement found. A status line (kernel,
// samples, why sampling stopped or what stopped it), a result card of the figures — median,
// mean, min, max, standard deviation, relative noise, timing source, SM clocks and throttling,
// effective bandwidth against the peak and the copy ceiling, GFLOP/s, notes — and a histogram
// of the samples. Every figure comes from the Measurement; the panel only formats it.
#pragma once

#include "measure/measurement.h"

#include <QList>
#include <QString>
#include <QWidget>

class QChart;
class QChartView;
class QFormLayout;
class QLabel;

namespace cuwb {

class MeasurementPanel : public QWidget
{
    Q_OBJECT

public:
    explicit MeasurementPanel(QWidget *parent = nullptr);

    void showMeasuring(const QString &kernel);
    void showMeasurement(const QString &kernel, const Measurement &measurement);
    void clear();

    // One row of the result card; `key` names the value label (its objectName) for tests.
    struct Figure
    {
        QString key;
        QString label;
        QString value;
    };
    static QList<Figure> figures(const Measurement &measurement);
    // "812 ns", "12.4 µs", "3.07 ms", "1.25 s"
    static QString formatTime(double ns);

    [[nodiscard]] QString statusText() const;
    // The value shown for a figure's key; empty when the card has no such row.
    [[nodiscard]] QString shownValue(const QString &key) const;
    [[nodiscard]] QChart *chart() const { return m_chart; }

private:
    void setFigures(const QList<Figure> &figures);
    void setHistogram(const Measurement &measurement);

    QLabel *m_status = nullptr;
    QFormLayout *m_card = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
};

} // namespace cuwb
