#include "run/runner.h"

#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "compiler/nvrtcinfo.h"
#include "cuda/apierror.h"
#include "cuda/cuptiactivity.h"
#include "cuda/cuptiprofiler.h"
#include "cuda/devicememory.h"
#include "cuda/driverapi.h"
#include "cuda/driverwrappers.h"
#include "cuda/nvml.h"
#include "device/archlimits.h"
#include "device/occupancy.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"
#include "launch/launchvalidation.h"
#include "measure/statistics.h"
#include "measure/stoppingcriterion.h"
#include "measure/throughput.h"
#include "run/bufferfiles.h"
#include "run/devicefaults.h"
#include "run/gpuhelpers.h"
#include "run/hostelements.h"
#include "run/preparedlaunch.h"
#include "run/reference.h"
#include "run/runnerstate.h"
#include "run/runtext.h"

#include <cuda.h> // CUDA_VERSION only: the toolkit this worker was built with

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// How long the blocking kernel holds a stream at most: far longer than the host needs to queue
// one sample (microseconds), short enough that a stalled host costs one slow sample, not a hang.
constexpr std::uint64_t kHoldTimeoutNs = 1'000'000'000;

// What a cuEvent pair adds to a kernel's time even with the launch held (docs/measurement.md).
constexpr const char *kEventCaveat =
    ", which read about 3 µs more than the kernel ran on an H200 (the records' own cost)";

} // namespace

// The runner's state lives in runnerstate.h, where the files of its phases can name it.
struct Runner::State : RunnerState
{};

Runner::Runner(int deviceOrdinal)
    : m_state(std::make_unique<State>())
{
    initDriver();
    const Device device(deviceOrdinal);
    m_state->ordinal = deviceOrdinal;
    m_state->context = std::make_unique<PrimaryContext>(device);
    const DeviceQuery query = queryDevices();
    const auto found =
        std::find_if(query.devices.begin(), query.devices.end(),
                     [&](const DeviceInfo &d) { return d.ordinal == deviceOrdinal; });
    if (found == query.devices.end()) {
        throw std::runtime_error("device " + std::to_string(deviceOrdinal) +
                                 " is not in the device list: " + query.message);
    }
    m_state->device = *found;
    m_state->context->makeCurrent();
    m_state->stream = std::make_unique<Stream>();
}

Runner::~Runner()
{
    if (m_state && m_state->contextLost) {
        // A kernel may still be running: freeing would wait for it. The process is exiting.
        (void)m_state.release();
    }
}

const DeviceInfo &Runner::device() const
{
    return m_state->device;
}

std::uint64_t Runner::freeMemoryBytes() const
{
    m_state->context->makeCurrent();
    return deviceMemoryInfo().freeBytes;
}

bool Runner::contextLost() const
{
    return m_state->contextLost;
}

RunResult Runner::run(const RunRequest &request)
{
    const auto start = Clock::now();
    RunResult result;
    State &s = *m_state;
    result.device = s.device.name + " (" + s.device.arch() + ")";
    if (s.contextLost) {
        result.status = RunStatus::Fault;
        result.message = "the GPU context was lost by an earlier fault; start a new worker";
        return result;
    }
    std::string phase = "preparing the run";
    try {
        s.context->makeCurrent();
        s.execute(request, result, phase);
    } catch (const RunFailure &failure) {
        result.status = failure.status;
        result.message = failure.message;
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
    } catch (const ApiError &error) {
        result.deviceError = error.status();
        const RunFailure failure = classifyApiError(error, phase, s.contextLost);
        result.status = failure.status;
        result.message = failure.message;
    } catch (const std::exception &error) {
        result.status = RunStatus::Fault;
        result.message = std::string("the run failed while ") + phase + ": " + error.what();
    }
    if (result.status != RunStatus::Succeeded) {
        // The reports of a run that did not finish would mislead; drop its buffers.
        result.buffers.clear();
    }
    result.wallTimeMs = msSince(start);
    return result;
}

void RunnerState::execute(const RunRequest &request, RunResult &result, std::string &phase)
{
    // The previous run's buffers go first, so this run has all the memory.
    kept.reset();
    keptHandles.clear();
    const int runNumber = ++runs;

    Prepared prepared;
    const LeakOnLoss leak{prepared.resources, contextLost};
    prepareLaunch(*this, request, prepared, phase);
    const ResolvedLaunch &resolved = prepared.resolved;
    std::unique_ptr<RunResources> &resources = prepared.resources;
    const Function &function = *prepared.function;
    GpuHelpers &helpers = gpuHelpers();
    const Stream &gpu = *stream;

    // The reference, computed from the initial contents before the kernel may change them.
    Reference reference(*this, prepared, request.verification, result.verification, phase);
    reference.prepare();

    // The launch.
    phase = "launching the kernel";
    std::vector<void *> params = parameterPointerList(resolved, prepared.pointers);
    const Event started;
    const Event finished;
    started.record(gpu);
    function.launch(prepared.grid, prepared.block, prepared.dynamicShared, gpu, params.data());
    finished.record(gpu);
    phase = "running the user's kernel";
    waitOrThrow(finished, prepared.deadlineSeconds, "the kernel", contextLost);
    result.kernelTimeMs = Event::elapsedMs(started, finished);
    result.compileMs = prepared.workerCompileMs;

    // Reports: guard bands, unwritten outputs, statistics.
    for (const Allocation &a : resources->buffers) {
        phase = "checking `" + a.parameter + "`";
        result.buffers.push_back(
            checkBuffer(a, "run" + std::to_string(runNumber) + "/" + a.parameter, helpers, gpu));
    }

    for (const ResolvedBuffer &g : resolved.globals) {
        phase = "reading the global `" + g.parameter + "`";
        result.globals.push_back(readGlobal(g, *resources->module, helpers, gpu));
    }

    reference.check();
    // What the verification held goes; the buffers stay for paging and export.
    resources->referenceModule.reset();
    resources->maskModule.reset();
    resources->mask = DeviceBuffer();
    resources->copies.clear();

    result.message = prepared.note;
    keptHandles.clear();
    for (const BufferReport &report : result.buffers) {
        keptHandles.push_back(report.handle);
    }
    kept = std::move(resources);
}

Measurement Runner::measure(const RunRequest &request, const SampleSettings &settings,
                            const ThroughputExpressions &throughput)
{
    Measurement m;
    m.settings = settings;
    State &s = *m_state;
    const auto fail = [&](RunStatus status, const std::string &message) {
        m.faultStatus = runStatusName(status);
        m.faultMessage = message;
    };
    if (const auto problem = checkSampleSettings(settings)) {
        fail(RunStatus::InvalidLaunch, "the sample settings cannot be used: " + *problem);
        return m;
    }
    if (s.contextLost) {
        fail(RunStatus::Fault, "the GPU context was lost by an earlier fault; start a new worker");
        return m;
    }
    std::string phase = "preparing the measurement";
    try {
        s.context->makeCurrent();
        s.sample(request, settings, throughput, m, phase);
    } catch (const RunFailure &failure) {
        fail(failure.status, failure.message);
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
    } catch (const ApiError &error) {
        const RunFailure failure = classifyApiError(error, phase, s.contextLost);
        fail(failure.status, failure.message);
    } catch (const std::exception &error) {
        fail(RunStatus::Fault,
             std::string("the measurement failed while ") + phase + ": " + error.what());
    }
    m.statistics = computeStatistics(m.samplesNs);
    m.eventStatistics = computeStatistics(m.eventSamplesNs);
    m.smClocksMHz.resize(m.samplesNs.size(), 0.0);
    if (std::all_of(m.smClocksMHz.begin(), m.smClocksMHz.end(),
                    [](double mhz) { return mhz <= 0.0; })) {
        m.smClocksMHz.clear(); // not sampled
    } else {
        const ClockCheck check = checkClocks(m.smClocksMHz, s.device.smClockKHz * 1e-3);
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
                          s.device.smClockKHz * 1e-3);
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
    return m;
}

// cuMemcpyDtoD of 1 GiB between two buffers, bytes read plus bytes written over the median
// time of five copies after one warm-up (MEASUREMENT.md: 4209 GB/s on an H200). Measured once
// per Runner; a GPU without 2 GiB free gets no ceiling and a note, never a failed measurement.
void RunnerState::measureCopyCeiling()
{
    if (copyCeilingGBps || !copyCeilingProblem.empty()) {
        return;
    }
    constexpr std::size_t kBytes = std::size_t(1) << 30;
    try {
        const DeviceBuffer source(kBytes);
        const DeviceBuffer destination(kBytes);
        fillBytesAsync(source.pointer(), 0x3c, kBytes, *stream);
        const Event started;
        const Event finished;
        std::vector<double> timesNs;
        for (int k = 0; k < 6; ++k) {
            started.record(*stream);
            copyDeviceToDeviceAsync(destination.pointer(), source.pointer(), kBytes, *stream);
            finished.record(*stream);
            stream->synchronize();
            if (k > 0) { // the first copy is the warm-up
                timesNs.push_back(double(Event::elapsedMs(started, finished)) * 1e6);
            }
        }
        const double medianNs = computeStatistics(timesNs).medianNs;
        if (medianNs > 0.0) {
            copyCeilingGBps = 2.0 * double(kBytes) / medianNs; // bytes per ns = GB/s
        } else {
            copyCeilingProblem = "the copy took no measurable time";
        }
    } catch (const ApiError &error) {
        if (error.status() != "CUDA_ERROR_OUT_OF_MEMORY") {
            throw;
        }
        copyCeilingProblem = "2 GiB of GPU memory were not free for the 1 GiB copy";
    }
}

void RunnerState::sample(const RunRequest &request, const SampleSettings &settings,
                         const ThroughputExpressions &throughput, Measurement &m,
                         std::string &phase)
{
    // The previous run's buffers go first, so this measurement has all the memory.
    kept.reset();
    keptHandles.clear();
    ++runs;

    phase = "measuring the device-to-device copy ceiling";
    measureCopyCeiling();
    if (!copyCeilingProblem.empty()) {
        m.notes.push_back("no copy ceiling: " + copyCeilingProblem);
    }

    Prepared prepared;
    const LeakOnLoss leak{prepared.resources, contextLost};
    prepareLaunch(*this, request, prepared, phase);
    if (!prepared.note.empty()) {
        m.notes.push_back(prepared.note);
    }
    Provenance &p = m.provenance;
    p.deviceName = device.name;
    p.arch = device.arch();
    p.deviceOrdinal = ordinal;
    p.driverVersion = DriverApi::instance().driverVersion();
    p.toolkitVersion = formatCudaVersion(CUDA_VERSION);
    p.nvrtcVersion = nvrtcVersion();
    p.compileOptionsJson = nlohmann::json(request.options).dump();
    p.sourceHash = sourceHashFnv1a64(request.source);
    p.sourceBytes = request.source.size();
    p.kernel = request.launch.kernel;
    p.grid = prepared.grid;
    p.block = prepared.block;
    p.dynamicSharedBytes = prepared.dynamicShared;
    for (const Allocation &a : prepared.resources->buffers) {
        p.buffers.push_back({a.parameter, a.count, a.bytes});
    }
    p.defaultSmClockKHz = device.smClockKHz;
    p.memoryClockKHz = device.memoryClockKHz;
    const Stream &gpu = *stream;
    const Function &function = *prepared.function;
    std::vector<void *> params = parameterPointerList(prepared.resolved, prepared.pointers);

    phase = "setting up the kernel timer";
    if (!timer) {
        timer = std::make_unique<KernelActivityTimer>();
    }
    bool cupti = timer->available() && timer->start();
    struct StopTimer
    {
        KernelActivityTimer &timer;
        const bool &lost;
        ~StopTimer()
        {
            if (!lost) { // after an overrun even a flush could wait for the kernel
                timer.stop();
            }
        }
    } stopTimer{*timer, contextLost};
    m.timingSource = cupti ? TimingSource::Cupti : TimingSource::Events;
    if (!cupti) {
        m.notes.push_back("CUPTI unavailable: " + timer->unavailableReason() +
                          "; timed with cuEvents" + std::string(kEventCaveat));
    }

    DeviceBuffer scratch;
    struct LeakScratch
    {
        DeviceBuffer &buffer;
        const bool &lost;
        ~LeakScratch()
        {
            if (lost) { // cuMemFree would wait for the kernel that overran
                buffer.abandon();
            }
        }
    } leakScratch{scratch, contextLost};
    if (settings.mode == SampleMode::Cold) {
        phase = "allocating the L2 flush buffer";
        const std::size_t l2 = std::size_t(std::max(device.l2CacheBytes, 1 << 20));
        scratch = DeviceBuffer(l2 * 2);
    }

    // Each launch is queued behind the blocking kernel and released once its events are
    // queued too, so the GPU runs started-kernel-finished back to back and the events time the
    // kernel rather than the host's launch path (CUPTI's hooks make that 100 µs and more).
    phase = "setting up the blocking kernel";
    GpuHelpers &helpers = gpuHelpers();
    if (!holdFlags) {
        holdFlags = std::make_unique<MappedHostFlags>();
    }
    MappedHostFlags &hold = *holdFlags;
    std::size_t blockerTimeouts = 0;
    const Event started;
    const Event finished;
    const auto launchHeld = [&] {
        hold.set(0, 0);
        hold.set(1, 0);
        helpers.block(hold, kHoldTimeoutNs, gpu);
        struct Release
        {
            MappedHostFlags &flags;
            ~Release() { flags.set(0, 1); } // also when the launch throws
        } release{hold};
        started.record(gpu);
        function.launch(prepared.grid, prepared.block, prepared.dynamicShared, gpu, params.data());
        const std::uint32_t correlation = cupti ? timer->lastLaunchCorrelation().value_or(0) : 0;
        finished.record(gpu);
        return correlation;
    };
    const int warmups = std::max(1, settings.warmupLaunches);
    for (int k = 0; k < warmups; ++k) {
        phase = "running the user's kernel (warm-up launch " + std::to_string(k + 1) + ")";
        (void)launchHeld();
        waitOrThrow(finished, prepared.deadlineSeconds, "the kernel (warm-up launch)", contextLost);
    }
    if (cupti) {
        timer->flush();
        (void)timer->takeDurations();
    }

    phase = "opening NVML for the SM clock";
    if (!clocks) {
        clocks = std::make_unique<SmClockReader>(Device(ordinal).pciBusId());
    }
    if (!clocks->available()) {
        m.notes.push_back("SM clock not sampled (" + clocks->unavailableReason() +
                          "); throttling cannot be checked");
    }
    // The clock is read just before the launch and just after it completes, outside the timed
    // span; the lower reading is the sample's clock, so a dip during the sample is not missed.
    // Kept in the measurement as they come, so a fault part-way keeps them with the samples.
    std::vector<double> &sampleClocksMHz = m.smClocksMHz;

    StoppingCriterion criterion(settings);
    bool cancelled = false;
    const auto begin = Clock::now();
    const auto elapsedSeconds = [&] {
        return std::chrono::duration<double>(Clock::now() - begin).count();
    };

    // Samples wait here until CUPTI's records are flushed: a flush costs a quarter of a
    // millisecond, so it is done once per batch (up to 32 samples or 10 ms of kernel time),
    // not once per sample. The stopping rule sees each sample as the batch settles; samples
    // after the one that stops it are dropped.
    struct Pending
    {
        std::uint32_t correlation = 0;
        double eventNs = 0.0;
        double clockMHz = 0.0;
    };
    std::vector<Pending> pending;
    double pendingEventNs = 0.0;
    const auto fallBackToEvents = [&](const std::string &why) {
        // Mixing sources would corrupt the statistics: events throughout.
        cupti = false;
        m.timingSource = TimingSource::Events;
        m.notes.push_back(why + "; timed with cuEvents" + std::string(kEventCaveat));
        m.samplesNs = m.eventSamplesNs;
        criterion = StoppingCriterion(settings);
        for (const double earlier : m.samplesNs) {
            criterion.addSample(earlier, -1.0);
        }
    };
    // Moves the pending samples into the measurement; true when the stopping rule stopped.
    // `mayFlush` is false after an overrun, when even a flush could wait for the kernel.
    const auto settle = [&](bool mayFlush) {
        std::map<std::uint32_t, std::uint64_t> durations;
        if (cupti && !pending.empty()) {
            if (mayFlush) {
                timer->flush();
                durations = timer->takeDurations();
            }
        }
        const double elapsed = elapsedSeconds();
        bool stop = criterion.decision().stop;
        for (const Pending &p : pending) {
            if (stop) {
                break;
            }
            double sampleNs = p.eventNs;
            if (cupti) {
                // CUPTI's correlation ids start at 1: 0 means no launch was seen.
                const auto found =
                    p.correlation != 0 ? durations.find(p.correlation) : durations.end();
                if (found != durations.end()) {
                    sampleNs = double(found->second);
                } else {
                    fallBackToEvents(mayFlush ? "CUPTI delivered no kernel record for sample " +
                                                    std::to_string(m.samplesNs.size() + 1)
                                              : std::string("CUPTI's records could not be read "
                                                            "after the kernel overran"));
                }
            }
            m.samplesNs.push_back(sampleNs);
            m.eventSamplesNs.push_back(p.eventNs);
            sampleClocksMHz.push_back(p.clockMHz);
            stop = criterion.addSample(sampleNs, elapsed).stop;
        }
        pending.clear();
        pendingEventNs = 0.0;
        return stop;
    };
    constexpr std::size_t kBatchSamples = 32;
    constexpr double kBatchEventNs = 10e6;
    try {
        for (std::size_t n = 0;; ++n) {
            if (!scratch.empty()) {
                fillBytesAsync(scratch.pointer(), static_cast<unsigned char>(n & 0xff),
                               scratch.bytes(), gpu);
            }
            const std::optional<unsigned> clockBefore = clocks->smClockMHz();
            phase = "running the user's kernel (sample " + std::to_string(n + 1) + ")";
            Pending sample;
            sample.correlation = launchHeld();
            waitOrThrow(finished, prepared.deadlineSeconds, "the kernel", contextLost);
            if (hold.get(1) != 0) {
                ++blockerTimeouts;
            }
            const std::optional<unsigned> clockAfter = clocks->smClockMHz();
            if (clockBefore || clockAfter) {
                sample.clockMHz = double(std::min(clockBefore.value_or(clockAfter.value_or(0)),
                                                  clockAfter.value_or(clockBefore.value_or(0))));
            } // else 0: not sampled, and checkClocks ignores it
            sample.eventNs = double(Event::elapsedMs(started, finished)) * 1e6;
            pending.push_back(sample);
            pendingEventNs += sample.eventNs;

            cancelled = cancelCheck && cancelCheck();
            const std::size_t taken = m.samplesNs.size() + pending.size();
            const bool settleNow =
                !cupti || cancelled || pending.size() >= kBatchSamples ||
                pendingEventNs >= kBatchEventNs ||
                (settings.fixedSamples > 0 && taken >= std::size_t(settings.fixedSamples)) ||
                elapsedSeconds() >= settings.timeCapSeconds;
            if (settleNow && settle(true)) {
                cancelled = false; // the rule stopped first
                break;
            }
            if (cancelled) {
                break;
            }
        }
    } catch (...) {
        // A fault or an overrun: keep the samples taken before it (their kernels completed).
        try {
            (void)settle(!contextLost);
        } catch (...) {
            m.notes.push_back(plural(pending.size(), "sample") +
                              " taken just before the fault were lost with it");
        }
        throw;
    }
    m.stop = criterion.decision();
    if (cancelled) {
        m.stop = {true, StopReason::Cancelled,
                  "cancelled after " + plural(m.samplesNs.size(), "sample")};
    }
    ThroughputOptions throughputOptions;
    throughputOptions.copyCeilingGBps = copyCeilingGBps;
    throughputOptions.bytesExpression = throughput.bytes;
    throughputOptions.flopsExpression = throughput.flops;
    m.throughput = computeThroughput(prepared.resolved, computeStatistics(m.samplesNs).medianNs,
                                     device, throughputOptions);
    if (blockerTimeouts > 0) {
        m.notes.push_back(
            "the blocking kernel gave up waiting for the host in " +
            plural(blockerTimeouts, "sample") +
            " (the host was stalled for over a second); their cuEvent times may include launch "
            "latency");
    }
    if (cupti && timer->invalidRecords() > 0) {
        m.notes.push_back(std::to_string(timer->invalidRecords()) +
                          " CUPTI records were invalid or lost and ignored");
    }
}

Page Runner::page(const PageRequest &request)
{
    const Allocation &a = m_state->keptBuffer(request.handle);
    if (request.first > a.count) {
        throw std::runtime_error("element " + std::to_string(request.first) +
                                 " is past the end of `" + a.parameter + "`, which has " +
                                 plural(a.count, "element"));
    }
    m_state->context->makeCurrent();
    // A page is for showing: at most kMaxPageElements, however many were asked for, so a
    // client cannot make the worker format gigabytes into one reply.
    const std::uint64_t count = std::min<std::uint64_t>(
        std::min<std::uint64_t>(request.count, kMaxPageElements), a.count - request.first);
    const std::size_t elementBytes = a.type.sizeBytes();
    std::vector<unsigned char> bytes(count * elementBytes);
    if (count > 0) {
        copyToHost(bytes.data(), a.data() + request.first * elementBytes, bytes.size());
    }
    Page page;
    page.handle = request.handle;
    page.first = request.first;
    page.values.reserve(count);
    for (std::uint64_t k = 0; k < count; ++k) {
        page.values.push_back(formatElement(bytes.data() + k * elementBytes, a.type));
    }
    return page;
}

std::uint64_t Runner::exportBuffer(const std::string &handle, const std::string &path,
                                   ExportFormat format)
{
    const Allocation &a = m_state->keptBuffer(handle);
    m_state->context->makeCurrent();
    return writeBufferFile(path, format, a.data(), a.type, a.count);
}

namespace {

// Theoretical occupancy of the prepared launch from the loaded kernel's own resources, so it
// stands beside the achieved occupancy the profiler measures.
void describeOccupancy(const DeviceInfo &device, const Function &function, const Prepared &prepared,
                       MetricsResult &result)
{
    result.registersPerThread = function.attribute(FunctionAttribute::Registers);
    result.staticSharedBytes =
        std::uint64_t(function.attribute(FunctionAttribute::StaticSharedBytes));
    result.dynamicSharedBytes = prepared.dynamicShared;
    result.blockThreads = int(prepared.block[0] * prepared.block[1] * prepared.block[2]);
    result.gridBlocks =
        (long long)prepared.grid[0] * (long long)prepared.grid[1] * (long long)prepared.grid[2];
    const std::optional<ArchLimits> limits = archLimits(device.arch());
    if (!limits) {
        result.occupancyError = "no occupancy limits are known for " + device.arch();
        return;
    }
    OccupancyInput input;
    input.registersPerThread = result.registersPerThread;
    input.staticSharedBytes = result.staticSharedBytes;
    input.dynamicSharedBytes = result.dynamicSharedBytes;
    input.blockSize = result.blockThreads;
    const OccupancyResult occupancy = computeOccupancy(*limits, input);
    if (!occupancy.valid) {
        result.occupancyError = occupancy.error;
        return;
    }
    result.theoreticalOccupancy = occupancy.occupancy;
    result.activeBlocksPerSm = occupancy.activeBlocksPerSm;
    result.occupancyLimiter = limiterName(occupancy.limiter);
    result.waves = occupancyWaves(occupancy, result.gridBlocks, device.smCount);
}

} // namespace

MetricsResult Runner::profileMetrics(const RunRequest &request, const MetricsRequest &metrics)
{
    MetricsResult result;
    State &s = *m_state;
    if (s.contextLost) {
        result.error = "the GPU context was lost by an earlier fault; start a new worker";
        return result;
    }
    std::string phase = "preparing the metrics pass";
    try {
        s.context->makeCurrent();
        s.kept.reset();
        s.keptHandles.clear();
        ++s.runs;
        Prepared prepared;
        const LeakOnLoss leak{prepared.resources, s.contextLost};
        prepareLaunch(s, request, prepared, phase);
        std::vector<void *> params = parameterPointerList(prepared.resolved, prepared.pointers);
        describeOccupancy(s.device, *prepared.function, prepared, result);
        const Event finished;
        phase = "running the user's kernel (metrics pass)";
        const ProfilerValues values = CuptiProfiler::profile(s.ordinal, metrics.metrics, [&] {
            prepared.function->launch(prepared.grid, prepared.block, prepared.dynamicShared,
                                      *s.stream, params.data());
            finished.record(*s.stream);
            // Each replay pass runs the kernel again: allow for all of them.
            waitOrThrow(finished, prepared.deadlineSeconds * 16, "the kernel (metrics pass)",
                        s.contextLost);
        });
        result.chip = values.chip;
        result.values = values.values;
        result.passes = values.passes;
        result.error = values.error;
        result.permissionDenied = values.permissionDenied;
    } catch (const RunFailure &failure) {
        result.error = failure.message;
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
    } catch (const ApiError &error) {
        result.error = classifyApiError(error, phase, s.contextLost).message;
    } catch (const std::exception &error) {
        result.error = std::string("the metrics pass failed while ") + phase + ": " + error.what();
    }
    return result;
}

void Runner::setCancelCheck(std::function<bool()> check)
{
    m_state->cancelCheck = std::move(check);
}

void Runner::release()
{
    m_state->context->makeCurrent();
    m_state->kept.reset();
    m_state->keptHandles.clear();
}

} // namespace cuwb
