#include "launch/launchvalidation.h"

#include "util/format.h"

#include "compiler/kernelinfo.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace cuwb {

namespace {

bool multiplyOverflows(std::uint64_t a, std::uint64_t b, std::uint64_t &product)
{
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        return true;
    product = a * b;
    return false;
}

} // namespace

std::uint64_t sharedMemoryBytes(const ResolvedLaunch &resolved, const KernelResources &resources)
{
    return std::uint64_t(std::max(resources.staticSharedBytes, 0)) + resolved.dynamicSharedBytes;
}

bool needsSharedMemoryOptIn(const ResolvedLaunch &resolved, const KernelResources &resources,
                            const ArchLimits &limits)
{
    return sharedMemoryBytes(resolved, resources) > limits.sharedPerBlockBytes;
}

std::vector<LaunchIssue> validateLaunch(const ResolvedLaunch &resolved,
                                        const KernelResources &resources,
                                        const ValidationContext &context)
{
    std::vector<LaunchIssue> issues = resolved.issues;
    const ArchLimits &limits = context.limits;
    const std::string &who = context.limitsName.empty() ? limits.name() : context.limitsName;
    auto add = [&](std::string field, std::string message) {
        issues.push_back(LaunchIssue{std::move(field), std::move(message), -1});
    };
    static const char *const kAxes[] = {"x", "y", "z"};

    for (int axis = 0; axis < 3; ++axis) {
        const std::uint64_t value = resolved.block[std::size_t(axis)];
        if (value > std::uint64_t(limits.maxBlockDim[axis]))
            add(std::string("block.") + kAxes[axis],
                "block." + std::string(kAxes[axis]) + " is " + std::to_string(value) + "; " + who +
                    " allows " + std::to_string(limits.maxBlockDim[axis]));
    }
    std::uint64_t threads = 1;
    bool threadsOverflow = false;
    for (const std::uint64_t value : resolved.block)
        threadsOverflow = threadsOverflow || multiplyOverflows(threads, value, threads);
    if (threadsOverflow || threads > std::uint64_t(limits.maxThreadsPerBlock)) {
        add("block",
            "block has " +
                (threadsOverflow ? std::string("more than 2^64") : std::to_string(threads)) +
                " threads; " + who + " allows " + std::to_string(limits.maxThreadsPerBlock));
    }
    if (!threadsOverflow && resources.maxThreadsPerBlock > 0 &&
        threads > std::uint64_t(resources.maxThreadsPerBlock) &&
        threads <= std::uint64_t(limits.maxThreadsPerBlock)) {
        add("block", "block has " + std::to_string(threads) +
                         " threads; the kernel's __launch_bounds__ allows " +
                         std::to_string(resources.maxThreadsPerBlock));
    }
    for (int axis = 0; axis < 3; ++axis) {
        const std::uint64_t value = resolved.grid[std::size_t(axis)];
        if (value > std::uint64_t(limits.maxGridDim[axis]))
            add(std::string("grid.") + kAxes[axis],
                "grid." + std::string(kAxes[axis]) + " is " + std::to_string(value) + "; " + who +
                    " allows " + std::to_string(limits.maxGridDim[axis]));
    }
    std::uint64_t blocks = 1;
    std::uint64_t totalThreads = 0;
    bool gridOverflow = false;
    for (const std::uint64_t value : resolved.grid)
        gridOverflow = gridOverflow || multiplyOverflows(blocks, value, blocks);
    if (!threadsOverflow && !gridOverflow)
        gridOverflow = multiplyOverflows(blocks, threads, totalThreads);
    if (gridOverflow)
        add("grid", "grid × block is more than 2^64 threads, which no index can count");

    // Shared memory: up to sharedPerBlockBytes as is; above it up to the opt-in limit, which
    // the worker must request with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
    const std::uint64_t staticShared = std::uint64_t(std::max(resources.staticSharedBytes, 0));
    const std::uint64_t shared = staticShared + resolved.dynamicSharedBytes;
    const std::uint64_t sharedLimit =
        std::max(limits.sharedPerBlockBytes, limits.sharedPerBlockOptinBytes);
    if (shared > sharedLimit) {
        std::string message = std::to_string(staticShared) + " static + " +
                              std::to_string(resolved.dynamicSharedBytes) +
                              " dynamic = " + std::to_string(shared) + " bytes; " + who +
                              " allows " + std::to_string(limits.sharedPerBlockBytes);
        if (limits.sharedPerBlockOptinBytes > limits.sharedPerBlockBytes)
            message += " without opt-in and " + std::to_string(limits.sharedPerBlockOptinBytes) +
                       " with it";
        add("shared memory", message);
    }

    if (resources.reported && resources.registers > 0 && !threadsOverflow) {
        const std::uint64_t registers = std::uint64_t(resources.registers) * threads;
        if (registers > std::uint64_t(limits.registersPerBlock))
            add("registers",
                std::to_string(resources.registers) + " per thread × " + std::to_string(threads) +
                    " threads = " + std::to_string(registers) + "; " + who + " allows " +
                    std::to_string(limits.registersPerBlock) + " per block");
    }

    std::uint64_t bufferBytes = 0;
    bool bufferOverflow = false;
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        if (buffer.bytes > std::numeric_limits<std::uint64_t>::max() - bufferBytes)
            bufferOverflow = true;
        else
            bufferBytes += buffer.bytes;
    }
    if (bufferOverflow) {
        add("buffers", "the buffers together need more than 2^64 bytes");
    } else if (context.freeMemoryBytes && bufferBytes > *context.freeMemoryBytes) {
        add("buffers", "buffers need " + formatBytes(bufferBytes) + "; " + who + " has " +
                           formatBytes(*context.freeMemoryBytes) + " free");
    }
    return issues;
}

} // namespace cuwb
