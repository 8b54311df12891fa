#include "gui/sweep/sweepjob.h"

#include "gui/common/cuwbcli.h"
#include "gui/common/qtconvert.h"
#include "sweep/multidevicesweep.h"
#include "sweep/sweeprunner.h"
#include "worker/isolatedcompiler.h"

#include <QCoreApplication>

#include <algorithm>
#include <exception>
#include <utility>

namespace cuwb {

SweepJob::SweepJob(std::shared_ptr<SharedWorker> worker, QObject *parent)
    : QObject(parent)
    , m_worker(std::move(worker))
{}

// The shared worker outlives this object when a run still uses it; the last owner stops it.
SweepJob::~SweepJob() = default;

void SweepJob::setWorkerOptions(const WorkerProcess::Options &options)
{
    m_options = options;
}

IsolatedCompiler &SweepJob::compiler()
{
    const std::lock_guard lock(m_mutex);
    if (!m_compiler)
        m_compiler = std::make_unique<IsolatedCompiler>(findCuwbCli().toStdString());
    return *m_compiler;
}

void SweepJob::stopCompile()
{
    if (m_compiler)
        m_compiler->stopUpTo(m_compileJob.load());
}

void SweepJob::run(quint64 jobId, const SweepSpec &spec, const RunRequest &base,
                   const SweepContext &context)
{
    SweepResult result;
    try {
        if (m_slurm) {
            SlurmSweep sweep(*m_slurm);
            result = follow(jobId, sweep, spec, base, context, nullptr);
        } else {
            // Waits while a run, a measurement or a page holds the worker.
            const SharedWorker::Lease lease = m_worker->acquire(m_options);
            result = runHere(jobId, lease.process(), spec, base, context);
        }
    } catch (const std::exception &error) {
        result.spec = spec;
        result.error = QCoreApplication::translate("SweepJob", "The sweep could not start: %1")
                           .arg(QString::fromUtf8(error.what()))
                           .toStdString();
    }
    Q_EMIT finished(jobId, result);
}

SweepResult SweepJob::runHere(quint64 jobId, WorkerProcess &worker, const SweepSpec &spec,
                              const RunRequest &base, const SweepContext &context)
{
    // NVRTC in the compile server, one per sweep thread, kept between points and sweeps; the
    // executors call it on one thread at a time.
    IsolatedCompiler &isolated = compiler();
    const CompileFunction compile = [this, &isolated](std::string_view source,
                                                      std::string_view fileName,
                                                      const CompileOptions &options) {
        return isolated.compile(source, fileName, options, ++m_compileJob);
    };
    if (m_devices.empty() || m_devices == std::vector<int>{0}) {
        SweepRunner runner(worker);
        runner.setCompileFunction(compile);
        return follow(jobId, runner, spec, base, context, &worker);
    }
    if (m_worker->hasTarget()) {
        SweepResult refused;
        refused.spec = spec;
        refused.error = QCoreApplication::translate(
                            "SweepJob", "A sweep on several GPUs uses this machine's GPUs, and the "
                                        "window runs on a remote target: choose This GPU, or "
                                        "run `cuwb sweep --on TARGET --devices` there.")
                            .toStdString();
        return refused;
    }
    const WorkerProcess::Options options = m_options;
    MultiDeviceSweep sweep(m_devices, [options](int device) {
        WorkerProcess::Options forDevice = options;
        forDevice.arguments.insert(forDevice.arguments.end(), {"--device", std::to_string(device)});
        return forDevice;
    });
    sweep.setCompileFunction(compile);
    // A GPU that dropped out is named in the result's notes by the sweep itself.
    return follow(jobId, sweep, spec, base, context, nullptr);
}

SweepResult SweepJob::follow(quint64 jobId, SweepExecutor &executor, const SweepSpec &spec,
                             const RunRequest &base, const SweepContext &context,
                             const WorkerProcess *watched)
{
    // The starts seen so far: a worker started after the first one of this sweep replaced one
    // that died at a point. Counted from what the worker had started before this sweep (a run
    // may have started it already).
    const int startsBefore = watched ? watched->starts() : 0;
    int starts = 0;
    executor.setStartedCallback([this, jobId, watched, &starts](const SweepResult &skeleton) {
        starts = watched ? watched->starts() : 0;
        Q_EMIT started(jobId, skeleton);
    });
    // On the executor's threads, one call at a time; the signals are queued to the controller.
    executor.setPointCallback([this, jobId, watched, &starts, startsBefore](
                                  const SweepPointResult &point, const SweepProgress &progress) {
        if (watched) {
            if (watched->starts() > starts && starts > 0)
                Q_EMIT workerRestarted(jobId, watched->starts() - startsBefore);
            starts = watched->starts();
        }
        Q_EMIT pointDone(jobId, point, progress);
    });
    executor.setStatusCallback(
        [this, jobId](const std::string &line) { Q_EMIT status(jobId, toQString(line)); });
    {
        const std::lock_guard lock(m_mutex);
        m_executor = &executor;
        m_runningJob = jobId;
        if (m_cancelledJob == jobId || m_aborted)
            executor.cancel();
    }
    SweepResult result;
    try {
        result = executor.run(spec, base, context);
    } catch (const std::exception &error) {
        result.spec = spec;
        result.error = QCoreApplication::translate("SweepJob", "The sweep failed: %1")
                           .arg(QString::fromUtf8(error.what()))
                           .toStdString();
    }
    const std::lock_guard lock(m_mutex);
    m_executor = nullptr;
    m_runningJob = 0;
    return result;
}

void SweepJob::cancel(quint64 jobId)
{
    const std::lock_guard lock(m_mutex);
    m_cancelledJob = std::max(m_cancelledJob, jobId);
    if (m_runningJob == jobId && m_executor) {
        m_executor->cancel();
        stopCompile();
    }
}

void SweepJob::abort()
{
    {
        const std::lock_guard lock(m_mutex);
        m_aborted = true;
        if (m_executor)
            m_executor->cancel();
        stopCompile();
    }
    m_worker->abort();
}

void SweepJob::shutdown()
{
    m_worker->shutdown();
}

} // namespace cuwb
