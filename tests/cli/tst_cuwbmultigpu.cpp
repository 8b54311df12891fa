// End-to-end tests of `cuwb sweep --devices` and `cuwb run --devices` without a GPU: the usage
// errors, and with --worker pointing at the stand-in worker playing several GPUs
// ($CUWB_FAKE_DEVICES, support/fakesweepworker.cpp): the points spread over the GPUs at once
// and marked with them in the text, CSV and JSON; GPUs of different models with a best per
// GPU; --per-device with one result file per GPU; a GPU whose worker cannot start; a folder of
// submissions graded a project per GPU, reported in order. Parallelism is read from the
// workers' begin/end lines, never from a clock.
#include "device/deviceinfo.h"
#include "sweep/sweepjson.h"

#include "cuwbprocess.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbmultigpu {

namespace {

QString fakeWorker()
{
    return QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH);
}

QString project()
{
    return dataFile("sweep_add_one.cuwb"); // block.x = 32 ... 2048: six to measure, one skipped
}

// Workers measuring at once, at most, from the stand-in workers' begin/end lines.
int maxConcurrent(const QString &path, bool perGpu)
{
    std::ifstream in(path.toStdString());
    std::map<int, int> active;
    int most = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string event;
        int gpu = 0;
        words >> event >> gpu;
        const int key = perGpu ? gpu : 0;
        if (event == "begin") {
            most = std::max(most, ++active[key]);
        } else if (event == "end") {
            --active[key];
        }
    }
    return most;
}

} // namespace

class TestCuwbMultiGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void rejectsBadUsage_data();
    void rejectsBadUsage();
    void namesTheGpusThisMachineHas();
    void spreadsPointsOverTheGpusAndMarksThem();
    void differentModelsGiveEachGpusBest();
    void perDeviceWritesAResultPerGpu();
    void aGpuThatCannotStartLeavesItsPointsToTheOthers();
    void helpNamesDevices();
    void gradesAProjectPerGpuAndReportsInOrder();
    void gradingRefusesBadDevices();

private:
    QTemporaryDir m_dir;
    QString m_timeline;
};

void TestCuwbMultiGpu::init()
{
    QVERIFY(m_dir.isValid());
    static int run = 0;
    m_timeline = m_dir.filePath(QStringLiteral("timeline-%1").arg(++run));
    qputenv("CUWB_FAKE_TIMELINE", m_timeline.toLocal8Bit());
    qputenv("CUWB_FAKE_DEVICES", "Fake H200,Fake H200");
    qputenv("CUWB_FAKE_MEASURE_DELAY_MS", "150");
    qunsetenv("CUWB_FAKE_DEVICE_MODES");
}

void TestCuwbMultiGpu::rejectsBadUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString p = project();
    const QString worker = QStringLiteral("--worker");
    const QString devices = QStringLiteral("--devices");
    QTest::newRow("not a number") << QStringList{QStringLiteral("sweep"), p,      devices,
                                                 QStringLiteral("0,x"),   worker, fakeWorker()}
                                  << QStringLiteral("--devices needs 'all' or GPU numbers");
    QTest::newRow("empty")
        << QStringList{QStringLiteral("sweep"), p, devices, QString(), worker, fakeWorker()}
        << QStringLiteral("--devices needs 'all' or GPU numbers");
    QTest::newRow("twice") << QStringList{QStringLiteral("sweep"), p,      devices,
                                          QStringLiteral("1,0,1"), worker, fakeWorker()}
                           << QStringLiteral("--devices names GPU 1 twice");
    QTest::newRow("with --device") << QStringList{QStringLiteral("sweep"),
                                                  p,
                                                  devices,
                                                  QStringLiteral("0,1"),
                                                  QStringLiteral("--device"),
                                                  QStringLiteral("1")}
                                   << QStringLiteral("--device and --devices both choose the GPU");
    QTest::newRow("all elsewhere") << QStringList{QStringLiteral("sweep"), p,      devices,
                                                  QStringLiteral("all"),   worker, fakeWorker()}
                                   << QStringLiteral("name them: --devices 0,1");
    QTest::newRow("per-device alone")
        << QStringList{QStringLiteral("sweep"), p, QStringLiteral("--per-device")}
        << QStringLiteral("--per-device goes with --devices");
    QTest::newRow("with --shard") << QStringList{QStringLiteral("sweep"),
                                                 p,
                                                 devices,
                                                 QStringLiteral("0,1"),
                                                 QStringLiteral("--shard"),
                                                 QStringLiteral("1/2")}
                                  << QStringLiteral("--devices and --shard exclude each other");
    QTest::newRow("with --list") << QStringList{QStringLiteral("sweep"), p, devices,
                                                QStringLiteral("0,1"), QStringLiteral("--list")}
                                 << QStringLiteral("--devices and --list exclude each other");
}

void TestCuwbMultiGpu::rejectsBadUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CuwbRun run = runCuwbProcess(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QVERIFY(!QFile::exists(m_timeline)); // nothing was measured
}

void TestCuwbMultiGpu::namesTheGpusThisMachineHas()
{
    // The built-in worker's GPUs are checked before any worker starts.
    const DeviceQuery query = queryDevices();
    const int missing = int(query.devices.size()) + 3;
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("sweep"), project(), QStringLiteral("--devices"),
                        QStringLiteral("0,%1").arg(missing)});
    QCOMPARE(run.exitCode, 2);
    if (query.devices.empty()) {
        QVERIFY2(run.err.contains(QStringLiteral("--devices: this machine has no GPU (")),
                 qPrintable(run.err));
    } else {
        QVERIFY2(run.err.contains(
                     QStringLiteral("there is no GPU %1; this machine has GPU 0 (").arg(missing)),
                 qPrintable(run.err));
    }
}

void TestCuwbMultiGpu::spreadsPointsOverTheGpusAndMarksThem()
{
    const QString json = m_dir.filePath(QStringLiteral("spread.json"));
    const QString csv = m_dir.filePath(QStringLiteral("spread.csv"));
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("sweep"), project(), QStringLiteral("--devices"),
                        QStringLiteral("0,1"), QStringLiteral("--worker"), fakeWorker(),
                        QStringLiteral("--json"), json, QStringLiteral("--csv"), csv});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains(QStringLiteral("on 2 GPUs")), qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral(" on GPU 0: median")));
    QVERIFY(run.out.contains(QStringLiteral(" on GPU 1: median")));
    QVERIFY(run.out.contains(QStringLiteral("measured 6 of 7 points")));
    QVERIFY(run.out.contains(QStringLiteral("best: block.x=256 (on GPU ")));
    QCOMPARE(maxConcurrent(m_timeline, false), 2);
    QCOMPARE(maxConcurrent(m_timeline, true), 1);

    const SweepResultLoad load = loadSweepResult(json.toStdString());
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QCOMPARE(load.result->devices.size(), std::size_t(2));
    std::size_t marked = 0;
    for (const SweepPointResult &r : load.result->points) {
        if (r.status == PointStatus::Measured) {
            QVERIFY(r.deviceIndex == 0 || r.deviceIndex == 1);
            QCOMPARE(r.deviceName, std::string("Fake H200"));
            ++marked;
        }
    }
    QCOMPARE(marked, std::size_t(6));

    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString header = QString::fromUtf8(file.readLine());
    QVERIFY2(header.trimmed().endsWith(QStringLiteral(",best,device,device_name")),
             qPrintable(header));
}

void TestCuwbMultiGpu::differentModelsGiveEachGpusBest()
{
    qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
    const QString json = m_dir.filePath(QStringLiteral("mixed.json"));
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("sweep"), project(), QStringLiteral("--devices"), QStringLiteral("0,1"),
         QStringLiteral("--worker"), fakeWorker(), QStringLiteral("--json"), json});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains(QStringLiteral("no single best: the GPUs are of different models")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("best on GPU 0 (Fake H200): ")));
    QVERIFY(run.out.contains(QStringLiteral("best on GPU 1 (Fake A100): ")));
    QVERIFY(!run.out.contains(QStringLiteral("\nbest: ")));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json document = nlohmann::json::parse(file.readAll().toStdString());
    QVERIFY(document["best"].is_null());
    QCOMPARE(document["bestPerDevice"].size(), std::size_t(2));
    QCOMPARE(document["mixedModels"].get<bool>(), true);
}

void TestCuwbMultiGpu::perDeviceWritesAResultPerGpu()
{
    qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
    qputenv("CUWB_FAKE_MEASURE_DELAY_MS", "50");
    const QString json = m_dir.filePath(QStringLiteral("each.json"));
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("sweep"), project(), QStringLiteral("--devices"),
                        QStringLiteral("0,1"), QStringLiteral("--per-device"),
                        QStringLiteral("--worker"), fakeWorker(), QStringLiteral("--json"), json});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY(run.out.contains(QStringLiteral("per GPU:")));
    for (int device = 0; device < 2; ++device) {
        const QString file = m_dir.filePath(QStringLiteral("each-gpu%1.json").arg(device));
        const SweepResultLoad load = loadSweepResult(file.toStdString());
        QVERIFY2(load.result.has_value(), load.error.c_str());
        QCOMPARE(load.result->count(PointStatus::Measured), std::size_t(6));
        for (const SweepPointResult &r : load.result->points) {
            if (r.status == PointStatus::Measured) {
                QCOMPARE(r.deviceIndex, std::optional<int>(device));
            }
        }
        QVERIFY(load.result->bestPoint().has_value());
    }
    QVERIFY(!QFile::exists(json));
    QCOMPARE(maxConcurrent(m_timeline, false), 2);
    QCOMPARE(maxConcurrent(m_timeline, true), 1);
}

void TestCuwbMultiGpu::aGpuThatCannotStartLeavesItsPointsToTheOthers()
{
    qputenv("CUWB_FAKE_DEVICE_MODES", "1=no-start");
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("sweep"), project(), QStringLiteral("--devices"),
                        QStringLiteral("0,1,2"), QStringLiteral("--worker"), fakeWorker()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY(run.out.contains(QStringLiteral("measured 6 of 7 points")));
    QVERIFY(!run.out.contains(QStringLiteral(" on GPU 1:")));
    QVERIFY2(run.out.contains(QStringLiteral("note: GPU 1 took no further part")),
             qPrintable(run.out));
    // GPU 2 is not on the stand-in's machine of two: its worker's hello says so.
    QVERIFY2(run.out.contains(QStringLiteral("note: GPU 2 took no further part: no GPU")),
             qPrintable(run.out));
}

void TestCuwbMultiGpu::helpNamesDevices()
{
    const CuwbRun run = runCuwbProcess({QStringLiteral("sweep"), QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("--devices LIST")));
    QVERIFY(run.out.contains(QStringLiteral("--per-device")));
}

void TestCuwbMultiGpu::gradesAProjectPerGpuAndReportsInOrder()
{
    QTemporaryDir submissions;
    QVERIFY(submissions.isValid());
    QStringList projects;
    for (const char *student : {"ada", "bob", "cyd", "dee"}) {
        QVERIFY(QDir(submissions.path()).mkdir(QLatin1String(student)));
        const QString file =
            submissions.filePath(QLatin1String(student) + QStringLiteral("/add_one.cuwb"));
        QVERIFY(QFile::copy(project(), file));
        projects << file;
    }
    const QString cwdLog = m_dir.filePath(QStringLiteral("cwd.log"));
    qputenv("CUWB_FAKE_CWD_LOG", cwdLog.toLocal8Bit());
    const QString scratch = m_dir.filePath(QStringLiteral("scratch"));
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("run"), submissions.path(), QStringLiteral("--devices"),
                        QStringLiteral("0,1"), QStringLiteral("--worker"), fakeWorker(),
                        QStringLiteral("--summary"), QStringLiteral("--scratch"), scratch});
    qunsetenv("CUWB_FAKE_CWD_LOG");
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains(QStringLiteral("summary: 4 projects, 4 passed, 0 failed")),
             qPrintable(run.out));
    // In the order of the folder, whichever GPU finished first.
    qsizetype at = -1;
    for (const QString &file : projects) {
        const qsizetype found = run.out.indexOf(file + QStringLiteral(": PASSED"));
        QVERIFY2(found > at, qPrintable(run.out));
        at = found;
    }
    QVERIFY(run.out.contains(QStringLiteral("on Fake H200 (sm_90) (GPU 0)")));
    QVERIFY(run.out.contains(QStringLiteral("on Fake H200 (sm_90) (GPU 1)")));
    QCOMPARE(maxConcurrent(m_timeline, false), 2);
    QCOMPARE(maxConcurrent(m_timeline, true), 1);
    // Each graded project's worker ran in its own scratch folder, not in cuwb's.
    QFile cwds(cwdLog);
    QVERIFY(cwds.open(QIODevice::ReadOnly));
    QStringList folders =
        QString::fromUtf8(cwds.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    folders.sort();
    const QString root = QDir(scratch).canonicalPath();
    QCOMPARE(
        folders,
        (QStringList{root + QStringLiteral("/1-add_one"), root + QStringLiteral("/2-add_one"),
                     root + QStringLiteral("/3-add_one"), root + QStringLiteral("/4-add_one")}));

    const CuwbRun json =
        runCuwbProcess({QStringLiteral("run"), submissions.path(), QStringLiteral("--devices"),
                        QStringLiteral("1,0"), QStringLiteral("--worker"), fakeWorker(),
                        QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 0);
    const nlohmann::json document = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(document.size(), std::size_t(4));
    for (std::size_t k = 0; k < document.size(); ++k) {
        QCOMPARE(QString::fromStdString(document[k].at("project").get<std::string>()),
                 projects[qsizetype(k)]);
        const int device = document[k].at("device").get<int>();
        QVERIFY(device == 0 || device == 1);
    }
}

void TestCuwbMultiGpu::gradingRefusesBadDevices()
{
    const CuwbRun twice =
        runCuwbProcess({QStringLiteral("run"), project(), QStringLiteral("--devices"),
                        QStringLiteral("0,0"), QStringLiteral("--worker"), fakeWorker()});
    QCOMPARE(twice.exitCode, 2);
    QVERIFY2(twice.err.contains(QStringLiteral("--devices names GPU 0 twice")),
             qPrintable(twice.err));
    const CuwbRun both =
        runCuwbProcess({QStringLiteral("run"), project(), QStringLiteral("--devices"),
                        QStringLiteral("0,1"), QStringLiteral("--device"), QStringLiteral("1")});
    QCOMPARE(both.exitCode, 2);
    QVERIFY(both.err.contains(QStringLiteral("--device and --devices both choose the GPU")));
    QVERIFY(!QFile::exists(m_timeline));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbMultiGpu)
} // namespace tst_cuwbmultigpu
} // namespace

#include "tst_cuwbmultigpu.moc"
