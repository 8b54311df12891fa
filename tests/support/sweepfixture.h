// A sweep result with a point of every kind, for the JSON and export tests: two zipped axes
// (block.x and -DTILE), three measured points (the best and one within its noise), a wrong
// one that is faster, a point skipped for the limits, one that did not compile (each with its
// skip kind), one that timed out and one left pending by a cancel. data/sweep_result.* hold what
// the writers must give.
#pragma once

#include "sweep/sweep.h"

#include <string>
#include <vector>

namespace sweepfixture {

using namespace cuwb;

inline Measurement measurementOf(std::vector<double> samples, double median, double mean,
                                 double stddev, double noise)
{
    Measurement m;
    m.settings = SweepSpec::defaultSweepSettings();
    m.samplesNs = samples;
    m.eventSamplesNs = samples;
    m.statistics.count = samples.size();
    m.statistics.medianNs = median;
    m.statistics.meanNs = mean;
    m.statistics.minNs = *std::min_element(samples.begin(), samples.end());
    m.statistics.maxNs = *std::max_element(samples.begin(), samples.end());
    m.statistics.stddevNs = stddev;
    m.statistics.relativeNoise = noise;
    m.stop = {true, StopReason::FixedCount, "fixed count reached"};
    m.throughput.theoreticalPeakGBps = 4814.3;
    m.throughput.copyCeilingGBps = 4210.0;
    m.provenance.deviceName = "NVIDIA H200";
    m.provenance.arch = "sm_90";
    return m;
}

inline SweepPointResult point(std::size_t index, const std::string &blockX, const std::string &tile,
                              std::uint64_t grid)
{
    SweepPointResult r;
    r.point.index = index;
    r.point.values = {{"block.x", blockX}, {"-DTILE", tile}};
    r.point.request.source = "__global__ void tile_kernel(float *a) {}\n";
    r.point.request.fileName = "tile.cu";
    r.point.request.launch.kernel = "tile_kernel";
    r.point.request.launch.block = {blockX, "1", "1"};
    r.point.request.options.defines = {"TILE=" + tile};
    r.point.block = {std::stoull(blockX), 1, 1};
    r.point.grid = {grid, 1, 1};
    return r;
}

inline SweepResult result()
{
    SweepResult result;
    result.projectName = "tile";
    result.kernel = "tile_kernel";
    result.sourceHash = "fnv1a64:0123456789abcdef";
    result.deviceName = "NVIDIA H200";
    result.startedAt = "2025-01-02T03:04:00Z";
    result.wallSeconds = 12.5;
    result.cancelled = true;
    result.theoreticalPeakGBps = 4814.3;
    result.copyCeilingGBps = 4210.0;
    result.notes = {"a note"};
    SweepAxis blockX;
    blockX.target = "block.x";
    blockX.values = {"128", "256", "512", "512", "2048", "128", "64", "32"};
    SweepAxis tile;
    tile.target = "-DTILE";
    tile.values = {"8", "16", "16", "32", "8", "24", "8", "8"};
    result.spec.axes = {blockX, tile};
    result.spec.combination = AxisCombination::Zip;
    result.spec.verify = true;

    SweepPointResult p0 = point(0, "128", "8", 8192);
    p0.status = PointStatus::Measured;
    p0.measurement = measurementOf({1900, 2000, 2100}, 2000, 2000, 100, 0.05);
    p0.measurement->throughput.effectiveGBps = 1500;
    p0.measurement->throughput.percentOfPeak = 30;
    p0.measurement->throughput.percentOfCeiling = 35;
    p0.theoreticalOccupancy = 1.0;
    p0.occupancyLimiter = "warps";
    p0.waves = 2.5;
    p0.registersPerThread = 16;
    p0.compileMs = 30;
    p0.verifyMs = 2;
    p0.wallSeconds = 0.05;
    p0.measuredAt = "2025-01-02T03:04:05Z";

    SweepPointResult p1 = point(1, "256", "16", 4096);
    p1.status = PointStatus::Measured;
    p1.measurement = measurementOf({1490, 1500, 1510}, 1500, 1500, 10, 10.0 / 1500.0);
    p1.measurement->throughput.effectiveGBps = 2000;
    p1.measurement->throughput.percentOfPeak = 40;
    p1.measurement->throughput.percentOfCeiling = 46.5;
    p1.measurement->throughput.gflops = 0.5;
    p1.theoreticalOccupancy = 1.0;
    p1.occupancyLimiter = "warps";
    p1.waves = 1.25;
    p1.registersPerThread = 16;
    p1.compileMs = 31;
    p1.verifyMs = 2;
    p1.wallSeconds = 0.04;
    p1.measuredAt = "2025-01-02T03:04:06Z";

    SweepPointResult p2 = point(2, "512", "16", 2048);
    p2.status = PointStatus::Measured;
    p2.measurement = measurementOf({1490, 1550, 1610}, 1550, 1550, 60, 60.0 / 1550.0);
    p2.measurement->throughput.effectiveGBps = 1935.5;
    p2.measurement->throughput.percentOfPeak = 38.71;
    p2.measurement->throughput.percentOfCeiling = 45;
    p2.theoreticalOccupancy = 1.0;
    p2.occupancyLimiter = "warps";
    p2.waves = 0.625;
    p2.registersPerThread = 16;
    p2.verifyMs = 2;
    VerificationResult verified;
    verified.ran = verified.passed = true;
    verified.output = "c";
    verified.label = "`c` (expression)";
    verified.message = "all 2048 elements of `c` match";
    verified.checked = 2048;
    verified.maxAbsError = 2.5e-7;
    verified.maxAbsErrorIndex = 12;
    verified.maxRelError = 1e-7;
    verified.maxRelErrorIndex = 40;
    p2.checks = {verified};
    p2.wallSeconds = 0.03;
    p2.measuredAt = "2025-01-02T03:04:07Z";

    SweepPointResult p3 = point(3, "512", "32", 2048);
    p3.status = PointStatus::Wrong;
    p3.message = "3 of 4 elements differ (abs > 0)";
    p3.measurement = measurementOf({1000, 1000, 1000}, 1000, 1000, 0, 0);
    p3.measurement->throughput.effectiveGBps = 3000;
    p3.measurement->throughput.percentOfPeak = 62.31;
    p3.measurement->throughput.percentOfCeiling = 71.26;
    p3.theoreticalOccupancy = 0.5;
    p3.occupancyLimiter = "registers";
    p3.waves = 1.25;
    p3.registersPerThread = 64;
    p3.verifyMs = 2;
    VerificationResult differs;
    differs.ran = true;
    differs.output = "c";
    differs.message = "3 of 4 elements differ (abs > 0)";
    differs.checked = 4;
    differs.mismatches = 3;
    differs.maxError = 0.5;
    differs.maxErrorIndex = 3;
    differs.maxAbsError = 0.5;
    differs.maxAbsErrorIndex = 3;
    differs.maxRelError = 0.25;
    differs.maxRelErrorIndex = 3;
    VerificationResult matches = verified;
    matches.output = "d";
    matches.maxAbsError = 0.0;
    matches.maxRelError = 0.0;
    p3.checks = {matches, differs};
    p3.wallSeconds = 0.03;
    p3.measuredAt = "2025-01-02T03:04:08Z";

    SweepPointResult p4 = point(4, "2048", "8", 512);
    p4.point.skipReason = "block has 2048 threads; NVIDIA H200 allows 1024";
    p4.point.skipKind = SkipKind::Limits;
    p4.status = PointStatus::Skipped;
    p4.message = p4.point.skipReason;
    p4.measuredAt = "2025-01-02T03:04:09Z";

    SweepPointResult p5 = point(5, "128", "24", 8192);
    p5.status = PointStatus::Skipped;
    p5.compileFailed = true;
    p5.message = "does not compile: tile.cu:4:2: #error directive: TILE 24, \"no\"";
    p5.point.skipReason = p5.message;
    p5.point.skipKind = SkipKind::Compile;
    p5.compileMs = 25;
    p5.wallSeconds = 0.025;
    p5.measuredAt = "2025-01-02T03:04:10Z";

    SweepPointResult p6 = point(6, "64", "8", 16384);
    p6.status = PointStatus::Failed;
    p6.message = "timeout: ran past its 10 s deadline";
    p6.measurement = Measurement{};
    p6.measurement->faultStatus = "timeout";
    p6.measurement->faultMessage = "ran past its 10 s deadline";
    p6.registersPerThread = 16;
    p6.verifyMs = 2;
    p6.wallSeconds = 10.5;
    p6.measuredAt = "2025-01-02T03:04:21Z";

    SweepPointResult p7 = point(7, "32", "8", 32768);
    p7.message = "cancelled before it was measured";

    result.points = {p0, p1, p2, p3, p4, p5, p6, p7};
    return result;
}

} // namespace sweepfixture
