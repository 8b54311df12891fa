// Synthetic sweep results for the profiler view's tests, shaped like the H200 measurements in
// docs/measurement.md: a one-float-per-thread copy whose bandwidth rises from about
// 430 GB/s at block 32 to about 2.5 TB/s near block 256, against a theoretical peak of
// 4814 GB/s and a copy ceiling of 4209 GB/s. Occupancy and waves follow the sm_90 limits (64
// warps and 32 blocks per SM, 132 SMs) for a kernel whose registers do not limit it.
#pragma once

#include "sweep/sweep.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace cuwb::testdata {

inline constexpr double kPeakGBps = 4814.0;
inline constexpr double kCeilingGBps = 4209.0;
inline constexpr int kSms = 132;

// docs/measurement.md's copy curve, interpolated linearly between the measured block sizes.
inline double copyGBps(double block)
{
    static constexpr std::array<std::pair<double, double>, 8> measured{{{32, 426},
                                                                        {64, 851},
                                                                        {128, 1694},
                                                                        {192, 2470},
                                                                        {256, 2560},
                                                                        {512, 2360},
                                                                        {768, 1810},
                                                                        {1024, 2120}}};
    if (block <= measured.front().first)
        return measured.front().second * block / measured.front().first;
    for (std::size_t i = 1; i < measured.size(); ++i) {
        if (block <= measured[i].first) {
            const auto [x0, y0] = measured[i - 1];
            const auto [x1, y1] = measured[i];
            return y0 + (y1 - y0) * (block - x0) / (x1 - x0);
        }
    }
    return measured.back().second;
}

struct Occupancy
{
    double theoretical = 0.0; // 0..1
    int blocksPerSm = 0;
    std::string limiter;
};

inline Occupancy occupancyOf(int threads)
{
    const int warps = (threads + 31) / 32;
    Occupancy o;
    o.blocksPerSm = std::min(32, 64 / std::max(1, warps));
    o.limiter = o.blocksPerSm == 32 ? "blocks" : "warps";
    o.theoretical = double(o.blocksPerSm * warps) / 64.0;
    return o;
}

// A measured point of a copy of `elements` floats at `threads` threads a block, running at
// `gbps`, with samples spread by `noise` (relative standard deviation).
inline SweepPointResult copyPoint(std::vector<std::pair<std::string, std::string>> values,
                                  int threads, double elements, double gbps, double noise = 0.006)
{
    SweepPointResult p;
    p.point.values = std::move(values);
    p.point.request.launch.block = {std::to_string(threads), "1", "1"};
    for (const auto &[target, value] : p.point.values) {
        if (target == "block.x")
            p.point.request.launch.block[0] = value;
        else if (target == "block.y")
            p.point.request.launch.block[1] = value;
    }
    const auto number = [](const std::string &text) { return std::uint64_t(std::stoull(text)); };
    p.point.block = {number(p.point.request.launch.block[0]),
                     number(p.point.request.launch.block[1]), 1};
    p.point.grid = {std::uint64_t(std::ceil(elements / threads)), 1, 1};
    p.status = PointStatus::Measured;
    const double bytes = 2.0 * 4.0 * elements;
    const double medianNs = bytes / gbps; // bytes per ns is GB/s
    Measurement m;
    m.statistics.count = 20;
    m.statistics.medianNs = medianNs;
    m.statistics.meanNs = medianNs * 1.001;
    m.statistics.minNs = medianNs * 0.993;
    m.statistics.maxNs = medianNs * 1.012;
    m.statistics.stddevNs = medianNs * noise;
    m.statistics.relativeNoise = noise / 1.001;
    m.statistics.totalNs = m.statistics.meanNs * 20;
    m.throughput.bytes = bytes;
    m.throughput.effectiveGBps = gbps;
    m.throughput.theoreticalPeakGBps = kPeakGBps;
    m.throughput.percentOfPeak = gbps / kPeakGBps * 100.0;
    m.throughput.copyCeilingGBps = kCeilingGBps;
    m.throughput.percentOfCeiling = gbps / kCeilingGBps * 100.0;
    m.samplesNs.assign(20, medianNs);
    p.measurement = m;
    const Occupancy o = occupancyOf(threads);
    p.theoreticalOccupancy = o.theoretical;
    p.occupancyLimiter = o.limiter;
    const double blocks = std::ceil(elements / threads);
    p.waves = blocks / (double(o.blocksPerSm) * kSms);
    MetricsResult metrics;
    metrics.chip = "GH100";
    metrics.passes = 1;
    // A little more read than the kernel needs: DRAM and effective bandwidth differ slightly.
    metrics.values["dram__bytes_read.sum"] = bytes / 2 * 1.004;
    metrics.values["dram__bytes_write.sum"] = bytes / 2;
    metrics.values["sm__warps_active.avg.pct_of_peak_sustained_active"] =
        o.theoretical * 100.0 * (0.86 + 0.04 * std::sin(threads * 0.05));
    metrics.values["gpu__time_duration.sum"] = medianNs;
    p.metrics = metrics;
    return p;
}

inline SweepResult withHeader(SweepResult result)
{
    result.projectName = "copy";
    result.kernel = "copy";
    result.deviceName = "NVIDIA H200";
    result.theoreticalPeakGBps = kPeakGBps;
    result.copyCeilingGBps = kCeilingGBps;
    result.startedAt = "2026-11-29T12:00:00Z";
    for (std::size_t k = 0; k < result.points.size(); ++k)
        result.points[k].point.index = k;
    return result;
}

inline SweepAxis blockAxis(const std::string &target, AxisValues kind, double from, double to,
                           double step = 1.0)
{
    SweepAxis axis;
    axis.target = target;
    axis.kind = kind;
    axis.from = from;
    axis.to = to;
    axis.step = step;
    return axis;
}

// Block sizes 32, 64, ..., 1024 of a 1 GiB copy (2^28 floats): 32 points. `slowdown` > 1 makes
// a slower run (a baseline).
inline SweepResult copySweep(double elements = double(1 << 28), double slowdown = 1.0)
{
    SweepResult result;
    result.spec.axes = {blockAxis("block.x", AxisValues::Range, 32, 1024, 32)};
    for (int block = 32; block <= 1024; block += 32) {
        // A deterministic ripple of ±1.5%, as real sweeps are never smooth.
        const double gbps = copyGBps(block) * (1.0 + 0.015 * std::sin(block * 0.37)) / slowdown;
        result.points.push_back(
            copyPoint({{"block.x", std::to_string(block)}}, block, elements, gbps));
    }
    return withHeader(std::move(result));
}

// block.x 32..1024 (powers of two) × -DTILE 1, 2, 4: each thread copies TILE floats.
inline SweepResult defineSweep()
{
    SweepResult result;
    SweepAxis tile;
    tile.target = "-DTILE";
    tile.values = {"1", "2", "4"};
    result.spec.axes = {blockAxis("block.x", AxisValues::PowersOfTwo, 32, 1024), tile};
    for (int block = 32; block <= 1024; block *= 2) {
        for (int t : {1, 2, 4}) {
            const double gbps = std::min(kCeilingGBps * 0.95, copyGBps(block) * (1.0 + 0.2 * t));
            result.points.push_back(
                copyPoint({{"block.x", std::to_string(block)}, {"-DTILE", std::to_string(t)}},
                          block, double(1 << 28), gbps));
        }
    }
    return withHeader(std::move(result));
}

// block.x 8..1024 × block.y 1..32 (powers of two) of a 2-D copy: the points over 1024 threads
// are skipped, one point's output is wrong and one point faulted.
inline SweepResult heatmapSweep()
{
    SweepResult result;
    result.spec.axes = {blockAxis("block.x", AxisValues::PowersOfTwo, 8, 1024),
                        blockAxis("block.y", AxisValues::PowersOfTwo, 1, 32)};
    for (int x = 8; x <= 1024; x *= 2) {
        for (int y = 1; y <= 32; y *= 2) {
            std::vector<std::pair<std::string, std::string>> values{{"block.x", std::to_string(x)},
                                                                    {"block.y", std::to_string(y)}};
            const int threads = x * y;
            if (threads > 1024) {
                SweepPointResult skipped;
                skipped.point.values = values;
                skipped.point.skipReason =
                    "block.x*block.y = " + std::to_string(threads) + " > 1024 threads";
                skipped.status = PointStatus::Skipped;
                skipped.message = skipped.point.skipReason;
                result.points.push_back(std::move(skipped));
                continue;
            }
            // Rows shorter than a warp's 32 floats waste sectors; more threads hide latency.
            const double coalescing = std::min(1.0, x / 32.0) * 0.7 + 0.3;
            const double gbps = copyGBps(threads) * coalescing;
            SweepPointResult p = copyPoint(values, threads, double(1 << 26), gbps);
            if (x == 16 && y == 4) {
                p.status = PointStatus::Wrong;
                p.message = "12 of 67108864 elements differ (first at 4096)";
            } else if (x == 64 && y == 16) {
                p.status = PointStatus::Failed;
                p.message = "the kernel faulted: illegal address";
                p.measurement.reset();
            }
            result.points.push_back(std::move(p));
        }
    }
    return withHeader(std::move(result));
}

} // namespace cuwb::testdata
