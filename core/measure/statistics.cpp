#include "measure/statistics.h"

#include <algorithm>
#include <cmath>

namespace cuwb {

SampleStatistics computeStatistics(const std::vector<double> &samplesNs)
{
    SampleStatistics statistics;
    const std::size_t n = samplesNs.size();
    statistics.count = n;
    if (n == 0)
        return statistics;

    std::vector<double> sorted = samplesNs;
    std::sort(sorted.begin(), sorted.end());
    statistics.minNs = sorted.front();
    statistics.maxNs = sorted.back();
    statistics.medianNs = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;

    // Two passes: the sum of squared deviations from the mean does not cancel catastrophically
    // the way sum(x^2) - n * mean^2 does for samples that differ in their last digits.
    double sum = 0.0;
    for (double sample : samplesNs)
        sum += sample;
    statistics.totalNs = sum;
    statistics.meanNs = sum / static_cast<double>(n);
    if (n >= 2) {
        double squares = 0.0;
        for (double sample : samplesNs) {
            const double deviation = sample - statistics.meanNs;
            squares += deviation * deviation;
        }
        statistics.stddevNs = std::sqrt(squares / static_cast<double>(n - 1));
        if (statistics.meanNs != 0.0)
            statistics.relativeNoise = statistics.stddevNs / statistics.meanNs;
    }
    if (n >= 8 && statistics.meanNs != 0.0) {
        const std::size_t quarter = n / 4;
        double first = 0.0;
        double last = 0.0;
        for (std::size_t i = 0; i < quarter; ++i) {
            first += samplesNs[i];
            last += samplesNs[n - quarter + i];
        }
        statistics.driftRelative =
            (last - first) / static_cast<double>(quarter) / statistics.meanNs;
    }
    return statistics;
}

ClockCheck checkClocks(const std::vector<double> &smClocksMHz, double defaultSmClockMHz,
                       double fraction)
{
    ClockCheck check;
    check.thresholdMHz = defaultSmClockMHz * fraction;
    bool any = false;
    for (double clockMHz : smClocksMHz) {
        if (!(clockMHz > 0))
            continue;
        check.minMHz = any ? std::min(check.minMHz, clockMHz) : clockMHz;
        check.maxMHz = any ? std::max(check.maxMHz, clockMHz) : clockMHz;
        any = true;
        if (defaultSmClockMHz > 0 && clockMHz < check.thresholdMHz)
            ++check.samplesBelow;
    }
    check.throttled = check.samplesBelow > 0;
    return check;
}

} // namespace cuwb
