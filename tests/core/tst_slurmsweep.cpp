// The core's SlurmSweep without a cluster: what it refuses before submitting (a sweep whose
// every point is skipped, options Slurm cannot take, a cancel that came first), the script it
// writes for the tasks, and Slurm's absence named as such. The sweep through a real Slurm is in
// cli/tst_cuwbslurm and gui/tst_slurmsweep.
#include "cluster/jobfolder.h"
#include "cluster/slurmsweep.h"
#include "sweep/sweep.h"

#include "../support/sweeptesthelpers.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <string>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_slurmsweep {

namespace {

// A job in a folder of its own whose tasks would run `cuwb` on add_one.cuwb.
SlurmSweepJob jobIn(const QTemporaryDir &dir, int tasks)
{
    SlurmSweepJob job;
    job.cuwb = "/opt/cuwb/bin/cuwb";
    job.projectPath = dir.filePath(QStringLiteral("add one.cuwb")).toStdString();
    job.projectName = "add one";
    job.taskOptions = {"--samples", "5"};
    job.jobDir = dir.path().toStdString();
    job.slurm.tasks = tasks;
    job.slurm.gres = "none";
    return job;
}

QByteArray readAll(const std::string &path)
{
    QFile file(QString::fromStdString(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// PATH set to an empty folder for the lifetime of the guard: no sbatch, squeue or scancel.
class NoSlurmOnPath
{
public:
    explicit NoSlurmOnPath(const QString &emptyFolder)
        : m_path(qgetenv("PATH"))
    {
        qputenv("PATH", emptyFolder.toUtf8());
    }
    ~NoSlurmOnPath() { qputenv("PATH", m_path); }
    NoSlurmOnPath(const NoSlurmOnPath &) = delete;
    NoSlurmOnPath &operator=(const NoSlurmOnPath &) = delete;

private:
    QByteArray m_path;
};

} // namespace

class TestSlurmSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scriptRunsOneShardPerTask();
    void everyPointSkippedIsRefusedBeforeSubmitting();
    void impossibleOptionsAreRefused();
    void cancelBeforeSubmittingSubmitsNothing();
    void missingSlurmIsNamed();
};

void TestSlurmSweep::scriptRunsOneShardPerTask()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string script = slurmSweepScript(jobIn(dir, 4), 7);
    const QString text = QString::fromStdString(script);
    QVERIFY2(text.startsWith(QStringLiteral("#!/bin/sh\n")), script.c_str());
    QVERIFY2(text.contains(QStringLiteral("#SBATCH --job-name=cuwb-sweep-add-one\n")),
             script.c_str());
    QVERIFY2(text.contains(QStringLiteral("#SBATCH --array=1-4\n")), script.c_str());
    QVERIFY2(!text.contains(QStringLiteral("--gres")), script.c_str()); // gres "none"
    QVERIFY2(text.contains(QStringLiteral("7 points in 4 shards")), script.c_str());
    // Each word quoted, the task's number spliced into the shard and the result's file.
    QVERIFY2(text.contains(QStringLiteral("'/opt/cuwb/bin/cuwb' \\\n    'sweep'")), script.c_str());
    QVERIFY2(text.contains(QStringLiteral("'--shard' \\\n    ''\"$k\"'/4'")), script.c_str());
    QVERIFY2(text.contains(QStringLiteral("/task-'\"$k\"'.json'")), script.c_str());
    QVERIFY2(text.contains(QStringLiteral("/add one.cuwb' \\\n")), script.c_str());
    QVERIFY2(text.contains(QStringLiteral("'--samples' \\\n    '5'")), script.c_str());
}

void TestSlurmSweep::everyPointSkippedIsRefusedBeforeSubmitting()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SweepSpec spec;
    spec.axes = {listAxis("block.x", {"2048", "4096"})}; // over every GPU's 1024 threads
    SlurmSweep sweep(jobIn(dir, 2));
    int started = 0;
    sweep.setStartedCallback([&](const SweepResult &) { ++started; });
    const SweepResult result = sweep.run(spec, addOneRequest());
    QVERIFY2(QString::fromStdString(result.error)
                 .startsWith(QStringLiteral("nothing to measure: all 2 points are skipped")),
             result.error.c_str());
    QCOMPARE(started, 0);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("sweep.sh"))));
    QVERIFY(sweep.jobId().empty());
}

void TestSlurmSweep::impossibleOptionsAreRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SlurmSweepJob job = jobIn(dir, 0);
    QCOMPARE(slurmOptionsProblem(job.slurm),
             std::string("--gpus needs a number of tasks from 1 to 1000, got 0"));
    SlurmSweep sweep(job);
    const SweepResult result = sweep.run(blockPowersSweep(), addOneRequest());
    QCOMPARE(result.error, slurmOptionsProblem(job.slurm));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("sweep.sh"))));

    SlurmOptions options;
    options.sbatchOptions = {"mem=4G"};
    QVERIFY(QString::fromStdString(slurmOptionsProblem(options))
                .startsWith(QStringLiteral("--sbatch-option needs one sbatch option")));
    options = {};
    options.partition = "two words";
    QVERIFY(QString::fromStdString(slurmOptionsProblem(options))
                .startsWith(QStringLiteral("--partition and --time take one word")));
    QCOMPARE(slurmOptionsProblem(SlurmOptions{}), std::string());
}

void TestSlurmSweep::cancelBeforeSubmittingSubmitsNothing()
{
    QTemporaryDir dir;
    QTemporaryDir empty;
    QVERIFY(dir.isValid() && empty.isValid());
    SlurmSweep sweep(jobIn(dir, 3));
    std::size_t started = 0;
    sweep.setStartedCallback(
        [&](const SweepResult &skeleton) { started = skeleton.points.size(); });
    sweep.cancel();
    const NoSlurmOnPath noSlurm(empty.path()); // nothing would be submitted in any case
    const SweepResult result = sweep.run(blockPowersSweep(), addOneRequest());
    QVERIFY(result.cancelled);
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(started, result.points.size());
    QCOMPARE(result.count(PointStatus::Pending) + result.count(PointStatus::Skipped),
             result.points.size());
    QVERIFY(sweep.jobId().empty());
}

void TestSlurmSweep::missingSlurmIsNamed()
{
    QTemporaryDir dir;
    QTemporaryDir empty;
    QVERIFY(dir.isValid() && empty.isValid());
    SlurmSweep sweep(jobIn(dir, 3));
    std::vector<std::string> status;
    sweep.setStatusCallback([&](const std::string &line) { status.push_back(line); });
    SweepResult result;
    {
        const NoSlurmOnPath noSlurm(empty.path());
        result = sweep.run(blockPowersSweep(), addOneRequest());
    }
    QVERIFY2(QString::fromStdString(result.error)
                 .startsWith(QStringLiteral("sbatch is not installed or not on PATH")),
             result.error.c_str());
    QVERIFY(!result.cancelled);
    QVERIFY(status.empty()); // nothing was submitted
    // The script is there to be submitted by hand.
    const QByteArray script = readAll(dir.filePath(QStringLiteral("sweep.sh")).toStdString());
    QVERIFY(script.contains("#SBATCH --array=1-3"));
}

CUWB_TEST_GUILESS_MAIN(TestSlurmSweep)
} // namespace tst_slurmsweep
} // namespace

#include "tst_slurmsweep.moc"
