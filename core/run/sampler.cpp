#include "run/sampler.h"

#include "compiler/compilejson.h"
#include "cuda/apierror.h"
#include "cuda/cuptiprofiler.h"
#include "cuda/driverapi.h"
#include "cuda/driverwrappers.h"
#include "cuda/nvml.h"
#include "cuda/nvrtcinfo.h"
#include "measure/statistics.h"
#include "measure/throughput.h"
#include "run/devicefaults.h"
#include "run/gpuhelpers.h"
#include "run/runnerstate.h"
#include "run/runrequest.h"
#include "run/runtext.h"

#include <cuda.h> // CUDA_VERSION only: the toolkit this worker was built with

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

namespace cuwb {

namespace {

// How long the blocking kernel holds a stream at most: far longer than the host needs to queue
// one sample (microseconds), short enough that a stalled host costs one slow sample, not a hang.
constexpr std::uint64_t kHoldTimeoutNs = 1'000'000'000;

// What a cuEvent pair adds to a kernel's time even with the launch held (docs/measurement.md).
constexpr const char *kEventCaveat =
    ", which read about 3 µs more than the kernel ran on an H200 (the records' own cost)";

// A batch of samples settles at 32 samples or 10 ms of kernel time (see sampleUntilStopped()).
constexpr std::size_t kBatchSamples = 32;
constexpr double kBatchEventNs = 10e6;

// The profiler's figure for a kernel's time, as Nsight Compute reports it.
constexpr const char *kProfiledTime = "gpu__time_duration.sum";

// The lower of the SM clock readings before and after a span (a dip during it is not missed);
// 0 when neither was read, which checkClocks ignores.
double lowerClock(std::optional<unsigned> before, std::optional<unsigned> after)
{
    if (!before && !after) {
        return 0.0;
    }
    return double(std::min(before.value_or(*after), after.value_or(*before)));
}

} // namespace

Sampler::StopTimer::StopTimer(KernelActivityTimer &timer, const bool &lost)
    : timer(timer)
    , lost(lost)
{}

Sampler::StopTimer::~StopTimer()
{
    if (!lost && !keep) { // after an overrun even a flush could wait for the kernel
        timer.stop();
    }
}

Sampler::LeakScratch::LeakScratch(DeviceBuffer &buffer, const bool &lost)
    : buffer(buffer)
    , lost(lost)
{}

Sampler::LeakScratch::~LeakScratch()
{
    if (lost) { // cuMemFree would wait for the kernel that overran
        buffer.abandon();
    }
}

Sampler::Sampler(RunnerState &runner, const RunRequest &request, const SampleSettings &settings,
                 const ThroughputExpressions &throughput, Measurement &result, std::string &phase)
    : m_runner(runner)
    , m_request(request)
    , m_settings(settings)
    , m_throughput(throughput)
    , m_result(result)
    , m_phase(phase)
    , m_leak{m_prepared.resources, runner.contextLost}
    , m_leakScratch(m_scratch, runner.contextLost)
    , m_criterion(settings)
{}

void Sampler::run()
{
    MeasurementPhases &phases = m_result.phases;
    Clock::time_point mark = Clock::now();
    // Adds the time since the last mark to `phase`.
    const auto lap = [&mark](double &phase) {
        const Clock::time_point now = Clock::now();
        phase += std::chrono::duration<double, std::milli>(now - mark).count();
        mark = now;
    };
    prepare();
    lap(phases.prepareMs);
    startTimer();
    allocateFlushBuffer();
    setUpBlocker();
    openClockReader();
    lap(phases.setupMs);
    warmUp();
    lap(phases.warmupMs);
    sampleUntilStopped();
    lap(phases.samplingMs);
    finish();
    if (m_stopTimer) {
        m_stopTimer->keep = true;
    }
    // The next measurement (a sweep's next point) reuses the module and the buffers.
    recycleResources(m_runner, m_prepared.resources);
    lap(phases.finishMs);
}

// cuMemcpyDtoD of 1 GiB between two buffers, bytes read plus bytes written over the median
// time of five copies after one warm-up (docs/measurement.md: 4209 GB/s on an H200). Measured once
// per Runner; a GPU without 2 GiB free gets no ceiling and a note, never a failed measurement.
void Sampler::measureCopyCeiling()
{
    RunnerState &s = m_runner;
    if (s.copyCeilingGBps || !s.copyCeilingProblem.empty()) {
        return;
    }
    constexpr std::size_t kBytes = std::size_t(1) << 30;
    try {
        const Stream &stream = *s.stream;
        const DeviceBuffer source(kBytes);
        const DeviceBuffer destination(kBytes);
        fillBytesAsync(source.pointer(), 0x3c, kBytes, stream);
        const Event started;
        const Event finished;
        std::vector<double> timesNs;
        for (int k = 0; k < 6; ++k) {
            started.record(stream);
            copyDeviceToDevice(destination.pointer(), source.pointer(), kBytes, stream);
            finished.record(stream);
            stream.synchronize();
            if (k > 0) { // the first copy is the warm-up
                timesNs.push_back(double(Event::elapsedMs(started, finished)) * 1e6);
            }
        }
        const double medianNs = computeStatistics(timesNs).medianNs;
        if (medianNs > 0.0) {
            s.copyCeilingGBps = 2.0 * double(kBytes) / medianNs; // bytes per ns = GB/s
        } else {
            s.copyCeilingProblem = "the copy took no measurable time";
        }
    } catch (const ApiError &error) {
        if (error.status() != "CUDA_ERROR_OUT_OF_MEMORY") {
            throw;
        }
        s.copyCeilingProblem = "2 GiB of GPU memory were not free for the 1 GiB copy";
    }
}

// The copy ceiling, then the launch prepared exactly like run()'s, and where it came from.
void Sampler::prepare()
{
    // The previous run's buffers go first (or are reused), so this measurement has all the
    // memory.
    recycleResources(m_runner, m_runner.kept);
    m_runner.keptHandles.clear();
    ++m_runner.runs;

    m_phase = "measuring the device-to-device copy ceiling";
    measureCopyCeiling();
    if (!m_runner.copyCeilingProblem.empty()) {
        m_result.notes.push_back("no copy ceiling: " + m_runner.copyCeilingProblem);
    }

    prepareLaunch(m_runner, m_request, m_prepared, m_phase);
    if (!m_prepared.note.empty()) {
        m_result.notes.push_back(m_prepared.note);
    }
    const DeviceInfo &device = m_runner.device;
    Provenance &p = m_result.provenance;
    p.deviceName = device.name;
    p.arch = device.arch();
    p.deviceOrdinal = m_runner.ordinal;
    p.driverVersion = DriverApi::instance().driverVersion();
    p.toolkitVersion = formatCudaVersion(CUDA_VERSION);
    p.nvrtcVersion = nvrtcVersion();
    p.compileOptionsJson = nlohmann::json(m_request.options).dump();
    p.compiler = m_prepared.compiled.compiledBy.label();
    p.compileCommand = m_prepared.compiled.compiledBy.command;
    p.sourceHash = sourceHashFnv1a64(m_request.source);
    p.sourceBytes = m_request.source.size();
    p.kernel = m_request.launch.kernel;
    p.grid = m_prepared.grid;
    p.block = m_prepared.block;
    p.dynamicSharedBytes = m_prepared.dynamicShared;
    for (const Allocation &a : m_prepared.resources->buffers) {
        p.buffers.push_back({a.parameter, a.count, a.bytes});
    }
    if (m_settings.guarded) {
        m_guard.emplace(m_runner, m_prepared, m_request, m_phase);
        if (!m_guard->verifies()) {
            m_result.notes.push_back("guarded: the project has no verification, so the samples' "
                                     "outputs are not checked (the GPU is still restored before "
                                     "each)");
        }
    }
    p.defaultSmClockKHz = device.smClockKHz;
    p.memoryClockKHz = device.memoryClockKHz;
    m_kernels = 1 + m_prepared.steps.size();
    if (m_kernels > 1) {
        for (const std::string &name : sequenceKernelNames(m_prepared)) {
            m_result.kernels.push_back({name, {}, {}});
        }
        m_kernelEventNs.resize(m_kernels);
    }
}

// What the settings ask for: CUPTI's kernel records (when available, else cuEvents and a note
// saying so), the profiler's gpu__time_duration, or the cuEvents.
void Sampler::startTimer()
{
    m_phase = "setting up the kernel timer";
    if (m_settings.timer == TimingSource::Events) {
        m_result.timingSource = TimingSource::Events;
        return;
    }
    if (m_settings.timer == TimingSource::Profiler) {
        m_profiler = true;
        m_result.timingSource = TimingSource::Profiler;
        return;
    }
    startActivityTimer();
}

void Sampler::startActivityTimer()
{
    std::unique_ptr<KernelActivityTimer> &timer = m_runner.timer;
    if (!timer) {
        timer = std::make_unique<KernelActivityTimer>();
    }
    m_cupti = timer->available() && timer->start();
    m_lostBefore = timer->lostRecords();
    m_stopTimer.emplace(*timer, m_runner.contextLost);
    m_result.timingSource = m_cupti ? TimingSource::Cupti : TimingSource::Events;
    if (!m_cupti) {
        m_result.notes.push_back("CUPTI unavailable: " + timer->unavailableReason() +
                                 "; timed with cuEvents" + std::string(kEventCaveat));
    }
}

// Cold samples flush the L2 first by reading a buffer twice its size (docs/measurement.md:
// filling one instead left dirty lines that the timed kernel paid to write back).
void Sampler::allocateFlushBuffer()
{
    if (m_settings.mode == SampleMode::Cold) {
        m_phase = "allocating the L2 flush buffer";
        m_scratch = l2FlushBuffer(m_runner.device, m_runner.gpuHelpers(), *m_runner.stream);
    }
}

// Each launch is queued behind the blocking kernel and released once its events are
// queued too, so the GPU runs started-kernel-finished back to back and the events time the
// kernel rather than the host's launch path (CUPTI's hooks make that 100 µs and more).
void Sampler::setUpBlocker()
{
    m_phase = "setting up the blocking kernel";
    if (!m_runner.holdFlags) {
        m_runner.holdFlags = std::make_unique<MappedHostFlags>();
    }
    m_started.emplace();
    m_finished.emplace();
    m_marks = std::vector<Event>(m_kernels - 1);
}

// One launch of the user's kernel (of each kernel of a sequence, in order) behind the blocking
// kernel, between the two events, an event between the kernels of a sequence; returns CUPTI's
// correlation id of each launch (0 when timing with events).
std::vector<std::uint32_t> Sampler::launchHeld()
{
    MappedHostFlags &hold = *m_runner.holdFlags;
    const Stream &gpu = *m_runner.stream;
    hold.set(0, 0);
    hold.set(1, 0);
    m_runner.gpuHelpers().block(hold, kHoldTimeoutNs, gpu);
    struct Release
    {
        MappedHostFlags &flags;
        ~Release() { flags.set(0, 1); } // also when the launch throws
    } release{hold};
    std::vector<std::uint32_t> correlations;
    m_started->record(gpu);
    launchSequence(m_prepared, gpu, [&](std::size_t k) {
        const std::uint32_t correlation =
            m_cupti ? m_runner.timer->lastLaunchCorrelation().value_or(0) : 0;
        if (m_firstCorrelation == 0) {
            m_firstCorrelation = correlation; // this measurement's records start here
        }
        correlations.push_back(correlation);
        if (k + 1 < m_kernels) {
            m_marks[k].record(gpu);
        }
    });
    m_finished->record(gpu);
    return correlations;
}

// A sequence: each kernel's event time of the last launch, from the events between them.
std::vector<double> Sampler::kernelEventTimes() const
{
    std::vector<double> times;
    if (m_kernels < 2) {
        return times;
    }
    for (std::size_t k = 0; k < m_kernels; ++k) {
        const Event &from = k == 0 ? *m_started : m_marks[k - 1];
        const Event &to = k + 1 == m_kernels ? *m_finished : m_marks[k];
        times.push_back(double(Event::elapsedMs(from, to)) * 1e6);
    }
    return times;
}

// A settled sample of a sequence: each kernel's time by the measurement's source, and its
// event time for a fallback to events.
void Sampler::addKernelSamples(const std::vector<double> &kernelNs,
                               const std::vector<double> &eventNs)
{
    for (std::size_t k = 0; k < m_result.kernels.size(); ++k) {
        m_result.kernels[k].samplesNs.push_back(k < kernelNs.size() ? kernelNs[k] : 0.0);
        m_kernelEventNs[k].push_back(k < eventNs.size() ? eventNs[k] : 0.0);
    }
}

// At least one launch, untimed. Their CUPTI records are not flushed here (a flush costs a
// quarter of a millisecond): each sample is matched by its own correlation id, so the
// warm-ups' records, read with the first batch, are never used.
void Sampler::warmUp()
{
    const int warmups = std::max(1, m_settings.warmupLaunches);
    for (int k = 0; k < warmups; ++k) {
        m_phase = "running the user's kernel (warm-up launch " + std::to_string(k + 1) + ")";
        (void)launchHeld();
        waitOrThrow(*m_finished, m_prepared.deadlineSeconds * double(m_kernels),
                    "the kernel (warm-up launch)", m_runner.contextLost);
        m_lastEventNs = double(Event::elapsedMs(*m_started, *m_finished)) * 1e6;
    }
}

void Sampler::openClockReader()
{
    m_phase = "opening NVML for the SM clock";
    std::unique_ptr<SmClockReader> &clocks = m_runner.clocks;
    if (!clocks) {
        clocks = std::make_unique<SmClockReader>(Device(m_runner.ordinal).pciBusId());
    }
    if (!clocks->available()) {
        m_result.notes.push_back("SM clock not sampled (" + clocks->unavailableReason() +
                                 "); throttling cannot be checked");
    }
}

// Samples wait in m_pending until CUPTI's records are flushed: a flush costs a quarter of a
// millisecond, so it is done once per batch (up to 32 samples or 10 ms of kernel time), not
// once per sample. The stopping rule sees each sample as the batch settles; samples after the
// one that stops it are dropped.
void Sampler::sampleUntilStopped()
{
    m_begin = Clock::now();
    try {
        for (std::size_t n = 0;;) {
            if (m_profiler) {
                n += takeProfiledBatch(n);
            } else {
                takeSample(n++);
            }
            if (!m_result.wrongSample.empty()) {
                (void)settle(true);
                break;
            }
            m_cancelled = m_runner.cancelCheck && m_runner.cancelCheck();
            if (batchDone() && settle(true)) {
                m_cancelled = false; // the rule stopped first
                break;
            }
            if (m_cancelled) {
                break;
            }
        }
    } catch (...) {
        // A fault or an overrun: keep the samples taken before it (their kernels completed).
        try {
            (void)settle(!m_runner.contextLost);
        } catch (...) {
            m_result.notes.push_back(plural(m_pending.size(), "sample") +
                                     " taken just before the fault were lost with it");
        }
        throw;
    }
}

// Sample n: the L2 flushed (cold), the launch held and waited for, pending until its batch
// settles. The SM clock is read just before the launch and just after it completes, outside
// the timed span; the lower reading is the sample's clock, so a dip during the sample is not
// missed. The clocks are kept in the measurement as they settle, so a fault part-way keeps them
// with the samples.
void Sampler::takeSample(std::size_t n)
{
    const Stream &gpu = *m_runner.stream;
    SmClockReader &clocks = *m_runner.clocks;
    if (m_guard) {
        m_guard->restore(); // before the flush, so a cold sample finds none of it in the L2
    }
    if (!m_scratch.empty()) {
        m_runner.gpuHelpers().readFlush(m_scratch.pointer(), m_scratch.bytes(), unsigned(n), gpu);
    }
    const std::optional<unsigned> clockBefore = clocks.smClockMHz();
    m_phase = "running the user's kernel (sample " + std::to_string(n + 1) + ")";
    Pending sample;
    sample.correlations = launchHeld();
    waitOrThrow(*m_finished, m_prepared.deadlineSeconds * double(m_kernels),
                m_kernels == 1 ? "the kernel" : "the kernels", m_runner.contextLost,
                m_lastEventNs * 1e-9);
    if (m_runner.holdFlags->get(1) != 0) {
        ++m_blockerTimeouts;
    }
    const std::optional<unsigned> clockAfter = clocks.smClockMHz();
    sample.clockMHz = lowerClock(clockBefore, clockAfter);
    sample.eventNs = double(Event::elapsedMs(*m_started, *m_finished)) * 1e6;
    sample.kernelEventNs = kernelEventTimes();
    m_lastEventNs = sample.eventNs;
    m_pending.push_back(sample);
    m_pendingEventNs += sample.eventNs;
    if (m_guard && m_guard->verifies()) {
        if (const std::optional<std::string> wrong = m_guard->wrongOutput()) {
            m_result.wrongSample = "sample " + std::to_string(n + 1) + ": " + *wrong;
        } else {
            ++m_result.verifiedSamples;
        }
    }
}

// Samples from `first` on, timed by the profiler's gpu__time_duration, the figure Nsight Compute
// reports: one profiler session a batch (as many samples as fit in 32 or about 10 ms), a range
// a kernel. The profiler serialises each launch, so there is no hold and the events would only
// time the profiler: each sample's event figure is its profiled one. When the profiler refuses
// the first batch (no permission, say), the measurement goes on with CUPTI's kernel records and
// says why. Returns the samples taken.
std::size_t Sampler::takeProfiledBatch(std::size_t first)
{
    std::size_t count = kBatchSamples - std::min(m_pending.size(), kBatchSamples);
    if (m_settings.fixedSamples > 0) {
        const std::size_t fixed = std::size_t(m_settings.fixedSamples);
        const std::size_t taken = m_result.samplesNs.size() + m_pending.size();
        count = std::min(count, fixed - std::min(taken, fixed));
    }
    if (m_lastEventNs > 0.0) {
        const double room = std::max(0.0, kBatchEventNs - m_pendingEventNs);
        count = std::min(count, std::size_t(room / m_lastEventNs));
    }
    count = std::max<std::size_t>(count, 1);

    const Stream &gpu = *m_runner.stream;
    SmClockReader &clocks = *m_runner.clocks;
    const bool flush = !m_scratch.empty();
    // A range per kernel: a flush's before each sample's kernels (the sequence's, in order).
    const std::size_t flushRanges = flush ? 1 : 0;
    const std::size_t stride = flushRanges + m_kernels;
    m_phase = "running the user's kernel under the profiler (samples " + std::to_string(first + 1) +
              " to " + std::to_string(first + count) + ")";
    const std::optional<unsigned> clockBefore = clocks.smClockMHz();
    const ProfilerValues profiled = CuptiProfiler::profile(
        m_runner.ordinal, {kProfiledTime},
        [&] {
            for (std::size_t k = 0; k < count; ++k) {
                if (flush) {
                    m_runner.gpuHelpers().readFlush(m_scratch.pointer(), m_scratch.bytes(),
                                                    unsigned(first + k), gpu);
                }
                launchSequence(m_prepared, gpu);
            }
            m_finished->record(gpu);
            waitOrThrow(*m_finished, m_prepared.deadlineSeconds * double(count * m_kernels),
                        "the kernel", m_runner.contextLost);
        },
        stride * count);
    const std::optional<unsigned> clockAfter = clocks.smClockMHz();
    std::string why = profiled.error;
    if (why.empty() && profiled.rangeValues.size() != stride * count) {
        why = "it recorded " + plural(profiled.rangeValues.size(), "kernel") + " of " +
              std::to_string(stride * count);
    }
    for (std::size_t k = 0; why.empty() && k < count; ++k) {
        for (std::size_t kernel = 0; kernel < m_kernels; ++kernel) {
            if (!profiled.rangeValues[stride * k + flushRanges + kernel].count(kProfiledTime)) {
                why = std::string("it gave no ") + kProfiledTime;
            }
        }
    }
    if (!why.empty()) {
        if (!m_result.samplesNs.empty() || !m_pending.empty()) {
            throw RunFailure{RunStatus::Fault, "the profiler stopped timing: " + why};
        }
        m_result.notes.push_back("profiler timing unavailable: " + why +
                                 "; timed with CUPTI kernel records");
        m_profiler = false;
        startActivityTimer();
        return 0;
    }
    const double clockMHz = lowerClock(clockBefore, clockAfter);
    for (std::size_t k = 0; k < count; ++k) {
        Pending sample;
        for (std::size_t kernel = 0; kernel < m_kernels; ++kernel) {
            const double ns =
                profiled.rangeValues[stride * k + flushRanges + kernel].at(kProfiledTime);
            sample.eventNs += ns;
            if (m_kernels > 1) {
                sample.kernelEventNs.push_back(ns);
            }
        }
        sample.clockMHz = clockMHz;
        m_pending.push_back(sample);
        m_pendingEventNs += sample.eventNs;
        m_lastEventNs = sample.eventNs;
    }
    return count;
}

// Whether the pending samples settle now: always when timing with events or cancelled, else
// when the batch is full or the stopping rule's fixed count or time cap may have been reached.
bool Sampler::batchDone() const
{
    const std::size_t taken = m_result.samplesNs.size() + m_pending.size();
    return (!m_cupti && !m_profiler) || m_cancelled || m_pending.size() >= kBatchSamples ||
           m_pendingEventNs >= kBatchEventNs ||
           (m_settings.fixedSamples > 0 && taken >= std::size_t(m_settings.fixedSamples)) ||
           elapsedSeconds() >= m_settings.timeCapSeconds;
}

// Moves the pending samples into the measurement; true when the stopping rule stopped.
// `mayFlush` is false after an overrun, when even a flush could wait for the kernel.
bool Sampler::settle(bool mayFlush)
{
    Measurement &m = m_result;
    std::map<std::uint32_t, std::uint64_t> durations;
    if (m_cupti && !m_pending.empty()) {
        if (mayFlush) {
            m_runner.timer->flush();
            durations = m_runner.timer->takeDurations();
        }
    }
    const double elapsed = elapsedSeconds();
    bool stop = m_criterion.decision().stop;
    for (const Pending &p : m_pending) {
        if (stop) {
            break;
        }
        double sampleNs = p.eventNs;
        std::vector<double> kernelNs = p.kernelEventNs;
        if (m_cupti) {
            // CUPTI's correlation ids start at 1: 0 means no launch was seen. A sequence's
            // sample is the sum of its kernels' records.
            double sum = 0.0;
            std::vector<double> each;
            bool all = !p.correlations.empty();
            for (const std::uint32_t correlation : p.correlations) {
                const auto found = correlation != 0 ? durations.find(correlation) : durations.end();
                if (found == durations.end()) {
                    all = false;
                    break;
                }
                sum += double(found->second);
                each.push_back(double(found->second));
            }
            if (all) {
                sampleNs = sum;
                if (m_kernels > 1) {
                    kernelNs = each;
                }
            } else {
                fallBackToEvents(mayFlush ? "CUPTI delivered no kernel record for sample " +
                                                std::to_string(m.samplesNs.size() + 1)
                                          : std::string("CUPTI's records could not be read "
                                                        "after the kernel overran"));
            }
        }
        if (m_kernels > 1) {
            addKernelSamples(kernelNs, p.kernelEventNs);
        }
        m.samplesNs.push_back(sampleNs);
        m.eventSamplesNs.push_back(p.eventNs);
        m.smClocksMHz.push_back(p.clockMHz);
        stop = m_criterion.addSample(sampleNs, elapsed).stop;
    }
    m_pending.clear();
    m_pendingEventNs = 0.0;
    return stop;
}

void Sampler::fallBackToEvents(const std::string &why)
{
    // Mixing sources would corrupt the statistics: events throughout.
    Measurement &m = m_result;
    m_cupti = false;
    m.timingSource = TimingSource::Events;
    m.notes.push_back(why + "; timed with cuEvents" + std::string(kEventCaveat));
    m.samplesNs = m.eventSamplesNs;
    for (std::size_t k = 0; k < m.kernels.size(); ++k) {
        m.kernels[k].samplesNs = m_kernelEventNs[k];
    }
    m_criterion = StoppingCriterion(m_settings);
    for (const double earlier : m.samplesNs) {
        m_criterion.addSample(earlier, -1.0);
    }
}

double Sampler::elapsedSeconds() const
{
    return std::chrono::duration<double>(Clock::now() - m_begin).count();
}

// Why sampling stopped, the throughput of the median sample, and notes on what went wrong.
void Sampler::finish()
{
    Measurement &m = m_result;
    m.stop = m_criterion.decision();
    if (m_cancelled) {
        m.stop = {true, StopReason::Cancelled,
                  "cancelled after " + plural(m.samplesNs.size(), "sample")};
    }
    if (!m.wrongSample.empty()) {
        m.stop = {true, StopReason::WrongSample,
                  "stopped: the output of " + m.wrongSample.substr(0, m.wrongSample.find(':')) +
                      " was wrong, so the timed launches did not all do the work"};
        m.notes.push_back("the measurement is void: " + m.wrongSample);
    }
    ThroughputOptions throughputOptions;
    throughputOptions.copyCeilingGBps = m_runner.copyCeilingGBps;
    throughputOptions.bytesExpression = m_throughput.bytes;
    throughputOptions.flopsExpression = m_throughput.flops;
    m.throughput = computeThroughput(m_prepared.resolved, computeStatistics(m.samplesNs).medianNs,
                                     m_runner.device, throughputOptions);
    if (m_blockerTimeouts > 0) {
        m.notes.push_back(
            "the blocking kernel gave up waiting for the host in " +
            plural(m_blockerTimeouts, "sample") +
            " (the host was stalled for over a second); their cuEvent times may include launch "
            "latency");
    }
    // Records of this measurement's launches only (a profiler pass before it leaves records
    // without times, which CUPTI may deliver now).
    if (const std::uint64_t invalid =
            m_cupti ? m_runner.timer->invalidRecordsSince(m_firstCorrelation) +
                          (m_runner.timer->lostRecords() - m_lostBefore)
                    : 0;
        invalid > 0) {
        m.notes.push_back(std::to_string(invalid) +
                          " CUPTI records were invalid or lost and ignored");
    }
}

void summariseSamples(Measurement &m, const DeviceInfo &device)
{
    m.statistics = computeStatistics(m.samplesNs);
    m.eventStatistics = computeStatistics(m.eventSamplesNs);
    for (KernelSamples &kernel : m.kernels) {
        kernel.samplesNs.resize(m.samplesNs.size(), 0.0);
        kernel.statistics = computeStatistics(kernel.samplesNs);
    }
    m.smClocksMHz.resize(m.samplesNs.size(), 0.0);
    if (std::all_of(m.smClocksMHz.begin(), m.smClocksMHz.end(),
                    [](double mhz) { return mhz <= 0.0; })) {
        m.smClocksMHz.clear(); // not sampled
    } else {
        const ClockCheck check = checkClocks(m.smClocksMHz, device.smClockKHz * 1e-3);
        m.smClockMinMHz = check.minMHz;
        m.smClockMaxMHz = check.maxMHz;
        m.throttledSamples = check.samplesBelow;
        m.throttled = check.throttled;
        if (check.throttled) {
            char text[200];
            std::snprintf(text, sizeof text,
                          "%zu of %zu samples ran below %.0f MHz (75%% of the default SM clock "
                          "%.0f MHz): the GPU was throttling; their times are slower than normal",
                          check.samplesBelow, m.smClocksMHz.size(), check.thresholdMHz,
                          device.smClockKHz * 1e-3);
            m.notes.emplace_back(text);
        }
    }
    if (!m.faultStatus.empty()) {
        m.stop = {true, StopReason::Fault,
                  "stopped by a " + m.faultStatus + " after " +
                      plural(m.samplesNs.size(), "sample")};
        if (!m.samplesNs.empty()) {
            m.notes.push_back("stopped after " + plural(m.samplesNs.size(), "sample") + ": " +
                              m.faultMessage);
        }
    }
    if (m.statistics.count > 0 && m.statistics.medianNs < 5000.0) {
        char text[200];
        std::snprintf(
            text, sizeof text,
            "median %.2f µs: the kernel is launch-bound — launching it costs about as "
            "much as running it%s",
            m.statistics.medianNs * 1e-3,
            m.timingSource == TimingSource::Events
                ? "; cuEvents add about 3 µs to any kernel, so this figure is mostly theirs"
                : "");
        m.notes.emplace_back(text);
    }
}

} // namespace cuwb
