#include "gui/sweep/sweepjob.h"

#include <QCoreApplication>

#include <algorithm>
#include <exception>

namespace cuwb {

SweepJob::SweepJob(QObject *parent)
    : QObject(parent)
{}

SweepJob::~SweepJob()
{
    shutdown();
}

void SweepJob::setWorkerOptions(const WorkerProcess::Options &options)
{
    if (options.executable == m_options.executable && options.arguments == m_options.arguments)
        return;
    m_options = options;
    shutdown();
}

WorkerProcess &SweepJob::process()
{
    if (!m_process) {
        auto created = std::make_unique<WorkerProcess>(m_options);
        const std::lock_guard lock(m_mutex);
        if (m_aborted)
            created->cancel();
        m_process = std::move(created);
    }
    return *m_process;
}

void SweepJob::run(quint64 jobId, const SweepSpec &spec, const RunRequest &base,
                   const SweepContext &context)
{
    SweepResult result;
    try {
        WorkerProcess &worker = process();
        SweepRunner runner(worker);
        // The starts seen so far: a worker started after the first one of this sweep replaced
        // one that died at a point.
        int starts = 0;
        runner.setStartedCallback([this, jobId, &worker, &starts](const SweepResult &skeleton) {
            starts = worker.starts();
            Q_EMIT started(jobId, skeleton);
        });
        runner.setPointCallback([this, jobId, &worker, &starts](const SweepPointResult &point,
                                                                const SweepProgress &progress) {
            if (worker.starts() > starts && starts > 0)
                Q_EMIT workerRestarted(jobId, worker.starts());
            starts = worker.starts();
            Q_EMIT pointDone(jobId, point, progress);
        });
        {
            const std::lock_guard lock(m_mutex);
            m_runner = &runner;
            m_runningJob = jobId;
            if (m_cancelledJob == jobId || m_aborted)
                runner.cancel();
        }
        try {
            result = runner.run(spec, base, context);
        } catch (const std::exception &error) {
            result.spec = spec;
            result.error = QCoreApplication::translate("SweepJob", "The sweep failed: %1")
                               .arg(QString::fromUtf8(error.what()))
                               .toStdString();
        }
        const std::lock_guard lock(m_mutex);
        m_runner = nullptr;
        m_runningJob = 0;
    } catch (const std::exception &error) {
        result.spec = spec;
        result.error = QCoreApplication::translate("SweepJob", "The sweep could not start: %1")
                           .arg(QString::fromUtf8(error.what()))
                           .toStdString();
    }
    Q_EMIT finished(jobId, result);
}

void SweepJob::cancel(quint64 jobId)
{
    const std::lock_guard lock(m_mutex);
    m_cancelledJob = std::max(m_cancelledJob, jobId);
    if (m_runner && m_runningJob == jobId)
        m_runner->cancel();
}

void SweepJob::abort()
{
    const std::lock_guard lock(m_mutex);
    m_aborted = true;
    if (m_runner)
        m_runner->cancel();
    if (m_process)
        m_process->cancel();
}

void SweepJob::shutdown()
{
    std::unique_ptr<WorkerProcess> stopped;
    {
        const std::lock_guard lock(m_mutex);
        if (!m_process || m_runner)
            return;
        stopped = std::move(m_process);
    }
    try {
        stopped->stop();
    } catch (...) {
        // A worker that cannot even be stopped politely is killed by the destructor.
    }
}

} // namespace cuwb
