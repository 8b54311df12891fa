// JSON of the inspection pass's result, as the worker sends it and `cuwb inspect --json`
// writes it: {"kernel", "chip", "lineInfo", "droppedRecords", "error", "permissionDenied",
// "instructions": [{"offset", "file", "line", "values": {metric: count}}]}.
#pragma once

#include "inspect/instructioncounters.h"

#include <nlohmann/json.hpp>

namespace cuwb {

void to_json(nlohmann::json &json, const InspectResult &result);
// Throws nlohmann::json::exception for a malformed result.
void from_json(const nlohmann::json &json, InspectResult &result);

} // namespace cuwb
