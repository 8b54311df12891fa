// `cuwb inspect`, `cuwb measure --roofline` and `cuwb compare` end to end without a GPU: the
// stand-in worker (tests/support/fakeworker.cpp, mode inspect-ok) answers with counters recorded on
// an H200 for the naive transpose (data/inspect_transpose_h200.json), and cuwb places them on the
// sample's source lines, says what stands out and writes the same as JSON; a worker that cannot
// inspect, and bad invocations, exit with the reason.
#include "cuwbprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "support/testmain.h"

namespace {
namespace tst_cuwbinspect {

namespace {

const QString kTranspose = QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cuwb");

QString fakeWorker(const char *mode)
{
    return QStringLiteral(CUWB_FAKE_WORKER_PATH " ") + QLatin1String(mode);
}

} // namespace

class TestCuwbInspect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void linesAndFindings();
    void json();
    void workerThatCannotInspect();
    void usageErrors();
    void measureRoofline();
    void compareTwoProjects();
};

void TestCuwbInspect::initTestCase()
{
    qputenv("FAKE_INSPECT_RESULT", dataFile("inspect_transpose_h200.json").toUtf8());
}

void TestCuwbInspect::linesAndFindings()
{
    const CuwbRun run = runCuwbProcess({QStringLiteral("inspect"), kTranspose,
                                        QStringLiteral("--worker"), fakeWorker("inspect-ok")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("transpose_naive")), qPrintable(run.out));
    QVERIFY(run.out.contains(
        QStringLiteral("global memory: 4194304 requests, 75497472 sectors (18.0 per request, "
                       "4.0 ideal)")));
    // Line 19's counters beside its source text, and the finding under it.
    const QStringList lines = run.outLines();
    const auto line19 = std::find_if(lines.begin(), lines.end(), [](const QString &l) {
        return l.trimmed().startsWith(QStringLiteral("19 "));
    });
    QVERIFY2(line19 != lines.end(), qPrintable(run.out));
    QVERIFY2(line19->contains(QStringLiteral("out[(long long)x * rows + y] = in[")),
             qPrintable(*line19));
    QVERIFY(line19->contains(QStringLiteral("18.0")));
    QVERIFY(
        (line19 + 1)
            ->contains(QStringLiteral("^ uncoalesced store: 32.0 sectors per request, 4.0 ideal")));
    QCOMPARE(run.out.count(QStringLiteral("^ ")), 1);
    QVERIFY(run.out.contains(QStringLiteral("most instructions executed: line 19 (48.1 %)")));
}

void TestCuwbInspect::json()
{
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("inspect"), kTranspose, QStringLiteral("--json"),
                        QStringLiteral("--worker"), fakeWorker("inspect-ok")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject root = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(root.value(QStringLiteral("result")).toObject().value(QStringLiteral("kernel")),
             QJsonValue(QStringLiteral("transpose_naive")));
    QJsonObject line19;
    for (const QJsonValue &line : root.value(QStringLiteral("lines")).toArray()) {
        if (line.toObject().value(QStringLiteral("line")).toInt() == 19)
            line19 = line.toObject();
    }
    QCOMPARE(line19.value(QStringLiteral("globalSectors")).toDouble(), 75497472.0);
    QCOMPARE(line19.value(QStringLiteral("globalSectorsIdeal")).toDouble(), 16777216.0);
    const QJsonArray findings = line19.value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), qsizetype(1));
    QCOMPARE(findings.first().toObject().value(QStringLiteral("kind")).toString(),
             QStringLiteral("uncoalesced"));
}

void TestCuwbInspect::workerThatCannotInspect()
{
    // The stand-in in its default mode answers every inspection with an error, as a worker
    // without profiling permission does with the fix in its sentence.
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("inspect"), kTranspose, QStringLiteral("--worker"), fakeWorker("ok")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("this is a fake worker")), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

void TestCuwbInspect::usageErrors()
{
    CuwbRun run = runCuwbProcess({QStringLiteral("inspect")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("no project given")));
    run = runCuwbProcess(
        {QStringLiteral("inspect"), kTranspose, QStringLiteral("--metric"), QStringLiteral("a b")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("--metric needs a SASS metric name")));
    run = runCuwbProcess({QStringLiteral("inspect"), dataFile("missing_source.cuwb")});
    QCOMPARE(run.exitCode, 2);
    run = runCuwbProcess({QStringLiteral("help"), QStringLiteral("inspect")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("Usage: cuwb inspect")));
}

void TestCuwbInspect::measureRoofline()
{
    // `cuwb measure --roofline`: the metrics pass collects what speed of light and the roofline
    // read (the stand-in answers 1 for each metric it does not know), placed under an H200's
    // roofs as the worker's hello describes the GPU.
    const QString copy = QStringLiteral(CUWB_SAMPLES_DIR "/copy/copy.cuwb");
    CuwbRun run = runCuwbProcess({QStringLiteral("measure"), copy, QStringLiteral("--roofline"),
                                  QStringLiteral("--worker"), fakeWorker("measure-ok")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("speed of light: compute (SM) 1.0 %, memory 1.0 % "
                                             "(DRAM 55.9 %, L2 1.0 %, L1 1.0 %)")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("FP32 at ")) &&
                 run.out.contains(QStringLiteral(": memory-bound (ridge ")),
             qPrintable(run.out));
    run = runCuwbProcess({QStringLiteral("measure"), copy, QStringLiteral("--roofline"),
                          QStringLiteral("--json"), QStringLiteral("--worker"),
                          fakeWorker("measure-ok")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject root = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonObject roofline = root.value(QStringLiteral("roofline")).toObject();
    QCOMPARE(roofline.value(QStringLiteral("precision")).toString(), QStringLiteral("FP32"));
    QVERIFY(roofline.value(QStringLiteral("memoryBound")).toBool());
    // FP32: add + mul + 2 × fma = 4 FLOPs over the DRAM bytes read and written.
    QCOMPARE(roofline.value(QStringLiteral("flops")).toObject().value(QStringLiteral("FP32")),
             QJsonValue(4.0));
    QCOMPARE(roofline.value(QStringLiteral("dramBytes")).toDouble(), 268473344.0 + 276572672.0);
    QCOMPARE(root.value(QStringLiteral("speedOfLight"))
                 .toObject()
                 .value(QStringLiteral("dramPercent"))
                 .toDouble(),
             55.9);
}

void TestCuwbInspect::compareTwoProjects()
{
    // The stand-in measures both the same (no difference beyond the noise) and cannot inspect:
    // the comparison goes on without the counters and says so.
    const QString naive = QStringLiteral(CUWB_SAMPLES_DIR "/matmul/matmul_naive.cuwb");
    const QString tiled = QStringLiteral(CUWB_SAMPLES_DIR "/matmul/matmul_tiled.cuwb");
    CuwbRun run =
        runCuwbProcess({QStringLiteral("compare"), naive, tiled, QStringLiteral("--samples"),
                        QStringLiteral("5"), QStringLiteral("--worker"), fakeWorker("measure-ok")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("no difference beyond the noise")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("dram__bytes_read.sum")));
    QVERIFY(run.err.contains(QStringLiteral("matmul_naive.cuwb: not inspected")));
    run = runCuwbProcess({QStringLiteral("compare"), naive, tiled, QStringLiteral("--json"),
                          QStringLiteral("--no-inspect"), QStringLiteral("--worker"),
                          fakeWorker("measure-ok")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject root = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QVERIFY(!root.value(QStringLiteral("time"))
                 .toObject()
                 .value(QStringLiteral("significant"))
                 .toBool());
    QVERIFY(root.value(QStringLiteral("metrics")).toArray().size() > 5);
    QCOMPARE(root.value(QStringLiteral("measurements")).toArray().size(), qsizetype(2));
    run = runCuwbProcess({QStringLiteral("compare"), naive});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("compare takes two projects, got 1")));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbInspect)
} // namespace tst_cuwbinspect
} // namespace

#include "tst_cuwbinspect.moc"
