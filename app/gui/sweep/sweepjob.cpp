#include "gui/sweep/sweepjob.h"

#include "gui/common/cuwbcli.h"
#include "sweep/multidevicesweep.h"
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
        // Waits while a run, a measurement or a page holds the worker.
        const SharedWorker::Lease lease = m_worker->acquire(m_options);
        if (!m_devices.empty() && m_devices != std::vector<int>{0}) {
            result = runOnDevices(jobId, spec, base, context);
            Q_EMIT finished(jobId, result);
            return;
        }
        WorkerProcess &worker = lease.process();
        SweepRunner runner(worker);
        // NVRTC in the compile server, one per sweep thread, kept between points and sweeps.
        IsolatedCompiler &isolated = compiler();
        runner.setCompileFunction([this, &isolated](std::string_view source,
                                                    std::string_view fileName,
                                                    const CompileOptions &options) {
            return isolated.compile(source, fileName, options, ++m_compileJob);
        });
        // The starts seen so far: a worker started after the first one of this sweep replaced
        // one that died at a point. Counted from what the worker had started before this sweep
        // (a run may have started it already).
        const int startsBefore = worker.starts();
        int starts = 0;
        runner.setStartedCallback([this, jobId, &worker, &starts](const SweepResult &skeleton) {
            starts = worker.starts();
            Q_EMIT started(jobId, skeleton);
        });
        runner.setPointCallback([this, jobId, &worker, &starts, startsBefore](
                                    const SweepPointResult &point, const SweepProgress &progress) {
            if (worker.starts() > starts && starts > 0)
                Q_EMIT workerRestarted(jobId, worker.starts() - startsBefore);
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

SweepResult SweepJob::runOnDevices(quint64 jobId, const SweepSpec &spec, const RunRequest &base,
                                   const SweepContext &context)
{
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
    IsolatedCompiler &isolated = compiler();
    // MultiDeviceSweep calls it on one thread at a time.
    sweep.setCompileFunction([this, &isolated](std::string_view source, std::string_view fileName,
                                               const CompileOptions &compileOptions) {
        return isolated.compile(source, fileName, compileOptions, ++m_compileJob);
    });
    sweep.setStartedCallback(
        [this, jobId](const SweepResult &skeleton) { Q_EMIT started(jobId, skeleton); });
    // On the GPUs' threads, one call at a time; the signal is queued to the controller.
    sweep.setPointCallback(
        [this, jobId](const SweepPointResult &point, const SweepProgress &progress) {
            Q_EMIT pointDone(jobId, point, progress);
        });
    {
        const std::lock_guard lock(m_mutex);
        m_multi = &sweep;
        m_runningJob = jobId;
        if (m_cancelledJob == jobId || m_aborted)
            sweep.cancel();
    }
    SweepResult result;
    try {
        result = sweep.run(spec, base, context);
    } catch (const std::exception &error) {
        result.spec = spec;
        result.error = QCoreApplication::translate("SweepJob", "The sweep failed: %1")
                           .arg(QString::fromUtf8(error.what()))
                           .toStdString();
    }
    // A GPU that dropped out is named in the result's notes by the sweep itself.
    const std::lock_guard lock(m_mutex);
    m_multi = nullptr;
    m_runningJob = 0;
    return result;
}

void SweepJob::cancel(quint64 jobId)
{
    const std::lock_guard lock(m_mutex);
    m_cancelledJob = std::max(m_cancelledJob, jobId);
    if (m_runningJob == jobId && (m_runner || m_multi)) {
        if (m_runner)
            m_runner->cancel();
        if (m_multi)
            m_multi->cancel();
        stopCompile();
    }
}

void SweepJob::abort()
{
    {
        const std::lock_guard lock(m_mutex);
        m_aborted = true;
        if (m_runner)
            m_runner->cancel();
        if (m_multi)
            m_multi->cancel();
        stopCompile();
    }
    m_worker->abort();
}

void SweepJob::shutdown()
{
    m_worker->shutdown();
}

} // namespace cuwb
