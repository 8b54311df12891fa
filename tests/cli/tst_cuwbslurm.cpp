// `cuwb sweep --slurm`, `cuwb run FOLDER --slurm` and srun as the worker command against a
// real single-node Slurm started for this test (support/slurm/start-slurm.sh: munged with its
// own key and socket, slurmctld and slurmd on free ports, all in a temporary folder, stopped in
// cleanupTestCase even when a test failed). The GPU is the stand-in worker
// (support/fakesweepworker.cpp), and the tasks ask for no GPU (--gres none) since the node has
// none. Skipped only when Slurm's binaries are missing; a Slurm that does not start fails.
// Also local grading (no Slurm): hostile projects refused, the others graded in scratch folders.
#include "sweep/sweepjson.h"
#include "worker/protocol.h"

#include "cuwbprocess.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbslurm {

namespace {

QString fakeWorker()
{
    return QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH);
}

QString slurmScript(const char *name)
{
    return QStringLiteral(CUWB_SLURM_SCRIPTS_DIR "/") + QLatin1String(name);
}

void writeFile(const QString &path, const QByteArray &text, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    if (executable) {
        file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
    }
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

SweepResult load(const QString &path)
{
    const SweepResultLoad loaded = loadSweepResult(path.toStdString());
    if (!loaded.result) {
        qWarning("%s", loaded.error.c_str());
        return {};
    }
    return *loaded.result;
}

// The points of two results are the same sweep, measured alike.
bool samePoints(const SweepResult &a, const SweepResult &b, QString &why)
{
    if (a.points.size() != b.points.size()) {
        why = QStringLiteral("%1 points against %2").arg(a.points.size()).arg(b.points.size());
        return false;
    }
    for (std::size_t i = 0; i < a.points.size(); ++i) {
        const SweepPointResult &x = a.points[i];
        const SweepPointResult &y = b.points[i];
        const bool same = x.point.index == i && x.point.label() == y.point.label() &&
                          x.status == y.status && x.message == y.message &&
                          x.measurement.has_value() == y.measurement.has_value() &&
                          (!x.measurement || x.measurement->samplesNs == y.measurement->samplesNs);
        if (!same) {
            why = QStringLiteral("point %1 differs").arg(i);
            return false;
        }
    }
    if (a.bestPoint() != b.bestPoint()) {
        why = QStringLiteral("the best points differ");
        return false;
    }
    return true;
}

// A folder of submissions: alice and bob read inside their folders, carol names an absolute
// path, dave goes up with '..', erin's source is a symlink out. Returns the folder.
QString makeSubmissions(const QTemporaryDir &dir)
{
    QFile base(dataFile("add_one.cuwb"));
    if (!base.open(QIODevice::ReadOnly)) {
        return {};
    }
    nlohmann::json project = nlohmann::json::parse(base.readAll().toStdString());
    const std::string kernel = project["source"]["inline"].get<std::string>();
    const QString root = dir.filePath(QStringLiteral("submissions"));
    writeFile(dir.filePath(QStringLiteral("answers/solution.cu")),
              QByteArray::fromStdString(kernel));
    const auto add = [&](const char *name, const nlohmann::json &source) {
        nlohmann::json p = project;
        p["name"] = name;
        p["source"] = source;
        writeFile(root + QStringLiteral("/%1/%1.cuwb").arg(QLatin1String(name)),
                  QByteArray::fromStdString(p.dump(2)));
    };
    writeFile(root + QStringLiteral("/alice/kernel.cu"), QByteArray::fromStdString(kernel));
    add("alice", {{"path", "kernel.cu"}});
    add("bob", {{"inline", kernel}});
    add("carol", {{"path", dir.filePath(QStringLiteral("answers/solution.cu")).toStdString()}});
    add("dave", {{"path", "../../answers/solution.cu"}});
    QDir().mkpath(root + QStringLiteral("/erin"));
    QFile::link(dir.filePath(QStringLiteral("answers/solution.cu")),
                root + QStringLiteral("/erin/kernel.cu"));
    add("erin", {{"path", "kernel.cu"}});
    return root;
}

} // namespace

class TestCuwbSlurm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void localGradingRefusesHostileProjects();
    void dryRunPrintsTheBatchScript();
    void sweepThroughSlurmEqualsTheLocalRun();
    void killedShardIsNamedWithItsLog();
    void gradingArrayRefusesHostileProjects();
    void srunAsTheWorkerCommand();
    void srunAsATargetOfTheTargetsFile();

private:
    void requireSlurm();

    QTemporaryDir m_dir;
    QString m_slurmDir;
    QString m_skip;  // why there is no Slurm (binaries missing)
    QString m_local; // sweep_add_one.cuwb swept locally, as JSON
    bool m_started = false;
};

void TestCuwbSlurm::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_local = m_dir.filePath(QStringLiteral("local.json"));
    const CuwbRun local = runCuwbProcess({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                                          QStringLiteral("--json"), m_local,
                                          QStringLiteral("--worker"), fakeWorker()});
    QVERIFY2(local.exitCode == 0, qPrintable(local.err));

    m_slurmDir = m_dir.filePath(QStringLiteral("slurm"));
    QDir().mkpath(m_slurmDir);
    QProcess start;
    start.start(QStringLiteral("/bin/sh"), {slurmScript("start-slurm.sh"), m_slurmDir});
    QVERIFY(start.waitForFinished(60000));
    m_started = true; // stop-slurm.sh also cleans up after a start that failed half-way
    const QString err = QString::fromUtf8(start.readAllStandardError());
    if (start.exitCode() == 4) {
        m_skip = err.trimmed();
        return;
    }
    QVERIFY2(start.exitCode() == 0, qPrintable(QStringLiteral("Slurm did not start: ") + err));
    const QByteArray conf = start.readAllStandardOutput().trimmed();
    QVERIFY(QFile::exists(QString::fromUtf8(conf)));
    qputenv("SLURM_CONF", conf);
}

void TestCuwbSlurm::cleanupTestCase()
{
    if (m_started) {
        QProcess::execute(QStringLiteral("/bin/sh"), {slurmScript("stop-slurm.sh"), m_slurmDir});
    }
}

void TestCuwbSlurm::requireSlurm()
{
    if (!m_skip.isEmpty()) {
        QSKIP(qPrintable(m_skip));
    }
}

void TestCuwbSlurm::localGradingRefusesHostileProjects()
{
    QTemporaryDir dir;
    const QString submissions = makeSubmissions(dir);
    QVERIFY(!submissions.isEmpty());
    // The worker records the folder it was started in.
    const QString cwdLog = dir.filePath(QStringLiteral("cwd.log"));
    const QString worker = dir.filePath(QStringLiteral("worker.sh"));
    writeFile(worker,
              QStringLiteral("#!/bin/sh\npwd >>'%1'\nexec '%2' \"$@\"\n")
                  .arg(cwdLog, fakeWorker())
                  .toUtf8(),
              true);
    const QString scratch = dir.filePath(QStringLiteral("scratch"));
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("run"), submissions, QStringLiteral("--json"), QStringLiteral("--summary"),
         QStringLiteral("--scratch"), scratch, QStringLiteral("--worker"), worker});
    QCOMPARE(run.exitCode, 1);
    const nlohmann::json document = nlohmann::json::parse(run.out.toStdString());
    QCOMPARE(document["projects"], 5);
    QCOMPARE(document["passed"], 2);
    QCOMPARE(document["failed"].size(), std::size_t(3));
    const auto reason = [&](int k) {
        return QString::fromStdString(document["failed"][k]["reason"].get<std::string>());
    };
    QVERIFY2(reason(0).startsWith(QStringLiteral("refused: the source names an absolute path")),
             qPrintable(reason(0)));
    QVERIFY2(reason(1).startsWith(QStringLiteral("refused: the source goes up out of its folder "
                                                 "with '..'")),
             qPrintable(reason(1)));
    QVERIFY2(reason(2).startsWith(QStringLiteral("refused: the source 'kernel.cu' is a symlink "
                                                 "that leads out of its folder")),
             qPrintable(reason(2)));
    QCOMPARE(document["results"][2]["refused"].is_string(), true);
    // Each graded project's worker started in its own scratch folder, and only theirs.
    const QStringList folders =
        QString::fromUtf8(readAll(cwdLog)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(folders, (QStringList{QDir(scratch).filePath(QStringLiteral("1-alice")),
                                   QDir(scratch).filePath(QStringLiteral("2-bob"))}));
}

void TestCuwbSlurm::dryRunPrintsTheBatchScript()
{
    requireSlurm();
    const QString jobDir = m_dir.filePath(QStringLiteral("dry"));
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--slurm"),
         QStringLiteral("--gpus"), QStringLiteral("4"), QStringLiteral("--partition"),
         QStringLiteral("debug"), QStringLiteral("--time"), QStringLiteral("00:10:00"),
         QStringLiteral("--sbatch-option"), QStringLiteral("--mem=1G"), QStringLiteral("--job-dir"),
         jobDir, QStringLiteral("--dry-run"), QStringLiteral("--samples"), QStringLiteral("5"),
         QStringLiteral("--worker"), fakeWorker()});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.first(), QStringLiteral("#!/bin/sh"));
    for (const QString &line :
         {QStringLiteral("#SBATCH --array=1-4"), QStringLiteral("#SBATCH --gres=gpu:1"),
          QStringLiteral("#SBATCH --partition=debug"), QStringLiteral("#SBATCH --time=00:10:00"),
          QStringLiteral("#SBATCH --mem=1G"),
          QStringLiteral("#SBATCH --output=%1/task-%a.log").arg(jobDir),
          QStringLiteral("    ''\"$k\"'/4' \\"), QStringLiteral("    '--samples' \\"),
          QStringLiteral("    '%1'").arg(fakeWorker())}) {
        QVERIFY2(lines.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + run.out));
    }
    // Nothing was submitted.
    QProcess queue;
    queue.start(QStringLiteral("squeue"), {QStringLiteral("-h")});
    QVERIFY(queue.waitForFinished(20000));
    QCOMPARE(queue.readAllStandardOutput().trimmed(), QByteArray());
    QVERIFY(!QFile::exists(jobDir + QStringLiteral("/sweep.sh")));
}

void TestCuwbSlurm::sweepThroughSlurmEqualsTheLocalRun()
{
    requireSlurm();
    const QString jobDir = m_dir.filePath(QStringLiteral("sweep"));
    const QString json = m_dir.filePath(QStringLiteral("slurm.json"));
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--slurm"),
         QStringLiteral("--gpus"), QStringLiteral("4"), QStringLiteral("--gres"),
         QStringLiteral("none"), QStringLiteral("--job-dir"), jobDir, QStringLiteral("--json"),
         json, QStringLiteral("--worker"), fakeWorker()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const QStringList lines = run.outLines();
    QVERIFY2(lines.first().startsWith(QStringLiteral("submitted job ")), qPrintable(run.out));
    QVERIFY2(lines.first().endsWith(QStringLiteral(": 4 shards of 7 points; job folder ") + jobDir),
             qPrintable(lines.first()));
    QVERIFY2(run.out.contains(QStringLiteral("shards: 4 of 4 done, 0 running, 0 pending; points: "
                                             "7 of 7 done")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("measured 6 of 7 points")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("best: block.x=256")), qPrintable(run.out));
    for (int k = 1; k <= 4; ++k) {
        QVERIFY(QFile::exists(jobDir + QStringLiteral("/task-%1.json").arg(k)));
        QCOMPARE(readAll(jobDir + QStringLiteral("/task-%1.status").arg(k)).trimmed(),
                 QByteArray("0"));
    }
    QString why;
    QVERIFY2(samePoints(load(json), load(m_local), why), qPrintable(why));
    QVERIFY2(samePoints(load(jobDir + QStringLiteral("/result.json")), load(m_local), why),
             qPrintable(why));
}

void TestCuwbSlurm::killedShardIsNamedWithItsLog()
{
    requireSlurm();
    // Shard 2's worker cancels its own array task, as `scancel JOB_2` from outside would.
    const QString worker = m_dir.filePath(QStringLiteral("cancel-2.sh"));
    writeFile(worker,
              QStringLiteral("#!/bin/sh\nif [ \"$SLURM_ARRAY_TASK_ID\" = 2 ]; then\n"
                             "  echo 'shard 2 is being cancelled' >&2\n"
                             "  scancel \"${SLURM_ARRAY_JOB_ID}_2\"; sleep 30\nfi\n"
                             "exec '%1' \"$@\"\n")
                  .arg(fakeWorker())
                  .toUtf8(),
              true);
    const QString jobDir = m_dir.filePath(QStringLiteral("killed"));
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                        QStringLiteral("--slurm"), QStringLiteral("--gpus"), QStringLiteral("3"),
                        QStringLiteral("--gres"), QStringLiteral("none"),
                        QStringLiteral("--job-dir"), jobDir, QStringLiteral("--worker"), worker});
    QCOMPARE(run.exitCode, 1);
    const QString log = jobDir + QStringLiteral("/task-2.log");
    QVERIFY2(run.err.contains(QStringLiteral("shard 2 (job ")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("was killed before it finished")),
             qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("; log: ") + log), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("1 of 3 shards failed; run them again with: sbatch "
                                             "--array=2 ")),
             qPrintable(run.err));
    QVERIFY(!run.err.contains(QStringLiteral("shard 1 (job")));
    QVERIFY(!QFile::exists(jobDir + QStringLiteral("/result.json")));
    QVERIFY(QFile::exists(jobDir + QStringLiteral("/task-1.json")));
}

void TestCuwbSlurm::gradingArrayRefusesHostileProjects()
{
    requireSlurm();
    QTemporaryDir dir;
    const QString submissions = makeSubmissions(dir);
    QVERIFY(!submissions.isEmpty());
    const QStringList common{QStringLiteral("--json"), QStringLiteral("--summary"),
                             QStringLiteral("--worker"), fakeWorker()};
    const CuwbRun local = runCuwbProcess(
        QStringList{QStringLiteral("run"), submissions} + common +
        QStringList{QStringLiteral("--scratch"), dir.filePath(QStringLiteral("scratch"))});
    QCOMPARE(local.exitCode, 1);
    const QString jobDir = dir.filePath(QStringLiteral("job"));
    const CuwbRun slurm =
        runCuwbProcess(QStringList{QStringLiteral("run"), submissions} + common +
                       QStringList{QStringLiteral("--slurm"), QStringLiteral("--gpus"),
                                   QStringLiteral("2"), QStringLiteral("--gres"),
                                   QStringLiteral("none"), QStringLiteral("--job-dir"), jobDir});
    QVERIFY2(slurm.exitCode == 1, qPrintable(slurm.err));
    const nlohmann::json a = nlohmann::json::parse(local.out.toStdString());
    const nlohmann::json b = nlohmann::json::parse(slurm.out.toStdString());
    QCOMPARE(b["projects"], 5);
    QCOMPARE(b["passed"], 2);
    QCOMPARE(b["failed"], a["failed"]);
    QCOMPARE(b["results"].size(), a["results"].size());
    for (std::size_t k = 0; k < a["results"].size(); ++k) {
        QCOMPARE(b["results"][k]["project"], a["results"][k]["project"]);
        QCOMPARE(b["results"][k]["passed"], a["results"][k]["passed"]);
        QCOMPARE(b["results"][k].value("refused", std::string()),
                 a["results"][k].value("refused", std::string()));
    }
    QVERIFY2(QString::fromStdString(b["failed"][0]["reason"].get<std::string>())
                 .startsWith(QStringLiteral("refused: the source names an absolute path")),
             b["failed"].dump().c_str());
    // Each task graded in its own scratch folders inside the job folder.
    QVERIFY(QFileInfo(jobDir + QStringLiteral("/scratch-1/1-alice")).isDir());
    QVERIFY(QFileInfo(jobDir + QStringLiteral("/scratch-2/2-bob")).isDir());
}

void TestCuwbSlurm::srunAsTheWorkerCommand()
{
    requireSlurm();
    // The worker's stdin and stdout through srun: the whole protocol crosses the allocation.
    const QString json = m_dir.filePath(QStringLiteral("srun.json"));
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                        QStringLiteral("--json"), json, QStringLiteral("--worker"),
                        QStringLiteral("srun --quiet -N1 -n1 --unbuffered ") + fakeWorker()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains(QStringLiteral("on Fake H200: 7 points (1 skipped)")),
             qPrintable(run.out));
    QString why;
    QVERIFY2(samePoints(load(json), load(m_local), why), qPrintable(why));
}

void TestCuwbSlurm::srunAsATargetOfTheTargetsFile()
{
    requireSlurm();
    // A GPU the scheduler hands out, as the window's "Run on" offers it: a command target of
    // the targets file, so the remote path (handshake, host compile, inputs sent along) runs
    // through srun. The node's "cuwb" is a wrapper that drops the "worker" word.
    const QString cuwb = m_dir.filePath(QStringLiteral("node-cuwb.sh"));
    writeFile(cuwb,
              QStringLiteral("#!/bin/sh\n[ \"$1\" = worker ] && shift\n"
                             "export CUWB_FAKE_WORKER_VERSION='%1'\nexec '%2' \"$@\"\n")
                  .arg(QString::fromStdString(workbenchVersion()), fakeWorker())
                  .toUtf8(),
              true);
    const QString targets = m_dir.filePath(QStringLiteral("targets.json"));
    nlohmann::json file;
    file["targets"] =
        nlohmann::json::array({{{"name", "allocation"},
                                {"command", {"srun", "--quiet", "-N1", "-n1", "--unbuffered"}},
                                {"cuwb", cuwb.toStdString()}}});
    writeFile(targets, QByteArray::fromStdString(file.dump(2)));
    qputenv("CUWB_TARGETS", targets.toUtf8());
    const QString json = m_dir.filePath(QStringLiteral("srun-target.json"));
    const CuwbRun run = runCuwbProcess({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                                        QStringLiteral("--json"), json, QStringLiteral("--on"),
                                        QStringLiteral("allocation")});
    qunsetenv("CUWB_TARGETS");
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains(QStringLiteral("on Fake H200: 7 points (1 skipped)")),
             qPrintable(run.out));
    QString why;
    QVERIFY2(samePoints(load(json), load(m_local), why), qPrintable(why));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbSlurm)
} // namespace tst_cuwbslurm
} // namespace

#include "tst_cuwbslurm.moc"
