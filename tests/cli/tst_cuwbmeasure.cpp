// End-to-end tests of `cuwb measure` without a GPU: a project that cannot be measured exits 1
// with the reason, --json still prints a Measurement that parses, and usage errors exit 2.
// Measurements on a GPU are tested in tests/gpu and recorded in docs/results/.
#include "device/deviceinfo.h"
#include "measure/measurejson.h"

#include "cuwbprocess.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbmeasure {

namespace {

CuwbRun runCuwb(const QStringList &arguments)
{
    return runCuwbProcess(arguments, QString(), QByteArray());
}

QString copyProject()
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/copy/copy.cuwb");
}

QString readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString noGpuReason()
{
    const DeviceQuery query = queryDevices();
    return query.devices.empty() ? QString::fromStdString(query.message) : QString();
}

} // namespace

class TestCuwbMeasure : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutGpuExitsOneWithReason();
    void jsonWithoutGpuParses();
    void rejectsBadUsage_data();
    void rejectsBadUsage();
    void unreadableProjectExitsTwo();
    void helpListsMeasure();
    void verifiesBeforeMeasuring();
    void wrongOutputIsMeasuredAndFails();
    void noVerifyMeasuresOnly();
};

void TestCuwbMeasure::withoutGpuExitsOneWithReason()
{
    const QString reason = noGpuReason();
    if (reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu measures the samples");
    }
    const CuwbRun run = runCuwb({QStringLiteral("measure"), copyProject()});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral("no-device")), qPrintable(run.out));
    QVERIFY2(run.out.contains(reason), qPrintable(run.out + run.err));
}

void TestCuwbMeasure::jsonWithoutGpuParses()
{
    if (noGpuReason().isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu measures the samples");
    }
    const CuwbRun run =
        runCuwb({QStringLiteral("measure"), copyProject(), QStringLiteral("--json"),
                 QStringLiteral("--hot"), QStringLiteral("--samples"), QStringLiteral("7")});
    QCOMPARE(run.exitCode, 1);
    const Measurement m = nlohmann::json::parse(run.out.toStdString()).get<Measurement>();
    QCOMPARE(m.faultStatus, std::string("no-device"));
    QVERIFY(!m.faultMessage.empty());
    QCOMPARE(m.settings.mode, SampleMode::Hot);
    QCOMPARE(m.settings.fixedSamples, 7);
    QVERIFY(m.samplesNs.empty());
    QVERIFY2(!run.err.isEmpty(), "the reason also goes to stderr with --json");
}

void TestCuwbMeasure::rejectsBadUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    const QString project = copyProject();
    QTest::newRow("no project") << QStringList{};
    QTest::newRow("two projects") << QStringList{project, project};
    QTest::newRow("cold and hot") << QStringList{project, QStringLiteral("--cold"),
                                                 QStringLiteral("--hot")};
    QTest::newRow("samples zero") << QStringList{project, QStringLiteral("--samples"),
                                                 QStringLiteral("0")};
    QTest::newRow("min-samples one")
        << QStringList{project, QStringLiteral("--min-samples"), QStringLiteral("1")};
    QTest::newRow("min-time text")
        << QStringList{project, QStringLiteral("--min-time"), QStringLiteral("soon")};
    QTest::newRow("noise negative")
        << QStringList{project, QStringLiteral("--noise"), QStringLiteral("-0.1")};
    QTest::newRow("cap missing value") << QStringList{project, QStringLiteral("--cap")};
    QTest::newRow("unknown option") << QStringList{project, QStringLiteral("--fast")};
    QTest::newRow("metric missing value") << QStringList{project, QStringLiteral("--metric")};
    QTest::newRow("metric empty") << QStringList{project, QStringLiteral("--metric"), QString()};
}

void TestCuwbMeasure::rejectsBadUsage()
{
    QFETCH(QStringList, arguments);
    const CuwbRun run = runCuwb(QStringList{QStringLiteral("measure")} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("cuwb measure")), qPrintable(run.err));
}

void TestCuwbMeasure::unreadableProjectExitsTwo()
{
    const CuwbRun run =
        runCuwb({QStringLiteral("measure"), QStringLiteral("/nonexistent/project.cuwb")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("/nonexistent/project.cuwb")), qPrintable(run.err));
}

void TestCuwbMeasure::helpListsMeasure()
{
    const CuwbRun help = runCuwb({QStringLiteral("help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("measure PROJECT.cuwb")));
    const CuwbRun own = runCuwb({QStringLiteral("help"), QStringLiteral("measure")});
    QCOMPARE(own.exitCode, 0);
    QVERIFY(own.out.contains(QStringLiteral("--min-samples")));
    QVERIFY(own.out.contains(QStringLiteral("--metric NAME")));
    QVERIFY(own.out.contains(QStringLiteral("Ctrl+C")));
}

void TestCuwbMeasure::verifiesBeforeMeasuring()
{
    // A worker that verifies: the run (both checks passed) comes first, then the measurement;
    // the sequence's kernels each get their median.
    const QTemporaryDir dir;
    const QString log = dir.filePath(QStringLiteral("requests.log"));
    qputenv("CUWB_FAKE_WORKER_LOG", log.toUtf8());
    const CuwbRun run =
        runCuwb({QStringLiteral("measure"), dataFile("add_checks.cuwb"), QStringLiteral("--worker"),
                 QStringLiteral(CUWB_FAKE_WORKER_PATH " checks")});
    qunsetenv("CUWB_FAKE_WORKER_LOG");
    QCOMPARE(run.exitCode, 0);
    const QStringList requests = readAll(log).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(requests.indexOf(QStringLiteral("run")) >= 0 &&
                 requests.indexOf(QStringLiteral("run")) <
                     requests.indexOf(QStringLiteral("measure")),
             qPrintable(requests.join(QLatin1Char(' '))));
    QVERIFY2(run.out.contains(QStringLiteral("  kernel add_one: median 99.66")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("  kernel twice: median 99.66")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("  verification: PASSED (verification passed (2 "
                                             "checks);")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("    `d`: passed, largest error abs 1e-07 at d[2], "
                                             "rel 2e-07 at d[3]")),
             qPrintable(run.out));

    const CuwbRun json =
        runCuwb({QStringLiteral("measure"), dataFile("add_checks.cuwb"), QStringLiteral("--json"),
                 QStringLiteral("--worker"), QStringLiteral(CUWB_FAKE_WORKER_PATH " checks")});
    QCOMPARE(json.exitCode, 0);
    const nlohmann::json document = nlohmann::json::parse(json.out.toStdString());
    const Measurement m = document.get<Measurement>();
    QCOMPARE(m.kernels.size(), std::size_t(2));
    QCOMPARE(m.kernels[1].kernel, std::string("twice"));
    QCOMPARE(m.kernels[0].samplesNs.size(), m.samplesNs.size());
    QCOMPARE(document.at("run").at("checks").size(), std::size_t(2));
    QCOMPARE(document.at("run").at("outcome").at("verification").get<std::string>(),
             std::string("passed"));
}

void TestCuwbMeasure::wrongOutputIsMeasuredAndFails()
{
    const CuwbRun run =
        runCuwb({QStringLiteral("measure"), dataFile("add_checks_wrong.cuwb"),
                 QStringLiteral("--worker"), QStringLiteral(CUWB_FAKE_WORKER_PATH " checks")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral("  median ")), qPrintable(run.out)); // still measured
    QVERIFY2(run.out.contains(QStringLiteral("  verification: FAILED: verification failed: 2 of "
                                             "4 elements of `d` differ")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("    `d`: FAILED, largest error abs 0.5 at d[2]")),
             qPrintable(run.out));
    QVERIFY2(run.err.contains(QStringLiteral("measured, but FAILED")), qPrintable(run.err));
}

void TestCuwbMeasure::noVerifyMeasuresOnly()
{
    const QTemporaryDir dir;
    const QString log = dir.filePath(QStringLiteral("requests.log"));
    qputenv("CUWB_FAKE_WORKER_LOG", log.toUtf8());
    const CuwbRun run = runCuwb({QStringLiteral("measure"), dataFile("add_checks_wrong.cuwb"),
                                 QStringLiteral("--no-verify"), QStringLiteral("--worker"),
                                 QStringLiteral(CUWB_FAKE_WORKER_PATH " checks")});
    qunsetenv("CUWB_FAKE_WORKER_LOG");
    QCOMPARE(run.exitCode, 0);
    const QString requests = readAll(log);
    QVERIFY2(!requests.contains(QStringLiteral("run")), qPrintable(requests));
    QVERIFY(requests.contains(QStringLiteral("measure")));
    QVERIFY(!run.out.contains(QStringLiteral("verification")));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbMeasure)
} // namespace tst_cuwbmeasure
} // namespace

#include "tst_cuwbmeasure.moc"
