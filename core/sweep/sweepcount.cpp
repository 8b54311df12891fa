#include "sweep/sweepcount.h"

#include <algorithm>
#include <map>

namespace cuwb {

namespace {

// The number of points as the product of the axis groups, capped above kMaxSweepPoints;
// 0 with `error` set when an axis has no values or a group's axes differ in length.
std::size_t productOfGroups(const SweepSpec &spec, std::string &error)
{
    std::map<std::string, std::size_t> groupSizes;
    std::size_t product = 1;
    for (std::size_t i = 0; i < spec.axes.size(); ++i) {
        const SweepAxis &axis = spec.axes[i];
        const AxisValueList values = axisValues(axis);
        if (!values.error.empty()) {
            error = "axis " + std::to_string(i + 1) + " (" + axis.target + "): " + values.error;
            return 0;
        }
        const std::size_t size = values.values.size();
        const std::string group = spec.combination == AxisCombination::Zip ? "zip" : axis.group;
        if (!group.empty()) {
            const auto [known, added] = groupSizes.emplace(group, size);
            if (!added) {
                if (known->second != size) {
                    error = "the axes of group `" + group + "` need the same number of values";
                    return 0;
                }
                continue; // zipped with the group's first axis
            }
        }
        if (product > kMaxSweepPoints / std::max<std::size_t>(1, size)) {
            product = kMaxSweepPoints + 1;
        } else {
            product *= size;
        }
    }
    return product;
}

} // namespace

SweepCount countSweep(const SweepSpec &spec, const RunRequest &base, const ArchLimits *limits,
                      std::size_t exactLimit)
{
    SweepCount count;
    std::string error;
    const std::size_t product = productOfGroups(spec, error);
    if (error.empty() && product > exactLimit && product <= kMaxSweepPoints) {
        // Too many to expand for a live count: check targets and constraints on a probe.
        SweepSpec probe = spec;
        for (SweepAxis &axis : probe.axes) {
            const AxisValueList values = axisValues(axis);
            axis.kind = AxisValues::List;
            axis.values = {values.values.front()};
        }
        const SweepExpansion checked = expandSweep(probe, base, limits);
        count.error = checked.error;
        count.points = product;
        count.runnable = product;
        count.exact = false;
        return count;
    }
    // Small enough, or wrong in a way the expansion says best.
    const SweepExpansion expansion = expandSweep(spec, base, limits);
    count.error = expansion.error;
    count.points = expansion.points.size();
    count.runnable = expansion.runnableCount();
    for (const SweepPoint &point : expansion.points) {
        if (!point.runnable()) {
            count.firstSkip = point.label() + ": " + point.skipReason;
            break;
        }
    }
    return count;
}

} // namespace cuwb
