// JSON forms of the SASS listing and its instruction mix, as `cuwb sass --json` writes them:
// {"arch", "functions": [{"name", "readableName", "entry", "sizeBytes", "routines", "labels",
// "instructions": [{"offset", "predicate", "opcode", "baseOpcode", "operands", "class", "group",
// "file", "line", "inlinedAt", "accessBytes", "spill", "padding", "routine", "notes"}]}]} and
// {"function", "total": MIX, "lines": [{"file", "line", "mix": MIX}], "noLine": MIX}, a MIX
// being {"instructions", "predicated", "classes": {"global": n, ...}, "groups": {...},
// "local": {...}, "spills": {...}}. Offsets are numbers of bytes (CUPTI's pcOffset).
#pragma once

#include "inspect/instructionmix.h"
#include "inspect/sasslisting.h"

#include <nlohmann/json.hpp>

namespace cuwb {

void to_json(nlohmann::json &json, const SassInstruction &instruction);
void to_json(nlohmann::json &json, const SassFunction &function);
void to_json(nlohmann::json &json, const SassListing &listing);
void to_json(nlohmann::json &json, const InstructionMix &mix);
void to_json(nlohmann::json &json, const FunctionMix &mix);

} // namespace cuwb
