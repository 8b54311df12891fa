#include "measure/throughput.h"

#include "device/deviceinfo.h"
#include "launch/expression.h"
#include "launch/launchspec.h"

#include <cmath>
#include <cstdio>

namespace cuwb {

namespace {

std::string gbps(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB/s", value);
    return text;
}

// The value of a bytes or FLOP expression, or an error naming it ("bytes expression: ...").
std::optional<double> evaluateCount(const std::string &what, const std::string &expression,
                                    const Variables &variables, std::vector<std::string> &errors)
{
    const ExpressionValue result = evaluateExpression(expression, variables);
    if (!result.ok()) {
        std::string message = what + " expression '" + expression + "': " + result.error->message;
        if (result.error->position >= 0)
            message += " (at character " + std::to_string(result.error->position + 1) + ")";
        errors.push_back(message);
        return std::nullopt;
    }
    if (!std::isfinite(result.value) || result.value < 0) {
        errors.push_back(what + " expression '" + expression + "' gives " +
                         formatNumber(result.value) + "; it must be a count, 0 or more");
        return std::nullopt;
    }
    return result.value;
}

} // namespace

std::uint64_t defaultBytesMoved(const ResolvedLaunch &launch)
{
    std::uint64_t bytes = 0;
    for (const ResolvedBuffer &buffer : launch.buffers)
        bytes += buffer.role == BufferRole::InOut ? 2 * buffer.bytes : buffer.bytes;
    return bytes;
}

std::optional<double> theoreticalPeakGBps(const DeviceInfo &device)
{
    if (device.memoryClockKHz <= 0 || device.memoryBusWidthBits <= 0)
        return std::nullopt;
    // Double data rate: two transfers per memory clock, bus width in bits.
    return 2.0 * device.memoryClockKHz * 1e3 * device.memoryBusWidthBits / 8.0 / 1e9;
}

Throughput computeThroughput(const ResolvedLaunch &launch, double medianNs,
                             const DeviceInfo &device, const ThroughputOptions &options)
{
    Throughput throughput;
    throughput.bytesExpression = options.bytesExpression;
    throughput.flopsExpression = options.flopsExpression;
    throughput.theoreticalPeakGBps = theoreticalPeakGBps(device);
    if (options.copyCeilingGBps && *options.copyCeilingGBps > 0)
        throughput.copyCeilingGBps = options.copyCeilingGBps;

    if (options.bytesExpression.empty())
        throughput.bytes = static_cast<double>(defaultBytesMoved(launch));
    else
        throughput.bytes =
            evaluateCount("bytes", options.bytesExpression, launch.variables, throughput.errors);
    if (!options.flopsExpression.empty())
        throughput.flops =
            evaluateCount("FLOP", options.flopsExpression, launch.variables, throughput.errors);

    if (!(std::isfinite(medianNs) && medianNs > 0)) {
        throughput.errors.push_back("no positive median time, so no throughput");
        return throughput;
    }
    // bytes per ns is GB/s, FLOP per ns is GFLOP/s.
    if (throughput.bytes)
        throughput.effectiveGBps = *throughput.bytes / medianNs;
    if (throughput.flops)
        throughput.gflops = *throughput.flops / medianNs;

    if (!throughput.effectiveGBps)
        return throughput;
    const double effective = *throughput.effectiveGBps;
    if (throughput.theoreticalPeakGBps) {
        const double peak = *throughput.theoreticalPeakGBps;
        throughput.percentOfPeak = effective / peak * 100.0;
        if (effective > peak) {
            throughput.exceedsPeak = true;
            throughput.warnings.push_back(
                "effective bandwidth " + gbps(effective) + " exceeds the theoretical peak " +
                gbps(peak) + " of " + (device.name.empty() ? "the device" : device.name) +
                ": the declared bytes are more than the kernel moves through DRAM, or the data "
                "came from the L2 cache (hot samples)");
        }
    } else {
        throughput.warnings.push_back(
            "the device does not report its memory clock and bus width, so there is no "
            "theoretical peak to compare with");
    }
    if (throughput.copyCeilingGBps)
        throughput.percentOfCeiling = effective / *throughput.copyCeilingGBps * 100.0;
    return throughput;
}

} // namespace cuwb
