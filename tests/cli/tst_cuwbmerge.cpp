// End-to-end tests of `cuwb sweep --shard K/N` and `cuwb merge` against the stand-in worker with
// a GPU (support/fakesweepworker.cpp): a shard measures only its points and records which shard
// it is; four shards merged equal the same sweep run whole, point by point; and merge refuses
// a missing or duplicate shard, shards of different sweeps, a whole sweep and a file of another
// format version, each with its reason.
#include "sweep/sweepjson.h"

#include "cuwbprocess.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbmerge {

namespace {

QString fakeWorker()
{
    return QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH);
}

CuwbRun sweepShard(const char *project, const QString &shard, const QString &json)
{
    QStringList arguments{QStringLiteral("sweep"),    dataFile(project),
                          QStringLiteral("--json"),   json,
                          QStringLiteral("--worker"), fakeWorker()};
    if (!shard.isEmpty()) {
        arguments << QStringLiteral("--shard") << shard;
    }
    return runCuwbProcess(arguments);
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

} // namespace

class TestCuwbMerge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void shardMeasuresItsPointsOnly();
    void fourShardsMergeToTheWholeSweep();
    void mergePrintsJson();
    void rejectsBadShardUsage_data();
    void rejectsBadShardUsage();
    void mergeRefuses_data();
    void mergeRefuses();

private:
    QTemporaryDir m_dir;
    QString m_whole;
    QStringList m_shards; // sweep_add_one.cuwb in 4 shards
    QString m_otherShard; // shard 2 of 4 of sweep_tiles.cuwb
};

void TestCuwbMerge::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_whole = m_dir.filePath(QStringLiteral("whole.json"));
    const CuwbRun whole = sweepShard("sweep_add_one.cuwb", QString(), m_whole);
    QVERIFY2(whole.exitCode == 0, qPrintable(whole.err));
    for (int k = 1; k <= 4; ++k) {
        const QString path = m_dir.filePath(QStringLiteral("shard-%1.json").arg(k));
        const CuwbRun run = sweepShard("sweep_add_one.cuwb", QStringLiteral("%1/4").arg(k), path);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        m_shards << path;
    }
    m_otherShard = m_dir.filePath(QStringLiteral("tiles-2.json"));
    const CuwbRun other = sweepShard("sweep_tiles.cuwb", QStringLiteral("2/4"), m_otherShard);
    QVERIFY2(other.exitCode == 0, qPrintable(other.err + other.out));
}

void TestCuwbMerge::shardMeasuresItsPointsOnly()
{
    const QString path = m_dir.filePath(QStringLiteral("again-2.json"));
    const CuwbRun run = sweepShard("sweep_add_one.cuwb", QStringLiteral("2/4"), path);
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.size() >= 3, qPrintable(run.out));
    QCOMPARE(lines[0], QStringLiteral("sweeping %1 on Fake H200: shard 2 of 4, 2 of 7 points, 20 "
                                      "hot samples each")
                           .arg(dataFile("sweep_add_one.cuwb")));
    // Points 1 and 5 of 0..6: block.x = 64 and 1024.
    QVERIFY2(lines[1].startsWith(QStringLiteral("[1/2] block.x=64: median 1.200 µs")),
             qPrintable(lines[1]));
    QVERIFY2(lines[2].startsWith(QStringLiteral("[2/2] block.x=1024: median 1.200 µs")),
             qPrintable(lines[2]));
    const SweepResult shard = load(path);
    QVERIFY(shard.shard.has_value());
    QCOMPARE(shard.shard->index, 2);
    QCOMPARE(shard.shard->count, 4);
    QCOMPARE(shard.shard->totalPoints, std::size_t(7));
    QCOMPARE(shard.points.size(), std::size_t(2));
    QCOMPARE(shard.points[0].point.index, std::size_t(1));
    QCOMPARE(shard.points[1].point.index, std::size_t(5));
}

void TestCuwbMerge::fourShardsMergeToTheWholeSweep()
{
    const QString merged = m_dir.filePath(QStringLiteral("merged.json"));
    // Given out of order: the merge sorts by expansion index.
    const CuwbRun run = runCuwbProcess({QStringLiteral("merge"), m_shards[3], m_shards[1],
                                        m_shards[0], m_shards[2], QStringLiteral("-o"), merged});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.startsWith(QStringLiteral("measured 6 of 7 points in ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("(1 skipped)")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("best: block.x=256: median 1.000 µs")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("note: merged from 4 shards")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("wrote JSON to ") + merged), qPrintable(run.out));

    const SweepResult whole = load(m_whole);
    const SweepResult result = load(merged);
    QVERIFY(!result.shard);
    QCOMPARE(result.points.size(), whole.points.size());
    for (std::size_t i = 0; i < whole.points.size(); ++i) {
        const SweepPointResult &a = result.points[i];
        const SweepPointResult &b = whole.points[i];
        QCOMPARE(a.point.index, i);
        QCOMPARE(a.point.label(), b.point.label());
        QCOMPARE(a.status, b.status);
        QCOMPARE(a.message, b.message);
        QCOMPARE(a.measurement.has_value(), b.measurement.has_value());
        if (a.measurement) {
            QCOMPARE(a.measurement->samplesNs, b.measurement->samplesNs);
            QCOMPARE(a.measurement->statistics.medianNs, b.measurement->statistics.medianNs);
            QCOMPARE(a.measurement->throughput.effectiveGBps,
                     b.measurement->throughput.effectiveGBps);
        }
        QCOMPARE(a.theoreticalOccupancy, b.theoreticalOccupancy);
        QCOMPARE(a.point.block, b.point.block);
        QCOMPARE(a.point.grid, b.point.grid);
    }
    QCOMPARE(result.bestPoint(), whole.bestPoint());
    QCOMPARE(result.pointsTiedWithBest(), whole.pointsTiedWithBest());
    QCOMPARE(result.projectName, whole.projectName);
    QCOMPARE(result.sourceHash, whole.sourceHash);
    QCOMPARE(result.deviceName, whole.deviceName);
    QCOMPARE(result.device.has_value(), whole.device.has_value());
    QCOMPARE(result.copyCeilingGBps, whole.copyCeilingGBps);
}

void TestCuwbMerge::mergePrintsJson()
{
    const CuwbRun run = runCuwbProcess({QStringLiteral("merge"), m_shards[0], m_shards[1],
                                        m_shards[2], m_shards[3], QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const SweepResultLoad loaded = parseSweepResult(run.out.toStdString());
    QVERIFY2(loaded.result.has_value(), loaded.error.c_str());
    QCOMPARE(loaded.result->points.size(), std::size_t(7));
    QCOMPARE(loaded.result->bestPoint(), std::optional<std::size_t>(3));
}

void TestCuwbMerge::rejectsBadShardUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString project = dataFile("sweep_add_one.cuwb");
    const QString sweep = QStringLiteral("sweep");
    const QString shard = QStringLiteral("--shard");
    QTest::newRow("K above N") << QStringList{sweep, project, shard, QStringLiteral("5/4")}
                               << QStringLiteral("--shard needs K/N with 1 <= K <= N (shard K "
                                                 "of N), got '5/4'");
    QTest::newRow("not K/N") << QStringList{sweep, project, shard, QStringLiteral("two")}
                             << QStringLiteral("got 'two'");
    QTest::newRow("with --list") << QStringList{sweep, project, shard, QStringLiteral("1/2"),
                                                QStringLiteral("--list")}
                                 << QStringLiteral("--shard and --list exclude each other");
    QTest::newRow("with --slurm") << QStringList{sweep, project, shard, QStringLiteral("1/2"),
                                                 QStringLiteral("--slurm")}
                                  << QStringLiteral("--shard and --slurm exclude each other");
    QTest::newRow("--gpus alone") << QStringList{sweep, project, QStringLiteral("--gpus"),
                                                 QStringLiteral("4")}
                                  << QStringLiteral("--gpus goes with --slurm");
    QTest::newRow("--gpus 0") << QStringList{sweep, project, QStringLiteral("--slurm"),
                                             QStringLiteral("--gpus"), QStringLiteral("0")}
                              << QStringLiteral("--gpus needs a number of tasks from 1 to 1000, "
                                                "got '0'");
    QTest::newRow("merge nothing")
        << QStringList{QStringLiteral("merge")} << QStringLiteral("no shard result given");
}

void TestCuwbMerge::rejectsBadShardUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CuwbRun run = runCuwbProcess(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void TestCuwbMerge::mergeRefuses_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << QStringLiteral("missing") << 1
                             << QStringLiteral("shard 3 of 4 is missing");
    QTest::newRow("duplicate") << QStringLiteral("duplicate") << 1
                               << QStringLiteral("shard 1 of 4 is given twice");
    QTest::newRow("different sweeps")
        << QStringLiteral("other") << 1
        << QStringLiteral("are shards of different sweeps: their projects differ "
                          "('sweep_add_one' and 'a C++ kernel");
    QTest::newRow("whole sweep") << QStringLiteral("whole") << 1
                                 << QStringLiteral("is a whole sweep, not a shard");
    QTest::newRow("newer format")
        << QStringLiteral("version") << 2
        << QStringLiteral("the sweep result has format version 2, but this CUDA Workbench reads "
                          "version 1");
}

void TestCuwbMerge::mergeRefuses()
{
    QFETCH(QString, change);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QStringList files = m_shards;
    if (change == QStringLiteral("missing")) {
        files.removeAt(2);
    } else if (change == QStringLiteral("duplicate")) {
        files << m_shards[0];
    } else if (change == QStringLiteral("other")) {
        files[1] = m_otherShard;
    } else if (change == QStringLiteral("whole")) {
        files[1] = m_whole;
    } else if (change == QStringLiteral("version")) {
        QFile in(m_shards[1]);
        QVERIFY(in.open(QIODevice::ReadOnly));
        nlohmann::json document = nlohmann::json::parse(in.readAll().toStdString());
        document["formatVersion"] = 2;
        files[1] = m_dir.filePath(QStringLiteral("newer.json"));
        QFile out(files[1]);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(document.dump()));
    }
    const QString merged = m_dir.filePath(QStringLiteral("refused.json"));
    const CuwbRun run = runCuwbProcess(QStringList{QStringLiteral("merge")} + files +
                                       QStringList{QStringLiteral("-o"), merged});
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QVERIFY(!QFile::exists(merged));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbMerge)
} // namespace tst_cuwbmerge
} // namespace

#include "tst_cuwbmerge.moc"
