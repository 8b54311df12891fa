#include "gui/sweep/sweepcontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/common/sharedworker.h"
#include "gui/device/deviceprobe.h"
#include "gui/sweep/sweepjob.h"

#include <QThread>

#include <utility>

namespace cuwb {

SweepController::SweepController(QObject *parent)
    : SweepController(std::make_shared<SharedWorker>(), parent)
{}

SweepController::SweepController(std::shared_ptr<SharedWorker> worker, QObject *parent)
    : QObject(parent)
    , m_shared(worker ? std::move(worker) : std::make_shared<SharedWorker>())
    , m_thread(new QThread(this))
    , m_job(new SweepJob(m_shared))
    , m_program(DeviceProbe::findCli())
    , m_arguments({QStringLiteral("worker")})
{
    m_thread->setObjectName(QStringLiteral("cuwb-sweep"));
    m_job->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_job, &QObject::deleteLater);
    connect(m_job, &SweepJob::started, this, &SweepController::onStarted);
    connect(m_job, &SweepJob::pointDone, this, &SweepController::onPoint);
    connect(m_job, &SweepJob::finished, this, &SweepController::onFinished);
    connect(m_job, &SweepJob::workerRestarted, this, &SweepController::onRestarted);
    m_thread->start();
}

SweepController::~SweepController()
{
    m_job->disconnect(this);
    SweepJob *job = m_job;
    // Quitting must not wait for a point's deadline, nor for a run that holds the shared
    // worker: the sweep stops, the worker is killed, then the job's own thread cleans up.
    m_job->abort();
    QMetaObject::invokeMethod(
        m_job, [job] { job->shutdown(); }, Qt::QueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void SweepController::setCliPath(const QString &path)
{
    setWorkerCommand(path, {QStringLiteral("worker")});
}

void SweepController::setWorkerCommand(const QString &program, const QStringList &arguments)
{
    if (program.isEmpty()) {
        m_program = DeviceProbe::findCli();
        m_arguments = {QStringLiteral("worker")};
        return;
    }
    m_program = program;
    m_arguments = arguments;
}

void SweepController::setAvailability(bool available, const QString &reason)
{
    m_available = available;
    m_unavailableReason = available ? QString() : reason;
}

bool SweepController::start(const SweepSpec &spec, const RunRequest &base,
                            const SweepContext &context)
{
    if (m_running)
        return false;
    const quint64 jobId = m_jobId.fetch_add(1) + 1;
    m_cancelRequested = false;
    m_progress.reset();
    m_result = SweepResult{};
    m_result.spec = spec;
    m_result.projectName = context.projectName;
    if (!m_available) {
        m_result.error = toStdString(m_unavailableReason.isEmpty()
                                         ? tr("Sweeps need a CUDA GPU, and none was found.")
                                         : m_unavailableReason);
        Q_EMIT sweepFinished(m_result);
        return true;
    }
    setRunning(true);
    WorkerProcess::Options options;
    options.executable = toStdString(m_program);
    options.arguments = toStdStringList(m_arguments);
    SweepJob *job = m_job;
    QMetaObject::invokeMethod(
        m_job,
        [job, jobId, options, spec, base, context] {
            job->setWorkerOptions(options);
            job->run(jobId, spec, base, context);
        },
        Qt::QueuedConnection);
    return true;
}

void SweepController::cancel()
{
    // From another thread only the job's bookkeeping is touched, under its lock.
    m_job->cancel(m_jobId.load());
    if (QThread::currentThread() == thread() && m_running)
        m_cancelRequested = true;
}

void SweepController::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

void SweepController::onStarted(quint64 jobId, const SweepResult &skeleton)
{
    if (jobId != m_jobId)
        return;
    m_result = skeleton;
    Q_EMIT sweepStarted(skeleton);
}

void SweepController::onPoint(quint64 jobId, const SweepPointResult &point,
                              const SweepProgress &progress)
{
    if (jobId != m_jobId)
        return;
    const std::size_t index = point.point.index;
    if (index < m_result.points.size())
        m_result.points[index] = point;
    m_progress = progress;
    Q_EMIT pointFinished(point, progress);
}

void SweepController::onFinished(quint64 jobId, const SweepResult &result)
{
    if (jobId != m_jobId)
        return;
    m_result = result;
    m_cancelRequested = false;
    setRunning(false);
    Q_EMIT sweepFinished(result);
}

void SweepController::onRestarted(quint64 jobId, int starts)
{
    if (jobId == m_jobId)
        Q_EMIT workerRestarted(starts);
}

} // namespace cuwb
