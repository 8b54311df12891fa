// End-to-end tests of `cuwb measure` without a GPU: a project that cannot be measured exits 1
// with the reason, --json still prints a Measurement that parses, and usage errors exit 2.
// Measurements on a GPU are tested in tests/gpu and recorded in docs/results/.
#include "device/deviceinfo.h"
#include "measure/measurejson.h"

#include "cuwbprocess.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace cuwb;

namespace {

CuwbRun runCuwb(const QStringList &arguments)
{
    return runCuwbProcess(arguments, QString(), QByteArray());
}

QString copyProject()
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/copy/copy.cuwb");
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

QTEST_GUILESS_MAIN(TestCuwbMeasure)
#include "tst_cuwbmeasure.moc"
