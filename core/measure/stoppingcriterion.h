// StoppingCriterion: decides after each timing sample whether to take another, with NVBench's
// semantics (docs/measurement.md): at least minSamples and minGpuTimeSeconds, then stop
// when the relative noise is below the target or no longer shrinking; give up at the time cap.
// Fed one sample at a time in O(1), so it can run inside the worker's sampling loop. The exact
// rules are written down in docs/measurement.md.
#pragma once

#include "measure/measurement.h"

#include <cstddef>
#include <vector>

namespace cuwb {

class StoppingCriterion
{
public:
    explicit StoppingCriterion(const SampleSettings &settings);

    // Adds one sample and returns the decision after it. `elapsedSeconds` is the wall time
    // since sampling began (flushes and launch overhead included) for the time cap; when
    // negative, the GPU time of the samples is used. Once stopped, the decision stays and
    // further samples are ignored.
    const StopDecision &addSample(double timeNs, double elapsedSeconds = -1.0);

    [[nodiscard]] const StopDecision &decision() const { return m_decision; }
    [[nodiscard]] std::size_t count() const { return m_count; }
    [[nodiscard]] double gpuTimeSeconds() const { return m_sumNs * 1e-9; }
    [[nodiscard]] double meanNs() const { return m_meanNs; }
    // stddev (n - 1) / mean of the samples so far; 0 with fewer than two.
    [[nodiscard]] double relativeNoise() const;

private:
    void stopWith(StopReason reason, std::string message);

    SampleSettings m_settings;
    StopDecision m_decision;
    std::size_t m_count = 0;
    double m_sumNs = 0.0;
    double m_meanNs = 0.0; // Welford's running mean and sum of squared deviations
    double m_m2 = 0.0;
    std::vector<double> m_noiseHistory; // relative noise after each sample once minimums met
};

} // namespace cuwb
