#include "device/devicejson.h"

#include "cuda/driverapi.h"

namespace cuwb {

namespace {

nlohmann::json blocksJson(int blocks)
{
    return blocks == kUnlimitedBlocks ? nlohmann::json(nullptr) : nlohmann::json(blocks);
}

template <typename T, std::size_t N>
void readArray(const nlohmann::json &json, const char *key, T (&array)[N])
{
    const nlohmann::json &values = json.at(key);
    if (!values.is_array() || values.size() != N) {
        throw nlohmann::json::type_error::create(
            302, std::string("\"") + key + "\" must be an array of " + std::to_string(N), &json);
    }
    for (std::size_t i = 0; i < N; ++i) {
        values[i].get_to(array[i]);
    }
}

} // namespace

void to_json(nlohmann::json &json, const DeviceInfo &info)
{
    json = nlohmann::json{
        {"ordinal", info.ordinal},
        {"name", info.name},
        {"arch", info.arch()},
        {"major", info.major},
        {"minor", info.minor},
        {"smCount", info.smCount},
        {"totalMemoryBytes", info.totalMemoryBytes},
        {"smClockKHz", info.smClockKHz},
        {"memoryClockKHz", info.memoryClockKHz},
        {"memoryBusWidthBits", info.memoryBusWidthBits},
        {"l2CacheBytes", info.l2CacheBytes},
        {"maxThreadsPerBlock", info.maxThreadsPerBlock},
        {"maxThreadsPerSm", info.maxThreadsPerSm},
        {"maxBlocksPerSm", info.maxBlocksPerSm},
        {"registersPerSm", info.registersPerSm},
        {"registersPerBlock", info.registersPerBlock},
        {"sharedPerSmBytes", info.sharedPerSmBytes},
        {"sharedPerBlockBytes", info.sharedPerBlockBytes},
        {"sharedPerBlockOptinBytes", info.sharedPerBlockOptinBytes},
        {"reservedSharedPerBlockBytes", info.reservedSharedPerBlockBytes},
        {"maxBlockDim", info.maxBlockDim},
        {"maxGridDim", info.maxGridDim},
    };
}

void from_json(const nlohmann::json &json, DeviceInfo &info)
{
    json.at("ordinal").get_to(info.ordinal);
    json.at("name").get_to(info.name);
    json.at("major").get_to(info.major);
    json.at("minor").get_to(info.minor);
    json.at("smCount").get_to(info.smCount);
    json.at("totalMemoryBytes").get_to(info.totalMemoryBytes);
    json.at("smClockKHz").get_to(info.smClockKHz);
    json.at("memoryClockKHz").get_to(info.memoryClockKHz);
    json.at("memoryBusWidthBits").get_to(info.memoryBusWidthBits);
    json.at("l2CacheBytes").get_to(info.l2CacheBytes);
    json.at("maxThreadsPerBlock").get_to(info.maxThreadsPerBlock);
    json.at("maxThreadsPerSm").get_to(info.maxThreadsPerSm);
    json.at("maxBlocksPerSm").get_to(info.maxBlocksPerSm);
    json.at("registersPerSm").get_to(info.registersPerSm);
    json.at("registersPerBlock").get_to(info.registersPerBlock);
    json.at("sharedPerSmBytes").get_to(info.sharedPerSmBytes);
    json.at("sharedPerBlockBytes").get_to(info.sharedPerBlockBytes);
    json.at("sharedPerBlockOptinBytes").get_to(info.sharedPerBlockOptinBytes);
    json.at("reservedSharedPerBlockBytes").get_to(info.reservedSharedPerBlockBytes);
    readArray(json, "maxBlockDim", info.maxBlockDim);
    readArray(json, "maxGridDim", info.maxGridDim);
}

void to_json(nlohmann::json &json, const DeviceQuery &query)
{
    json = nlohmann::json{
        {"driverLoaded", query.driverLoaded},
        {"driverVersion", query.driverVersion},
        {"driverVersionText",
         query.driverLoaded ? formatCudaVersion(query.driverVersion) : std::string()},
        {"message", query.message},
        {"devices", query.devices},
    };
}

void from_json(const nlohmann::json &json, DeviceQuery &query)
{
    json.at("driverLoaded").get_to(query.driverLoaded);
    json.at("driverVersion").get_to(query.driverVersion);
    json.at("message").get_to(query.message);
    json.at("devices").get_to(query.devices);
}

void to_json(nlohmann::json &json, const OccupancyResult &result)
{
    json = nlohmann::json{
        {"valid", result.valid},
        {"error", result.error},
        {"activeBlocksPerSm", result.activeBlocksPerSm},
        {"activeWarpsPerSm", result.activeWarpsPerSm},
        {"maxWarpsPerSm", result.maxWarpsPerSm},
        {"occupancy", result.occupancy},
        {"limiter", limiterName(result.limiter)},
        {"blocksLimitedByWarps", blocksJson(result.blocksLimitedByWarps)},
        {"blocksLimitedByRegisters", blocksJson(result.blocksLimitedByRegisters)},
        {"blocksLimitedBySharedMemory", blocksJson(result.blocksLimitedBySharedMemory)},
        {"blocksLimitedBySmBlocks", blocksJson(result.blocksLimitedBySmBlocks)},
    };
}

} // namespace cuwb
