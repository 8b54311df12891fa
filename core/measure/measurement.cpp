#include "measure/measurement.h"

#include <cmath>

namespace cuwb {

const char *sampleModeName(SampleMode mode)
{
    return mode == SampleMode::Hot ? "hot" : "cold";
}

const char *stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::NotStopped:
        return "not-stopped";
    case StopReason::NoiseBelowTarget:
        return "noise-below-target";
    case StopReason::NoiseNotShrinking:
        return "noise-not-shrinking";
    case StopReason::TimeCap:
        return "time-cap";
    case StopReason::FixedCount:
        return "fixed-count";
    case StopReason::Cancelled:
        return "cancelled";
    case StopReason::Fault:
        return "fault";
    case StopReason::WrongSample:
        return "wrong-sample";
    }
    return "not-stopped";
}

const char *timingSourceName(TimingSource source)
{
    switch (source) {
    case TimingSource::Events:
        return "events";
    case TimingSource::Profiler:
        return "profiler";
    case TimingSource::Cupti:
        break;
    }
    return "cupti";
}

std::optional<std::string> checkSampleSettings(const SampleSettings &settings)
{
    const auto finiteNonNegative = [](double value) { return std::isfinite(value) && value >= 0; };
    if (settings.fixedSamples < 0)
        return "fixedSamples must be 0 (adaptive) or a positive count, found " +
               std::to_string(settings.fixedSamples);
    if (settings.minSamples < 2)
        return "minSamples must be at least 2 (noise needs two samples), found " +
               std::to_string(settings.minSamples);
    if (!finiteNonNegative(settings.minGpuTimeSeconds))
        return "minGpuTimeSeconds must be a number of seconds, 0 or more";
    if (!(std::isfinite(settings.targetRelativeNoise) && settings.targetRelativeNoise > 0))
        return "targetRelativeNoise must be above 0 (0.005 is 0.5%)";
    if (!(std::isfinite(settings.timeCapSeconds) && settings.timeCapSeconds > 0))
        return "timeCapSeconds must be above 0";
    if (settings.warmupLaunches < 0)
        return "warmupLaunches must be 0 or more, found " + std::to_string(settings.warmupLaunches);
    if (settings.plateauWindowSamples < 1)
        return "plateauWindowSamples must be at least 1, found " +
               std::to_string(settings.plateauWindowSamples);
    if (!(std::isfinite(settings.plateauMinImprovement) && settings.plateauMinImprovement >= 0 &&
          settings.plateauMinImprovement < 1))
        return "plateauMinImprovement must be in [0, 1)";
    if (settings.guarded && settings.timer == TimingSource::Profiler) {
        return "a guarded measurement times with CUPTI's records or cuEvents, not the profiler "
               "(which replays each launch)";
    }
    return std::nullopt;
}

std::string sourceHashFnv1a64(std::string_view text)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL; // the FNV offset basis
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL; // the FNV prime
    }
    static const char kDigits[] = "0123456789abcdef";
    std::string out = "fnv1a64:";
    for (int shift = 60; shift >= 0; shift -= 4) {
        out += kDigits[(hash >> shift) & 0xf];
    }
    return out;
}

} // namespace cuwb
