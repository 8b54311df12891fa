#include "gui/measure/measurementhistogram.h"

#include <QBarSeries>
#include <QBarSet>
#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace cuwb {

std::vector<HistogramBin> MeasurementHistogram::bins(const std::vector<double> &samplesNs,
                                                     int maxBins)
{
    std::vector<double> finite;
    finite.reserve(samplesNs.size());
    for (double sample : samplesNs) {
        if (std::isfinite(sample))
            finite.push_back(sample);
    }
    if (finite.empty())
        return {};
    const auto [minIt, maxIt] = std::minmax_element(finite.begin(), finite.end());
    const double low = *minIt;
    const double high = *maxIt;
    if (!(high > low))
        return {HistogramBin{low, high, int(finite.size())}};
    const int count =
        std::clamp(int(std::ceil(std::sqrt(double(finite.size())))), 1, std::max(1, maxBins));
    const double width = (high - low) / count;
    std::vector<HistogramBin> result(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        result[std::size_t(i)].lowNs = low + width * i;
        result[std::size_t(i)].highNs = i + 1 == count ? high : low + width * (i + 1);
    }
    for (double sample : finite) {
        // The maximum belongs to the last bin, not to one past it.
        const int index = std::min(count - 1, int((sample - low) / width));
        ++result[std::size_t(std::max(0, index))].count;
    }
    return result;
}

QStringList MeasurementHistogram::categories(const std::vector<HistogramBin> &bins, double unitNs)
{
    QStringList names;
    names.reserve(qsizetype(bins.size()));
    for (const HistogramBin &bin : bins)
        names.append(QString::number((bin.lowNs + bin.highNs) / 2.0 / unitNs, 'g', 4));
    return names;
}

QBarSeries *MeasurementHistogram::series(const Measurement &measurement)
{
    auto *set = new QBarSet(QCoreApplication::translate("MeasurementHistogram", "samples"));
    for (const HistogramBin &bin : bins(measurement.samplesNs))
        set->append(bin.count);
    auto *series = new QBarSeries;
    series->setBarWidth(1.0);
    series->append(set);
    return series;
}

} // namespace cuwb
