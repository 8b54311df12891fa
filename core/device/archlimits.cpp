#include "device/archlimits.h"

#include <array>
#include <charconv>

namespace cuwb {

namespace {

constexpr std::size_t KiB = 1024;

// One row of the compute-capability table. Values from the CUDA C++ Programming Guide's
// "Technical Specifications per Compute Capability" table; resident blocks per SM follow the
// toolkit's cuda_occupancy.h (cudaOccMaxBlocksPerMultiprocessor), because that is what the
// occupancy calculation and the driver use, and where the two disagree (sm_110, sm_12x) the
// header is the one that matched the driver.
struct ArchRow
{
    int major;
    int minor;
    int maxThreadsPerSm;
    int maxBlocksPerSm;
    std::size_t sharedPerSmBytes;
    std::size_t reservedSharedPerBlockBytes;
};

// Every real architecture NVRTC 13.0 accepts (nvrtcGetSupportedArchs: 75 80 86 87 88 89 90
// 100 103 110 120 121). sm_101 was renamed sm_110 in CUDA 13; sm_88 is new in CUDA 13 and
// not yet in the guide's table: it gets the sm_86 row, which is what cuda_occupancy.h assumes
// for an 8.x part other than 8.0/8.7/8.9 (16 blocks, at most 100 KB of shared memory).
constexpr std::array kArchRows = {
    ArchRow{7, 5, 1024, 16, 64 * KiB, 0},         ArchRow{8, 0, 2048, 32, 164 * KiB, 1 * KiB},
    ArchRow{8, 6, 1536, 16, 100 * KiB, 1 * KiB},  ArchRow{8, 7, 1536, 16, 164 * KiB, 1 * KiB},
    ArchRow{8, 8, 1536, 16, 100 * KiB, 1 * KiB},  ArchRow{8, 9, 1536, 24, 100 * KiB, 1 * KiB},
    ArchRow{9, 0, 2048, 32, 228 * KiB, 1 * KiB},  ArchRow{10, 0, 2048, 32, 228 * KiB, 1 * KiB},
    ArchRow{10, 3, 2048, 32, 228 * KiB, 1 * KiB}, ArchRow{11, 0, 2048, 24, 228 * KiB, 1 * KiB},
    ArchRow{12, 0, 1536, 24, 100 * KiB, 1 * KiB}, ArchRow{12, 1, 1536, 24, 100 * KiB, 1 * KiB},
};

ArchLimits limitsFromRow(const ArchRow &row)
{
    ArchLimits limits;
    limits.major = row.major;
    limits.minor = row.minor;
    limits.maxThreadsPerSm = row.maxThreadsPerSm;
    limits.maxBlocksPerSm = row.maxBlocksPerSm;
    limits.sharedPerSmBytes = row.sharedPerSmBytes;
    limits.reservedSharedPerBlockBytes = row.reservedSharedPerBlockBytes;
    // A block may opt in to everything the SM has except what the driver reserves for it.
    limits.sharedPerBlockOptinBytes = row.sharedPerSmBytes - row.reservedSharedPerBlockBytes;
    return limits;
}

bool parseNumber(std::string_view text, int &value)
{
    if (text.empty()) {
        return false;
    }
    const auto *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end;
}

} // namespace

std::string ArchLimits::name() const
{
    return "sm_" + std::to_string(major * 10 + minor);
}

std::optional<std::pair<int, int>> parseArch(std::string_view arch)
{
    for (std::string_view prefix : {"sm_", "compute_"}) {
        if (arch.starts_with(prefix)) {
            arch.remove_prefix(prefix.size());
            break;
        }
    }
    // "a" (architecture-specific) and "f" (family) variants run on the base architecture's
    // hardware, so their limits are the base architecture's.
    if (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) {
        arch.remove_suffix(1);
    }
    int number = 0;
    if (arch.size() < 2 || !parseNumber(arch, number) || number <= 0) {
        return std::nullopt;
    }
    return std::pair{number / 10, number % 10};
}

std::optional<ArchLimits> archLimits(std::string_view arch)
{
    const auto version = parseArch(arch);
    if (!version) {
        return std::nullopt;
    }
    for (const ArchRow &row : kArchRows) {
        if (row.major == version->first && row.minor == version->second) {
            return limitsFromRow(row);
        }
    }
    return std::nullopt;
}

std::vector<std::string> knownArchs()
{
    std::vector<std::string> names;
    names.reserve(kArchRows.size());
    for (const ArchRow &row : kArchRows) {
        names.push_back(limitsFromRow(row).name());
    }
    return names;
}

} // namespace cuwb
