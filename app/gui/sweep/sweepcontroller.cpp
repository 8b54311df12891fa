#include "gui/sweep/sweepcontroller.h"

#include "gui/common/cuwbcli.h"
#include "gui/common/qtconvert.h"
#include "gui/common/sharedworker.h"
#include "gui/sweep/sweepjob.h"

#include <QDateTime>
#include <QDir>
#include <QRegularExpression>
#include <QSaveFile>
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
    , m_program(findCuwbCli())
    , m_arguments({QStringLiteral("worker")})
    , m_cli(m_program)
{
    m_thread->setObjectName(QStringLiteral("cuwb-sweep"));
    m_job->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_job, &QObject::deleteLater);
    connect(m_job, &SweepJob::started, this, &SweepController::onStarted);
    connect(m_job, &SweepJob::pointDone, this, &SweepController::onPoint);
    connect(m_job, &SweepJob::finished, this, &SweepController::onFinished);
    connect(m_job, &SweepJob::workerRestarted, this, &SweepController::onRestarted);
    connect(m_job, &SweepJob::status, this, [this](quint64 jobId, const QString &line) {
        if (jobId == m_jobId)
            Q_EMIT statusMessage(line);
    });
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
    m_cli = path.isEmpty() ? findCuwbCli() : path;
    setWorkerCommand(path, {QStringLiteral("worker")});
}

void SweepController::setWorkerCommand(const QString &program, const QStringList &arguments)
{
    if (program.isEmpty()) {
        m_program = findCuwbCli();
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
    if (const std::string problem = placementProblem(m_placement); !problem.empty()) {
        failAtStart(toQString(problem));
        return true;
    }
    std::optional<SlurmSweepJob> slurmJob;
    if (m_placement.slurm) {
        slurmJob = slurmJobFor(spec, base);
        if (!slurmJob)
            return true; // refused: sweepFinished has said why
    } else if (!m_available) {
        failAtStart(m_unavailableReason.isEmpty()
                        ? tr("Sweeps need a CUDA GPU, and none was found.")
                        : m_unavailableReason);
        return true;
    }
    setRunning(true);
    WorkerProcess::Options options;
    options.executable = toStdString(m_program);
    options.arguments = toStdStringList(m_arguments);
    SweepJob *job = m_job;
    QMetaObject::invokeMethod(
        m_job,
        [job, jobId, options, devices = m_placement.devices, slurmJob, spec, base, context] {
            job->setWorkerOptions(options);
            job->setDevices(devices);
            job->setSlurm(slurmJob);
            job->run(jobId, spec, base, context);
        },
        Qt::QueuedConnection);
    return true;
}

void SweepController::failAtStart(const QString &reason)
{
    m_result.error = toStdString(reason);
    Q_EMIT sweepFinished(m_result);
}

std::optional<SlurmSweepJob> SweepController::slurmJobFor(const SweepSpec &spec,
                                                          const RunRequest &base)
{
    if (!m_snapshot) {
        failAtStart(tr("A Slurm sweep runs a project file on the cluster: open or save the "
                       "kernel as a project first."));
        return std::nullopt;
    }
    const ProjectSnapshot snapshot = m_snapshot(spec, base);
    if (!snapshot.error.isEmpty()) {
        failAtStart(snapshot.error);
        return std::nullopt;
    }
    // A folder of its own per sweep, named as the command line names them.
    QString name = snapshot.name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
    name = name.left(40);
    const QString parent = m_slurmJobFolder.trimmed().isEmpty()
                               ? QDir(snapshot.folder).filePath(QStringLiteral("cuwb-jobs"))
                               : m_slurmJobFolder.trimmed();
    const QString jobDir = QDir(parent).absoluteFilePath(
        name + QLatin1Char('-') +
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
    if (!QDir().mkpath(jobDir)) {
        failAtStart(tr("cannot create the job folder %1").arg(jobDir));
        return std::nullopt;
    }
    const QString project = QDir(jobDir).filePath(name + QStringLiteral(".cuwb"));
    QSaveFile file(project);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(snapshot.json.data(), qint64(snapshot.json.size())) !=
            qint64(snapshot.json.size()) ||
        !file.commit()) {
        failAtStart(
            tr("cannot write the project for the job to %1: %2").arg(project, file.errorString()));
        return std::nullopt;
    }
    SlurmSweepJob job;
    job.cuwb = toStdString(m_cli);
    job.projectPath = toStdString(project);
    job.projectName = toStdString(name);
    job.jobDir = toStdString(jobDir);
    job.slurm = *m_placement.slurm;
    // Another worker command than the CLI's own (a wrapper, the stand-in in tests) goes along.
    if (m_program != m_cli || m_arguments != QStringList{QStringLiteral("worker")}) {
        job.taskOptions = {
            "--worker", toStdString((QStringList{m_program} + m_arguments).join(QLatin1Char(' ')))};
    }
    m_slurmJobDir = jobDir;
    Q_EMIT statusMessage(
        tr("Submitting %1 shards to Slurm; job folder %2").arg(job.slurm.tasks).arg(jobDir));
    return job;
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
