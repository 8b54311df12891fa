#include "gui/sweep/slurmsweep.h"

#include "gui/common/qtconvert.h"
#include "sweep/sweepshard.h"
#include "util/jobfolder.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QSettings>
#include <QtConcurrent>

#include <csignal>

#include <algorithm>
#include <utility>

namespace cuwb {

namespace {

constexpr int kPollMs = 500;
constexpr qsizetype kStderrKept = 64 * 1024;
// How long closing the window waits for cuwb to cancel the job before killing it.
constexpr int kCancelWaitMs = 5000;

bool exists(const std::string &path)
{
    return QFileInfo::exists(toQString(path));
}

// cuwb's own messages without the "cuwb sweep: " every line starts with.
QString failureText(const QString &stderrText)
{
    QStringList lines;
    for (QString line : stderrText.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QStringLiteral("cuwb sweep: ")))
            line.remove(0, 12);
        lines.append(line);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

SlurmSweepSettings SlurmSweepSettings::load(const QSettings &settings)
{
    SlurmSweepSettings s;
    s.shards = std::clamp(settings.value(QStringLiteral("sweep/slurm/shards"), s.shards).toInt(), 1,
                          kMaxShards);
    s.partition = settings.value(QStringLiteral("sweep/slurm/partition")).toString();
    s.timeLimit = settings.value(QStringLiteral("sweep/slurm/time")).toString();
    s.gres = settings.value(QStringLiteral("sweep/slurm/gres"), s.gres).toString();
    s.sbatchOptions = settings.value(QStringLiteral("sweep/slurm/sbatchOptions")).toString();
    s.jobFolder = settings.value(QStringLiteral("sweep/slurm/jobFolder")).toString();
    return s;
}

void SlurmSweepSettings::save(QSettings &settings) const
{
    settings.setValue(QStringLiteral("sweep/slurm/shards"), shards);
    settings.setValue(QStringLiteral("sweep/slurm/partition"), partition);
    settings.setValue(QStringLiteral("sweep/slurm/time"), timeLimit);
    settings.setValue(QStringLiteral("sweep/slurm/gres"), gres);
    settings.setValue(QStringLiteral("sweep/slurm/sbatchOptions"), sbatchOptions);
    settings.setValue(QStringLiteral("sweep/slurm/jobFolder"), jobFolder);
}

QStringList SlurmSweepSettings::arguments() const
{
    QStringList arguments{QStringLiteral("--slurm"), QStringLiteral("--gpus"),
                          QString::number(shards)};
    if (!partition.trimmed().isEmpty())
        arguments << QStringLiteral("--partition") << partition.trimmed();
    if (!timeLimit.trimmed().isEmpty())
        arguments << QStringLiteral("--time") << timeLimit.trimmed();
    if (!gres.trimmed().isEmpty())
        arguments << QStringLiteral("--gres") << gres.trimmed();
    for (const QString &option : sbatchOptions.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        arguments << QStringLiteral("--sbatch-option") << option;
    return arguments;
}

SlurmSweepRun::SlurmSweepRun(QObject *parent)
    : QObject(parent)
{
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &SlurmSweepRun::poll);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &SlurmSweepRun::onOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += QString::fromUtf8(m_process.readAllStandardError());
        if (m_stderr.size() > kStderrKept)
            m_stderr.remove(0, m_stderr.size() - kStderrKept);
    });
    connect(&m_process, &QProcess::finished, this, &SlurmSweepRun::onProcessFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || !m_running)
            return;
        SweepResult result = m_result;
        result.error = toStdString(tr("cannot start %1 to submit the job: %2")
                                       .arg(m_request.cli, m_process.errorString()));
        finish(std::move(result));
    });
}

SlurmSweepRun::~SlurmSweepRun()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.disconnect(this);
    // As Ctrl+C: cuwb cancels the job before it exits, so no shard goes on without a window.
    ::kill(pid_t(m_process.processId()), SIGINT);
    if (!m_process.waitForFinished(kCancelWaitMs))
        m_process.kill();
    m_process.waitForFinished(1000);
}

void SlurmSweepRun::start(const Request &request)
{
    m_request = request;
    m_result = request.skeleton;
    m_seen.assign(std::size_t(std::max(request.settings.shards, 1)), 0);
    m_loading = 0;
    m_processDone = false;
    m_mergedLoading = false;
    m_exitCode = 0;
    m_crashed = false;
    m_stderr.clear();
    m_partial.clear();
    ++m_generation;
    m_running = true;
    m_clock.start();

    QStringList arguments{QStringLiteral("sweep"), request.project};
    arguments << request.settings.arguments() << QStringLiteral("--job-dir") << request.jobDir
              << QStringLiteral("--yes");
    if (!request.worker.isEmpty())
        arguments << QStringLiteral("--worker") << request.worker;
    m_process.setProgram(request.cli);
    m_process.setArguments(arguments);
    m_process.setWorkingDirectory(request.jobDir);
    m_process.start();
    m_poll.start();
}

void SlurmSweepRun::cancel()
{
    if (m_process.state() == QProcess::Running)
        ::kill(pid_t(m_process.processId()), SIGINT);
}

void SlurmSweepRun::poll()
{
    const std::string jobDir = toStdString(m_request.jobDir);
    for (std::size_t k = 0; k < m_seen.size(); ++k) {
        const int shard = int(k) + 1;
        // The status file is each task's last act: its result is complete once it is there.
        if (m_seen[k] || !exists(taskStatusPath(jobDir, shard)))
            continue;
        m_seen[k] = 1;
        const std::string result = taskResultPath(jobDir, shard);
        if (exists(result))
            load(shard, toQString(result)); // a shard without one failed: cuwb names it
    }
}

void SlurmSweepRun::load(int shard, const QString &path)
{
    ++m_loading;
    auto *watcher = new QFutureWatcher<SweepResultLoad>(this);
    const quint64 generation = m_generation;
    connect(watcher, &QFutureWatcher<SweepResultLoad>::finished, this,
            [this, watcher, shard, generation] {
                watcher->deleteLater();
                if (generation == m_generation)
                    onLoaded(shard, watcher->result());
            });
    watcher->setFuture(
        QtConcurrent::run([file = toStdString(path)] { return loadSweepResult(file); }));
}

void SlurmSweepRun::onLoaded(int shard, const SweepResultLoad &load)
{
    --m_loading;
    if (!m_running)
        return;
    if (shard == 0) { // the merged result
        if (load.result) {
            // The last shards can end between two looks at the folder: their points are shown
            // from the merged result, so that every point is reported before the end.
            SweepResult merged = *load.result;
            for (const SweepPointResult &point : merged.points) {
                const std::size_t index = point.point.index;
                if (index >= m_result.points.size() ||
                    m_result.points[index].status != PointStatus::Pending ||
                    point.status == PointStatus::Pending)
                    continue;
                m_result.points[index] = point;
                Q_EMIT pointFinished(point, progress());
            }
            finish(std::move(merged));
            return;
        }
        m_stderr += tr("\nthe merged result cannot be read: %1").arg(toQString(load.error));
        m_exitCode = 1;
        finishIfDone();
        return;
    }
    if (load.result) {
        if (m_result.deviceName.empty()) {
            m_result.deviceName = load.result->deviceName;
            m_result.device = load.result->device;
        }
        for (const SweepPointResult &point : load.result->points) {
            const std::size_t index = point.point.index;
            if (index >= m_result.points.size() ||
                m_result.points[index].status != PointStatus::Pending)
                continue;
            m_result.points[index] = point;
            Q_EMIT pointFinished(point, progress());
        }
    }
    finishIfDone();
}

void SlurmSweepRun::onOutput()
{
    m_partial += m_process.readAllStandardOutput();
    const qsizetype end = m_partial.lastIndexOf('\n');
    if (end < 0)
        return;
    const QList<QByteArray> lines = m_partial.left(end).split('\n');
    m_partial.remove(0, end + 1);
    for (auto line = lines.crbegin(); line != lines.crend(); ++line) {
        const QString text = QString::fromUtf8(*line).trimmed();
        if (!text.isEmpty()) {
            Q_EMIT statusChanged(text);
            return;
        }
    }
}

void SlurmSweepRun::onProcessFinished(int exitCode, QProcess::ExitStatus status)
{
    m_processDone = true;
    m_exitCode = exitCode;
    m_crashed = status == QProcess::CrashExit;
    m_poll.stop();
    onOutput();
    if (!m_crashed && exitCode == 0) {
        m_mergedLoading = true;
        load(0, toQString(mergedResultPath(toStdString(m_request.jobDir))));
        return;
    }
    poll(); // the shards that ended since the last look
    finishIfDone();
}

void SlurmSweepRun::finishIfDone()
{
    if (!m_running || !m_processDone || m_loading > 0)
        return;
    SweepResult result = m_result;
    const QString failure = failureText(m_stderr);
    if (m_crashed) {
        result.error = toStdString(tr("cuwb stopped while following the job (it crashed or was "
                                      "killed); the job folder is %1")
                                       .arg(m_request.jobDir));
    } else if (m_exitCode == 130) {
        result.cancelled = true;
    } else if (m_exitCode != 0) {
        result.error = toStdString(
            failure.isEmpty() ? tr("cuwb sweep --slurm ended with status %1").arg(m_exitCode)
                              : failure);
    }
    finish(std::move(result));
}

void SlurmSweepRun::finish(SweepResult result)
{
    m_running = false;
    m_poll.stop();
    if (result.wallSeconds <= 0.0)
        result.wallSeconds = double(m_clock.elapsed()) / 1000.0;
    m_result = result;
    Q_EMIT finished(result);
}

SweepProgress SlurmSweepRun::progress() const
{
    SweepProgress p;
    p.total = m_result.points.size();
    for (const SweepPointResult &point : m_result.points) {
        if (point.status != PointStatus::Pending)
            ++p.done;
        if (point.status == PointStatus::Measured || point.status == PointStatus::Wrong)
            ++p.measured;
    }
    p.elapsedSeconds = double(m_clock.elapsed()) / 1000.0;
    return p;
}

} // namespace cuwb
