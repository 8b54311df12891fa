#include "gui/common/sharedworker.h"

#include <utility>

namespace cuwb {

namespace {

// The same command starts the same worker: anything else needs a new process.
bool sameCommand(const WorkerProcess::Options &a, const WorkerProcess::Options &b)
{
    return a.executable == b.executable && a.arguments == b.arguments &&
           a.startTimeoutSeconds == b.startTimeoutSeconds;
}

} // namespace

SharedWorker::Lease::Lease(SharedWorker *owner, WorkerProcess *process, std::uint64_t generation,
                           std::uint64_t serial)
    : m_owner(owner)
    , m_process(process)
    , m_generation(generation)
    , m_serial(serial)
{}

SharedWorker::Lease::Lease(Lease &&other) noexcept
    : m_owner(std::exchange(other.m_owner, nullptr))
    , m_process(std::exchange(other.m_process, nullptr))
    , m_generation(other.m_generation)
    , m_serial(other.m_serial)
{}

SharedWorker::Lease::~Lease()
{
    if (m_owner)
        m_owner->release();
}

// WorkerProcess's destructor stops its worker (kills it when cancelled).
SharedWorker::~SharedWorker() = default;

void SharedWorker::setTarget(std::optional<WorkerProcess::Options> target)
{
    const std::lock_guard lock(m_leaseMutex);
    m_target = std::move(target);
}

bool SharedWorker::hasTarget() const
{
    const std::lock_guard lock(m_leaseMutex);
    return m_target.has_value();
}

SharedWorker::Lease SharedWorker::acquire(const WorkerProcess::Options &jobOptions)
{
    std::uint64_t serial = 0;
    WorkerProcess::Options options = jobOptions;
    {
        std::unique_lock lock(m_leaseMutex);
        m_released.wait(lock, [this] { return !m_held; });
        m_held = true;
        serial = ++m_leases;
        if (m_target)
            options = *m_target;
    }
    // From here this job alone holds the worker: replacing the process races with nobody but
    // abort(), which only reads the pointers under m_processMutex.
    if (m_process && !sameCommand(m_options, options))
        stopProcess();
    if (!m_process) {
        std::unique_ptr<WorkerProcess> created;
        try {
            created = std::make_unique<WorkerProcess>(options);
        } catch (...) {
            release();
            throw;
        }
        const std::lock_guard lock(m_processMutex);
        if (m_aborted.load())
            created->cancel();
        m_process = std::move(created);
        m_options = options;
        ++m_generation;
    }
    // A cancel the previous job asked for too late belongs to it, not to this job's requests.
    m_process->clearCancelRequest();
    return Lease(this, m_process.get(), m_generation, serial);
}

void SharedWorker::release()
{
    {
        const std::lock_guard lock(m_leaseMutex);
        m_held = false;
    }
    m_released.notify_one();
}

void SharedWorker::abort()
{
    const std::lock_guard lock(m_processMutex);
    m_aborted.store(true);
    if (m_process)
        m_process->cancel();
    if (m_stopping)
        m_stopping->cancel();
}

bool SharedWorker::shutdown()
{
    {
        const std::lock_guard lock(m_leaseMutex);
        if (m_held)
            return false;
        m_held = true;
    }
    if (m_process)
        stopProcess();
    release();
    return true;
}

void SharedWorker::stopProcess()
{
    {
        const std::lock_guard lock(m_processMutex);
        m_stopping = std::move(m_process);
    }
    try {
        m_stopping->stop(); // a shutdown request, SIGKILL after its grace; at once if cancelled
    } catch (...) {
        // A worker that cannot even be stopped politely is killed by the destructor below.
    }
    std::unique_ptr<WorkerProcess> stopped;
    {
        const std::lock_guard lock(m_processMutex);
        stopped = std::move(m_stopping);
    }
}

} // namespace cuwb
