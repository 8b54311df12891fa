// Every sample is a test fixture: each .cu under samples/ compiles for the default
// architecture with no diagnostics at all, and lists at least one kernel. A sample whose
// folder ends in "_mistakes" exists to show diagnostics, so it must fail to compile instead.

#include "compiler/kernelcompiler.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>

#include "support/testmain.h"

namespace {
namespace tst_samples {

class TestSamples : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compiles_data();
    void compiles();

private:
    cuwb::KernelCompiler m_compiler;
};

void TestSamples::compiles_data()
{
    QTest::addColumn<QString>("path");
    QDirIterator it(QStringLiteral(CUWB_SAMPLES_DIR), {QStringLiteral("*.cu")}, QDir::Files,
                    QDirIterator::Subdirectories);
    int count = 0;
    while (it.hasNext()) {
        const QString path = it.next();
        QTest::newRow(qPrintable(QDir(QStringLiteral(CUWB_SAMPLES_DIR)).relativeFilePath(path)))
            << path;
        ++count;
    }
    QVERIFY2(count >= 2, "expected at least the vector_add sample and its twin with mistakes");
}

void TestSamples::compiles()
{
    QFETCH(QString, path);
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.errorString()));
    const QByteArray source = file.readAll();
    const bool expectMistakes =
        QFileInfo(path).dir().dirName().endsWith(QLatin1String("_mistakes"));

    cuwb::CompileOptions options; // sm_90, -lineinfo: what the workbench uses without a GPU
    const cuwb::CompileResult result =
        m_compiler.compile(source.toStdString(), QFileInfo(path).fileName().toStdString(), options);

    if (expectMistakes) {
        QVERIFY(!result.success);
        QVERIFY(result.counts().errors > 0);
        QVERIFY(result.counts().warnings > 0);
        return;
    }
    QVERIFY2(result.success, result.log.c_str());
    QVERIFY2(result.diagnostics.empty(), result.log.c_str());
    QVERIFY(!result.kernels.empty());
    QVERIFY(!result.ptx.empty());
    for (const cuwb::KernelInfo &kernel : result.kernels) {
        QVERIFY2(kernel.resources.reported, kernel.loweredName.c_str());
        QVERIFY2(kernel.sourceLine > 0, kernel.loweredName.c_str());
        QVERIFY2(!kernel.spills(), kernel.loweredName.c_str());
    }
}

CUWB_TEST_GUILESS_MAIN(TestSamples)
} // namespace tst_samples
} // namespace

#include "tst_samples.moc"
