// SharedWorker: the one `cuwb worker` that the GUI's runs, measurements and sweeps share, so
// that the user pays the CUDA start-up once. A job takes the worker with acquire(), which waits
// while another job holds it, and uses it for as long as it keeps the Lease (a run thread for
// one request, the sweep thread for a whole sweep). The worker keeps one request's buffers, so
// a sweep or a measurement releases those a run kept for paging.
//
// acquire() with options other than the current process's (a custom sweep worker command, a
// new cuwb path) stops that process politely and creates a new one; as always the process
// starts its worker lazily, at its first request. abort() is for quitting: from any thread,
// without waiting for the job that holds the worker, it kills the process in use and every
// later lease's process fails each request at once. No Qt here; thread-safe throughout.
#pragma once

#include "worker/workerprocess.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

namespace cuwb {

class SharedWorker
{
public:
    // One job's hold on the worker; the next job gets it when the lease ends. Move-only.
    class Lease
    {
    public:
        Lease(Lease &&other) noexcept;
        Lease &operator=(Lease &&) = delete;
        Lease(const Lease &) = delete;
        Lease &operator=(const Lease &) = delete;
        ~Lease();

        [[nodiscard]] WorkerProcess &process() const { return *m_process; }
        // Which process this is: a process created anew (other options, after shutdown())
        // has a higher number. With WorkerProcess::starts() it tells a new worker's hello.
        [[nodiscard]] std::uint64_t generation() const { return m_generation; }
        // Counts the leases handed out: a job whose previous lease had serial n, and whose
        // lease now has one above n + 1, knows another job used the worker in between.
        [[nodiscard]] std::uint64_t serial() const { return m_serial; }

    private:
        friend class SharedWorker;
        Lease(SharedWorker *owner, WorkerProcess *process, std::uint64_t generation,
              std::uint64_t serial);

        SharedWorker *m_owner = nullptr;
        WorkerProcess *m_process = nullptr;
        std::uint64_t m_generation = 0;
        std::uint64_t m_serial = 0;
    };

    SharedWorker() = default;
    // Stops the worker (politely, unless aborted). No lease may be out.
    ~SharedWorker();
    SharedWorker(const SharedWorker &) = delete;
    SharedWorker &operator=(const SharedWorker &) = delete;

    // Blocks until no other job holds the worker. Never call it while holding a lease.
    [[nodiscard]] Lease acquire(const WorkerProcess::Options &options);
    // Where the worker runs: a remote target's options (worker/workertarget.h) replace every
    // job's own; nullopt is this machine, each job's options. The next acquire() restarts the
    // worker when that changes its command. Any thread.
    void setTarget(std::optional<WorkerProcess::Options> target);
    // Whether a remote target is set. Any thread.
    [[nodiscard]] bool hasTarget() const;
    // Any thread, never blocks on a lease: the request in flight fails with Cancelled, its
    // worker is killed, and every later request of every lease fails at once. For good.
    void abort();
    [[nodiscard]] bool aborted() const { return m_aborted.load(); }
    // Stops the worker politely when no job holds it (false, changing nothing, when one does);
    // the next lease's first request starts it again.
    bool shutdown();

private:
    void release();
    // With the worker held: stops the current process, where abort() can still reach it.
    void stopProcess();

    // The lease lock: held only to take or give back the worker, never while a job uses it.
    mutable std::mutex m_leaseMutex;
    std::condition_variable m_released;
    bool m_held = false;
    std::optional<WorkerProcess::Options> m_target; // under m_leaseMutex
    std::uint64_t m_leases = 0;

    // Changed only by the job that holds the worker; abort() reads the pointers under
    // m_processMutex, which is why they are written under it too.
    std::mutex m_processMutex;
    std::unique_ptr<WorkerProcess> m_process;
    std::unique_ptr<WorkerProcess> m_stopping; // being stopped on its way out
    std::atomic<bool> m_aborted{false};
    WorkerProcess::Options m_options;
    std::uint64_t m_generation = 0;
};

} // namespace cuwb
