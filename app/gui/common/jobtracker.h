// JobTracker: "run this off the GUI thread, newest wins", in one place. A job is a function
// that computes a Result on a thread pool; one runs at a time. A job submitted while one runs
// waits, replacing any job already waiting (nobody wants the result of an edit that was
// superseded before it even started). When a job ends, the waiting one starts, and the result
// is delivered on the owner's thread only if no newer job was submitted since; otherwise the
// owner hears that it was discarded. Used by the compile controller (NVRTC as you type), the
// metric-pass planner and the sweep point count. Not thread-safe: submit and read it on the
// owner's thread. Destroying the tracker drops the running job's result (the job still ends
// on its pool thread with the copies it captured).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <optional>
#include <utility>

namespace cuwb {

template <typename Result> class JobTracker
{
public:
    using Work = std::function<Result()>;
    // On the owner's thread: the newest job's result (moved out: a compile result is megabytes).
    using Finished = std::function<void(quint64 id, Result &&result)>;
    // On the owner's thread: a job that ended after a newer one was submitted. (A job that
    // waited and was replaced before it started is dropped without a word: it never ran.)
    using Discarded = std::function<void(quint64 id)>;
    // On the owner's thread, when a job leaves the queue and starts.
    using Started = std::function<void(quint64 id)>;

    // `pool`: null for the global pool. The tracker must not outlive `owner`.
    JobTracker(QObject *owner, QThreadPool *pool, Finished finished, Discarded discarded = {},
               Started started = {})
        : m_pool(pool ? pool : QThreadPool::globalInstance())
        , m_finished(std::move(finished))
        , m_discarded(std::move(discarded))
        , m_started(std::move(started))
    {
        QObject::connect(&m_watcher, &QFutureWatcherBase::finished, owner,
                         [this] { onJobEnded(); });
    }
    ~JobTracker() { m_watcher.disconnect(); }
    JobTracker(const JobTracker &) = delete;
    JobTracker &operator=(const JobTracker &) = delete;

    // Runs `work` now, or after the running job; returns its id (increasing from 1).
    quint64 submit(Work work)
    {
        const quint64 id = ++m_lastId;
        if (!m_running) {
            start(id, std::move(work));
            return id;
        }
        m_waiting.emplace(id, std::move(work));
        return id;
    }

    [[nodiscard]] bool isBusy() const { return m_running.has_value(); }
    // The id of the newest job submitted, 0 before the first; the next one gets newest() + 1.
    [[nodiscard]] quint64 newest() const { return m_lastId; }
    // Whether `id` is still the job whose result will be delivered.
    [[nodiscard]] bool isNewest(quint64 id) const { return id != 0 && id == m_lastId; }

private:
    void start(quint64 id, Work work)
    {
        m_running = id;
        if (m_started)
            m_started(id);
        m_watcher.setFuture(QtConcurrent::run(m_pool, std::move(work)));
    }

    void onJobEnded()
    {
        if (!m_running)
            return;
        const quint64 ended = *m_running;
        m_running.reset();
        Result result = m_watcher.future().takeResult();
        if (m_waiting) {
            auto next = std::move(*m_waiting);
            m_waiting.reset();
            start(next.first, std::move(next.second));
        }
        if (ended == m_lastId)
            m_finished(ended, std::move(result));
        else if (m_discarded)
            m_discarded(ended);
    }

    QThreadPool *m_pool = nullptr;
    Finished m_finished;
    Discarded m_discarded;
    Started m_started;
    QFutureWatcher<Result> m_watcher;
    std::optional<quint64> m_running;
    std::optional<std::pair<quint64, Work>> m_waiting;
    quint64 m_lastId = 0;
};

} // namespace cuwb
