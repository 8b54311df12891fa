#include "measure/stoppingcriterion.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cuwb {

namespace {

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", fraction * 100.0);
    return text;
}

std::string seconds(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g s", value);
    return text;
}

} // namespace

StoppingCriterion::StoppingCriterion(const SampleSettings &settings)
    : m_settings(settings)
{
    // Noise needs two samples; a window of at least one sample.
    m_settings.minSamples = std::max(m_settings.minSamples, 2);
    m_settings.plateauWindowSamples = std::max(m_settings.plateauWindowSamples, 1);
}

double StoppingCriterion::relativeNoise() const
{
    if (m_count < 2 || m_meanNs == 0.0)
        return 0.0;
    return std::sqrt(m_m2 / static_cast<double>(m_count - 1)) / m_meanNs;
}

void StoppingCriterion::stopWith(StopReason reason, std::string message)
{
    m_decision.stop = true;
    m_decision.reason = reason;
    m_decision.message = std::move(message);
}

const StopDecision &StoppingCriterion::addSample(double timeNs, double elapsedSeconds)
{
    if (m_decision.stop)
        return m_decision;

    ++m_count;
    m_sumNs += timeNs;
    const double delta = timeNs - m_meanNs;
    m_meanNs += delta / static_cast<double>(m_count);
    m_m2 += delta * (timeNs - m_meanNs);

    const bool capReached =
        m_sumNs >= m_settings.timeCapSeconds * 1e9 || elapsedSeconds >= m_settings.timeCapSeconds;
    const std::string samples = std::to_string(m_count) + (m_count == 1 ? " sample" : " samples");
    const double noise = relativeNoise();

    if (m_settings.fixedSamples > 0) {
        if (m_count >= static_cast<std::size_t>(m_settings.fixedSamples))
            stopWith(StopReason::FixedCount,
                     "took the fixed count of " + samples + "; relative noise " + percent(noise));
        else if (capReached)
            stopWith(StopReason::TimeCap, "time cap of " + seconds(m_settings.timeCapSeconds) +
                                              " reached after " + samples + " of " +
                                              std::to_string(m_settings.fixedSamples) +
                                              "; relative noise " + percent(noise));
        return m_decision;
    }

    // Compared in ns: 5e8 ns of samples is exactly the 0.5 s minimum, where 5e8 * 1e-9 is not.
    const bool minimumsMet = m_count >= static_cast<std::size_t>(m_settings.minSamples) &&
                             m_sumNs >= m_settings.minGpuTimeSeconds * 1e9;
    if (minimumsMet) {
        if (noise < m_settings.targetRelativeNoise) {
            stopWith(StopReason::NoiseBelowTarget,
                     "relative noise " + percent(noise) + " below the target " +
                         percent(m_settings.targetRelativeNoise) + " after " + samples);
            return m_decision;
        }
        m_noiseHistory.push_back(noise);
        const auto window = static_cast<std::size_t>(m_settings.plateauWindowSamples);
        if (m_noiseHistory.size() > window) {
            const double before = m_noiseHistory[m_noiseHistory.size() - 1 - window];
            if (noise > before * (1.0 - m_settings.plateauMinImprovement)) {
                stopWith(StopReason::NoiseNotShrinking,
                         "relative noise " + percent(noise) + " above the target " +
                             percent(m_settings.targetRelativeNoise) +
                             " but no longer shrinking (" + percent(before) + " " +
                             std::to_string(window) + " samples earlier) after " + samples);
                return m_decision;
            }
        }
    }
    if (capReached)
        stopWith(StopReason::TimeCap, "time cap of " + seconds(m_settings.timeCapSeconds) +
                                          " reached after " + samples + "; relative noise " +
                                          percent(noise) + " (target " +
                                          percent(m_settings.targetRelativeNoise) + ")");
    return m_decision;
}

} // namespace cuwb
