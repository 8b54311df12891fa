// SweepExecutor: what measures a sweep's points, wherever they run. One interface for the three
// places a sweep can go, so that `cuwb sweep`, grading and the window's Sweep dock start, follow
// and cancel a sweep the same way and choose only which executor to make (the placement):
//   - SweepRunner (sweeprunner.h): one worker, on this machine or a remote target;
//   - MultiDeviceSweep (multidevicesweep.h): one worker per GPU of a machine;
//   - SlurmSweep (cluster/slurmsweep.h): a Slurm job array, one task per shard.
// Every executor expands the spec against the base request, reports the expanded sweep once
// (started: every point pending or skipped) and each point as it finishes (in sweep order for
// one worker; as they finish for the others, each with its index), and returns the whole
// result. run() is synchronous and never throws for the user's work or a GPU's failure: what
// went wrong is in SweepResult::error. cancel() is safe from any thread and from a signal
// handler: no further point starts, the points in flight stop sampling, the points measured are
// kept and the result is marked cancelled.
#pragma once

#include "compiler/compilefunction.h"
#include "sweep/sweep.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace cuwb {

struct RunRequest;

// What the sweep needs from the project beyond the spec and the base request.
struct SweepContext
{
    std::string projectName;
    ThroughputExpressions throughput; // the project's "measure" section: bytes and FLOPs
};

struct SweepProgress
{
    std::size_t done = 0;     // points finished (any status), this one included
    std::size_t total = 0;    // all points of the sweep, skipped ones included
    std::size_t measured = 0; // points measured so far (Measured or Wrong)
    double elapsedSeconds = 0.0;
    // The average wall time of the points run so far × the runnable points left; absent
    // until a point has been run on the worker.
    std::optional<double> secondsLeft;
};

class SweepExecutor
{
public:
    // After expansion, before the first point: every point pending or skipped.
    using StartedCallback = std::function<void(const SweepResult &)>;
    // After each point, skipped ones included.
    using PointCallback = std::function<void(const SweepPointResult &, const SweepProgress &)>;
    // A line on how the sweep stands where points do not say it (a Slurm job's queue).
    using StatusCallback = std::function<void(const std::string &)>;

    SweepExecutor() = default;
    virtual ~SweepExecutor();
    SweepExecutor(const SweepExecutor &) = delete;
    SweepExecutor &operator=(const SweepExecutor &) = delete;

    void setStartedCallback(StartedCallback callback) { m_started = std::move(callback); }
    void setPointCallback(PointCallback callback) { m_pointDone = std::move(callback); }
    void setStatusCallback(StatusCallback callback) { m_status = std::move(callback); }
    // Who compiles the variants on the host (and a remote worker's images), for the executors
    // that compile here; empty: KernelCompiler in this process. Called on one thread at a time.
    virtual void setCompileFunction(CompileFunction compile) { (void)compile; }

    virtual SweepResult run(const SweepSpec &spec, const RunRequest &base,
                            const SweepContext &context) = 0;
    SweepResult run(const SweepSpec &spec, const RunRequest &base)
    {
        return run(spec, base, SweepContext{});
    }

    virtual void cancel() = 0;
    virtual void clearCancel() = 0;
    [[nodiscard]] virtual bool cancelRequested() const = 0;

    // Distinct (source, options) compiled on the host by the last run().
    [[nodiscard]] virtual std::size_t hostCompiles() const { return 0; }

protected:
    void reportStarted(const SweepResult &skeleton) const
    {
        if (m_started)
            m_started(skeleton);
    }
    void reportPoint(const SweepPointResult &point, const SweepProgress &progress) const
    {
        if (m_pointDone)
            m_pointDone(point, progress);
    }
    void reportStatus(const std::string &line) const
    {
        if (m_status)
            m_status(line);
    }

private:
    StartedCallback m_started;
    PointCallback m_pointDone;
    StatusCallback m_status;
};

} // namespace cuwb
