// On a real GPU: every project of the corpus of public kernels (tests/realworld/), and every
// feature fixture (tests/gpu/data/features/: names, tuner defines, globals, aggregate checks),
// runs and verifies through `cuwb run --json`, and its sweep measures with every point verified
// through `cuwb sweep --verify --json`: no point may be skipped for a reason other than the
// device's limits or its constraints, and none may be wrong. Skips, saying why, without a GPU.
#include "../support/projectrows.h"
#include "gpuavailability.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

namespace {
namespace tst_realworld {

class TestRealWorldOnGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void runsVerifiesAndSweeps_data();
    void runsVerifiesAndSweeps();
    void featuresRunAndVerify_data();
    void featuresRunAndVerify() { runsVerifiesAndSweeps(); }

private:
    QString m_skipReason;
};

// One compile cache for the whole corpus, as a user's: `run` and `sweep` of a project share the
// variants they have in common (each is an nvcc run).
void TestRealWorldOnGpu::initTestCase()
{
    m_skipReason = gpuSkipReason();
    static QTemporaryDir cache;
    QVERIFY(cache.isValid());
    qputenv("CUWB_CACHE_DIR", cache.path().toLocal8Bit());
}

void TestRealWorldOnGpu::runsVerifiesAndSweeps_data()
{
    QVERIFY2(addProjectRows(realWorldDir()) >= 80,
             "the corpus: 42 projects of issue 10's collections, 43 of issue 26's whole files");
}

void TestRealWorldOnGpu::featuresRunAndVerify_data()
{
    QVERIFY(addProjectRows(QStringLiteral(CUWB_TEST_DATA_DIR "/features")) >= 6);
}

void TestRealWorldOnGpu::runsVerifiesAndSweeps()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    QFETCH(QString, project);
    QProcess run;
    run.start(cuwbBesideTest(), {QStringLiteral("run"), QStringLiteral("--json"), project});
    QVERIFY(run.waitForFinished(180000));
    const QByteArray out = run.readAllStandardOutput();
    QVERIFY2(run.exitStatus() == QProcess::NormalExit, run.readAllStandardError().constData());
    const QJsonDocument json = QJsonDocument::fromJson(out);
    const QJsonObject entry = json.isArray() ? json.array().first().toObject() : json.object();
    QVERIFY2(entry.value(QStringLiteral("passed")).toBool(), out.left(3000).constData());
    const QJsonObject verification = entry.value(QStringLiteral("result"))
                                         .toObject()
                                         .value(QStringLiteral("verification"))
                                         .toObject();
    QVERIFY2(verification.value(QStringLiteral("ran")).toBool(),
             "every corpus project verifies its output");
    QFile projectFile(project);
    QVERIFY(projectFile.open(QIODevice::ReadOnly));
    if (!QJsonDocument::fromJson(projectFile.readAll())
             .object()
             .contains(QStringLiteral("sweep"))) {
        // Every corpus project sweeps; a feature fixture without a sweep is tested by its run.
        QVERIFY2(!project.startsWith(realWorldDir()), "a corpus project has no sweep");
        return;
    }

    QTemporaryDir dir;
    const QString result = dir.filePath(QStringLiteral("sweep.json"));
    QProcess sweep;
    sweep.start(cuwbBesideTest(), {QStringLiteral("sweep"), project, QStringLiteral("--verify"),
                                   QStringLiteral("--samples"), QStringLiteral("5"),
                                   QStringLiteral("--json"), result});
    QVERIFY(sweep.waitForFinished(300000));
    const QByteArray sweepOut = sweep.readAllStandardOutput() + sweep.readAllStandardError();
    QVERIFY2(sweep.exitCode() == 0, sweepOut.right(3000).constData());
    QFile file(result);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray points =
        QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("points")).toArray();
    QVERIFY(!points.isEmpty());
    for (const QJsonValue &value : points) {
        const QJsonObject point = value.toObject();
        const QString status = point.value(QStringLiteral("status")).toString();
        const QString message = point.value(QStringLiteral("message")).toString();
        if (status == QStringLiteral("skipped")) {
            // Only what the device or the project's constraints exclude may be skipped.
            QVERIFY2(!point.value(QStringLiteral("compileFailed")).toBool(), qPrintable(message));
            QVERIFY2(!message.contains(QStringLiteral("no kernel")), qPrintable(message));
            continue;
        }
        QVERIFY2(status == QStringLiteral("measured"),
                 qPrintable(status + QStringLiteral(": ") + message));
    }
}

CUWB_TEST_GUILESS_MAIN(TestRealWorldOnGpu)
} // namespace tst_realworld
} // namespace

#include "tst_realworld.moc"
