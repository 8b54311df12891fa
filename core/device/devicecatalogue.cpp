#include "device/devicecatalogue.h"

#include <array>

namespace cuwb {

namespace {

struct CatalogueRow
{
    int major;
    int minor;
    const char *name;
    int smCount;
    int l2CacheBytes;
    int smClockKHz; // the driver's CU_DEVICE_ATTRIBUTE_CLOCK_RATE (the boost clock)
};

constexpr int MiB = 1024 * 1024;

// The GPU most often met of each architecture. The H200's row is what the driver reported on
// the H200 this project's GPU evidence was measured on (docs/results/h200-foundation).
constexpr std::array kCatalogueRows = {
    CatalogueRow{7, 5, "Tesla T4", 40, 4 * MiB, 1590000},
    CatalogueRow{8, 0, "NVIDIA A100-SXM4-80GB", 108, 40 * MiB, 1410000},
    CatalogueRow{8, 6, "NVIDIA GeForce RTX 3090", 82, 6 * MiB, 1695000},
    CatalogueRow{8, 7, "NVIDIA Jetson AGX Orin", 16, 4 * MiB, 1300000},
    CatalogueRow{8, 9, "NVIDIA GeForce RTX 4090", 128, 72 * MiB, 2520000},
    CatalogueRow{9, 0, "NVIDIA H200", 132, 60 * MiB, 1980000},
    CatalogueRow{12, 0, "NVIDIA GeForce RTX 5090", 170, 96 * MiB, 2407000},
};

} // namespace

std::optional<DeviceInfo> catalogueDevice(std::string_view arch)
{
    const std::optional<ArchLimits> limits = archLimits(arch);
    if (!limits) {
        return std::nullopt;
    }
    for (const CatalogueRow &row : kCatalogueRows) {
        if (row.major != limits->major || row.minor != limits->minor) {
            continue;
        }
        DeviceInfo device;
        device.name = row.name;
        device.major = row.major;
        device.minor = row.minor;
        device.smCount = row.smCount;
        device.l2CacheBytes = row.l2CacheBytes;
        device.smClockKHz = row.smClockKHz;
        device.maxThreadsPerBlock = limits->maxThreadsPerBlock;
        device.maxThreadsPerSm = limits->maxThreadsPerSm;
        device.maxBlocksPerSm = limits->maxBlocksPerSm;
        device.registersPerSm = limits->registersPerSm;
        device.registersPerBlock = limits->registersPerBlock;
        device.sharedPerSmBytes = limits->sharedPerSmBytes;
        device.sharedPerBlockBytes = limits->sharedPerBlockBytes;
        device.sharedPerBlockOptinBytes = limits->sharedPerBlockOptinBytes;
        device.reservedSharedPerBlockBytes = limits->reservedSharedPerBlockBytes;
        for (int i = 0; i < 3; ++i) {
            device.maxBlockDim[i] = limits->maxBlockDim[i];
            device.maxGridDim[i] = limits->maxGridDim[i];
        }
        return device;
    }
    return std::nullopt;
}

} // namespace cuwb
