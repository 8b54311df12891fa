// On a real GPU: `cuwb inspect --json` counts per instruction (CUPTI's SASS metrics) and puts
// the findings on the right source lines of the transpose samples: the naive kernel's store is
// uncoalesced (32 sectors a request against 4), the shared-memory tile's read is a 32-way bank
// conflict and the padded tile has none. Skips, saying why, without a GPU or without
// permission to use its counters.
#include "gpuavailability.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

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

class TestInspect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void naiveTransposeStoreIsUncoalesced();
    void sharedTileHasBankConflictPaddedNone();
    void stallsPlacedOnTheLinesThatWait();

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

QTEST_GUILESS_MAIN(TestInspect)
#include "tst_inspect.moc"
