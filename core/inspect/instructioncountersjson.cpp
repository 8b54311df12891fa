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
    nlohmann::json stalls = nlohmann::json::array();
    for (const PcStallSamples &pc : result.stalls) {
        stalls.push_back({{"offset", pc.pcOffset},
                          {"file", pc.file},
                          {"line", pc.line},
                          {"samples", pc.samples},
                          {"reasons", pc.reasons}});
    }
    json = {{"kernel", result.kernel},
            {"chip", result.chip},
            {"lineInfo", result.lineInfo},
            {"droppedRecords", result.droppedRecords},
            {"error", result.error},
            {"permissionDenied", result.permissionDenied},
            {"instructions", std::move(instructions)},
            {"stalls", std::move(stalls)},
            {"stallSamples", result.stallSamples},
            {"droppedStallSamples", result.droppedStallSamples},
            {"stallError", result.stallError}};
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
    result.stallSamples = json.value("stallSamples", std::uint64_t(0));
    result.droppedStallSamples = json.value("droppedStallSamples", std::uint64_t(0));
    result.stallError = json.value("stallError", std::string());
    if (const auto stalls = json.find("stalls"); stalls != json.end()) {
        for (const nlohmann::json &s : *stalls) {
            PcStallSamples pc;
            pc.function = result.kernel;
            s.at("offset").get_to(pc.pcOffset);
            pc.file = s.value("file", std::string());
            pc.line = s.value("line", std::uint32_t(0));
            s.at("samples").get_to(pc.samples);
            s.at("reasons").get_to(pc.reasons);
            result.stalls.push_back(std::move(pc));
        }
    }
}

} // namespace cuwb
