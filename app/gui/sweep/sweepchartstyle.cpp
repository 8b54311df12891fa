#include "gui/sweep/sweepchartstyle.h"

#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace cuwb::SweepChartStyle {

namespace {

const QColor kPalette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                           QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                           QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                           QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f),
                           QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};

} // namespace

QColor paletteColor(int index)
{
    const int count = int(std::size(kPalette));
    return kPalette[((index % count) + count) % count];
}

QColor seriesColor(const SweepChartSeries &s, bool single)
{
    const QColor colour = single ? paletteColor(0) : paletteColor(s.colorIndex);
    if (!s.baseline)
        return colour;
    const auto pale = [](int c) { return int(c + (255 - c) * 0.45); };
    return QColor(pale(colour.red()), pale(colour.green()), pale(colour.blue()));
}

bool lastWaveMostlyEmpty(double waves)
{
    return waves > 0 && waves / std::ceil(waves) < kPartialWaveFill;
}

QString gbpsText(double value)
{
    return QString::number(value, 'f', 0);
}

void setNiceRange(QValueAxis *axis, double top)
{
    if (!(top > 0) || !std::isfinite(top))
        top = 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(top / 4.0)));
    double step = magnitude;
    for (double factor : {1.0, 2.0, 5.0, 10.0}) {
        step = factor * magnitude;
        if (top / step <= 7.0)
            break;
    }
    const int steps = std::max(1, int(std::ceil(top / step - 1e-9)));
    if (axis->min() != 0.0 || axis->max() != steps * step)
        axis->setRange(0.0, steps * step);
    axis->setTickCount(steps + 1);
}

void replaceIfChanged(QXYSeries *series, const QList<QPointF> &points)
{
    if (series && series->points() != points)
        series->replace(points);
}

} // namespace cuwb::SweepChartStyle
