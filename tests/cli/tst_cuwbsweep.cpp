// End-to-end tests of `cuwb sweep` without a GPU: usage errors, a project without a sweep or
// with an empty or broken one, the refusal of 10,000 points without --yes, every point
// skipped, no GPU; and, with --worker pointing at a stand-in worker with a GPU
// (core/fakesweepworker.cpp), the streamed lines, the exports and a worker crash mid-sweep.
#include "device/deviceinfo.h"
#include "measure/roofline.h"
#include "sweep/sweepjson.h"

#include "cuwbprocess.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <sys/types.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbsweep {

namespace {

CuwbRun runCuwb(const QStringList &arguments)
{
    return runCuwbProcess(arguments, QString(), QByteArray());
}

QString fakeWorker(const QString &arguments = QString())
{
    return QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH) +
           (arguments.isEmpty() ? QString() : QLatin1Char(' ') + arguments);
}

QString noGpuReason()
{
    const DeviceQuery query = queryDevices();
    return query.devices.empty() ? QString::fromStdString(query.message) : QString();
}

QString readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestCuwbSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listCompilesEveryVariant();
    void listWritesJsonForAnotherArchitecture();
    void listGroupsSkipsAndFillsEverySkipReason();
    void rejectsBadUsage_data();
    void rejectsBadUsage();
    void projectWithoutSweepExitsTwo();
    void emptySweepExitsTwo();
    void brokenSectionNamesLineAndColumn();
    void refusesTheOptionsCheckRefuses();
    void unknownVariableExitsTwo();
    void refusesTenThousandPointsWithoutYes();
    void listsTheLargestPermittedSweep();
    void refusesASweepOverTheLimit_data();
    void refusesASweepOverTheLimit();
    void everyPointSkippedExitsOne();
    void listsPointsAndEstimate();
    void presetSweepsAProjectWithoutOne();
    void withoutGpuExitsOneWithReason();
    void streamsPointsAndWritesExports();
    void workerCrashFailsOnePoint();
    void ctrlCKeepsWhatWasMeasured();
    void helpListsSweep();
    void rooflineAsksEveryPointForItsMetrics();
    void listSaysWhatTheMetricsPassCollects();
    void verifiedPointsShowTheirLargestErrors();
    void noVerifyOverridesTheProject();
};

void TestCuwbSweep::verifiedPointsShowTheirLargestErrors()
{
    const QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    const QString json = dir.filePath(QStringLiteral("out.json"));
    const CuwbRun run =
        runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                 QStringLiteral("--verify"), QStringLiteral("--csv"), csv, QStringLiteral("--json"),
                 json, QStringLiteral("--worker"), fakeWorker()});
    QCOMPARE(run.exitCode, 0);
    // block.x=256: the fake worker's errors are block.x * 1e-9 and twice that.
    QVERIFY2(run.out.contains(QStringLiteral("[4/7] block.x=256: median 1.000 µs")) &&
                 run.out.contains(QStringLiteral("; verified, largest error abs 2.56e-07 at "
                                                 "c[8], rel 5.12e-07 at c[9]")),
             qPrintable(run.out));
    const QStringList rows = readAll(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(rows[0].contains(QStringLiteral(
                 ",max_abs_error,max_abs_error_at,max_rel_error,max_rel_error_at,best")),
             qPrintable(rows[0]));
    QVERIFY2(rows[4].contains(QStringLiteral(",2.56e-07,c[8],5.12e-07,c[9],")),
             qPrintable(rows[4]));
    const SweepResultLoad load = loadSweepResult(json.toStdString());
    QVERIFY2(load.result.has_value(), load.error.c_str());
    const SweepPointResult &point = load.result->points[3];
    QCOMPARE(point.checks.size(), std::size_t(1));
    QCOMPARE(*point.checks[0].maxAbsError, 2.56e-7);
    QCOMPARE(point.checks[0].maxRelErrorIndex, std::uint64_t(9));
}

void TestCuwbSweep::noVerifyOverridesTheProject()
{
    const QTemporaryDir dir;
    // A project whose sweep asks to verify every point.
    QFile original(dataFile("sweep_add_one.cuwb"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    nlohmann::json project = nlohmann::json::parse(original.readAll().toStdString());
    project["sweep"]["verify"] = true;
    const QString path = dir.filePath(QStringLiteral("verify.cuwb"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(project.dump()));
    out.close();
    const QString log = dir.filePath(QStringLiteral("requests.log"));
    qputenv("CUWB_FAKE_WORKER_LOG", log.toUtf8());
    const CuwbRun verified =
        runCuwb({QStringLiteral("sweep"), path, QStringLiteral("--worker"), fakeWorker()});
    QCOMPARE(verified.exitCode, 0);
    QVERIFY2(readAll(log).contains(QStringLiteral("run")), qPrintable(readAll(log)));
    QFile::remove(log);
    const CuwbRun unverified =
        runCuwb({QStringLiteral("sweep"), path, QStringLiteral("--no-verify"),
                 QStringLiteral("--worker"), fakeWorker()});
    qunsetenv("CUWB_FAKE_WORKER_LOG");
    QCOMPARE(unverified.exitCode, 0);
    QVERIFY2(!readAll(log).contains(QStringLiteral("run")), qPrintable(readAll(log)));
    QVERIFY(readAll(log).contains(QStringLiteral("measure")));
    QVERIFY(!unverified.out.contains(QStringLiteral("verified")));
    const CuwbRun both = runCuwb(
        {QStringLiteral("sweep"), path, QStringLiteral("--verify"), QStringLiteral("--no-verify")});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains(QStringLiteral("--verify and --no-verify exclude each other")),
             qPrintable(both.err));
}

void TestCuwbSweep::rejectsBadUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString project = dataFile("sweep_add_one.cuwb");
    QTest::newRow("no project") << QStringList{QStringLiteral("sweep")}
                                << QStringLiteral("no project given");
    QTest::newRow("two projects") << QStringList{QStringLiteral("sweep"), project, project}
                                  << QStringLiteral("one project, got 2");
    QTest::newRow("cold and hot") << QStringList{QStringLiteral("sweep"), project,
                                                 QStringLiteral("--cold"), QStringLiteral("--hot")}
                                  << QStringLiteral("exclude each other");
    QTest::newRow("unknown preset")
        << QStringList{QStringLiteral("sweep"), project, QStringLiteral("--preset"),
                       QStringLiteral("nope")}
        << QStringLiteral("no preset 'nope'; the presets are block-32-step-32, block-pow2");
    QTest::newRow("zero samples") << QStringList{QStringLiteral("sweep"), project,
                                                 QStringLiteral("--samples"), QStringLiteral("0")}
                                  << QStringLiteral("--samples needs a whole number");
    QTest::newRow("device and worker")
        << QStringList{QStringLiteral("sweep"),    project,
                       QStringLiteral("--device"), QStringLiteral("1"),
                       QStringLiteral("--worker"), fakeWorker()}
        << QStringLiteral("give it in --worker");
    QTest::newRow("unknown option")
        << QStringList{QStringLiteral("sweep"), project, QStringLiteral("--bogus")}
        << QStringLiteral("--bogus");
    QTest::newRow("unwritable csv")
        << QStringList{QStringLiteral("sweep"), project, QStringLiteral("--csv"),
                       QStringLiteral("/no/such/folder/out.csv")}
        << QStringLiteral("--csv: cannot write '/no/such/folder/out.csv'");
}

void TestCuwbSweep::rejectsBadUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CuwbRun run = runCuwb(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

void TestCuwbSweep::projectWithoutSweepExitsTwo()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("add_one.cuwb")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("the project has no sweep")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("--preset")), qPrintable(run.err));
}

void TestCuwbSweep::emptySweepExitsTwo()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_empty.cuwb")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("the sweep is empty: it has no axes")),
             qPrintable(run.err));
}

void TestCuwbSweep::brokenSectionNamesLineAndColumn()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_bad_kind.cuwb")});
    QCOMPARE(run.exitCode, 2);
    // As `cuwb check` says it: FILE:LINE:COLUMN, where editors and terminals jump.
    const QString expected = dataFile("sweep_bad_kind.cuwb") +
                             QStringLiteral(":67:25: error: sweep.axes[0].kind: expected one of "
                                            "list, range, powersOfTwo, found 'ranges'\n");
    QCOMPARE(run.err, expected);
    const CuwbRun check = runCuwb({QStringLiteral("check"), dataFile("sweep_bad_kind.cuwb")});
    QCOMPARE(check.exitCode, 2);
    QCOMPARE(check.err, expected);
}

void TestCuwbSweep::refusesTheOptionsCheckRefuses()
{
    // An optimisation level of 7: check refused it while sweep --list listed every point as
    // skipped. Every command now refuses it before any work, in check's words.
    QFile original(dataFile("sweep_add_one.cuwb"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    nlohmann::json project = nlohmann::json::parse(original.readAll().toStdString());
    project["compileOptions"]["optLevel"] = 7;
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("opt7.cuwb"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(project.dump(2)));
    file.close();
    const QString expected =
        path +
        QStringLiteral(": compileOptions: optimisation level 7 is out of range; use 0 to 3\n");
    for (const QStringList &command :
         {QStringList{QStringLiteral("check")}, QStringList{QStringLiteral("sweep")},
          QStringList{QStringLiteral("sweep"), QStringLiteral("--list")},
          QStringList{QStringLiteral("measure")}, QStringList{QStringLiteral("inspect")}}) {
        const CuwbRun run = runCuwb(QStringList{command.first(), path} + command.mid(1));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, expected);
    }
}

void TestCuwbSweep::unknownVariableExitsTwo()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_bad_variable.cuwb")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("axis 1 (M): `M` is not a variable of the project "
                                             "(it has N)")),
             qPrintable(run.err));
}

void TestCuwbSweep::refusesTenThousandPointsWithoutYes()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_huge.cuwb")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("the sweep has 10000 points")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("at least")), qPrintable(run.err)); // the estimate
    QVERIFY2(run.err.contains(QStringLiteral("--yes")), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

void TestCuwbSweep::listsTheLargestPermittedSweep()
{
    // 100 × 100 = kMaxSweepPoints: every point listed, one variant compiled.
    const QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("plan.json"));
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_huge.cuwb"),
                                 QStringLiteral("--list"), QStringLiteral("--json"), json});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    // The points, the summary, the skips by reason (a few lines, though every limits message
    // names its own thread count), "wrote JSON".
    QVERIFY2(lines.size() > 10002 && lines.size() <= 10012, qPrintable(lines.last()));
    QVERIFY2(lines[0].startsWith(QStringLiteral("[    1/10000] block.x=1 block.y=1: block (1, 1, "
                                                "1), grid (65536, 1, 1), dynamic shared memory 0 "
                                                "bytes; ")),
             qPrintable(lines[0]));
    QVERIFY2(lines[0].endsWith(QStringLiteral(" registers, 0 bytes static shared memory, "
                                              "occupancy 50% (blocks per SM)")),
             qPrintable(lines[0]));
    QVERIFY2(lines[9999].startsWith(QStringLiteral("[10000/10000] block.x=100 block.y=100: block "
                                                   "(100, 100, 1)")),
             qPrintable(lines[9999]));
    QVERIFY2(lines[9999].endsWith(QStringLiteral("; skipped: block has 10000 threads; sm_90 "
                                                 "allows 1024")),
             qPrintable(lines[9999]));
    QVERIFY2(lines[10000].startsWith(QStringLiteral("10000 points, ")), qPrintable(lines[10000]));
    QVERIFY2(lines[lines.size() - 2].contains(
                 QStringLiteral("more points over the architecture's limits, for other reasons")),
             qPrintable(lines[lines.size() - 2]));
    QVERIFY(lines.last().startsWith(QStringLiteral("wrote JSON to ")));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const SweepResultLoad plan = parseSweepResult(file.readAll().toStdString());
    QVERIFY2(plan.result, plan.error.c_str());
    QCOMPARE(plan.result->points.size(), std::size_t(10000));
    QCOMPARE(plan.result->points.back().point.label(), std::string("block.x=100 block.y=100"));
}

void TestCuwbSweep::refusesASweepOverTheLimit_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("run") << QStringList{QStringLiteral("--yes")};
    QTest::newRow("list") << QStringList{QStringLiteral("--list")};
    QTest::newRow("shard") << QStringList{QStringLiteral("--shard"), QStringLiteral("1/4"),
                                          QStringLiteral("--yes")};
}

void TestCuwbSweep::refusesASweepOverTheLimit()
{
    QFETCH(QStringList, options);
    // sweep_huge with one more block.x: 101 × 100 points, refused before any is made.
    QFile original(dataFile("sweep_huge.cuwb"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    nlohmann::json project = nlohmann::json::parse(original.readAll().toStdString());
    project["sweep"]["axes"][0]["to"] = 101;
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("over.cuwb"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(project.dump(2)));
    file.close();
    const CuwbRun run = runCuwb(QStringList{QStringLiteral("sweep"), path} + options);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("the sweep has 10,100 points (101 × 100); the limit "
                                             "is 10,000 points: narrow an axis, or split the "
                                             "study into several sweeps")),
             qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

void TestCuwbSweep::everyPointSkippedExitsOne()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_all_skipped.cuwb")});
    QCOMPARE(run.exitCode, 1);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0], QStringLiteral("[1/2] block.x=2048: skipped: block.x is 2048; sm_90 "
                                      "allows 1024; block has 2048 threads; sm_90 allows 1024"));
    QVERIFY2(lines[1].startsWith(QStringLiteral("[2/2] block.x=4096: skipped: ")),
             qPrintable(lines[1]));
    QVERIFY2(run.err.contains(QStringLiteral("nothing to measure: all 2 points are skipped")),
             qPrintable(run.err));
}

void TestCuwbSweep::listsPointsAndEstimate()
{
    const CuwbRun run = runCuwb(
        {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--list")});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.size(), 9);
    // Each point with the block, grid and dynamic shared memory it resolves to.
    QVERIFY2(lines[0].startsWith(QStringLiteral("[1/7] block.x=32: block (32, 1, 1), grid (2048, "
                                                "1, 1), dynamic shared memory 0 bytes; ")),
             qPrintable(lines[0]));
    QVERIFY2(lines[6].startsWith(QStringLiteral("[7/7] block.x=2048: block (2048, 1, 1), grid (32, "
                                                "1, 1), dynamic shared memory 0 bytes; skipped: ")),
             qPrintable(lines[6]));
    QVERIFY2(lines[8].startsWith(QStringLiteral("block.x=2048: skipped: block.x is 2048")),
             qPrintable(lines[8]));
    // Every runnable point was compiled on the host (one variant here).
    QVERIFY2(lines[7].startsWith(QStringLiteral("7 points, 6 to measure on sm_90 (1 variant: 1 "
                                                "compiled on the host in ")),
             qPrintable(lines[7]));
}

void TestCuwbSweep::presetSweepsAProjectWithoutOne()
{
    const CuwbRun run =
        runCuwb({QStringLiteral("sweep"), dataFile("add_one.cuwb"), QStringLiteral("--preset"),
                 QStringLiteral("block-pow2"), QStringLiteral("--list")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("[6/6] block.x=1024: block (1024, 1, 1)")),
             qPrintable(run.out));
}

void TestCuwbSweep::withoutGpuExitsOneWithReason()
{
    const QString reason = noGpuReason();
    if (reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu sweeps on it");
    }
    const QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    const CuwbRun run = runCuwb(
        {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--csv"), csv});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("no GPU: ")), qPrintable(run.err));
    QVERIFY2(run.err.contains(reason), qPrintable(run.err));
    QVERIFY(!QFile::exists(csv)); // nothing measured, nothing written
}

void TestCuwbSweep::streamsPointsAndWritesExports()
{
    const QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    const QString json = dir.filePath(QStringLiteral("out.json"));
    const QString t4 = dir.filePath(QStringLiteral("out-t4.json"));
    const CuwbRun run =
        runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--csv"),
                 csv, QStringLiteral("--json"), json, QStringLiteral("--t4"), t4,
                 QStringLiteral("--worker"), fakeWorker()});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.size() >= 10, qPrintable(run.out));
    QCOMPARE(lines[0], QStringLiteral("sweeping %1 on Fake H200: 7 points (1 skipped), 20 hot "
                                      "samples each")
                           .arg(dataFile("sweep_add_one.cuwb")));
    QVERIFY2(QRegularExpression(QStringLiteral("^\\[1/7\\] block.x=32: median 1.300 µs ±0.\\d%, "
                                               "\\d+.\\d GB/s \\(\\d+.\\d% of peak\\), occupancy "
                                               "\\d+% \\([A-Za-z ]+\\)  \\(~.* left\\)$"))
                 .match(lines[1])
                 .hasMatch(),
             qPrintable(lines[1]));
    QVERIFY2(lines[7].startsWith(QStringLiteral("[7/7] block.x=2048: skipped: block.x is 2048")),
             qPrintable(lines[7]));
    QVERIFY2(lines[8].startsWith(QStringLiteral("measured 6 of 7 points in ")),
             qPrintable(lines[8]));
    QVERIFY2(lines[8].endsWith(QStringLiteral("(1 skipped)")), qPrintable(lines[8]));
    QVERIFY2(lines[9].startsWith(QStringLiteral("best: block.x=256: median 1.000 µs")),
             qPrintable(lines[9]));
    QVERIFY2(run.out.contains(QStringLiteral("wrote CSV to ") + csv), qPrintable(run.out));

    const QStringList rows = readAll(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 8);
    QVERIFY2(rows[0].startsWith(QStringLiteral("index,label,block.x,status,message,")),
             qPrintable(rows[0]));
    QVERIFY2(rows[5].startsWith(QStringLiteral("4,block.x=512,512,measured,")),
             qPrintable(rows[5]));

    const SweepResultLoad load = loadSweepResult(json.toStdString());
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QCOMPARE(load.result->points.size(), std::size_t(7));
    QCOMPARE(load.result->deviceName, std::string("Fake H200"));
    QCOMPARE(load.result->projectName, std::string("sweep_add_one"));
    QCOMPARE(load.result->bestPoint(), std::optional<std::size_t>(3));

    const nlohmann::json document = nlohmann::json::parse(readAll(t4).toStdString());
    QCOMPARE(document["schema_version"], nlohmann::json("1.0.0"));
    QCOMPARE(document["results"].size(), std::size_t(7));
    // Kernel Tuner's name of the block's x dimension.
    QCOMPARE(document["results"][3]["configuration"], (nlohmann::json{{"block_size_x", 256}}));
    QCOMPARE(document["results"][3]["invalidity"], nlohmann::json("correct"));
    QCOMPARE(document["results"][6]["invalidity"], nlohmann::json("constraints"));
}

void TestCuwbSweep::workerCrashFailsOnePoint()
{
    const QTemporaryDir dir;
    const QString marker = dir.filePath(QStringLiteral("crashed"));
    const CuwbRun run =
        runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                 QStringLiteral("--worker"), fakeWorker(QStringLiteral("crash-at-2 ") + marker)});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.size() > 3, qPrintable(run.out));
    QVERIFY2(lines[2].startsWith(QStringLiteral("[2/7] block.x=64: failed: ")),
             qPrintable(lines[2]));
    QVERIFY2(lines[3].startsWith(QStringLiteral("[3/7] block.x=128: median")),
             qPrintable(lines[3]));
    QVERIFY2(run.out.contains(QStringLiteral("measured 5 of 7 points")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("1 failed")), qPrintable(run.out));
}

void TestCuwbSweep::ctrlCKeepsWhatWasMeasured()
{
    // The stand-in worker holds the third point until a cancel comes, so Ctrl+C (SIGINT to
    // cuwb alone; the worker runs in a process group of its own) arrives while it is measured.
    const QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    QProcess process;
    process.start(QStringLiteral(CUWB_CLI_PATH),
                  {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--csv"),
                   csv, QStringLiteral("--worker"), fakeWorker(QStringLiteral("cancel-at-3"))});
    QVERIFY(process.waitForStarted());
    QByteArray out;
    while (!out.contains("[2/7]") && process.state() == QProcess::Running) {
        process.waitForReadyRead(1000);
        out += process.readAllStandardOutput();
    }
    QVERIFY2(out.contains("[2/7]"), out.constData());
    // Give cuwb time to send the third request: a cancel that lands between its check for a
    // cancel and the request would be taken as meant for the previous request.
    QThread::msleep(200);
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(60000));
    out += process.readAllStandardOutput();
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);
    const QString text = QString::fromUtf8(out);
    QVERIFY2(text.contains(QStringLiteral("measured 2 of 7 points")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(", cancelled")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("best: block.x=64")), qPrintable(text));
    const QStringList rows = readAll(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 8); // every point, the unmeasured ones pending
    QVERIFY2(rows[2].startsWith(QStringLiteral("1,block.x=64,64,measured,")), qPrintable(rows[2]));
    QVERIFY2(rows[3].startsWith(QStringLiteral("2,block.x=128,128,pending,")), qPrintable(rows[3]));
}

void TestCuwbSweep::helpListsSweep()
{
    const CuwbRun usage = runCuwb({QStringLiteral("help")});
    QCOMPARE(usage.exitCode, 0);
    QVERIFY(usage.out.contains(QStringLiteral("sweep PROJECT.cuwb")));
    const CuwbRun help = runCuwb({QStringLiteral("help"), QStringLiteral("sweep")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.startsWith(QStringLiteral("Usage: cuwb sweep PROJECT.cuwb")));
    QVERIFY(help.out.contains(QStringLiteral("--t4 FILE")));
}

void TestCuwbSweep::listCompilesEveryVariant()
{
    // A point whose define makes the kernel's shared tile too big is found by ptxas on the
    // host, without a GPU, and listed as skipped with ptxas' own words.
    const CuwbRun run =
        runCuwb({QStringLiteral("sweep"), dataFile("sweep_tiles.cuwb"), QStringLiteral("--list")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral(
                 "[6/9] block.x=256 TILE=64: block (256, 1, 1), grid (64, 1, 1), dynamic shared "
                 "memory 0 bytes; skipped: does not compile: ptxas: Entry function "
                 "'_Z9tiled_sumPKfPfi' uses too much shared data (0x10000 bytes, 0xc000 max)")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("9 points, 7 to measure on sm_90 (8 variants: 8 "
                                             "compiled on the host in ")),
             qPrintable(run.out));
}

void TestCuwbSweep::listWritesJsonForAnotherArchitecture()
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("plan.json"));
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_tiles.cuwb"),
                                 QStringLiteral("--list"), QStringLiteral("--arch"),
                                 QStringLiteral("sm_80"), QStringLiteral("--json"), json});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("to measure on sm_80")), qPrintable(run.out));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json plan = nlohmann::json::parse(file.readAll().toStdString());
    QCOMPARE(plan["points"].size(), std::size_t(9));
    QCOMPARE(plan["points"][0]["status"], nlohmann::json("pending"));
    QCOMPARE(plan["points"][5]["status"], nlohmann::json("skipped"));
    QCOMPARE(plan["points"][5]["compileFailed"], nlohmann::json(true));

    const CuwbRun wrong = runCuwb({QStringLiteral("sweep"), dataFile("sweep_tiles.cuwb"),
                                   QStringLiteral("--arch"), QStringLiteral("sm_80")});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(wrong.err.contains(QStringLiteral("--arch goes with --list")), qPrintable(wrong.err));
    const CuwbRun unknown =
        runCuwb({QStringLiteral("sweep"), dataFile("sweep_tiles.cuwb"), QStringLiteral("--list"),
                 QStringLiteral("--arch"), QStringLiteral("sm_12")});
    QCOMPARE(unknown.exitCode, 2);
}

void TestCuwbSweep::listGroupsSkipsAndFillsEverySkipReason()
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("plan.json"));
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_skips.cuwb"),
                                 QStringLiteral("--list"), QStringLiteral("--json"), json});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    // After the points and the summary, the skips by reason, ptxas' before the constraint's.
    const qsizetype summary =
        std::find_if(
            lines.begin(), lines.end(),
            [](const QString &line) { return line.startsWith(QStringLiteral("64 points, ")); }) -
        lines.begin();
    QVERIFY2(summary == 64, qPrintable(run.out));
    QCOMPARE(lines[summary + 1],
             QStringLiteral("4 points skipped: does not compile: ptxas: Entry function "
                            "'_Z5tiledPKfPfi' uses too much shared data (0x10000 bytes, 0xc000 "
                            "max) (the first: TILE=16384 block.x=256)"));
    QCOMPARE(lines[summary + 2],
             QStringLiteral("56 points skipped: excluded by the constraint `block.x % 256 == 0` "
                            "(the first: TILE=256 block.x=32)"));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json plan = nlohmann::json::parse(file.readAll().toStdString());
    std::size_t compile = 0;
    for (const nlohmann::json &point : plan["points"]) {
        if (point["status"] != "skipped")
            continue;
        // The skip found by the host's compile has its reason in the point, like the others.
        QVERIFY2(!point["skipReason"].get<std::string>().empty(), point.dump().c_str());
        QCOMPARE(point["skipReason"], point["message"]);
        compile += point["skipKind"] == "compile" ? 1 : 0;
        QVERIFY(point["skipKind"] == "compile" || point["skipKind"] == "constraint");
    }
    QCOMPARE(compile, std::size_t(4));
}

// The stand-in worker answers a metrics request with made-up values (1, 2, 3, ...) for exactly
// the metrics it names: the JSON shows what `cuwb sweep --roofline` asked for at each point.
void TestCuwbSweep::rooflineAsksEveryPointForItsMetrics()
{
    const QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("out.json"));
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                                 QStringLiteral("--roofline"), QStringLiteral("--json"), json,
                                 QStringLiteral("--worker"), fakeWorker()});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QVERIFY2(lines[0].endsWith(QStringLiteral(
                 "20 hot samples each, metrics pass (19 metrics: speed of light and roofline)")),
             qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QStringLiteral("; SOL compute ")), qPrintable(lines[1]));
    QVERIFY2(lines[1].contains(QStringLiteral(" FLOP/byte")), qPrintable(lines[1]));

    const SweepResultLoad load = loadSweepResult(json.toStdString());
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QVERIFY(load.result->spec.roofline);
    QVERIFY(load.result->device.has_value());
    std::size_t checked = 0;
    for (const SweepPointResult &r : load.result->points) {
        if (r.status != PointStatus::Measured) {
            continue;
        }
        QVERIFY(r.metrics.has_value());
        for (const std::string &name : rooflineMetrics()) {
            QVERIFY2(r.metrics->values.count(name) == 1, name.c_str());
        }
        ++checked;
    }
    QCOMPARE(checked, std::size_t(6));
}

void TestCuwbSweep::listSaysWhatTheMetricsPassCollects()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                                 QStringLiteral("--list"), QStringLiteral("--roofline")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(
        run.out.contains(QStringLiteral(
            "each point then gets a metrics pass (19 metrics: speed of light and roofline)\n")),
        qPrintable(run.out));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbSweep)
} // namespace tst_cuwbsweep
} // namespace

#include "tst_cuwbsweep.moc"
