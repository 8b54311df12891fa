// DeviceInfo: what the driver says about each GPU; queryDevices() never throws and explains
// an empty list (no driver, no device, initialisation error).
#pragma once

#include "device/archlimits.h"

#include <cstddef>
#include <string>
#include <vector>

namespace cuwb {

struct DeviceInfo
{
    int ordinal = 0;
    std::string name;
    int major = 0;
    int minor = 0;
    int smCount = 0;
    std::size_t totalMemoryBytes = 0;
    int smClockKHz = 0;
    int memoryClockKHz = 0;
    int memoryBusWidthBits = 0;
    int l2CacheBytes = 0;
    int maxThreadsPerBlock = 0;
    int maxThreadsPerSm = 0;
    int maxBlocksPerSm = 0;
    int registersPerSm = 0;
    int registersPerBlock = 0;
    std::size_t sharedPerSmBytes = 0;
    std::size_t sharedPerBlockBytes = 0;
    std::size_t sharedPerBlockOptinBytes = 0;
    std::size_t reservedSharedPerBlockBytes = 0;
    int maxBlockDim[3] = {0, 0, 0};
    int maxGridDim[3] = {0, 0, 0};

    [[nodiscard]] std::string arch() const; // "sm_90"
    // The architecture's limits with this device's own values in place of the table's.
    [[nodiscard]] ArchLimits limits() const;

    bool operator==(const DeviceInfo &) const = default;
};

struct DeviceQuery
{
    bool driverLoaded = false;
    int driverVersion = 0; // e.g. 13000
    std::string message;   // why there are no devices, empty when there are
    std::vector<DeviceInfo> devices;

    bool operator==(const DeviceQuery &) const = default;
};

DeviceQuery queryDevices();

} // namespace cuwb
