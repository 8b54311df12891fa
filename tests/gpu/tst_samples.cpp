// On a real GPU: every sample project under samples/ runs and verifies, each through
// `cuwb run --json` (the grading command) in a worker of its own. Skips, saying why, where
// there is no driver or no GPU.
#include "../support/projectrows.h"
#include "gpuavailability.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "support/testmain.h"

namespace {
namespace tst_samples {

class TestSamplesOnGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void runsAndVerifies_data();
    void runsAndVerifies();

private:
    QString m_skipReason;
};

void TestSamplesOnGpu::initTestCase()
{
    m_skipReason = gpuSkipReason();
}

void TestSamplesOnGpu::runsAndVerifies_data()
{
    QVERIFY2(addProjectRows(QStringLiteral(CUWB_SAMPLES_DIR)) >= 12,
             "issue 6 asks for at least twelve samples");
}

void TestSamplesOnGpu::runsAndVerifies()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    QFETCH(QString, project);
    QProcess cuwb;
    cuwb.start(cuwbBesideTest(), {QStringLiteral("run"), QStringLiteral("--json"), project});
    QVERIFY(cuwb.waitForFinished(180000));
    const QByteArray out = cuwb.readAllStandardOutput();
    const QByteArray err = cuwb.readAllStandardError();
    QVERIFY2(cuwb.exitStatus() == QProcess::NormalExit, err.constData());
    QCOMPARE(cuwb.exitCode(), 0);
    const QJsonDocument json = QJsonDocument::fromJson(out);
    const QJsonObject entry = json.isArray() ? json.array().first().toObject() : json.object();
    QVERIFY2(entry.value(QStringLiteral("passed")).toBool(), out.left(2000).constData());
}

CUWB_TEST_GUILESS_MAIN(TestSamplesOnGpu)
} // namespace tst_samples
} // namespace

#include "tst_samples.moc"
