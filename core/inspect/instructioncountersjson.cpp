#include "inspect/instructioncountersjson.h"

namespace cuwb {

using nlohmann::json;

void to_json(json &json, const InspectResult &result)
{
    nlohmann::json instructions = nlohmann::json::array();
    for (const SassInstructionCounters &i : result.instructions) {
        instructions.push_back(
            {{"offset", i.pcOffset}, {"file", i.file}, {"line", i.line}, {"values", i.values}});
    }
    json = {{"kernel", result.kernel},
            {"chip", result.chip},
            {"lineInfo", result.lineInfo},
            {"droppedRecords", result.droppedRecords},
            {"error", result.error},
            {"permissionDenied", result.permissionDenied},
            {"instructions", std::move(instructions)}};
}

void from_json(const json &json, InspectResult &result)
{
    result = InspectResult{};
    json.at("kernel").get_to(result.kernel);
    result.chip = json.value("chip", std::string());
    result.lineInfo = json.value("lineInfo", false);
    result.droppedRecords = json.value("droppedRecords", std::size_t(0));
    result.error = json.value("error", std::string());
    result.permissionDenied = json.value("permissionDenied", false);
    for (const nlohmann::json &i : json.at("instructions")) {
        SassInstructionCounters counters;
        counters.function = result.kernel;
        i.at("offset").get_to(counters.pcOffset);
        counters.file = i.value("file", std::string());
        counters.line = i.value("line", std::uint32_t(0));
        i.at("values").get_to(counters.values);
        result.instructions.push_back(std::move(counters));
    }
}

} // namespace cuwb
