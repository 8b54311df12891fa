// Theoretical occupancy of a kernel on an architecture, computed with the toolkit's
// cuda_occupancy.h, plus the resource that limits it.
#pragma once

#include "device/archlimits.h"

#include <cstddef>
#include <string>

namespace cuwb {

enum class OccupancyLimiter { None, Warps, Registers, SharedMemory, BlocksPerSm };

const char *limiterName(OccupancyLimiter limiter); // "warps", "registers", ...

struct OccupancyInput
{
    int registersPerThread = 0;
    std::size_t staticSharedBytes = 0;
    std::size_t dynamicSharedBytes = 0;
    int blockSize = 256;
};

struct OccupancyResult
{
    bool valid = false;
    std::string error;           // why it cannot run, when !valid ("block size 2048 exceeds 1024")
    int activeBlocksPerSm = 0;
    int activeWarpsPerSm = 0;
    int maxWarpsPerSm = 0;
    double occupancy = 0.0;      // activeWarps / maxWarps, 0..1
    OccupancyLimiter limiter = OccupancyLimiter::None;
    // Blocks per SM each resource alone would allow (for explaining the limiter).
    int blocksLimitedByWarps = 0;
    int blocksLimitedByRegisters = 0;
    int blocksLimitedBySharedMemory = 0;
    int blocksLimitedBySmBlocks = 0;
};

OccupancyResult computeOccupancy(const ArchLimits &arch, const OccupancyInput &input);

} // namespace cuwb
