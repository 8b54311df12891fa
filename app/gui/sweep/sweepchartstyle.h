// SweepChartStyle: the look of the sweep's line charts (SweepChartView), apart from the code
// that builds them: the palette (Tableau 10) and the colours of the quantities and markers, a
// baseline's paler shade, when a point's last wave counts as mostly empty, when the lines lose
// their point markers, and axis ranges that end on a round value. replaceIfChanged keeps a
// streaming sweep cheap: Qt Charts recomputes a series' whole geometry on any change.
#pragma once

#include "gui/sweep/sweepchartbuilder.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

#include <cstddef>

class QValueAxis;
class QXYSeries;

namespace cuwb::SweepChartStyle {

// Tableau 10: distinct, and kind to colour-blind readers in its first few entries; `index`
// wraps around.
QColor paletteColor(int index);
// A series' colour: the first of the palette when it is the only one, else its group's. A
// baseline has the hue of the run it is compared with, paler (and dashed), so that the legend
// tells them apart too.
QColor seriesColor(const SweepChartSeries &s, bool single);

inline const QColor kDramColor{0x94, 0x67, 0xbd};        // paletteColor(4)
inline const QColor kTheoreticalColor{0x7f, 0x7f, 0x7f}; // paletteColor(7)
inline const QColor kAchievedColor{0x2c, 0xa0, 0x2c};    // paletteColor(2)
inline const QColor kPeakColor{0xc6, 0x28, 0x28};
inline const QColor kCeilingColor{0xe0, 0x7b, 0x00};
inline const QColor kBestColor{0xff, 0xc1, 0x07};
inline const QColor kBestText{0x50, 0x3c, 0x00};
inline const QColor kWaveColor{0xe0, 0x7b, 0x00};

// The grid's last wave is "mostly empty" below this fill: waves / ceil(waves) < 0.9 means more
// than a tenth of the SM time of the whole launch could be lost to the tail (or, below one
// wave, that the GPU is not even full once). With many waves the ratio is near 1 whatever the
// remainder, which is why only these points are marked: a label on every point would cover the
// curve and say nothing; the tooltip and the table give every point's waves.
inline constexpr double kPartialWaveFill = 0.9;
bool lastWaveMostlyEmpty(double waves);

// Above this many points on a chart, the lines are drawn without a marker on each point.
inline constexpr std::size_t kMaxMarkedPoints = 200;

// Above this many lines on the time chart, the min-max band of each is not drawn: 25 bands
// overlap into one smear, and repainting them is most of a redraw (9 of 10 ms for a 40 × 25
// sweep streaming in; bench/bench_sweep_gui), which then misses frames.
inline constexpr std::size_t kMaxBandedSeries = 8;

// A bandwidth in GB/s as the labels write it: no decimals.
QString gbpsText(double value);

// 0 to a round value at or above `top`, in 4 to 8 steps of 1, 2 or 5 × 10^k, so that the grid
// is labelled with numbers a reader can interpolate.
void setNiceRange(QValueAxis *axis, double top);

// Replaces a series' points only when they differ (a point streaming in changes the series of
// its own group, and the markers, only); a null series is left alone.
void replaceIfChanged(QXYSeries *series, const QList<QPointF> &points);

} // namespace cuwb::SweepChartStyle
