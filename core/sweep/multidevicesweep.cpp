#include "sweep/multidevicesweep.h"
#include "sweep/sweepclock.h"

#include "sweep/sweephostcheck.h"
#include "worker/protocol.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <thread>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

std::string gpuName(int index)
{
    return "GPU " + std::to_string(index);
}

// GPUs of one model share their host checks: the same architecture and limits.
std::string modelKey(const DeviceInfo &device)
{
    return device.name + "/" + std::to_string(device.major) + "." + std::to_string(device.minor);
}

// The points of `expansion` as pending, or skipped with their reason.
void addPoints(SweepResult &result, const SweepExpansion &expansion)
{
    for (const SweepPoint &point : expansion.points) {
        SweepPointResult r;
        r.point = point;
        if (!point.runnable()) {
            r.status = PointStatus::Skipped;
            r.message = point.skipReason;
        }
        result.points.push_back(std::move(r));
    }
}

void takeCeilings(SweepResult &result)
{
    for (const SweepPointResult &r : result.points) {
        if (!r.measurement) {
            continue;
        }
        const Throughput &t = r.measurement->throughput;
        if (!result.theoreticalPeakGBps && t.theoreticalPeakGBps) {
            result.theoreticalPeakGBps = t.theoreticalPeakGBps;
        }
        if (!result.copyCeilingGBps && t.copyCeilingGBps) {
            result.copyCeilingGBps = t.copyCeilingGBps;
        }
    }
}

} // namespace

struct MultiDeviceSweep::Queue
{
    SweepResult *result = nullptr;
    std::deque<std::size_t> points; // indices into result->points, next first
    std::size_t inFlight = 0;       // taken and not yet finished (a lost GPU gives its back)
    std::size_t live = 0;           // GPUs still taking from it
};

struct MultiDeviceSweep::Shared
{
    const SweepSpec *spec = nullptr;
    const SweepContext *context = nullptr;
    Clock::time_point start;

    // The queues, the results' notes and errors, the reports, progress and the point callback.
    std::mutex mutex;
    std::condition_variable wake; // a point finished or came back
    SweepProgress progress;
    std::size_t runnableLeft = 0;
    std::size_t workerPoints = 0;
    double workerSeconds = 0.0;
    std::size_t liveDevices = 0;

    // The host checks, one per GPU model, and the compile function: one thread at a time.
    std::mutex hostMutex;
    std::map<std::string, std::unique_ptr<SweepHostCheck>> hosts;
    std::vector<SweepHostCheck *> hostOf; // by slot
    std::vector<SentImages> images;       // by slot: what its workers (by pid) have received
    CompileFunction workerCompile;        // the compile function, under hostMutex
};

MultiDeviceSweep::MultiDeviceSweep(std::vector<int> devices, WorkerOptionsFor optionsFor)
    : m_optionsFor(std::move(optionsFor))
{
    for (const int device : devices) {
        if (std::find(m_devices.begin(), m_devices.end(), device) == m_devices.end()) {
            m_devices.push_back(device);
        }
    }
    for (const int device : m_devices) {
        m_workers.push_back(std::make_unique<WorkerProcess>(m_optionsFor(device)));
    }
}

MultiDeviceSweep::~MultiDeviceSweep()
{
    for (auto &worker : m_workers) {
        worker->stop();
    }
}

void MultiDeviceSweep::setCompileFunction(CompileFunction compile)
{
    m_compile = std::move(compile);
}

void MultiDeviceSweep::cancel()
{
    m_cancel.store(true);
    for (auto &worker : m_workers) {
        worker->requestCancel();
    }
}

void MultiDeviceSweep::clearCancel()
{
    m_cancel.store(false);
}

// One GPU's worker started, on the thread that serves it: a worker is killed when the thread
// that started it ends (PR_SET_PDEATHSIG follows the forking thread).
void MultiDeviceSweep::hello(std::size_t slot)
{
    SweepDeviceReport &report = m_reports[slot];
    WorkerProcess &worker = *m_workers[slot];
    if (m_cancel.load()) {
        report.error = "cancelled before its worker started";
        return;
    }
    const WorkerProcess::Reply hello = worker.request(makeHelloRequest(), kHelloTimeoutSeconds);
    if (!hello.ok()) {
        report.error = "its worker could not start: " + hello.error;
        return;
    }
    try {
        const HelloReply parsed = parseHelloReply(worker.hello());
        if (!parsed.device) {
            report.error =
                "no GPU: " +
                (parsed.message.empty() ? std::string("the worker found none") : parsed.message);
            return;
        }
        report.device = parsed.device;
        report.device->ordinal = report.index;
        report.freeMemoryBytes = parsed.freeMemoryBytes;
    } catch (const nlohmann::json::exception &error) {
        report.error = std::string("its worker's hello is malformed: ") + error.what();
    }
}

struct MultiDeviceSweep::Start
{
    std::mutex mutex;
    std::condition_variable cv;
    std::size_t ready = 0; // GPUs whose hello has come back (or failed)
    bool go = false;       // the queues are set (or there is nothing to do)
    Shared *shared = nullptr;
    std::vector<Queue *> queues; // by slot; null for a GPU with nothing to do
    std::vector<std::thread> threads;
};

void MultiDeviceSweep::startWorkers(Start &start)
{
    m_reports.assign(m_devices.size(), SweepDeviceReport{});
    for (std::size_t slot = 0; slot < m_devices.size(); ++slot) {
        m_reports[slot].index = m_devices[slot];
    }
    for (std::size_t slot = 0; slot < m_devices.size(); ++slot) {
        start.threads.emplace_back([this, slot, &start] {
            hello(slot);
            std::unique_lock<std::mutex> lock(start.mutex);
            ++start.ready;
            start.cv.notify_all();
            start.cv.wait(lock, [&] { return start.go; });
            Queue *queue =
                start.shared && slot < start.queues.size() ? start.queues[slot] : nullptr;
            lock.unlock();
            if (queue != nullptr && m_reports[slot].device) {
                serve(slot, *queue, *start.shared);
            }
            m_workers[slot]->stop();
            m_reports[slot].workerStarts = m_workers[slot]->starts();
        });
    }
    std::unique_lock<std::mutex> lock(start.mutex);
    start.cv.wait(lock, [&] { return start.ready == m_devices.size(); });
}

void MultiDeviceSweep::finish(Start &start)
{
    {
        const std::lock_guard<std::mutex> lock(start.mutex);
        start.go = true;
    }
    start.cv.notify_all();
    for (std::thread &thread : start.threads) {
        thread.join();
    }
    start.threads.clear();
}

bool MultiDeviceSweep::measureOne(std::size_t slot, SweepPointResult &r, Shared &shared,
                                  bool &deviceLost)
{
    SweepDeviceReport &report = m_reports[slot];
    WorkerProcess &worker = *m_workers[slot];
    HostPointCheck host;
    {
        const std::lock_guard<std::mutex> lock(shared.hostMutex);
        host = shared.hostOf[slot]->check(r.point.request);
    }
    if (!host.runnable && m_cancel.load()) {
        r.message = "cancelled before it was measured";
        return false;
    }
    const SweepPointResult before = r;
    const auto prepare = [&] {
        r = before;
        host.applyTo(r);
        if (host.runnable) {
            r.deviceIndex = report.index;
            r.deviceName = report.device->name;
        }
    };
    prepare();
    if (!host.runnable) {
        return false;
    }
    SentImages &images = shared.images[slot];
    ++report.pointsRun;
    const PointOnWorker first = measurePointOnWorker(r, host, worker, shared.workerCompile, images,
                                                     *shared.spec, *shared.context, m_cancel);
    if (r.status != PointStatus::Failed || m_cancel.load()) {
        return first.ranOnWorker;
    }
    if (first.failure == WorkerProcess::Failure::StartFailed) {
        deviceLost = true;
        r = before;
        return false;
    }
    // Once more, on a fresh worker of the same GPU: a fault leaves the context unusable, and a
    // crash or hang may have been the worker's rather than the point's.
    const std::string firstReason = r.message;
    worker.kill();
    ++report.retries;
    ++report.pointsRun;
    prepare();
    const PointOnWorker second = measurePointOnWorker(r, host, worker, shared.workerCompile, images,
                                                      *shared.spec, *shared.context, m_cancel);
    if (second.failure == WorkerProcess::Failure::StartFailed) {
        deviceLost = true;
        r = before;
        return false;
    }
    if (r.status == PointStatus::Failed) {
        r.message = "failed on " + gpuName(report.index) + ": " + firstReason +
                    "; again on a fresh worker: " + r.message;
    } else if (r.status != PointStatus::Pending) {
        r.message = (r.message.empty() ? std::string() : r.message + "; ") + "measured on a " +
                    "fresh worker after it failed on " + gpuName(report.index) + ": " + firstReason;
    }
    return true;
}

void MultiDeviceSweep::serve(std::size_t slot, Queue &queue, Shared &shared)
{
    SweepDeviceReport &report = m_reports[slot];
    std::unique_lock<std::mutex> lock(shared.mutex);
    for (;;) {
        shared.wake.wait(
            lock, [&] { return m_cancel.load() || !queue.points.empty() || queue.inFlight == 0; });
        if (m_cancel.load() || queue.points.empty()) {
            break;
        }
        const std::size_t k = queue.points.front();
        queue.points.pop_front();
        ++queue.inFlight;
        lock.unlock();

        SweepPointResult &r = queue.result->points[k];
        const Clock::time_point pointStart = Clock::now();
        bool lost = false;
        const bool ranOnWorker = measureOne(slot, r, shared, lost);
        r.wallSeconds = secondsSince(pointStart);
        if (r.status != PointStatus::Pending) {
            r.measuredAt = sweepTimestampNow();
        }

        lock.lock();
        --queue.inFlight;
        if (lost) {
            const WorkerProcess &worker = *m_workers[slot];
            report.error =
                "its worker could not start again" +
                (worker.stderrTail().empty() ? std::string() : ": " + worker.stderrTail());
            queue.points.push_front(k);
            --queue.live;
            --shared.liveDevices;
            shared.wake.notify_all();
            break;
        }
        shared.wake.notify_all();
        if (r.status == PointStatus::Pending) {
            continue; // cancelled while in flight: not done
        }
        --shared.runnableLeft;
        if (ranOnWorker) {
            ++shared.workerPoints;
            shared.workerSeconds += r.wallSeconds;
        }
        SweepProgress &progress = shared.progress;
        ++progress.done;
        if (r.status == PointStatus::Measured || r.status == PointStatus::Wrong) {
            ++progress.measured;
        }
        progress.elapsedSeconds = secondsSince(shared.start);
        if (shared.workerPoints > 0 && shared.liveDevices > 0) {
            progress.secondsLeft = shared.workerSeconds / double(shared.workerPoints) *
                                   double(shared.runnableLeft) / double(shared.liveDevices);
        }
        reportPoint(r, progress);
    }
    report.workerStarts = m_workers[slot]->starts();
}

namespace {

// What the results say about GPUs that dropped out.
std::string dropOutNote(const SweepDeviceReport &report, bool pointsMoved)
{
    return gpuName(report.index) + " took no further part: " + report.error +
           (pointsMoved ? "; its points went to the other GPUs" : "");
}

} // namespace

SweepResult MultiDeviceSweep::run(const SweepSpec &spec, const RunRequest &base,
                                  const SweepContext &context)
{
    const Clock::time_point sweepStart = Clock::now();
    SweepResult result = startedSweepResult(spec, base, context);
    m_hostCompiles = 0;
    Start start;
    startWorkers(start);

    std::vector<std::size_t> live;
    std::string why;
    for (std::size_t slot = 0; slot < m_reports.size(); ++slot) {
        if (m_reports[slot].device) {
            live.push_back(slot);
            result.devices.push_back(*m_reports[slot].device);
        } else {
            why += (why.empty() ? "" : "; ") + gpuName(m_reports[slot].index) + ": " +
                   m_reports[slot].error;
        }
    }
    if (live.empty()) {
        result.error = m_cancel.load() ? "cancelled before the sweep started"
                                       : "no GPU's worker started (" + why + ")";
        const std::optional<ArchLimits> limits = archLimits(base.options.arch);
        const SweepExpansion expansion = expandSweep(spec, base, limits ? &*limits : nullptr);
        if (!expansion.ok()) {
            result.error = expansion.error;
        }
        addPoints(result, expansion);
        finish(start);
        result.cancelled = m_cancel.load();
        result.wallSeconds = secondsSince(sweepStart);
        return result;
    }
    const DeviceInfo &first = *m_reports[live.front()].device;
    result.device = first;
    result.deviceName = first.name;
    for (const DeviceInfo &device : result.devices) {
        if (result.deviceName.find(device.name) == std::string::npos) {
            result.deviceName += ", " + device.name;
        }
    }
    const ArchLimits limits = first.limits();
    const DeviceNames deviceNames = deviceNamesOf(first);
    const SweepExpansion expansion = expandSweep(spec, base, &limits, &deviceNames);
    if (!expansion.ok()) {
        finish(start);
        result.error = expansion.error;
        result.wallSeconds = secondsSince(sweepStart);
        return result;
    }
    addPoints(result, expansion);
    for (const SweepDeviceReport &report : m_reports) {
        if (!report.device) {
            result.notes.push_back(dropOutNote(report, true));
        }
    }
    if (result.mixedModels()) {
        result.notes.push_back("the GPUs are of different models, so their times are not "
                               "comparable: there is a best point per GPU, not one for the sweep");
    }
    noteUnverifiedSweep(result, spec, base);
    reportStarted(result);

    Queue queue;
    queue.result = &result;
    std::vector<Queue *> queues(m_devices.size(), &queue);
    runQueues(spec, context, live, queues, sweepStart, start);

    for (const std::size_t slot : live) {
        if (!m_reports[slot].error.empty()) {
            result.notes.push_back(dropOutNote(m_reports[slot], true));
        }
    }
    if (!m_cancel.load() && !queue.points.empty()) {
        result.notes.push_back(std::to_string(queue.points.size()) +
                               " points were not measured: no GPU's worker could start");
    }
    result.cancelled = m_cancel.load() && result.count(PointStatus::Pending) > 0;
    takeCeilings(result);
    result.wallSeconds = secondsSince(sweepStart);
    return result;
}

std::vector<SweepResult> MultiDeviceSweep::runPerDevice(const SweepSpec &spec,
                                                        const RunRequest &base,
                                                        const SweepContext &context)
{
    const Clock::time_point sweepStart = Clock::now();
    m_hostCompiles = 0;
    Start start;
    startWorkers(start);
    std::vector<std::size_t> live;
    for (std::size_t slot = 0; slot < m_reports.size(); ++slot) {
        if (m_reports[slot].device) {
            live.push_back(slot);
        }
    }
    std::vector<SweepResult> results;
    results.reserve(live.size());
    for (const std::size_t slot : live) {
        const DeviceInfo &device = *m_reports[slot].device;
        SweepResult result = startedSweepResult(spec, base, context);
        result.device = device;
        result.deviceName = device.name;
        result.devices = {device};
        const ArchLimits limits = device.limits();
        const DeviceNames deviceNames = deviceNamesOf(device);
        const SweepExpansion expansion = expandSweep(spec, base, &limits, &deviceNames);
        if (!expansion.ok()) {
            result.error = expansion.error;
        }
        addPoints(result, expansion);
        if (spec.verify && !base.verification.configured()) {
            result.notes.push_back("the project has no verification, so each point is only "
                                   "checked to run cleanly (no fault, no write outside its "
                                   "buffers)");
        }
        results.push_back(std::move(result));
    }
    if (results.empty()) {
        finish(start);
        return results;
    }
    for (const SweepResult &result : results) {
        reportStarted(result);
    }
    std::vector<Queue> own(live.size());
    std::vector<Queue *> queues(m_devices.size(), nullptr);
    for (std::size_t i = 0; i < live.size(); ++i) {
        own[i].result = &results[i];
        queues[live[i]] = &own[i];
    }
    runQueues(spec, context, live, queues, sweepStart, start);
    for (std::size_t i = 0; i < live.size(); ++i) {
        SweepResult &result = results[i];
        if (!m_reports[live[i]].error.empty()) {
            result.error = gpuName(m_reports[live[i]].index) + ": " + m_reports[live[i]].error;
        }
        result.cancelled = m_cancel.load() && result.count(PointStatus::Pending) > 0;
        takeCeilings(result);
        result.wallSeconds = secondsSince(sweepStart);
    }
    return results;
}

void MultiDeviceSweep::runQueues(const SweepSpec &spec, const SweepContext &context,
                                 const std::vector<std::size_t> &live,
                                 const std::vector<Queue *> &queues,
                                 std::chrono::steady_clock::time_point startedAt, Start &start)
{
    Shared shared;
    shared.spec = &spec;
    shared.context = &context;
    shared.start = startedAt;
    shared.liveDevices = live.size();
    if (m_compile) {
        shared.workerCompile = [this, &shared](std::string_view source, std::string_view fileName,
                                               const CompileOptions &options) {
            const std::lock_guard<std::mutex> lock(shared.hostMutex);
            return m_compile(source, fileName, options);
        };
    }
    shared.hostOf.assign(m_devices.size(), nullptr);
    shared.images.assign(m_devices.size(), SentImages{});
    std::map<std::string, std::uint64_t> freeMemory; // the least of a model's GPUs
    for (const std::size_t slot : live) {
        const std::string key = modelKey(*m_reports[slot].device);
        const std::uint64_t bytes = m_reports[slot].freeMemoryBytes;
        const auto found = freeMemory.find(key);
        freeMemory[key] = found == freeMemory.end() ? bytes : std::min(found->second, bytes);
    }
    for (const std::size_t slot : live) {
        const DeviceInfo &device = *m_reports[slot].device;
        const std::string key = modelKey(device);
        std::unique_ptr<SweepHostCheck> &host = shared.hosts[key];
        if (!host) {
            ValidationContext validation;
            validation.limits = device.limits();
            validation.limitsName = device.name;
            if (freeMemory[key] > 0) {
                validation.freeMemoryBytes = freeMemory[key];
            }
            host = std::make_unique<SweepHostCheck>(device.arch(), validation, device.smCount,
                                                    m_compile);
        }
        shared.hostOf[slot] = host.get();
    }

    // Points skipped before anything runs are reported first, in sweep order.
    std::vector<Queue *> distinct;
    for (const std::size_t slot : live) {
        if (std::find(distinct.begin(), distinct.end(), queues[slot]) == distinct.end()) {
            distinct.push_back(queues[slot]);
        }
        ++queues[slot]->live;
    }
    for (Queue *queue : distinct) {
        shared.progress.total += queue->result->points.size();
    }
    for (Queue *queue : distinct) {
        for (std::size_t k = 0; k < queue->result->points.size(); ++k) {
            const SweepPointResult &r = queue->result->points[k];
            if (r.point.runnable()) {
                queue->points.push_back(k);
                ++shared.runnableLeft;
                continue;
            }
            ++shared.progress.done;
            reportPoint(r, shared.progress);
        }
    }

    start.shared = &shared;
    start.queues = queues;
    finish(start);
    for (const auto &entry : shared.hosts) {
        m_hostCompiles += entry.second->compiles();
    }
}

} // namespace cuwb
