// Sampler: the measurement behind Runner::measure(), one method per phase, as NVBench
// structures its cold measurement. It prepares the launch exactly like run(), sets up the timer
// (CUPTI kernel records, else cuEvents), the L2 flush buffer of cold samples and the blocking
// kernel, warms up, opens NVML for the SM clock, then takes samples held behind the blocking
// kernel and settles them in batches (one CUPTI flush per batch, each sample fed to the
// stopping criterion) until the criterion or the cancel check stops it, and finishes with the
// stop reason, the throughput and the notes. A guarded measurement (run/sampleguard.h) puts the
// GPU back before every sample and verifies every sample's output; a wrong one ends it. A fault or
// overrun part-way keeps the samples taken before it and is rethrown for measure() to report;
// summariseSamples() then adds the statistics and the clock check either way.
#pragma once

#include "cuda/cuptiactivity.h"
#include "cuda/devicememory.h"
#include "device/deviceinfo.h"
#include "measure/measurement.h"
#include "measure/stoppingcriterion.h"
#include "run/preparedlaunch.h"
#include "run/sampleguard.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct RunRequest;
struct RunnerState;

class Sampler
{
public:
    // All borrowed for the Sampler's lifetime; `result` and `phase` are written as it goes.
    Sampler(RunnerState &runner, const RunRequest &request, const SampleSettings &settings,
            const ThroughputExpressions &throughput, Measurement &result, std::string &phase);
    Sampler(const Sampler &) = delete;
    Sampler &operator=(const Sampler &) = delete;

    // The phases in order. Throws ApiError or RunFailure as a run does; what the Sampler holds
    // on the GPU is released (or, after an overrun, leaked) when it is destroyed.
    void run();

private:
    using Clock = std::chrono::steady_clock;

    // A sample taken but not yet settled: its CUPTI record is read with the batch's.
    struct Pending
    {
        std::vector<std::uint32_t> correlations; // one per kernel of the sequence
        double eventNs = 0.0;
        std::vector<double> kernelEventNs; // a sequence: each kernel's part of eventNs
        double clockMHz = 0.0;
    };
    // Stops the CUPTI timer when the measurement fails, unless a kernel overran (then even a
    // flush could wait for it). A measurement that completes sets `keep`: the records stay on
    // for the next one (a sweep's next point), since the first launch after enabling them cost
    // about 0.5 ms on an H200; RunnerState::quietTimer() stops them before anything else runs.
    struct StopTimer
    {
        StopTimer(KernelActivityTimer &timer, const bool &lost);
        ~StopTimer();
        StopTimer(const StopTimer &) = delete;
        StopTimer &operator=(const StopTimer &) = delete;
        KernelActivityTimer &timer;
        const bool &lost;
        bool keep = false;
    };
    // Leaks the L2 flush buffer after an overrun: cuMemFree would wait for the kernel.
    struct LeakScratch
    {
        LeakScratch(DeviceBuffer &buffer, const bool &lost);
        ~LeakScratch();
        LeakScratch(const LeakScratch &) = delete;
        LeakScratch &operator=(const LeakScratch &) = delete;
        DeviceBuffer &buffer;
        const bool &lost;
    };

    void measureCopyCeiling();
    void prepare();
    void startTimer();
    void startActivityTimer();
    void allocateFlushBuffer();
    void setUpBlocker();
    void warmUp();
    void openClockReader();
    void sampleUntilStopped();
    void finish();

    std::vector<std::uint32_t> launchHeld();
    std::vector<double> kernelEventTimes() const;
    void addKernelSamples(const std::vector<double> &kernelNs, const std::vector<double> &eventNs);
    void takeSample(std::size_t n);
    std::size_t takeProfiledBatch(std::size_t first);
    [[nodiscard]] bool batchDone() const;
    bool settle(bool mayFlush);
    void fallBackToEvents(const std::string &why);
    [[nodiscard]] double elapsedSeconds() const;

    RunnerState &m_runner;
    const RunRequest &m_request;
    const SampleSettings &m_settings;
    const ThroughputExpressions &m_throughput;
    Measurement &m_result;
    std::string &m_phase;

    // Created phase by phase in this order and destroyed in the reverse one: the events, then
    // the flush buffer (leaked after an overrun), then the timer stopped (not after an
    // overrun), then the launch's resources (leaked after an overrun).
    Prepared m_prepared;
    LeakOnLoss m_leak;
    std::optional<SampleGuard> m_guard; // a guarded measurement's (settings.guarded)
    std::size_t m_kernels = 1;          // in the sequence
    bool m_cupti = false;               // timing with CUPTI's records
    bool m_profiler = false; // timing with the profiler's gpu__time_duration; neither: cuEvents
    std::optional<StopTimer> m_stopTimer;
    DeviceBuffer m_scratch; // the L2 flush buffer of cold samples
    LeakScratch m_leakScratch;
    std::size_t m_blockerTimeouts = 0;
    std::uint32_t m_firstCorrelation = 0; // CUPTI's id of the first launch it recorded
    std::uint64_t m_lostBefore = 0;       // the timer's lost records before it
    std::optional<Event> m_started;
    std::optional<Event> m_finished;
    std::vector<Event> m_marks; // a sequence: after each kernel but the last
    // A sequence: each kernel's event samples, kept to fall back to when CUPTI loses a record.
    std::vector<std::vector<double>> m_kernelEventNs;
    double m_lastEventNs = 0.0; // the last launch's event time: how long the next wait will be

    StoppingCriterion m_criterion;
    bool m_cancelled = false;
    Clock::time_point m_begin;
    // Samples wait here until CUPTI's records are flushed (see sampleUntilStopped()).
    std::vector<Pending> m_pending;
    double m_pendingEventNs = 0.0;
};

// What measure() adds once sampling ended, whether or not it finished: the statistics of both
// timings, the SM clock check (throttling), the fault's stop reason and the launch-bound note.
void summariseSamples(Measurement &result, const DeviceInfo &device);

} // namespace cuwb
