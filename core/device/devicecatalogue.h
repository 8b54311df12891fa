// DeviceCatalogue: one representative GPU of each architecture, for what an expression may ask
// of a device (its SM count, L2 size, clock) when no GPU is at hand: `cuwb check`, `cuwb sweep
// --list` and the Launch dock without a device. The figures are what the driver reports for
// that GPU; the per-SM and per-block limits come from archlimits.h. A real device always
// replaces them (launch/devicenames.h says which one an expression saw).
#pragma once

#include "device/deviceinfo.h"

#include <optional>
#include <string_view>

namespace cuwb {

// The catalogue's GPU for `arch` ("sm_90", "sm_90a", "90"): its name, compute capability, SM
// count, L2 size and SM clock, and the architecture's limits. nullopt for an architecture the
// catalogue has no GPU for (sm_88, sm_100, sm_103, sm_110, sm_121: their SM counts differ
// between products, or are not public), and for an unknown one.
std::optional<DeviceInfo> catalogueDevice(std::string_view arch);

} // namespace cuwb
