#include "run/runner.h"

#include "compiler/kernellookup.h"
#include "cuda/apierror.h"
#include "cuda/cuptipcsampling.h"
#include "cuda/cuptiprofiler.h"
#include "cuda/cuptisassmetrics.h"
#include "cuda/devicememory.h"
#include "cuda/driverwrappers.h"
#include "device/archlimits.h"
#include "device/occupancy.h"
#include "run/bufferfiles.h"
#include "run/devicefaults.h"
#include "run/gpuhelpers.h"
#include "run/hostelements.h"
#include "run/preparedlaunch.h"
#include "run/reference.h"
#include "run/runnerstate.h"
#include "run/runtext.h"
#include "run/sampler.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A run's phases: the launch prepared, the reference computed from the initial contents, the
// launch, the buffers' reports, the verification; the buffers are kept for paging and export.
void execute(RunnerState &s, const RunRequest &request, RunResult &result, std::string &phase)
{
    s.quietTimer();
    // The previous run's buffers go first (or are reused), so this run has all the memory.
    recycleResources(s, s.kept);
    s.keptHandles.clear();
    const int runNumber = ++s.runs;

    Prepared prepared;
    const LeakOnLoss leak{prepared.resources, s.contextLost};
    prepareLaunch(s, request, prepared, phase);
    const ResolvedLaunch &resolved = prepared.resolved;
    std::unique_ptr<RunResources> &resources = prepared.resources;
    GpuHelpers &helpers = s.gpuHelpers();
    const Stream &gpu = *s.stream;

    // The references, computed from the initial contents before the kernel may change them.
    const std::vector<VerificationSpec> &checks = request.verification.checks;
    resources->checks.resize(checks.size());
    result.checks.resize(checks.size());
    std::vector<Reference> references;
    references.reserve(checks.size());
    for (std::size_t k = 0; k < checks.size(); ++k) {
        references.emplace_back(s, prepared, checks[k], resources->checks[k], result.checks[k],
                                phase);
        references.back().prepare();
    }

    // The launch: the first kernel, then each further kernel of a sequence, an event between.
    phase = "launching the kernel";
    const std::size_t kernels = 1 + prepared.steps.size();
    std::vector<Event> marks(kernels + 1);
    marks.front().record(gpu);
    launchSequence(prepared, gpu, [&](std::size_t k) { marks[k + 1].record(gpu); });
    phase = prepared.steps.empty() ? "running the user's kernel" : "running the user's kernels";
    waitOrThrow(marks.back(), prepared.deadlineSeconds * double(kernels),
                kernels == 1 ? "the kernel" : "the kernels", s.contextLost);
    result.kernelTimeMs = Event::elapsedMs(marks.front(), marks.back());
    if (kernels > 1) {
        const std::vector<std::string> names = sequenceKernelNames(prepared);
        for (std::size_t k = 0; k < kernels; ++k) {
            result.kernelTimes.push_back({names[k], Event::elapsedMs(marks[k], marks[k + 1])});
        }
    }
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

    // After the last kernel: every check, then the run's verdict over them.
    for (Reference &reference : references) {
        reference.check();
    }
    result.verification = combineChecks(result.checks);
    // What the verification held goes; the buffers stay for paging and export.
    resources->checks.clear();
    resources->copies.clear();

    result.message = prepared.note;
    s.keptHandles.clear();
    for (const BufferReport &report : result.buffers) {
        s.keptHandles.push_back(report.handle);
    }
    s.kept = std::move(resources);
}

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
        execute(s, request, result, phase);
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
    const auto started = std::chrono::steady_clock::now();
    try {
        s.context->makeCurrent();
        Sampler(s, request, settings, throughput, m, phase).run();
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
    summariseSamples(m, s.device);
    // After the Sampler's destructor: releasing the buffers is part of the request's cost.
    m.phases.totalMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    return m;
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
        copyToHost(bytes.data(), a.data() + request.first * elementBytes, bytes.size(),
                   *m_state->stream);
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
    return writeBufferFile(path, format, a.data(), a.type, a.count, *m_state->stream);
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

namespace {

// An untimed pass over one launch of the request (the metrics pass, the inspection pass): the
// previous request's buffers go (or are reused), the launch is prepared on fresh buffers and
// `collect(prepared, launch, phase)` gathers what the pass is for, calling `launch` to run the
// kernel once and wait for it. Returns the sentence of a failure at any point, empty when the
// pass ran; `what` names the pass in it.
template <typename Collect>
std::string untimedPass(RunnerState &s, const RunRequest &request, const std::string &what,
                        Collect collect)
{
    if (s.contextLost) {
        return "the GPU context was lost by an earlier fault; start a new worker";
    }
    std::string phase = "preparing the " + what;
    try {
        s.context->makeCurrent();
        s.quietTimer(); // its launches are not samples (and the profiler does not mix with them)
        recycleResources(s, s.kept);
        s.keptHandles.clear();
        ++s.runs;
        Prepared prepared;
        const LeakOnLoss leak{prepared.resources, s.contextLost};
        prepareLaunch(s, request, prepared, phase);
        const Event finished;
        const std::function<void()> launch = [&] {
            // The first kernel only: metrics and inspection are of it (docs/projects.md).
            prepared.function->launch(prepared.grid, prepared.block, prepared.dynamicShared,
                                      *s.stream, prepared.params.data());
            finished.record(*s.stream);
            // Replay passes run the kernel again, and patched code runs it several times
            // slower: allow for sixteen deadlines.
            waitOrThrow(finished, prepared.deadlineSeconds * 16, "the kernel (" + what + ")",
                        s.contextLost);
        };
        collect(prepared, launch, phase);
        return {};
    } catch (const RunFailure &failure) {
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
        return failure.message;
    } catch (const ApiError &error) {
        return classifyApiError(error, phase, s.contextLost).message;
    } catch (const std::exception &error) {
        return "the " + what + " failed while " + phase + ": " + error.what();
    }
}

} // namespace

MetricsResult Runner::profileMetrics(const RunRequest &request, const MetricsRequest &metrics)
{
    MetricsResult result;
    State &s = *m_state;
    const std::string failed = untimedPass(
        s, request, "metrics pass",
        [&](const Prepared &prepared, const std::function<void()> &launch, std::string &phase) {
            describeOccupancy(s.device, *prepared.function, prepared, result);
            // Every pass's counters start from an L2 without dirty lines (the set-up's inputs
            // and poisoned outputs, the last pass's outputs), as `ncu --cache-control all`
            // starts each of its passes: otherwise their write-back lands in the kernel's DRAM
            // bytes (3 % more on the H200's copy), and a working set that fits in the L2 is
            // read from it instead of DRAM after the first pass. The passes are ours to
            // replay (user replay) so that the flush can run in each, after the profiler's
            // start, which itself leaves lines dirty (CuptiProfiler::profile).
            phase = "flushing the L2 before the metrics pass";
            const DeviceBuffer flush = l2FlushBuffer(s.device, s.gpuHelpers(), *s.stream);
            unsigned passes = 0;
            const auto flushL2 = [&] {
                phase = "flushing the L2 before a pass of the metrics pass";
                s.gpuHelpers().readFlush(flush.pointer(), flush.bytes(), passes++, *s.stream);
                s.stream->synchronize();
                phase = "running the user's kernel (metrics pass)";
            };
            const ProfilerValues values =
                CuptiProfiler::profile(s.ordinal, metrics.metrics, launch, 8, flushL2);
            result.chip = values.chip;
            result.values = values.values;
            result.passes = values.passes;
            result.error = values.error;
            result.permissionDenied = values.permissionDenied;
        });
    if (!failed.empty()) {
        result.error = failed;
    }
    return result;
}

InspectResult Runner::inspect(const RunRequest &request, const InspectRequest &inspect)
{
    InspectResult result;
    State &s = *m_state;
    // Two launches, each on freshly initialised buffers: the kernel unpatched while its PCs are
    // sampled, then patched to count per instruction. The sampling launch runs even when the
    // stalls were not asked for (they are then dropped): measured on an H200 (CUDA 13.0, driver
    // 580), a worker's later counting pass counted nothing of a kernel it had not counted
    // before unless every counting pass had a PC-sampling launch before it (or a Range
    // Profiler pass came between); a plain launch, a freshly loaded module, patching every
    // function and sampling only before the later passes did not help
    // (tests/gpu/tst_inspect.cpp, passesRepeatInOneWorker).
    {
        const std::string failed = untimedPass(
            s, request, "sampling pass",
            [&](const Prepared &prepared, const std::function<void()> &launch, std::string &phase) {
                const KernelLookup lookup = findKernel(prepared.compiled, prepared.launch.kernel);
                const std::string kernel =
                    lookup.kernel ? lookup.kernel->loweredName : prepared.launch.kernel;
                phase = "running the user's kernel (PC sampling)";
                PcSamplingResult pcs = CuptiPcSampling::collect(prepared.compiled.cubin, launch);
                if (!inspect.sampleStalls) {
                    return; // the launch was what was needed, not its samples
                }
                result.stallError = pcs.error;
                result.stallSamples = pcs.totalSamples;
                result.droppedStallSamples = pcs.droppedSamples;
                for (PcStallSamples &pc : pcs.pcs) {
                    if (pc.function == kernel) {
                        result.stalls.push_back(std::move(pc));
                    }
                }
            });
        if (!failed.empty()) {
            // A fault or a hang of the kernel itself is the pass's failure, not only the
            // samples': the counting launch would meet it again.
            result.error = failed;
            return result;
        }
    }
    const std::string failed = untimedPass(
        s, request, "inspection pass",
        [&](const Prepared &prepared, const std::function<void()> &launch, std::string &phase) {
            const KernelLookup lookup = findKernel(prepared.compiled, prepared.launch.kernel);
            result.kernel = lookup.kernel ? lookup.kernel->loweredName : prepared.launch.kernel;
            phase = "running the user's kernel (inspection pass)";
            SassCountersResult counted = CuptiSassMetrics::collect(s.ordinal, inspect.metrics,
                                                                   prepared.compiled.cubin, launch);
            result.chip = counted.chip;
            result.error = counted.error;
            result.permissionDenied = counted.permissionDenied;
            result.droppedRecords = counted.droppedRecords;
            for (SassInstructionCounters &instruction : counted.instructions) {
                if (instruction.function == result.kernel) {
                    result.lineInfo = result.lineInfo || instruction.line > 0;
                    result.instructions.push_back(std::move(instruction));
                }
            }
            if (result.ok() && result.instructions.empty()) {
                result.error = "CUPTI counted no instruction of `" + result.kernel + "`";
            }
        });
    if (!failed.empty()) {
        result.error = failed;
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
