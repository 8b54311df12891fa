// Theoretical occupancy of a kernel on an architecture, computed with the toolkit's
// cuda_occupancy.h, plus the resource that limits it.
#pragma once

#include "device/archlimits.h"

#include <climits>
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
    std::string error; // why it cannot run, when !valid ("block size 2048 exceeds 1024")
    int activeBlocksPerSm = 0;
    int activeWarpsPerSm = 0;
    int maxWarpsPerSm = 0;
    double occupancy = 0.0; // activeWarps / maxWarps, 0..1
    OccupancyLimiter limiter = OccupancyLimiter::None;
    // Blocks per SM each resource alone would allow (for explaining the limiter);
    // kUnlimitedBlocks when the kernel does not use the resource (no registers, no shared).
    int blocksLimitedByWarps = 0;
    int blocksLimitedByRegisters = 0;
    int blocksLimitedBySharedMemory = 0;
    int blocksLimitedBySmBlocks = 0;
};

inline constexpr int kUnlimitedBlocks = INT_MAX;

OccupancyResult computeOccupancy(const ArchLimits &arch, const OccupancyInput &input);

// Waves of a grid: gridBlocks / (activeBlocksPerSm * smCount); 0 when the kernel cannot run.
double occupancyWaves(const OccupancyResult &result, long long gridBlocks, int smCount);

} // namespace cuwb
