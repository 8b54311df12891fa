#include "device/occupancy.h"

#include "util/format.h"

#include <cuda_occupancy.h>

#include <algorithm>
#include <array>
#include <utility>

namespace cuwb {

namespace {

OccupancyResult invalid(std::string error)
{
    OccupancyResult result;
    result.error = std::move(error);
    return result;
}

// Input a student can get wrong is reported in words; cuda_occupancy.h would only say
// CUDA_OCC_ERROR_INVALID_INPUT, or quietly return zero blocks.
std::string inputError(const ArchLimits &arch, const OccupancyInput &input)
{
    const std::string name = arch.name();
    if (input.blockSize <= 0) {
        return "block size must be at least 1 thread (got " + std::to_string(input.blockSize) + ")";
    }
    if (input.blockSize > arch.maxThreadsPerBlock) {
        return "block size " + std::to_string(input.blockSize) + " exceeds the maximum of " +
               std::to_string(arch.maxThreadsPerBlock) + " threads per block on " + name;
    }
    if (input.registersPerThread < 0) {
        return "register count cannot be negative (got " +
               std::to_string(input.registersPerThread) + ")";
    }
    if (input.registersPerThread > arch.maxRegistersPerThread) {
        return std::to_string(input.registersPerThread) + " registers per thread exceeds the " +
               "maximum of " + std::to_string(arch.maxRegistersPerThread) + " on " + name;
    }
    if (input.staticSharedBytes > arch.sharedPerBlockBytes) {
        return "static shared memory of " + formatBytes(input.staticSharedBytes) + " exceeds the " +
               formatBytes(arch.sharedPerBlockBytes) +
               " allowed for static shared memory; larger amounts must be dynamic";
    }
    const std::size_t optin = std::max(arch.sharedPerBlockOptinBytes, arch.sharedPerBlockBytes);
    const std::size_t total = input.staticSharedBytes + input.dynamicSharedBytes;
    if (total > optin) {
        return "shared memory of " + formatBytes(total) + " per block exceeds the " + name +
               " limit of " + formatBytes(optin) + " (" + std::to_string(optin / 1024) +
               " KB with opt-in)";
    }
    const long long registersPerBlock =
        static_cast<long long>(input.registersPerThread) * input.blockSize;
    if (registersPerBlock > arch.registersPerBlock) {
        return "a block of " + std::to_string(input.blockSize) + " threads at " +
               std::to_string(input.registersPerThread) + " registers needs " +
               std::to_string(registersPerBlock) + " registers; a block may use at most " +
               std::to_string(arch.registersPerBlock) + " on " + name;
    }
    return {};
}

// When several resources allow the same number of blocks, name the one a user can act on
// least surprisingly: full warps first (nothing to fix), then registers, shared memory and
// the block-slot limit.
OccupancyLimiter pickLimiter(unsigned factors)
{
    constexpr std::array order = {
        std::pair{unsigned(OCC_LIMIT_WARPS), OccupancyLimiter::Warps},
        std::pair{unsigned(OCC_LIMIT_REGISTERS), OccupancyLimiter::Registers},
        std::pair{unsigned(OCC_LIMIT_SHARED_MEMORY), OccupancyLimiter::SharedMemory},
        std::pair{unsigned(OCC_LIMIT_BLOCKS), OccupancyLimiter::BlocksPerSm},
        std::pair{unsigned(OCC_LIMIT_BARRIERS), OccupancyLimiter::BlocksPerSm},
        std::pair{unsigned(OCC_LIMIT_VIRTUAL_RESOURCES), OccupancyLimiter::BlocksPerSm},
    };
    for (const auto &[bit, limiter] : order) {
        if (factors & bit) {
            return limiter;
        }
    }
    return OccupancyLimiter::None;
}

const char *occErrorText(cudaOccError error)
{
    switch (error) {
    case CUDA_OCC_SUCCESS:
        return "success";
    case CUDA_OCC_ERROR_INVALID_INPUT:
        return "the occupancy calculator rejected the input";
    case CUDA_OCC_ERROR_UNKNOWN_DEVICE:
        return "the occupancy calculator does not know this architecture";
    }
    return "the occupancy calculator failed";
}

} // namespace

const char *limiterName(OccupancyLimiter limiter)
{
    switch (limiter) {
    case OccupancyLimiter::None:
        return "none";
    case OccupancyLimiter::Warps:
        return "warps";
    case OccupancyLimiter::Registers:
        return "registers";
    case OccupancyLimiter::SharedMemory:
        return "shared memory";
    case OccupancyLimiter::BlocksPerSm:
        return "blocks per SM";
    }
    return "none";
}

OccupancyResult computeOccupancy(const ArchLimits &arch, const OccupancyInput &input)
{
    if (std::string error = inputError(arch, input); !error.empty()) {
        return invalid(std::move(error));
    }

    cudaOccDeviceProp properties;
    properties.computeMajor = arch.major;
    properties.computeMinor = arch.minor;
    properties.maxThreadsPerBlock = arch.maxThreadsPerBlock;
    properties.maxThreadsPerMultiprocessor = arch.maxThreadsPerSm;
    properties.regsPerBlock = arch.registersPerBlock;
    properties.regsPerMultiprocessor = arch.registersPerSm;
    properties.warpSize = arch.warpSize;
    properties.sharedMemPerBlock = arch.sharedPerBlockBytes;
    properties.sharedMemPerMultiprocessor = arch.sharedPerSmBytes;
    properties.numSms = 1; // per-SM figures do not depend on the SM count
    properties.sharedMemPerBlockOptin = arch.sharedPerBlockOptinBytes;
    // Leaving this 0 overestimates occupancy on sm_80+: the driver takes 1 KB per block.
    properties.reservedSharedMemPerBlock = arch.reservedSharedPerBlockBytes;

    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = arch.maxThreadsPerBlock;
    attributes.numRegs = input.registersPerThread;
    attributes.sharedSizeBytes = input.staticSharedBytes;
    attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
    // Theoretical occupancy assumes the kernel opted in to the dynamic shared memory it asks
    // for (cuFuncSetAttribute), so amounts above 48 KB are judged against the opt-in limit.
    attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attributes.maxDynamicSharedSizeBytes = input.dynamicSharedBytes;
    attributes.numBlockBarriers = 1; // what the runtime assumes for any kernel
    attributes.virtualResourceCount = 0;

    cudaOccDeviceState state; // default carveout, as a freshly loaded kernel has

    cudaOccResult occ{};
    const cudaOccError status = cudaOccMaxActiveBlocksPerMultiprocessor(
        &occ, &properties, &attributes, &state, input.blockSize, input.dynamicSharedBytes);
    if (status != CUDA_OCC_SUCCESS) {
        return invalid(std::string(occErrorText(status)) + " for " + arch.name());
    }

    OccupancyResult result;
    result.maxWarpsPerSm = arch.maxThreadsPerSm / arch.warpSize;
    result.blocksLimitedByWarps = occ.blockLimitWarps;
    result.blocksLimitedByRegisters = occ.blockLimitRegs;
    result.blocksLimitedBySharedMemory = occ.blockLimitSharedMem;
    result.blocksLimitedBySmBlocks =
        std::min({occ.blockLimitBlocks, occ.blockLimitBarriers, occ.blockLimitVirtual});
    result.limiter = pickLimiter(occ.limitingFactors);
    if (occ.activeBlocksPerMultiprocessor <= 0) {
        result.error = "not even one block of " + std::to_string(input.blockSize) +
                       " threads fits on an SM of " + arch.name() + ": too many " +
                       limiterName(result.limiter);
        return result;
    }
    const int warpsPerBlock = (input.blockSize + arch.warpSize - 1) / arch.warpSize;
    result.valid = true;
    result.activeBlocksPerSm = occ.activeBlocksPerMultiprocessor;
    result.activeWarpsPerSm = result.activeBlocksPerSm * warpsPerBlock;
    result.occupancy = result.maxWarpsPerSm > 0
                           ? double(result.activeWarpsPerSm) / double(result.maxWarpsPerSm)
                           : 0.0;
    return result;
}

double occupancyWaves(const OccupancyResult &result, long long gridBlocks, int smCount)
{
    if (!result.valid || result.activeBlocksPerSm <= 0 || smCount <= 0) {
        return 0.0;
    }
    return double(gridBlocks) / (double(result.activeBlocksPerSm) * double(smCount));
}

} // namespace cuwb
