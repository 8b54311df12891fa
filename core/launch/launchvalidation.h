// Checks a resolved launch against the limits of the device (or, without one, of the target
// architecture) before anything touches the GPU. Every issue names the field and the limit.
#pragma once

#include "device/archlimits.h"
#include "launch/launchspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct KernelResources;

struct ValidationContext
{
    ArchLimits limits;      // the device's (DeviceInfo::limits()) or the arch's
    std::string limitsName; // "sm_90" or "NVIDIA H200", used in messages
    std::optional<std::uint64_t> freeMemoryBytes; // known only with a device
};

// Static (from ptxas) plus dynamic shared memory of one block, in bytes.
std::uint64_t sharedMemoryBytes(const ResolvedLaunch &resolved, const KernelResources &resources);

// True when the block's shared memory is above the default per-block limit (48 KB) but a
// valid launch: the worker must then set CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to
// resolved.dynamicSharedBytes before launching.
bool needsSharedMemoryOptIn(const ResolvedLaunch &resolved, const KernelResources &resources,
                            const ArchLimits &limits);

// Issues found; empty when the launch can run. Includes resolved.issues first.
std::vector<LaunchIssue> validateLaunch(const ResolvedLaunch &resolved,
                                        const KernelResources &resources,
                                        const ValidationContext &context);

} // namespace cuwb
