// InterruptCancels: Ctrl+C as a cancel of the long request in flight rather than the end of
// cuwb. While one is alive, the first SIGINT calls its target's cancel (a measurement stops
// sampling and reports the samples taken; a sweep stops after the point in flight and keeps
// what was measured; a Slurm job is cancelled with scancel); a second SIGINT ends cuwb the usual
// way. The cancels it calls are safe in a signal handler: WorkerProcess::requestCancel() and
// every SweepExecutor::cancel() only store an atomic flag and write(2) to a pipe.
#pragma once

#include <atomic>

namespace cuwb {
class SweepExecutor;
class WorkerProcess;
} // namespace cuwb

namespace cuwb::cli {

class InterruptCancels
{
public:
    explicit InterruptCancels(WorkerProcess &worker);
    explicit InterruptCancels(SweepExecutor &sweep);
    // Sets the flag (followArray's cancel, cluster/slurmjob.h).
    explicit InterruptCancels(std::atomic<bool> &flag);
    ~InterruptCancels();
    InterruptCancels(const InterruptCancels &) = delete;
    InterruptCancels &operator=(const InterruptCancels &) = delete;

private:
    using CancelFunction = void (*)(void *target);
    void install(CancelFunction cancel, void *target);
    void (*m_previous)(int) = nullptr;
};

} // namespace cuwb::cli
