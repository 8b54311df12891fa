// Statistics of timing samples (median, mean, spread, drift) and the throttling check of the
// SM clocks seen while sampling. Pure functions over plain vectors, so they are tested on
// synthetic series without a GPU.
#pragma once

#include "measure/measurement.h"

#include <cstddef>
#include <vector>

namespace cuwb {

// Median of an even count is the mean of the two middle values. Empty: all zero.
SampleStatistics computeStatistics(const std::vector<double> &samplesNs);

struct ClockCheck
{
    double minMHz = 0.0; // over the samples; 0 when there are none
    double maxMHz = 0.0;
    double thresholdMHz = 0.0;    // fraction x default clock
    std::size_t samplesBelow = 0; // samples taken below the threshold
    bool throttled = false;       // samplesBelow > 0
};

// Flags samples taken below `fraction` (75% by default) of the default SM clock. Clocks that
// are not positive are treated as not sampled and ignored.
ClockCheck checkClocks(const std::vector<double> &smClocksMHz, double defaultSmClockMHz,
                       double fraction = 0.75);

} // namespace cuwb
