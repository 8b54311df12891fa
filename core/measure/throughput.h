// Throughput: what a median kernel time means in bytes and FLOPs — effective bandwidth from the
// bytes the kernel must move (declared by the argument roles or by an expression), as a share
// of the device's theoretical DRAM peak and of the measured copy ceiling, and GFLOP/s from a
// FLOP expression. A figure above the theoretical peak is reported as a warning, never hidden.
#pragma once

#include "measure/measurement.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cuwb {

struct DeviceInfo;
struct ResolvedLaunch;

struct ThroughputOptions
{
    std::string bytesExpression; // empty: defaultBytesMoved()
    std::string flopsExpression; // empty: no FLOP figure
    std::optional<double> copyCeilingGBps;
};

// Each In buffer read once, each Out buffer written once, each InOut buffer both.
std::uint64_t defaultBytesMoved(const ResolvedLaunch &launch);

// 2 x memory clock x bus width / 8 in GB/s (1e9 bytes); nullopt when the device does not say.
std::optional<double> theoreticalPeakGBps(const DeviceInfo &device);

// Expressions see the launch's variables (N, block.x, grid.x, ...).
Throughput computeThroughput(const ResolvedLaunch &launch, double medianNs,
                             const DeviceInfo &device, const ThroughputOptions &options);

} // namespace cuwb
