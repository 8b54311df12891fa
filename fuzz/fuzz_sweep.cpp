// Fuzzes the sweep readers: a saved sweep result (parseSweepResult), a sweep spec as a
// project holds it (from_json, which may throw nlohmann::json::exception on a mistyped field)
// and the values of its axes, an axis target and a --shard selection. Never a crash.
#include "fuzzinput.h"
#include "sweep/sweep.h"
#include "sweep/sweepjson.h"
#include "sweep/sweepshard.h"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = cuwb::fuzz::asText(data, size);
    (void)cuwb::parseSweepResult(text);
    if (text.size() < 256) {
        (void)cuwb::parseAxisTarget(text);
        (void)cuwb::axisName(text);
        std::string error;
        (void)cuwb::parseShardSelection(text, error);
    }
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded())
        return 0;
    cuwb::SweepSpec spec;
    try {
        json.get_to(spec);
    } catch (const nlohmann::json::exception &) {
        return 0;
    }
    for (const cuwb::SweepAxis &axis : spec.axes) {
        // A range of up to kMaxSweepPoints values is legal but slow to list on every input.
        if (axis.kind == cuwb::AxisValues::Range && axis.step != 0.0 &&
            std::abs((axis.to - axis.from) / axis.step) > 1e4)
            continue;
        const cuwb::AxisValueList values = cuwb::axisValues(axis);
        if (values.values.size() > cuwb::kMaxSweepPoints)
            std::abort();
    }
    nlohmann::json saved = spec;
    cuwb::SweepSpec again;
    saved.get_to(again); // what was written must read back without throwing
    return 0;
}
