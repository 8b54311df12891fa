// Measurement: the value types of timing a kernel — how to sample (SampleSettings), what the
// samples say (SampleStatistics), why sampling stopped (StopDecision), what the median time
// means in bytes and FLOPs (Throughput), and the whole result (Measurement). Every figure
// carries its unit in its name. The method is in docs/measurement.md and
// docs/measurement.md; the GPU side that fills these lives in the worker.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

// Cold: L2 flushed before each sample (the default, right for bandwidth). Hot: back-to-back
// launches, so data left in L2 by the previous launch is reused.
enum class SampleMode { Cold, Hot };
const char *sampleModeName(SampleMode mode); // "cold", "hot"

// What times each sample (docs/measurement.md, "What each timing includes"): CUPTI's kernel
// records (the default), the profiler's gpu__time_duration (what Nsight Compute reports; needs
// profiling permission, costs host time per sample), or the cuEvents around each launch.
enum class TimingSource { Cupti, Events, Profiler };
const char *timingSourceName(TimingSource source); // "cupti", "events", "profiler"

struct SampleSettings
{
    SampleMode mode = SampleMode::Cold;
    int fixedSamples = 0; // > 0: take exactly this many (time cap still applies); 0: adaptive
    int minSamples = 10;
    double minGpuTimeSeconds = 0.5;
    double targetRelativeNoise = 0.005; // stddev / mean
    double timeCapSeconds = 15.0;
    int warmupLaunches = 1;
    TimingSource timer = TimingSource::Cupti; // asked for; Measurement::timingSource is used
    // "Noise no longer shrinking": the relative noise now is not at least
    // plateauMinImprovement (relative) below what it was plateauWindowSamples samples ago.
    int plateauWindowSamples = 32;
    double plateauMinImprovement = 0.05;
    // Guarded (grading, docs/grading.md): before every sample the module's globals, the inputs
    // and the poisoned outputs are put back as the first launch found them, and after it the
    // output is verified; a wrong sample ends the measurement (StopReason::WrongSample).
    bool guarded = false;
    bool operator==(const SampleSettings &) const = default;
};

// Expressions over the launch variables for the work a kernel does: bytes moved (empty: each
// input buffer read once and each output written once) and FLOPs (empty: no GFLOP/s figure).
struct ThroughputExpressions
{
    std::string bytes; // "2 * 4 * N"
    std::string flops; // "2 * M * N * K"
    bool operator==(const ThroughputExpressions &) const = default;
};

// What a project says about measuring its kernel (its "measure" section).
struct MeasureSpec
{
    SampleSettings settings;
    ThroughputExpressions throughput;
    bool operator==(const MeasureSpec &) const = default;
};

// Why the settings cannot be used ("minSamples must be at least 2, found 1"), or nullopt.
std::optional<std::string> checkSampleSettings(const SampleSettings &settings);

struct SampleStatistics
{
    std::size_t count = 0;
    double medianNs = 0.0;
    double meanNs = 0.0;
    double minNs = 0.0;
    double maxNs = 0.0;
    double stddevNs = 0.0;      // unbiased (n - 1); 0 with fewer than two samples
    double relativeNoise = 0.0; // stddevNs / meanNs; 0 with fewer than two samples
    double totalNs = 0.0;       // sum of the samples: the GPU time spent
    // (mean of the last quarter - mean of the first quarter) / mean, with at least 8 samples,
    // else 0: a steady trend (clocks ramping, thermal throttling) that the noise figure hides.
    double driftRelative = 0.0;
    bool operator==(const SampleStatistics &) const = default;
};

enum class StopReason {
    NotStopped,
    NoiseBelowTarget,  // enough samples and GPU time, and relative noise below the target
    NoiseNotShrinking, // enough samples and GPU time, noise above target but stable
    TimeCap,           // gave up at the time cap; the noise is whatever it is
    FixedCount,        // the fixed number of samples was taken
    Cancelled,         // the user cancelled; the samples taken so far are kept
    Fault,             // a fault or an overrun ended it; the samples before it are kept
    WrongSample,       // guarded: a timed launch's output was wrong; the figures are void
};
const char *stopReasonName(StopReason reason); // "not-stopped", "noise-below-target", ...

struct StopDecision
{
    bool stop = false;
    StopReason reason = StopReason::NotStopped;
    std::string message; // "relative noise 0.21% below the target 0.50% after 10 samples"
    bool operator==(const StopDecision &) const = default;
};

struct Throughput
{
    std::optional<double> bytes;         // declared bytes moved; absent when the expression failed
    std::string bytesExpression;         // empty: each input read once, each output written once
    std::optional<double> effectiveGBps; // bytes / median time, GB = 1e9 bytes
    std::optional<double> theoreticalPeakGBps; // 2 x memory clock x bus width / 8
    std::optional<double> percentOfPeak;
    std::optional<double> copyCeilingGBps; // measured device-to-device copy, when known
    std::optional<double> percentOfCeiling;
    std::string flopsExpression; // empty: no FLOP figure
    std::optional<double> flops;
    std::optional<double> gflops;      // flops / median time, GFLOP = 1e9 FLOP
    bool exceedsPeak = false;          // effectiveGBps above the theoretical peak
    std::vector<std::string> warnings; // shown to the user, never hidden
    std::vector<std::string> errors;   // expression errors: "bytes expression: unknown ..."
    bool operator==(const Throughput &) const = default;
};

// Where a measurement came from, so that a figure can be reproduced or explained later. The
// sample settings and the SM clocks seen are Measurement's own fields beside it.
struct ProvenanceBuffer
{
    std::string parameter;
    std::uint64_t count = 0; // elements
    std::uint64_t bytes = 0;
    bool operator==(const ProvenanceBuffer &) const = default;
};

struct Provenance
{
    std::string deviceName;
    std::string arch; // "sm_90"
    int deviceOrdinal = 0;
    int driverVersion = 0;          // 13000
    std::string toolkitVersion;     // the CUDA headers the worker was built with, "13.0"
    std::string nvrtcVersion;       // "13.0"
    std::string compileOptionsJson; // CompileOptions as compact JSON text
    std::string compiler;           // "nvcc 13.0.88" or "NVRTC 13.0": what built the module
    std::string compileCommand;     // as a user would type it: "nvcc -cubin -arch=sm_90 ..."

    std::string sourceHash; // "fnv1a64:" + 16 hex digits of the source text
    std::uint64_t sourceBytes = 0;
    std::string kernel;
    std::array<unsigned, 3> grid{0, 0, 0};
    std::array<unsigned, 3> block{0, 0, 0};
    std::uint64_t dynamicSharedBytes = 0;
    std::vector<ProvenanceBuffer> buffers;
    int defaultSmClockKHz = 0;
    int memoryClockKHz = 0;
    bool operator==(const Provenance &) const = default;
};

// "fnv1a64:cbf29ce484222325" for empty text: FNV-1a, 64 bit, of the bytes.
std::string sourceHashFnv1a64(std::string_view text);

// Where a measurement's time went in the worker (milliseconds of wall time), so that what a
// point of a sweep costs beyond its samples can be told apart and reported.
struct MeasurementPhases
{
    double prepareMs = 0.0;  // copy ceiling (first time only), compile or load, buffers set up
    double setupMs = 0.0;    // kernel timer, L2 flush buffer, blocking kernel, NVML
    double warmupMs = 0.0;   // the untimed launches
    double samplingMs = 0.0; // the sampling loop, the timed kernels included
    double finishMs = 0.0;   // statistics and throughput
    double totalMs = 0.0;    // the whole request in the worker, buffers released included
    bool operator==(const MeasurementPhases &) const = default;
};

// One kernel of a launch sequence in a measurement: its part of every sample, timed by the
// same source as the whole.
struct KernelSamples
{
    std::string kernel;            // as the project names it
    std::vector<double> samplesNs; // parallel to Measurement::samplesNs
    SampleStatistics statistics;
    bool operator==(const KernelSamples &) const = default;
};

struct Measurement
{
    SampleSettings settings;
    SampleStatistics statistics;
    StopDecision stop;
    Throughput throughput;
    TimingSource timingSource = TimingSource::Cupti;
    std::vector<std::string> notes; // "CUPTI unavailable: ...; timed with events"
    std::vector<double> samplesNs;  // in the order taken
    // The cuEvent pair around each sample, always taken as a cross-check: includes launch
    // latency, so a few µs longer than CUPTI's figure. Equal to samplesNs when timed by events.
    std::vector<double> eventSamplesNs;
    SampleStatistics eventStatistics;
    // Empty when sampling ended normally; else the RunStatus name ("fault", "timeout", ...)
    // and a plain message of what stopped it. The samples taken before are kept.
    std::string faultStatus;
    std::string faultMessage;
    std::vector<double> smClocksMHz; // per sample when sampled, else empty
    double smClockMinMHz = 0.0;
    double smClockMaxMHz = 0.0;
    std::size_t throttledSamples = 0; // samples below 75% of the default SM clock
    bool throttled = false;
    Provenance provenance;
    MeasurementPhases phases;
    // A launch sequence (docs/projects.md, "then"): each kernel's samples, the first kernel's
    // first. A sample of the whole (samplesNs) is then the sum of its kernels' times (CUPTI,
    // the profiler), or the span from the first kernel's start to the last one's end (events).
    // Empty for one kernel.
    std::vector<KernelSamples> kernels;
    // Guarded sampling: the timed launches whose output was verified (the samples kept, and
    // those taken after the stopping rule was met, which are dropped), and the first wrong
    // one's verdict ("sample 4: 16777216 of 16777216 elements of `c` differ ..."); empty when
    // none was.
    std::size_t verifiedSamples = 0;
    std::string wrongSample;
    bool operator==(const Measurement &) const = default;
};

} // namespace cuwb
