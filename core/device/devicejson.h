// JSON for the device catalogue and occupancy results. `cuwb devices --json` writes a
// DeviceQuery and the GUI, which never loads the driver itself, reads it back with from_json,
// so every field round-trips exactly. Keys are the field names; "arch" and
// "driverVersionText" are derived, written for readers and ignored when reading.
#pragma once

#include "device/deviceinfo.h"
#include "device/occupancy.h"

#include <nlohmann/json.hpp>

namespace cuwb {

void to_json(nlohmann::json &json, const DeviceInfo &info);
void from_json(const nlohmann::json &json, DeviceInfo &info);

void to_json(nlohmann::json &json, const DeviceQuery &query);
void from_json(const nlohmann::json &json, DeviceQuery &query);

// "limiter" is limiterName(); a blocksLimitedBy* of kUnlimitedBlocks is written as null.
void to_json(nlohmann::json &json, const OccupancyResult &result);

} // namespace cuwb
