// A sweep from the window through a real single-node Slurm (support/slurm/start-slurm.sh:
// munged, slurmctld and slurmd started for this test in a temporary folder, stopped after):
// the SweepController submits the project as the window has it through the core's SlurmSweep
// on its sweep thread (as `cuwb sweep --slurm` does), the points of each shard appear when that
// shard ends (shard 3 is held back, so the first two shards' points are on screen while it
// still runs), and the merged result is the same sweep as a local run. Also: Cancel cancels
// the job (nothing left in the queue, the finished shards' points kept), a shard that is killed
// is named with its log, no project means a plain refusal, and the Sweep dock's "Through Slurm"
// group drives it (with a screenshot of the dock while shard 3 runs, written to
// $CUWB_SCREENSHOT_DIR when set). The GPU is the stand-in worker; the tasks ask for no GPU.
// Skipped only when Slurm's binaries are missing.
#include "gui/sweep/slurmsweep.h"
#include "gui/sweep/slurmsweepbox.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/workspace/workspace.h"

#include "../support/sweeptesthelpers.h"
#include "cluster/jobfolder.h"
#include "project/project.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_slurmsweep {

namespace {

constexpr int kSlurmTimeoutMs = 120000;

QString slurmScript(const char *name)
{
    return QStringLiteral(CUWB_SLURM_SCRIPTS_DIR "/") + QLatin1String(name);
}

SweepSpec powersSweep()
{
    SweepSpec spec = blockPowersSweep();
    spec.settings.fixedSamples = 5;
    return spec;
}

// What ProjectController::sweepSnapshot gives for the add_one project.
SweepController::ProjectSnapshot addOneSnapshot(const SweepSpec &spec, const RunRequest &base)
{
    Project project;
    project.name = "add_one";
    project.inlineSource = base.source;
    project.options = base.options;
    project.launch = base.launch;
    project.verification = base.verification;
    project.sweep = spec;
    return {{}, QStringLiteral("add_one"), QDir::tempPath(), serializeProject(project)};
}

void writeScript(const QString &path, const QString &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
    file.close();
    file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
}

QByteArray squeue()
{
    QProcess queue;
    queue.start(QStringLiteral("squeue"), {QStringLiteral("-h")});
    queue.waitForFinished(20000);
    return queue.readAllStandardOutput().trimmed();
}

} // namespace

class TestSlurmSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void pointsArriveAsShardsFinish();
    void cancelCancelsTheJob();
    void killedShardIsNamed();
    void refusedWithoutAProject();
    void sweepDockSubmitsToSlurm();

private:
    void requireSlurm();
    // A controller whose tasks run the stand-in worker through `wrapper` (a script that may
    // hold a shard back), in job folders under m_dir.
    std::unique_ptr<SweepController> controller(const QString &wrapper, int shards);
    // Slurm as the Sweep dock's group asks for it: `shards` tasks, no GPU, job folders under
    // m_dir.
    SlurmSweepSettings slurmSettings(int shards) const;
    // A wrapper around the stand-in worker that runs `shell` first in every task.
    QString wrapper(const QString &name, const QString &shell);

    QTemporaryDir m_dir;
    QString m_slurmDir;
    QString m_skip;
    bool m_started = false;
};

void TestSlurmSweep::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("cuwb-tests"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("settings")));
    m_slurmDir = m_dir.filePath(QStringLiteral("slurm"));
    QDir().mkpath(m_slurmDir);
    QProcess start;
    start.start(QStringLiteral("/bin/sh"), {slurmScript("start-slurm.sh"), m_slurmDir});
    QVERIFY(start.waitForFinished(60000));
    m_started = true;
    const QString err = QString::fromUtf8(start.readAllStandardError());
    if (start.exitCode() == 4) {
        m_skip = err.trimmed();
        return;
    }
    QVERIFY2(start.exitCode() == 0, qPrintable(QStringLiteral("Slurm did not start: ") + err));
    qputenv("SLURM_CONF", start.readAllStandardOutput().trimmed());
}

void TestSlurmSweep::cleanupTestCase()
{
    if (m_started)
        QProcess::execute(QStringLiteral("/bin/sh"), {slurmScript("stop-slurm.sh"), m_slurmDir});
}

void TestSlurmSweep::requireSlurm()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
}

QString TestSlurmSweep::wrapper(const QString &name, const QString &shell)
{
    const QString path = m_dir.filePath(name);
    writeScript(path, QStringLiteral("#!/bin/sh\n%1\nexec '%2' \"$@\"\n")
                          .arg(shell, QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH)));
    return path;
}

std::unique_ptr<SweepController> TestSlurmSweep::controller(const QString &wrapper, int shards)
{
    auto controller = std::make_unique<SweepController>();
    controller->setCliPath(QStringLiteral(CUWB_CLI_PATH));
    controller->setWorkerCommand(wrapper, {});
    const SlurmSweepSettings settings = slurmSettings(shards);
    Placement placement;
    placement.slurm = settings.options();
    controller->setPlacement(placement);
    controller->setSlurmJobFolder(settings.jobFolder);
    controller->setProjectSnapshot(addOneSnapshot);
    return controller;
}

SlurmSweepSettings TestSlurmSweep::slurmSettings(int shards) const
{
    SlurmSweepSettings settings;
    settings.shards = shards;
    settings.gres = QStringLiteral("none");
    settings.jobFolder = m_dir.filePath(QStringLiteral("jobs"));
    return settings;
}

void TestSlurmSweep::pointsArriveAsShardsFinish()
{
    requireSlurm();
    // Shard 3 waits until the test has seen the other shards' points.
    const QString release = m_dir.filePath(QStringLiteral("release-3"));
    auto sweep = controller(wrapper(QStringLiteral("hold-3.sh"),
                                    QStringLiteral("if [ \"$SLURM_ARRAY_TASK_ID\" = 3 ]; then\n"
                                                   "  while [ ! -e '%1' ]; do sleep 0.2; done\nfi")
                                        .arg(release)),
                            3);
    QSignalSpy started(sweep.get(), &SweepController::sweepStarted);
    QSignalSpy points(sweep.get(), &SweepController::pointFinished);
    QSignalSpy finished(sweep.get(), &SweepController::sweepFinished);
    QSignalSpy status(sweep.get(), &SweepController::statusMessage);
    SweepContext context;
    context.projectName = "add_one";
    QVERIFY(sweep->start(powersSweep(), addOneRequest(), context));
    QVERIFY(sweep->isRunning());
    // The core's SlurmSweep reports the expanded sweep from the sweep thread.
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, kSlurmTimeoutMs);
    const auto skeleton = started.first().first().value<SweepResult>();
    QCOMPARE(skeleton.points.size(), std::size_t(7));
    QCOMPARE(skeleton.count(PointStatus::Skipped), std::size_t(1)); // block 2048

    // Points 0..6 are dealt round-robin: shard 1 holds 0, 3 and 6 (2048, skipped), shard 2
    // holds 1 and 4, shard 3 holds 2 and 5.
    QTRY_COMPARE_WITH_TIMEOUT(points.size(), 4, kSlurmTimeoutMs);
    const QString jobDir = sweep->slurmJobDir();
    QVERIFY(!QFile::exists(QString::fromStdString(taskStatusPath(jobDir.toStdString(), 3))));
    QCOMPARE(finished.size(), 0);
    for (const QList<QVariant> &arguments : points) {
        const auto point = arguments.first().value<SweepPointResult>();
        QCOMPARE(point.status, PointStatus::Measured);
        QVERIFY2(point.point.index % 3 != 2, qPrintable(QString::number(point.point.index)));
    }
    QCOMPARE(points.last().at(1).value<SweepProgress>().done, std::size_t(5)); // + the skip
    QVERIFY(!status.isEmpty());
    QVERIFY2(status.last().first().toString().contains(QStringLiteral("shards: ")) ||
                 status.last().first().toString().startsWith(QStringLiteral("submitted job")),
             qPrintable(status.last().first().toString()));

    QFile(release).open(QIODevice::WriteOnly);
    QVERIFY(finished.wait(kSlurmTimeoutMs));
    QCOMPARE(points.size(), 6);
    const auto result = finished.first().first().value<SweepResult>();
    QVERIFY2(result.error.empty(), result.error.c_str());
    QVERIFY(!result.cancelled);
    QVERIFY(!result.shard);
    QCOMPARE(result.points.size(), std::size_t(7));
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(6));
    QCOMPARE(result.deviceName, std::string("Fake H200"));
    QVERIFY(result.bestPoint());
    QCOMPARE(result.points[*result.bestPoint()].point.label(), std::string("block.x=256"));
    for (std::size_t i = 0; i < result.points.size(); ++i)
        QCOMPARE(result.points[i].point.index, i);
    QVERIFY(!sweep->isRunning());
    // The job folder has the project the tasks ran, and cuwb's merged result.
    QVERIFY(QFile::exists(jobDir + QStringLiteral("/add_one.cuwb")));
    QVERIFY(QFile::exists(QString::fromStdString(mergedResultPath(jobDir.toStdString()))));
}

void TestSlurmSweep::cancelCancelsTheJob()
{
    requireSlurm();
    // Shards 1 and 2 finish; shard 3 would take minutes.
    auto sweep = controller(
        wrapper(QStringLiteral("slow-3.sh"), QStringLiteral("[ \"$SLURM_ARRAY_TASK_ID\" = 3 ] && "
                                                            "sleep 300")),
        3);
    QSignalSpy points(sweep.get(), &SweepController::pointFinished);
    QSignalSpy finished(sweep.get(), &SweepController::sweepFinished);
    QVERIFY(sweep->start(powersSweep(), addOneRequest()));
    QTRY_COMPARE_WITH_TIMEOUT(points.size(), 4, kSlurmTimeoutMs);
    QVERIFY(!squeue().isEmpty());
    sweep->cancel();
    QVERIFY(sweep->isCancelling());
    QVERIFY(finished.wait(kSlurmTimeoutMs));
    const auto result = finished.first().first().value<SweepResult>();
    QVERIFY(result.cancelled);
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(4));
    QCOMPARE(result.count(PointStatus::Pending), std::size_t(2));
    QTRY_COMPARE_WITH_TIMEOUT(squeue(), QByteArray(), 30000);
}

void TestSlurmSweep::killedShardIsNamed()
{
    requireSlurm();
    // Shard 2 cancels its own task, as `scancel JOB_2` from outside would.
    auto sweep = controller(wrapper(QStringLiteral("cancel-2.sh"),
                                    QStringLiteral("if [ \"$SLURM_ARRAY_TASK_ID\" = 2 ]; then\n"
                                                   "  scancel \"${SLURM_ARRAY_JOB_ID}_2\"; "
                                                   "sleep 30\nfi")),
                            3);
    QSignalSpy finished(sweep.get(), &SweepController::sweepFinished);
    QVERIFY(sweep->start(powersSweep(), addOneRequest()));
    QVERIFY(finished.wait(kSlurmTimeoutMs));
    const auto result = finished.first().first().value<SweepResult>();
    const QString error = QString::fromStdString(result.error);
    QVERIFY2(error.contains(QStringLiteral("shard 2 (job ")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("was killed before it finished")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("/task-2.log")), qPrintable(error));
    // Shards 1 and 3 measured their points (0, 3 and 2, 5); shard 2's stay pending.
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(4));
    QCOMPARE(result.points[1].status, PointStatus::Pending);
    QCOMPARE(result.points[4].status, PointStatus::Pending);
}

void TestSlurmSweep::refusedWithoutAProject()
{
    SweepController sweep;
    Placement placement;
    placement.slurm = SlurmSweepSettings{}.options();
    sweep.setPlacement(placement);
    QSignalSpy finished(&sweep, &SweepController::sweepFinished);
    QVERIFY(sweep.start(powersSweep(), addOneRequest()));
    QCOMPARE(finished.size(), 1);
    QVERIFY(!sweep.isRunning());
    const QString error =
        QString::fromStdString(finished.first().first().value<SweepResult>().error);
    QVERIFY2(error.contains(QStringLiteral("save the kernel as a project first")) ||
                 error.contains(QStringLiteral("open or save the kernel as a project first")),
             qPrintable(error));
}

void TestSlurmSweep::sweepDockSubmitsToSlurm()
{
    requireSlurm();
    const QString release = m_dir.filePath(QStringLiteral("release-dock"));
    auto sweep = controller(wrapper(QStringLiteral("hold-dock.sh"),
                                    QStringLiteral("if [ \"$SLURM_ARRAY_TASK_ID\" = 3 ]; then\n"
                                                   "  while [ ! -e '%1' ]; do sleep 0.2; done\nfi")
                                        .arg(release)),
                            3);
    // No GPU here: a Slurm sweep does not need one.
    sweep->setAvailability(false, QStringLiteral("no GPU on this machine"));
    const SlurmSweepSettings settings = slurmSettings(3);
    // The dock decides: unchecked (as remembered), its sweeps go to the worker.
    Workspace workspace;
    SweepPanel panel(sweep.get(), &workspace);
    QVERIFY(!sweep->placement().slurm);
    panel.resize(1400, 800);
    SweepContext context;
    context.projectName = "add_one";
    panel.setBase(addOneRequest(), context, std::nullopt);
    panel.setRunAvailability(false, QStringLiteral("no GPU on this machine"));
    workspace.setSweep(powersSweep());
    QTRY_VERIFY_WITH_TIMEOUT(panel.pointCount().has_value(), 30000);
    QVERIFY(!panel.canRun()); // on the worker: no GPU

    panel.slurmBox()->setSettings(settings);
    // The group is the sweep's part of the Workspace's placement, which the controller takes.
    QCOMPARE(workspace.placement().slurm, std::optional<SlurmOptions>(settings.options()));
    QCOMPARE(sweep->placement(), workspace.placement());
    QVERIFY(panel.canRun());
    QCOMPARE(panel.runButton()->text(), QStringLiteral("Submit to Slurm"));
    QCOMPARE(QSettings().value(QStringLiteral("sweep/slurm/shards")).toInt(), 3);

    QSignalSpy finished(sweep.get(), &SweepController::sweepFinished);
    QVERIFY(panel.runSweep());
    QTRY_VERIFY_WITH_TIMEOUT(sweep->isRunning(), 30000); // once counted
    QVERIFY(!panel.slurmBox()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(panel.result().count(PointStatus::Measured), std::size_t(4),
                              kSlurmTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(panel.statusLabel()->text().contains(QStringLiteral("shards: ")),
                             10000);
    panel.show();
    QTest::qWait(300); // the coalesced redraw
    if (const QByteArray dir = qgetenv("CUWB_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(panel.grab().save(
            QDir(QString::fromUtf8(dir)).filePath(QStringLiteral("sweep-slurm-running.png"))));

    QFile(release).open(QIODevice::WriteOnly);
    QVERIFY(finished.wait(kSlurmTimeoutMs));
    QTRY_COMPARE_WITH_TIMEOUT(panel.result().count(PointStatus::Measured), std::size_t(6), 5000);
    QVERIFY(panel.slurmBox()->isEnabled());
    QVERIFY2(panel.statusLabel()->text().startsWith(QStringLiteral("Measured 6 of 7 points")),
             qPrintable(panel.statusLabel()->text()));
    QTest::qWait(300);
    if (const QByteArray dir = qgetenv("CUWB_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(panel.grab().save(
            QDir(QString::fromUtf8(dir)).filePath(QStringLiteral("sweep-slurm-done.png"))));
    // Unchecked, the dock runs on the worker again (and needs the GPU again).
    panel.slurmBox()->setSettings(std::nullopt);
    QVERIFY(!workspace.placement().slurm);
    QVERIFY(!sweep->placement().slurm);
    QVERIFY(!panel.canRun());
    QCOMPARE(panel.runButton()->text(), QStringLiteral("Run sweep"));
}

CUWB_TEST_MAIN(TestSlurmSweep)
} // namespace tst_slurmsweep
} // namespace

#include "tst_slurmsweep.moc"
