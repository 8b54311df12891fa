#include "interruptcancels.h"

#include "sweep/sweepexecutor.h"
#include "worker/workerprocess.h"

#include <atomic>
#include <csignal>

namespace cuwb::cli {

namespace {

// Set before the handler is installed and cleared after it is removed; lock-free atomics are
// safe to read in a signal handler.
std::atomic<void (*)(void *)> g_cancel{nullptr};
std::atomic<void *> g_target{nullptr};

extern "C" void cancelOnInterrupt(int)
{
    std::signal(SIGINT, SIG_DFL); // the second Ctrl+C ends cuwb
    const auto cancel = g_cancel.load();
    void *target = g_target.load();
    if (cancel && target) {
        cancel(target);
    }
}

void cancelWorker(void *target)
{
    static_cast<WorkerProcess *>(target)->requestCancel();
}

void cancelSweep(void *target)
{
    static_cast<SweepExecutor *>(target)->cancel();
}

void setFlag(void *target)
{
    static_cast<std::atomic<bool> *>(target)->store(true);
}

} // namespace

InterruptCancels::InterruptCancels(WorkerProcess &worker)
{
    install(cancelWorker, &worker);
}

InterruptCancels::InterruptCancels(SweepExecutor &sweep)
{
    install(cancelSweep, &sweep);
}

InterruptCancels::InterruptCancels(std::atomic<bool> &flag)
{
    install(setFlag, &flag);
}

void InterruptCancels::install(CancelFunction cancel, void *target)
{
    g_target.store(target);
    g_cancel.store(cancel);
    m_previous = std::signal(SIGINT, cancelOnInterrupt);
}

InterruptCancels::~InterruptCancels()
{
    std::signal(SIGINT, m_previous == SIG_ERR || m_previous == nullptr ? SIG_DFL : m_previous);
    g_cancel.store(nullptr);
    g_target.store(nullptr);
}

} // namespace cuwb::cli
