#include "inspect/sassjson.h"

namespace cuwb {

namespace {

nlohmann::json locationJson(const SourceLocation &location)
{
    return nlohmann::json{{"file", location.file}, {"line", location.line}};
}

} // namespace

void to_json(nlohmann::json &json, const SassInstruction &instruction)
{
    nlohmann::json inlinedAt = nlohmann::json::array();
    for (const SourceLocation &site : instruction.inlinedAt)
        inlinedAt.push_back(locationJson(site));
    json = nlohmann::json{
        {"offset", instruction.offset},
        {"predicate", instruction.predicate},
        {"opcode", instruction.opcode},
        {"baseOpcode", std::string(instruction.baseOpcode())},
        {"operands", instruction.operands},
        {"class", sassClassName(instruction.klass)},
        {"group", sassGroupName(sassGroup(instruction.klass))},
        {"file", instruction.source.file},
        {"line", instruction.source.line},
        {"inlinedAt", std::move(inlinedAt)},
        {"accessBytes", instruction.accessBytes},
        {"spill", instruction.spill},
        {"padding", instruction.padding},
        {"endOfCode", instruction.endOfCode},
        {"routine", instruction.routine},
        {"notes", instruction.notes},
    };
}

void to_json(nlohmann::json &json, const SassFunction &function)
{
    nlohmann::json routines = nlohmann::json::array();
    for (const SassRoutine &routine : function.routines)
        routines.push_back({{"name", routine.name},
                            {"readableName", routine.readableName},
                            {"offset", routine.offset}});
    nlohmann::json labels = nlohmann::json::array();
    for (const SassLabel &label : function.labels)
        labels.push_back({{"name", label.name}, {"offset", label.offset}});
    json = nlohmann::json{
        {"name", function.name},
        {"readableName", function.readableName},
        {"entry", function.entry},
        {"sizeBytes", function.sizeBytes},
        {"routines", std::move(routines)},
        {"labels", std::move(labels)},
        {"instructions", function.instructions},
    };
}

void to_json(nlohmann::json &json, const SassListing &listing)
{
    json = nlohmann::json{{"arch", listing.arch}, {"functions", listing.functions}};
}

void to_json(nlohmann::json &json, const InstructionMix &mix)
{
    nlohmann::json classes = nlohmann::json::object();
    for (int i = 0; i < kSassClassCount; ++i)
        classes[sassClassName(SassClass(i))] = mix.counts[std::size_t(i)];
    nlohmann::json groups = nlohmann::json::object();
    for (int i = 0; i < kSassGroupCount; ++i)
        groups[sassGroupName(SassGroup(i))] = mix.groupCount(SassGroup(i));
    json = nlohmann::json{
        {"instructions", mix.instructions},
        {"predicated", mix.predicated},
        {"classes", std::move(classes)},
        {"groups", std::move(groups)},
        {"local",
         {{"loads", mix.localLoads},
          {"stores", mix.localStores},
          {"loadBytes", mix.localLoadBytes},
          {"storeBytes", mix.localStoreBytes}}},
        {"spills",
         {{"loads", mix.spillLoads},
          {"stores", mix.spillStores},
          {"loadBytes", mix.spillLoadBytes},
          {"storeBytes", mix.spillStoreBytes}}},
    };
}

void to_json(nlohmann::json &json, const FunctionMix &mix)
{
    nlohmann::json lines = nlohmann::json::array();
    for (const LineMix &line : mix.lines)
        lines.push_back(
            {{"file", line.source.file}, {"line", line.source.line}, {"mix", line.mix}});
    json = nlohmann::json{
        {"function", mix.function},
        {"total", mix.total},
        {"lines", std::move(lines)},
        {"noLine", mix.noLine},
    };
}

} // namespace cuwb
