#include "sweep/sweeprunner.h"
#include "sweep/sweepclock.h"

#include "launch/launchvalidation.h"
#include "measure/roofline.h"
#include "sweep/sweephostcheck.h"
#include "worker/workerclient.h"
#include "worker/workerprocess.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

std::string sweepTimestampNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

namespace {

// The points of `expansion` (of `shard` only, when given) as pending, or skipped with their
// reason.
void addExpandedPoints(SweepResult &result, const SweepExpansion &expansion,
                       const std::optional<ShardSelection> &shard)
{
    if (shard) {
        result.shard = SweepShard{shard->index, shard->count, expansion.points.size()};
    }
    for (const SweepPoint &point : expansion.points) {
        if (shard && !inShard(point.index, *shard)) {
            continue;
        }
        SweepPointResult r;
        r.point = point;
        if (!point.runnable()) {
            r.status = PointStatus::Skipped;
            r.message = point.skipReason;
        }
        result.points.push_back(std::move(r));
    }
}

// What a point costs beyond its samples when all goes well (the goal of the worker path).
constexpr double kPointOverheadSeconds = 0.02;

} // namespace

struct SweepRunner::State
{
    // Created per run() with the worker's device: each variant compiled once on the host.
    std::unique_ptr<SweepHostCheck> host;
    // The variants each worker process (by pid) has received and keeps.
    SentImages imagesSent;
};

void SweepRunner::runPoint(SweepPointResult &r, const SweepSpec &spec, const SweepContext &context,
                           bool &ranOnWorker)
{
    const HostPointCheck host = m_state->host->check(r.point.request);
    if (!host.runnable && m_cancel.load()) {
        // A cancel may have stopped the host's compile: that is not what the point compiles to.
        r.message = "cancelled before it was measured";
        return;
    }
    host.applyTo(r);
    if (!host.runnable) {
        return;
    }
    ranOnWorker = measurePointOnWorker(r, host, m_worker, m_compile, m_state->imagesSent, spec,
                                       context, m_cancel)
                      .ranOnWorker;
}

// The point's request, with the host's compiled image the first time a worker is sent this
// variant; the worker keeps it and does not compile the same source and options again.
class PointRequest
{
public:
    PointRequest(const SweepPointResult &r, const HostPointCheck &host, WorkerProcess &worker,
                 SentImages &imagesSent)
        : request(r.point.request)
        , m_worker(worker)
        , m_compiled(host.compiled.get())
        , m_sent(imagesSent)
    {
        if (host.compiled && host.compiled->success && !m_sent.count(key())) {
            CompiledImage image;
            image.options = host.compiled->options;
            image.cubin = host.compiled->cubin;
            image.ptx = host.compiled->ptx;
            image.kernels = host.compiled->kernels;
            image.compileTimeMs = host.compiled->compileTimeMs;
            image.compiledBy = host.compiled->compiledBy;
            request.image = std::move(image);
        }
    }
    // After a request: a worker that answered (whatever it said) keeps the image it received.
    void delivered(const WorkerClient &client)
    {
        if (client.answered() && request.image) {
            m_sent.insert(key());
            request.image.reset();
        }
    }

    RunRequest request;

private:
    [[nodiscard]] std::pair<long, const CompileResult *> key() const
    {
        return {long(m_worker.pid()), m_compiled};
    }

    const WorkerProcess &m_worker;
    const CompileResult *m_compiled;
    SentImages &m_sent;
};

// Why a run that succeeded did not pass, in one line: the verification's first line, else the
// first write out of bounds.
std::string wrongRunMessage(const RunResult &run)
{
    if (run.verification.ran && !run.verification.passed) {
        return run.verification.message.substr(0, run.verification.message.find('\n'));
    }
    for (const BufferReport &buffer : run.buffers) {
        if (!buffer.guardViolations.empty()) {
            return buffer.guardViolations.front().message;
        }
    }
    return "the output did not verify";
}

// The point's verification run. False when the point ends with it (cancelled, skipped,
// failed); true when it goes on to be measured, with `wrong` set to why its output was wrong
// (empty when it passed).
bool verifyPoint(SweepPointResult &r, WorkerClient &client, PointRequest &point,
                 PointOnWorker &outcome, std::optional<std::string> &wrong)
{
    const Clock::time_point start = Clock::now();
    const RunResult run = client.run(point.request);
    point.delivered(client);
    outcome.ranOnWorker = true;
    r.verifyMs = secondsSince(start) * 1e3;
    if (client.lastFailure() == WorkerProcess::Failure::Cancelled) {
        r.message = "cancelled before it was measured"; // WorkerProcess::cancel(): stays pending
        return false;
    }
    if (!client.answered()) {
        outcome.failure = client.lastFailure();
        r.status = PointStatus::Failed;
        r.message = "the verification run failed: " + run.message;
        return false;
    }
    r.workerCompileMs = run.compileMs;
    // What each check found, its largest errors beside the verdict (not its mismatches: the
    // point keeps the summary, the run's own report has the details).
    r.checks = run.checks.empty() && run.verification.ran
                   ? std::vector<VerificationResult>{run.verification}
                   : run.checks;
    for (VerificationResult &check : r.checks) {
        check.firstMismatches.clear();
    }
    switch (run.status) {
    case RunStatus::Succeeded:
        if (!run.passed()) {
            wrong = wrongRunMessage(run);
        }
        // The run's buffers are kept for paging; the measurement allocates its own.
        client.release();
        return true;
    case RunStatus::CompileFailed:
        r.skip(SkipKind::Compile, run.message);
        return false;
    case RunStatus::InvalidLaunch:
        r.skip(SkipKind::Resources, run.message);
        return false;
    default:
        r.status = PointStatus::Failed;
        r.message = std::string(runStatusName(run.status)) + ": " + run.message;
        return false;
    }
}

// A measurement that did not complete, kept in the point as what it says: cancelled (the point
// stays pending), skipped (compile, resources) or failed, with the samples before a fault.
// False when the measurement completed and is for the caller to keep.
bool keepUnfinished(SweepPointResult &r, Measurement &measurement)
{
    if (measurement.stop.reason == StopReason::Cancelled) {
        r.message = "cancelled while measuring, after " +
                    std::to_string(measurement.samplesNs.size()) + " samples";
        r.measurement = std::move(measurement);
        return true; // stays pending: too few samples to compare with the others
    }
    if (measurement.faultStatus.empty()) {
        return false;
    }
    const std::string status = measurement.faultStatus;
    r.message = status + ": " + measurement.faultMessage;
    if (status == runStatusName(RunStatus::CompileFailed)) {
        r.skip(SkipKind::Compile, r.message);
    } else if (status == runStatusName(RunStatus::InvalidLaunch)) {
        r.skip(SkipKind::Resources, r.message);
    } else {
        r.status = PointStatus::Failed;
    }
    r.measurement = std::move(measurement); // the samples before a fault are kept
    return true;
}

PointOnWorker measurePointOnWorker(SweepPointResult &r, const HostPointCheck &host,
                                   WorkerProcess &worker, const CompileFunction &compile,
                                   SentImages &imagesSent, const SweepSpec &spec,
                                   const SweepContext &context, const std::atomic<bool> &cancel)
{
    PointOnWorker outcome;
    PointRequest point(r, host, worker, imagesSent);
    WorkerClient client(worker, compile);
    std::optional<std::string> wrong;
    if (spec.verify) {
        if (cancel.load()) {
            r.message = "cancelled before it was measured";
            return outcome;
        }
        if (!verifyPoint(r, client, point, outcome, wrong)) {
            return outcome;
        }
    }
    if (cancel.load()) {
        r.message = "cancelled before it was measured";
        return outcome;
    }
    const Clock::time_point measureStart = Clock::now();
    Measurement measurement = client.measure(point.request, spec.settings, context.throughput);
    point.delivered(client);
    outcome.ranOnWorker = true;
    r.measureMs = secondsSince(measureStart) * 1e3;
    if (client.lastFailure() == WorkerProcess::Failure::Cancelled) {
        // WorkerProcess::cancel() (a client that quits) killed the worker: no sample survives,
        // and every later request would fail the same way.
        r.message = "cancelled while measuring";
        return outcome;
    }
    if (!client.answered()) {
        outcome.failure = client.lastFailure();
        r.status = PointStatus::Failed;
        r.message = measurement.faultMessage;
        return outcome;
    }
    if (keepUnfinished(r, measurement)) {
        return outcome;
    }
    r.measurement = std::move(measurement);
    r.status = wrong ? PointStatus::Wrong : PointStatus::Measured;
    r.message = wrong.value_or(std::string());
    if ((spec.metrics || spec.roofline) && !cancel.load()) {
        r.metrics = client.metrics(point.request, pointMetricsRequest(spec));
    }
    return outcome;
}

MetricsRequest pointMetricsRequest(const SweepSpec &spec)
{
    MetricsRequest request;
    if (spec.roofline) {
        request.metrics = withRooflineMetrics(std::move(request.metrics));
    }
    return request;
}

SweepEstimate estimateSweep(const SweepSpec &spec, std::size_t runnablePoints,
                            double deadlineSeconds)
{
    const SampleSettings &s = spec.settings;
    double least = kPointOverheadSeconds;
    if (s.fixedSamples == 0) {
        least += s.minGpuTimeSeconds;
    }
    double most = kPointOverheadSeconds + s.timeCapSeconds;
    if (spec.verify) {
        most += deadlineSeconds;
    }
    return {least * double(runnablePoints), most * double(runnablePoints)};
}

SweepRunner::SweepRunner(WorkerProcess &worker)
    : m_worker(worker)
    , m_state(std::make_unique<State>())
{}

SweepRunner::~SweepRunner() = default;

void SweepRunner::setShard(std::optional<ShardSelection> shard)
{
    m_shard = shard;
}

void SweepRunner::setCompileFunction(CompileFunction compile)
{
    m_compile = std::move(compile);
}

void SweepRunner::cancel()
{
    m_cancel.store(true);
    m_worker.requestCancel();
}

void SweepRunner::clearCancel()
{
    m_cancel.store(false);
}

SweepResult startedSweepResult(const SweepSpec &spec, const RunRequest &base,
                               const SweepContext &context)
{
    SweepResult result;
    result.projectName = context.projectName;
    result.kernel = base.launch.kernel;
    result.sourceHash = sourceHashFnv1a64(base.source);
    result.spec = spec;
    result.startedAt = sweepTimestampNow();
    return result;
}

void noteUnverifiedSweep(SweepResult &result, const SweepSpec &spec, const RunRequest &base)
{
    if (spec.verify && !base.verification.configured()) {
        result.notes.push_back("the project has no verification, so each point is only checked "
                               "to run cleanly (no fault, no write outside its buffers)");
    }
}

SweepResult sweepSkeleton(const SweepSpec &spec, const RunRequest &base,
                          const SweepContext &context, const ArchLimits *limits)
{
    SweepResult result = startedSweepResult(spec, base, context);
    const SweepExpansion expansion = expandSweep(spec, base, limits);
    result.error = expansion.error;
    addExpandedPoints(result, expansion, std::nullopt);
    return result;
}

std::optional<DeviceInfo> SweepRunner::greetWorker(SweepResult &result,
                                                   std::uint64_t &freeMemoryBytes)
{
    std::optional<DeviceInfo> device;
    if (!m_worker.running() && !m_cancel.load()) {
        const WorkerProcess::Reply hello =
            m_worker.request(makeHelloRequest(), kHelloTimeoutSeconds);
        if (!hello.ok()) {
            result.error = "the worker could not start: " + hello.error;
        }
    }
    if (result.error.empty() && !m_worker.hello().is_null()) {
        try {
            const HelloReply hello = parseHelloReply(m_worker.hello());
            device = hello.device;
            freeMemoryBytes = hello.freeMemoryBytes;
            if (!device) {
                result.error = "no GPU: " + (hello.message.empty() ? std::string("the worker "
                                                                                 "found none")
                                                                   : hello.message);
            }
        } catch (const nlohmann::json::exception &error) {
            result.error = std::string("the worker's hello is malformed: ") + error.what();
        }
    } else if (result.error.empty()) {
        result.error = m_cancel.load() ? "cancelled before the sweep started"
                                       : "the worker did not say which GPU it has";
    }
    return device;
}

void SweepRunner::measurePoints(SweepResult &result, const SweepSpec &spec,
                                const SweepContext &context, Clock::time_point sweepStart)
{
    std::size_t runnableLeft = 0;
    for (const SweepPointResult &r : result.points) {
        runnableLeft += r.point.runnable() ? 1 : 0;
    }
    std::size_t workerPoints = 0;
    double workerSeconds = 0.0;
    SweepProgress progress;
    progress.total = result.points.size();

    for (SweepPointResult &r : result.points) {
        if (m_cancel.load()) {
            result.cancelled = true;
            break;
        }
        const Clock::time_point pointStart = Clock::now();
        bool ranOnWorker = false;
        const bool runnable = r.point.runnable();
        if (runnable) {
            --runnableLeft;
            runPoint(r, spec, context, ranOnWorker);
            m_hostCompiles = m_state->host->compiles();
            r.wallSeconds = secondsSince(pointStart);
            if (r.status == PointStatus::Pending) {
                result.cancelled = true; // cancelled while in flight; its samples are kept
                break;
            }
            r.measuredAt = sweepTimestampNow();
        }
        if (r.measurement) {
            const Throughput &t = r.measurement->throughput;
            if (!result.theoreticalPeakGBps && t.theoreticalPeakGBps) {
                result.theoreticalPeakGBps = t.theoreticalPeakGBps;
            }
            if (!result.copyCeilingGBps && t.copyCeilingGBps) {
                result.copyCeilingGBps = t.copyCeilingGBps;
            }
        }
        if (ranOnWorker) {
            ++workerPoints;
            workerSeconds += r.wallSeconds;
        }
        ++progress.done;
        if (r.status == PointStatus::Measured || r.status == PointStatus::Wrong) {
            ++progress.measured;
        }
        progress.elapsedSeconds = secondsSince(sweepStart);
        if (workerPoints > 0) {
            progress.secondsLeft = workerSeconds / double(workerPoints) * double(runnableLeft);
        }
        reportPoint(r, progress);
    }
}

SweepResult SweepRunner::run(const SweepSpec &spec, const RunRequest &base,
                             const SweepContext &context)
{
    const Clock::time_point sweepStart = Clock::now();
    SweepResult result = startedSweepResult(spec, base, context);
    m_state->host.reset();
    m_state->imagesSent.clear();
    m_hostCompiles = 0;

    const auto finish = [&]() -> SweepResult {
        result.wallSeconds = secondsSince(sweepStart);
        return std::move(result);
    };
    const auto fillPoints = [&](const SweepExpansion &expansion) {
        addExpandedPoints(result, expansion, m_shard);
    };

    // The device first: its limits decide which points can run, its architecture what the
    // host compiles for.
    std::uint64_t freeMemoryBytes = 0;
    const std::optional<DeviceInfo> device = greetWorker(result, freeMemoryBytes);
    if (!device) {
        // Still list the points, with the project's architecture's limits.
        const std::optional<ArchLimits> limits = archLimits(base.options.arch);
        const SweepExpansion expansion = expandSweep(spec, base, limits ? &*limits : nullptr);
        if (!expansion.ok()) {
            result.error = expansion.error;
        }
        fillPoints(expansion);
        result.cancelled = m_cancel.load();
        return finish();
    }
    result.deviceName = device->name;
    result.device = device;
    const ArchLimits limits = device->limits();
    const std::string arch = device->arch();

    const DeviceNames deviceNames = deviceNamesOf(*device);
    const SweepExpansion expansion = expandSweep(spec, base, &limits, &deviceNames);
    if (!expansion.ok()) {
        result.error = expansion.error;
        return finish();
    }
    fillPoints(expansion);
    noteUnverifiedSweep(result, spec, base);
    reportStarted(result);

    // The worker's device: its limits, free memory and SMs for the host checks.
    ValidationContext validation;
    validation.limits = limits;
    validation.limitsName = device->name;
    if (freeMemoryBytes > 0) {
        validation.freeMemoryBytes = freeMemoryBytes;
    }
    m_state->host = std::make_unique<SweepHostCheck>(arch, validation, device->smCount, m_compile);

    measurePoints(result, spec, context, sweepStart);
    return finish();
}

} // namespace cuwb
