// SweepCount: how many points a sweep has and how many of them would run, for the sweep
// editor's live count ("96 points, 90 would run; block.x=2048: too many threads"). Up to
// `exactLimit` points the sweep is expanded and every point checked; above it the points are
// the product of the axis groups (zipped within a group, multiplied across groups) and only
// the targets and constraints are checked, on a probe with one value an axis, so a large
// sweep is counted in milliseconds instead of expanded.
#pragma once

#include "sweep/sweep.h"

#include <cstddef>
#include <string>

namespace cuwb {

struct ArchLimits;

struct SweepCount
{
    std::size_t points = 0;
    std::size_t runnable = 0;
    std::string firstSkip; // the first skipped point's label and reason
    std::string error;     // the spec cannot be expanded
    bool exact = true;     // false: above the exact limit, skips not counted
};

// Every sweep the limit permits is counted exactly (kMaxSweepPoints is small enough to expand
// in about a second); a caller may ask for the probe sooner.
inline constexpr std::size_t kExactSweepCountLimit = kMaxSweepPoints;

// `limits` may be null (no architecture known): nothing is skipped for a device limit.
SweepCount countSweep(const SweepSpec &spec, const RunRequest &base, const ArchLimits *limits,
                      std::size_t exactLimit = kExactSweepCountLimit);

} // namespace cuwb
