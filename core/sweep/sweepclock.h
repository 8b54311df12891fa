// What the sweep runners (sweeprunner.h, multidevicesweep.h) share of time: the seconds since a
// start, and how long a worker's hello may take before the sweep gives up on it.
#pragma once

#include <chrono>

namespace cuwb {

inline double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A fresh worker's start: a context, NVRTC, the copy ceiling.
inline constexpr double kHelloTimeoutSeconds = 60.0;

} // namespace cuwb
