// SweepJob: the SweepController's half that lives on the sweep thread and owns the
// WorkerProcess and, while a sweep runs, its SweepRunner. run() blocks until the sweep ends,
// which is why it must never be called on the GUI thread; the runner's callbacks become this
// object's signals, which reach the controller queued. Nothing escapes as an exception.
#pragma once

#include "sweep/sweeprunner.h"
#include "worker/workerprocess.h"

#include <QObject>

#include <memory>
#include <mutex>

namespace cuwb {

class SweepJob : public QObject
{
    Q_OBJECT

public:
    explicit SweepJob(QObject *parent = nullptr);
    ~SweepJob() override;

    // On the job's thread. A different command stops the current worker; the next sweep
    // starts the new one.
    void setWorkerOptions(const WorkerProcess::Options &options);
    // On the job's thread: expands and measures the sweep, emitting started, one point per
    // finished point and finished.
    void run(quint64 jobId, const cuwb::SweepSpec &spec, const cuwb::RunRequest &base,
             const cuwb::SweepContext &context);
    // On the job's thread: stops the worker politely.
    void shutdown();

    // Safe from any thread: stops sweep `jobId` after its point in flight, whether it runs now
    // or has not begun yet. Anything else is left alone.
    void cancel(quint64 jobId);
    // Safe from any thread: the sweep in flight and every later one end at once and the
    // worker is killed, so that the thread can be joined without waiting for a deadline.
    void abort();

Q_SIGNALS:
    void started(quint64 jobId, const cuwb::SweepResult &skeleton);
    void pointDone(quint64 jobId, const cuwb::SweepPointResult &point,
                   const cuwb::SweepProgress &progress);
    void finished(quint64 jobId, const cuwb::SweepResult &result);
    void workerRestarted(quint64 jobId, int starts);

private:
    WorkerProcess &process();

    WorkerProcess::Options m_options;
    // Guards m_process's creation and destruction, m_runner and the ids below against the
    // calls from other threads.
    std::mutex m_mutex;
    std::unique_ptr<WorkerProcess> m_process;
    SweepRunner *m_runner = nullptr; // while run() runs
    quint64 m_runningJob = 0;
    quint64 m_cancelledJob = 0; // the newest sweep a cancel was asked for
    bool m_aborted = false;
};

} // namespace cuwb
