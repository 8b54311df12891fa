// MeasurementHistogram: the distribution of a measurement's samples as equal-width bins, and the
// Qt Charts bar series that draws it. Kept apart from the panel so that the binning is tested
// without a window: every sample lands in exactly one bin, and there are at most kMaxBins.
#pragma once

#include "measure/measurement.h"

#include <QStringList>

#include <vector>

class QBarSeries;

namespace cuwb {

struct HistogramBin
{
    double lowNs = 0.0;
    double highNs = 0.0; // inclusive for the last bin, exclusive for the others
    int count = 0;
};

struct MeasurementHistogram
{
    static constexpr int kMaxBins = 50;

    // Square-root rule, clamped to [1, maxBins]; one bin when all samples are equal; none
    // without samples.
    static std::vector<HistogramBin> bins(const std::vector<double> &samplesNs,
                                          int maxBins = kMaxBins);
    // "12.3" for each bin's centre, in the unit of `unit` ("µs" when unitNs is 1000).
    static QStringList categories(const std::vector<HistogramBin> &bins, double unitNs);
    // One bar set ("samples") with one bar per bin; the caller owns the series.
    static QBarSeries *series(const Measurement &measurement);
};

} // namespace cuwb
