// MultiDeviceSweep: a sweep spread over several GPUs of one machine, one `cuwb worker` per GPU
// (each started for its device, as `cuwb worker --device N`), each on a thread of its own
// that takes the next point from a shared queue as soon as its worker is free. The points are
// measured by the same per-point procedure as SweepRunner's (measurePointOnWorker) and come
// back in the same SweepResult, in sweep order, each marked with the GPU that measured it;
// the variants are compiled once on the host per GPU model, as SweepRunner compiles them once.
//
// Honest measurements: each GPU has exactly one worker, which runs one request at a time, so
// no two timings ever share a GPU; a device listed twice gets one worker.
//
// Failures: a point whose worker crashed, hung past its deadline or faulted is retried once on
// a fresh worker of the same GPU (the other GPUs go on meanwhile); failing again, it is Failed
// with both reasons. A GPU whose worker cannot start (at the beginning or when it restarts)
// drops out, is named in the result's notes, and its points go to the other GPUs.
//
// Best point: GPUs of the same model (name and compute capability) give one best point;
// across models SweepResult::bestPoint() refuses and bestPointPerDevice() gives each GPU's.
// runPerDevice() runs the whole sweep on every GPU instead (in parallel, one result per GPU),
// for comparing GPUs.
//
// Synchronous like SweepRunner: run() returns when every worker thread has finished. The
// started callback runs on the calling thread; the point callback on the workers' threads,
// one call at a time. cancel() is safe from any thread and from a signal handler.
#pragma once

#include "compiler/compilefunction.h"
#include "sweep/sweep.h"
#include "sweep/sweeprunner.h"
#include "worker/workerprocess.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// What became of one GPU of the sweep.
struct SweepDeviceReport
{
    int index = 0;                     // as `--device N` names it
    std::optional<DeviceInfo> device;  // from its worker's hello; absent when it never started
    std::string error;                 // why it dropped out; empty when it worked to the end
    std::size_t pointsRun = 0;         // points it was asked to measure (retries included)
    std::size_t retries = 0;           // points it measured again on a fresh worker
    std::uint64_t freeMemoryBytes = 0; // from its worker's hello
    int workerStarts = 0;              // workers started for it
};

class MultiDeviceSweep final : public SweepExecutor
{
public:
    // The worker of one GPU: `cuwb worker --device N`, or a stand-in.
    using WorkerOptionsFor = std::function<WorkerProcess::Options(int device)>;

    // `devices`: the GPU indices to use, in order (a repeated index is used once).
    MultiDeviceSweep(std::vector<int> devices, WorkerOptionsFor optionsFor);
    ~MultiDeviceSweep() override;

    // The point callback comes for the skipped points first, in sweep order; then for the
    // measured ones as they finish, on any GPU: r.deviceIndex names the GPU.
    void setCompileFunction(CompileFunction compile) override;

    // Every runnable point once, on whichever GPU is free. Never throws for the user's work
    // or a worker's failure: no GPU whose worker starts comes back in SweepResult::error.
    SweepResult run(const SweepSpec &spec, const RunRequest &base,
                    const SweepContext &context) override;
    using SweepExecutor::run;
    // The whole sweep on every GPU, in parallel: one result per GPU whose worker started, in
    // device order, each expanded and checked against its own GPU's limits.
    // Empty only when no worker started; then the reasons are in reports().
    std::vector<SweepResult> runPerDevice(const SweepSpec &spec, const RunRequest &base,
                                          const SweepContext &context = {});

    // Any thread, or a signal handler: no further point starts, the points in flight stop
    // sampling (and stay pending), as SweepRunner::cancel().
    void cancel() override;
    void clearCancel() override;
    [[nodiscard]] bool cancelRequested() const override { return m_cancel.load(); }

    // The GPUs of the last run, in the order given.
    [[nodiscard]] const std::vector<SweepDeviceReport> &reports() const { return m_reports; }
    // Distinct (source, options) compiled on the host by the last run, over all GPU models.
    [[nodiscard]] std::size_t hostCompiles() const override { return m_hostCompiles; }

private:
    struct Host;  // the host checks of one GPU model, shared by its GPUs
    struct Queue; // the points one or more GPUs take from
    struct Shared;
    struct Start; // the GPUs' threads, from their hellos until the queues are set

    // Each GPU's thread starts its worker (its hello) and waits for finish(); returns when
    // every hello has come back.
    void startWorkers(Start &start);
    void hello(std::size_t slot);
    // Lets the GPUs' threads serve start's queues (none: they stop their workers) and joins
    // them.
    void finish(Start &start);
    // One GPU's thread: takes points from `queue` until it is empty, cancelled or the GPU's
    // worker can no longer start.
    void serve(std::size_t slot, Queue &queue, Shared &shared);
    // One point on the slot's GPU, retried once on a fresh worker when it fails; true when the
    // worker was asked anything. deviceLost: its worker could not start (r is left as it was).
    bool measureOne(std::size_t slot, SweepPointResult &r, Shared &shared, bool &deviceLost);
    // Runs the queues (queues[slot] for each live slot) on the live GPUs' threads.
    void runQueues(const SweepSpec &spec, const SweepContext &context,
                   const std::vector<std::size_t> &live, const std::vector<Queue *> &queues,
                   std::chrono::steady_clock::time_point startedAt, Start &start);

    std::vector<int> m_devices;
    WorkerOptionsFor m_optionsFor;
    std::vector<std::unique_ptr<WorkerProcess>> m_workers; // one per device, made up front
    std::vector<SweepDeviceReport> m_reports;
    CompileFunction m_compile;
    std::size_t m_hostCompiles = 0;
    std::atomic<bool> m_cancel{false};
};

} // namespace cuwb
