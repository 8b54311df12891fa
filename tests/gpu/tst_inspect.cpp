// On a real GPU: `cuwb inspect --json` counts per instruction (CUPTI's SASS metrics) and puts
// the findings on the right source lines of the transpose samples: the naive kernel's store is
// uncoalesced (32 sectors a request against 4), the shared-memory tile's read is a 32-way bank
// conflict and the padded tile has none. Skips, saying why, without a GPU or without
// permission to use its counters.
#include "gpuavailability.h"
#include "measure/roofline.h"
#include "project/project.h"
#include "sampleproject.h"
#include "worker/workerclient.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "support/testmain.h"

namespace {
namespace tst_inspect {

namespace {

// The 1-based line of `source` that contains `text`, 0 when none does.
int lineContaining(const QString &sourcePath, const QString &text)
{
    QFile file(sourcePath);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    for (int k = 0; k < lines.size(); ++k) {
        if (lines[k].contains(text))
            return k + 1;
    }
    return 0;
}

QJsonObject lineEntry(const QJsonObject &inspected, int line)
{
    for (const QJsonValue &entry : inspected.value(QStringLiteral("lines")).toArray()) {
        if (entry.toObject().value(QStringLiteral("line")).toInt() == line)
            return entry.toObject();
    }
    return {};
}

// The stall reason with the most samples on a line of `cuwb inspect --json`.
QString topReason(const QJsonObject &line)
{
    QString top;
    double most = 0;
    const QJsonObject reasons = line.value(QStringLiteral("stallReasons")).toObject();
    for (auto it = reasons.begin(); it != reasons.end(); ++it) {
        if (it.value().toDouble() > most) {
            most = it.value().toDouble();
            top = it.key();
        }
    }
    return top;
}

QStringList findingKinds(const QJsonObject &inspected)
{
    QStringList kinds;
    for (const QJsonValue &entry : inspected.value(QStringLiteral("lines")).toArray()) {
        for (const QJsonValue &f : entry.toObject().value(QStringLiteral("findings")).toArray())
            kinds << f.toObject().value(QStringLiteral("kind")).toString();
    }
    return kinds;
}

} // namespace

using namespace cuwb;

class TestInspect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void naiveTransposeStoreIsUncoalesced();
    void sharedTileHasBankConflictPaddedNone();
    void stallsPlacedOnTheLinesThatWait();
    void passesRepeatInOneWorker_data();
    void passesRepeatInOneWorker();

private:
    // `cuwb inspect --json PROJECT`, parsed; skips when the counters are not allowed here.
    QJsonObject inspect(const QString &project);
    QString m_skipReason;
    QString m_transposeSource;
};

void TestInspect::initTestCase()
{
    m_skipReason = gpuSkipReason();
    m_transposeSource = QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cu");
}

QJsonObject TestInspect::inspect(const QString &project)
{
    QProcess cuwb;
    cuwb.start(cuwbBesideTest(), {QStringLiteral("inspect"), QStringLiteral("--json"),
                                  QStringLiteral(CUWB_SAMPLES_DIR "/") + project});
    if (!cuwb.waitForFinished(180000))
        return {};
    const QByteArray err = cuwb.readAllStandardError();
    if (cuwb.exitCode() != 0) {
        qWarning("cuwb inspect %s: %s", qPrintable(project), err.constData());
        return QJsonObject{{QStringLiteral("error"), QString::fromUtf8(err)}};
    }
    return QJsonDocument::fromJson(cuwb.readAllStandardOutput()).object();
}

void TestInspect::naiveTransposeStoreIsUncoalesced()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const QJsonObject inspected = inspect(QStringLiteral("transpose/transpose.cuwb"));
    const QString error = inspected.value(QStringLiteral("error")).toString();
    if (error.contains(QStringLiteral("permission")))
        QSKIP("no permission to use the GPU's performance counters here");
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const int line =
        lineContaining(m_transposeSource, QStringLiteral("out[(long long)x * rows + y]"));
    QVERIFY(line > 0);
    const QJsonObject entry = lineEntry(inspected, line);
    // Whatever the size, a warp's 32 stores land in 32 sectors and its loads in 4: the line
    // averages 18, and only the store is flagged.
    const double requests = entry.value(QStringLiteral("globalRequests")).toDouble();
    QVERIFY(requests > 0);
    QCOMPARE(entry.value(QStringLiteral("globalSectors")).toDouble() / requests, 18.0);
    const QJsonArray findings = entry.value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), qsizetype(1));
    QCOMPARE(findings.first().toObject().value(QStringLiteral("message")).toString(),
             QStringLiteral("uncoalesced store: 32.0 sectors per request, 4.0 ideal"));
    QCOMPARE(findingKinds(inspected), QStringList{QStringLiteral("uncoalesced")});
}

void TestInspect::sharedTileHasBankConflictPaddedNone()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const QJsonObject shared = inspect(QStringLiteral("transpose/transpose_shared.cuwb"));
    if (shared.value(QStringLiteral("error")).toString().contains(QStringLiteral("permission")))
        QSKIP("no permission to use the GPU's performance counters here");
    const int line =
        lineContaining(m_transposeSource, QStringLiteral("= tile[threadIdx.x][threadIdx.y + j];"));
    QVERIFY(line > 0);
    const QJsonArray findings = lineEntry(shared, line).value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), qsizetype(1));
    QVERIFY2(findings.first()
                 .toObject()
                 .value(QStringLiteral("message"))
                 .toString()
                 .startsWith(QStringLiteral("32-way bank conflict")),
             QJsonDocument(findings).toJson().constData());
    QCOMPARE(findingKinds(shared), QStringList{QStringLiteral("bank-conflict")});

    const QJsonObject padded = inspect(QStringLiteral("transpose/transpose_padded.cuwb"));
    QVERIFY2(padded.value(QStringLiteral("error")).toString().isEmpty(),
             qPrintable(padded.value(QStringLiteral("error")).toString()));
    QCOMPARE(findingKinds(padded), QStringList{});
}

void TestInspect::stallsPlacedOnTheLinesThatWait()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const QJsonObject inspected = inspect(QStringLiteral("transpose/transpose.cuwb"));
    const QString error = inspected.value(QStringLiteral("error")).toString();
    if (error.contains(QStringLiteral("permission")))
        QSKIP("no permission to use the GPU's performance counters here");
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QJsonObject result = inspected.value(QStringLiteral("result")).toObject();
    QVERIFY2(result.value(QStringLiteral("stallError")).toString().isEmpty(),
             qPrintable(result.value(QStringLiteral("stallError")).toString()));
    QVERIFY(result.value(QStringLiteral("stallSamples")).toDouble() > 0);
    QVERIFY(!result.value(QStringLiteral("stalls")).toArray().isEmpty());

    // Every sample of the kernel is on a line and the shares add up to one. The line that
    // loads and stores (the naive kernel's only memory line) waits on its load (long
    // scoreboard); the closing brace holds the EXIT, where warps wait for their 32-sector
    // stores to drain.
    const int copyLine =
        lineContaining(m_transposeSource, QStringLiteral("out[(long long)x * rows + y]"));
    double shares = 0;
    for (const QJsonValue &value : inspected.value(QStringLiteral("lines")).toArray()) {
        const QJsonObject line = value.toObject();
        QVERIFY(line.value(QStringLiteral("line")).toInt() > 0);
        shares += line.value(QStringLiteral("stallShare")).toDouble();
    }
    QVERIFY2(qAbs(shares - 1.0) < 1e-6, qPrintable(QString::number(shares)));
    const QJsonObject copy = lineEntry(inspected, copyLine);
    QVERIFY2(copy.value(QStringLiteral("stallShare")).toDouble() > 0.2,
             QJsonDocument(copy).toJson().constData());
    QCOMPARE(topReason(copy), QStringLiteral("long_scoreboard"));
    QCOMPARE(topReason(lineEntry(inspected, copyLine + 1)), QStringLiteral("drain"));
}

// The GUI's worker and `cuwb compare` run every pass of several kernels in one worker: each
// pass must work as often as it is asked for, in any order (on the H200 the second
// inspection of a worker that had run a metrics pass failed with CUPTI_ERROR_OUT_OF_MEMORY).
// Steps: m = metrics pass (with the roofline's metrics), i = inspection with PC sampling,
// n = inspection without; "T" runs the naive transpose, "S" the shared one.
void TestInspect::passesRepeatInOneWorker_data()
{
    QTest::addColumn<QString>("steps");
    QTest::newRow("inspect twice") << QStringLiteral("Ti Si");
    QTest::newRow("counts only, twice") << QStringLiteral("Tn Sn");
    QTest::newRow("metrics then counts, twice") << QStringLiteral("Tm Tn Sm Sn");
    QTest::newRow("compare: metrics then inspect, twice") << QStringLiteral("Tm Ti Sm Si");
    QTest::newRow("inspect then metrics") << QStringLiteral("Ti Tm Si");
    QTest::newRow("four inspections, metrics between") << QStringLiteral("Ti Sm Si Tn Ti");
}

void TestInspect::passesRepeatInOneWorker()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    QFETCH(QString, steps);
    const SampleProject naiveSample = loadSampleProject("transpose/transpose.cuwb");
    const SampleProject sharedSample = loadSampleProject("transpose/transpose_shared.cuwb");
    QVERIFY2(naiveSample.error.empty(), naiveSample.error.c_str());
    QVERIFY2(sharedSample.error.empty(), sharedSample.error.c_str());
    const RunRequest &naive = naiveSample.request;
    const RunRequest &shared = sharedSample.request;
    MetricsRequest metrics;
    metrics.metrics = withRooflineMetrics({});

    WorkerProcess::Options options;
    // CUWB_TEST_WORKER: another cuwb to hold to the same steps (an earlier build, say).
    const QByteArray other = qgetenv("CUWB_TEST_WORKER");
    options.executable = other.isEmpty() ? cuwbBesideTest().toStdString() : other.toStdString();
    WorkerProcess worker(options);
    WorkerClient client(worker);
    for (const QString &step : steps.split(QLatin1Char(' '))) {
        const RunRequest &r = step[0] == QLatin1Char('T') ? naive : shared;
        const QByteArray what = (step + QStringLiteral(" of ") + steps).toUtf8();
        if (step[1] == QLatin1Char('m')) {
            const MetricsResult m = client.metrics(r, metrics);
            QVERIFY2(m.ok(), (what + ": " + QByteArray::fromStdString(m.error)).constData());
            QVERIFY2(m.values.count("dram__bytes_read.sum") != 0, what.constData());
            continue;
        }
        InspectRequest inspect;
        inspect.sampleStalls = step[1] == QLatin1Char('i');
        const InspectResult result = client.inspect(r, inspect);
        QVERIFY2(result.ok(), (what + ": " + QByteArray::fromStdString(result.error)).constData());
        QVERIFY2(!result.instructions.empty(), what.constData());
        if (inspect.sampleStalls) {
            QVERIFY2(result.stallError.empty(),
                     (what + ": " + QByteArray::fromStdString(result.stallError)).constData());
            QVERIFY2(result.stallSamples > 0, what.constData());
        }
    }
    worker.stop();
}

CUWB_TEST_GUILESS_MAIN(TestInspect)
} // namespace tst_inspect
} // namespace

#include "tst_inspect.moc"
