// SweepRunner: measures the points of a sweep one by one on a `cuwb worker` (WorkerProcess)
// and reports each as it completes. Synchronous: `cuwb sweep` calls run() directly, the GUI
// from a thread of its own, with the point callback posting each result to the GUI thread.
//
// Per point, on the host first: the point's source and options are compiled once per distinct
// set of options (KernelCompiler; a block-size sweep compiles once), a compile error skips the
// point with the compiler's first error; the launch is resolved and validated against the
// device's limits with the kernel's registers and static shared memory (too many threads, too
// much shared memory: skipped with the reason); the theoretical occupancy, its limiter and the
// waves are computed. Then, on the worker: a verification run when the spec asks for one
// (wrong output: the point is Wrong and measured anyway, never best), the measurement, and the
// metrics pass when asked. A point that faults, times out or kills the worker is Failed with
// the reason, and the sweep goes on: WorkerProcess starts a fresh worker on the next request.
// Workers are never restarted on purpose, and nothing is compiled twice. NVRTC runs in this
// process unless setCompileFunction() names another (the GUI's compile server): a host compile
// that crashes or times out there skips its points with that sentence, and the sweep goes on.
//
// cancel() is safe from any thread and from a signal handler: the point in flight stops
// sampling (its samples are kept, the point stays pending) and no further point starts.
// WorkerProcess::cancel(), the hard stop of a client that quits, ends the sweep the same way.
#pragma once

#include "compiler/compilefunction.h"
#include "sweep/sweep.h"
#include "sweep/sweepexecutor.h"
#include "sweep/sweephostcheck.h"
#include "sweep/sweepshard.h"
#include "util/format.h" // formatDuration
#include "worker/workerprocess.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace cuwb {

// Bounds on a sweep's duration before it runs: each runnable point costs at least the
// per-point overhead (plus the minimum GPU time of adaptive sampling) and at most its time cap
// (plus a verification run's deadline).
struct SweepEstimate
{
    double minSeconds = 0.0;
    double maxSeconds = 0.0;
};
SweepEstimate estimateSweep(const SweepSpec &spec, std::size_t runnablePoints,
                            double deadlineSeconds);

// What the metrics pass asks for at each point of `spec`: defaultMetrics(), with
// rooflineMetrics() when the spec asks for the roofline.
MetricsRequest pointMetricsRequest(const SweepSpec &spec);

// A sweep's result as it starts, before its points: what it sweeps (project, kernel, source
// hash, spec) and when it started (now).
SweepResult startedSweepResult(const SweepSpec &spec, const RunRequest &base,
                               const SweepContext &context);
// The note of a sweep that verifies each point of a project that has no verification.
void noteUnverifiedSweep(SweepResult &result, const SweepSpec &spec, const RunRequest &base);

// The sweep before any point is measured, as a sweep measured elsewhere (a Slurm job array)
// starts: every point pending, or skipped with its reason against `limits` when given; the
// expansion's error when the spec cannot be expanded. Started now.
SweepResult sweepSkeleton(const SweepSpec &spec, const RunRequest &base,
                          const SweepContext &context, const ArchLimits *limits);

// The variants each worker process (by pid) has received and keeps: a worker gets the host's
// compile with its first request for it, and a fresh worker (a new pid) gets it again.
using SentImages = std::set<std::pair<long, const CompileResult *>>;

// How a point's requests on the worker went.
struct PointOnWorker
{
    bool ranOnWorker = false; // the worker was asked anything
    // Why the worker did not answer the last request (a crash, a timeout, a start that
    // failed); None when it answered, whatever it said.
    WorkerProcess::Failure failure = WorkerProcess::Failure::None;
};

// The worker's part of one point whose host check passed (`host`, already applied to r):
// the verification run when the spec asks for one, the measurement, the metrics pass. Fills
// r's status, message and figures; leaves it Pending when `cancel` is set. The one per-point
// procedure of SweepRunner and MultiDeviceSweep (multidevicesweep.h).
PointOnWorker measurePointOnWorker(SweepPointResult &r, const HostPointCheck &host,
                                   WorkerProcess &worker, const CompileFunction &compile,
                                   SentImages &imagesSent, const SweepSpec &spec,
                                   const SweepContext &context, const std::atomic<bool> &cancel);

// The ISO 8601 UTC time now, as a sweep stamps its start and each point.
std::string sweepTimestampNow();

// The points in sweep order, each reported as it finishes.
class SweepRunner final : public SweepExecutor
{
public:
    explicit SweepRunner(WorkerProcess &worker);
    ~SweepRunner() override;

    // Measure only this shard's points (sweepshard.h); the result then holds those points and
    // says which shard of how many, out of how many points. nullopt: the whole sweep.
    void setShard(std::optional<ShardSelection> shard);
    // Who compiles the variants on the host (and, for a remote worker, its images): called on
    // the thread of run() only. Empty: KernelCompiler in this process.
    void setCompileFunction(CompileFunction compile) override;

    // Expands `spec` against `base` with the worker's device limits and measures every
    // runnable point. Never throws for the user's work or a worker's failure: an unusable spec,
    // no GPU or a worker that cannot start comes back in SweepResult::error.
    SweepResult run(const SweepSpec &spec, const RunRequest &base,
                    const SweepContext &context) override;
    using SweepExecutor::run;

    // Any thread, or a signal handler (an atomic store and WorkerProcess::requestCancel).
    // Stays in force until clearCancel(), so a cancel that comes before run() stops it too.
    void cancel() override;
    void clearCancel() override;
    [[nodiscard]] bool cancelRequested() const override { return m_cancel.load(); }

    [[nodiscard]] std::size_t hostCompiles() const override { return m_hostCompiles; }

private:
    struct State; // the host compiler and its results by options, for one run()
    // Fills r for one runnable point: host checks, verification, measurement, metrics. Leaves
    // it Pending when cancelled; ranOnWorker tells whether the worker was asked anything.
    void runPoint(SweepPointResult &r, const SweepSpec &spec, const SweepContext &context,
                  bool &ranOnWorker);
    // The worker's device and free memory, from its hello (started first when it is not
    // running); nullopt with result.error set when there is none.
    std::optional<DeviceInfo> greetWorker(SweepResult &result, std::uint64_t &freeMemoryBytes);
    // Every point of result in turn until the last or a cancel, each reported with the
    // progress and the time left (from the points the worker ran so far).
    void measurePoints(SweepResult &result, const SweepSpec &spec, const SweepContext &context,
                       std::chrono::steady_clock::time_point sweepStart);

    WorkerProcess &m_worker;
    std::unique_ptr<State> m_state;
    std::size_t m_hostCompiles = 0;
    std::optional<ShardSelection> m_shard;
    CompileFunction m_compile;
    std::atomic<bool> m_cancel{false};
};

} // namespace cuwb
