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

QTEST_GUILESS_MAIN(TestInspect)
#include "tst_inspect.moc"
