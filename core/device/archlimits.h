// ArchLimits: the per-SM and per-block limits of a GPU architecture, known without a GPU.
// Filled from the CUDA programming guide's compute-capability tables; a DeviceInfo from the
// driver overrides them with the real device's values where one is present.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuwb {

struct ArchLimits
{
    int major = 0;
    int minor = 0;
    int warpSize = 32;
    int maxThreadsPerBlock = 1024;
    int maxThreadsPerSm = 2048;
    int maxBlocksPerSm = 32;
    int registersPerSm = 65536;
    int registersPerBlock = 65536;
    int maxRegistersPerThread = 255;
    int registerAllocationUnit = 256; // registers are allocated per warp in units of this
    std::size_t sharedPerSmBytes = 0;
    std::size_t sharedPerBlockBytes = 48 * 1024;
    std::size_t sharedPerBlockOptinBytes = 0;
    std::size_t reservedSharedPerBlockBytes = 0;
    int maxBlockDim[3] = {1024, 1024, 64};
    int maxGridDim[3] = {2147483647, 65535, 65535};

    [[nodiscard]] std::string name() const; // "sm_90"
};

// "sm_90", "sm_90a", "compute_90", "90" -> limits; nullopt for an architecture not known here.
std::optional<ArchLimits> archLimits(std::string_view arch);

// Parses "sm_90a" -> {9, 0}; nullopt when malformed.
std::optional<std::pair<int, int>> parseArch(std::string_view arch);

// The real architectures archLimits() knows ("sm_75", ..., "sm_121"), ascending.
std::vector<std::string> knownArchs();

} // namespace cuwb
