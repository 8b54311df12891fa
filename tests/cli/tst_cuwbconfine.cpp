// A graded compile is confined by the operating system, not by reading the source first. Each
// spelling of `#include` that once passed the text scan (a digraph, a line splice, a comment
// between `#` and `include`, a form feed, a trigraph under -std=c++11, and a chain of 17
// headers in the folder whose last names an outside file) makes an unconfined nvcc quote the
// outside file's secret into its diagnostics; `cuwb compile --confine` (what a graded
// project's worker does) stops every one at the kernel's refusal to open the file, and the
// secret appears nowhere. Skips, saying why, where the kernel has no Landlock or there is no
// nvcc.
#include "compiler/nvcc.h"
#include "cuwbprocess.h"
#include "util/sandbox.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

namespace {
namespace tst_cuwbconfine {

namespace {

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

const char *const kKernel = "__global__ void k(float *x) { x[0] = 1; }\n";

} // namespace

class TestCuwbConfine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void includesReachNothingOutside_data();
    void includesReachNothingOutside();
    void theFolderItselfStaysReadable();

private:
    QTemporaryDir m_outside;
    QTemporaryDir m_submission;
    QString m_secret;
};

void TestCuwbConfine::initTestCase()
{
    if (const std::string why = cuwb::sandboxUnavailableReason(); !why.empty())
        QSKIP(why.c_str());
    if (!cuwb::nvccInstallation().found())
        QSKIP(("a confined compile needs nvcc: " + cuwb::nvccInstallation().problem).c_str());
    QVERIFY(m_outside.isValid() && m_submission.isValid());
    m_secret = m_outside.filePath(QStringLiteral("secret.h"));
    writeFile(m_secret, "float y = TOPSECRET_LINE_abc123;\n");
    const QByteArray include = "include \"" + QFile::encodeName(m_secret) + "\"\n";
    const QDir folder(m_submission.path());
    writeFile(folder.filePath(QStringLiteral("digraph.cu")), "%:" + include + kKernel);
    writeFile(folder.filePath(QStringLiteral("splice.cu")),
              "#inc\\\nlude \"" + QFile::encodeName(m_secret) + "\"\n" + kKernel);
    writeFile(folder.filePath(QStringLiteral("comment.cu")), "#/**/" + include + kKernel);
    writeFile(folder.filePath(QStringLiteral("formfeed.cu")), "#\f" + include + kKernel);
    writeFile(folder.filePath(QStringLiteral("trigraph.cu")), "?\?=" + include + kKernel);
    // Seventeen headers in the folder, the last including the outside file.
    writeFile(folder.filePath(QStringLiteral("chain.cu")),
              QByteArray("#include \"h1.h\"\n") + kKernel);
    for (int i = 1; i <= 17; ++i) {
        const QByteArray next =
            i < 17 ? "#include \"h" + QByteArray::number(i + 1) + ".h\"\n" : "#" + include;
        writeFile(folder.filePath(QStringLiteral("h%1.h").arg(i)), next);
    }
}

void TestCuwbConfine::includesReachNothingOutside_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("standard");
    for (const char *name : {"digraph", "splice", "comment", "formfeed", "chain"})
        QTest::newRow(name) << QString::fromLatin1(name) + QStringLiteral(".cu")
                            << QStringLiteral("c++17");
    QTest::newRow("trigraph") << QStringLiteral("trigraph.cu") << QStringLiteral("c++11");
}

void TestCuwbConfine::includesReachNothingOutside()
{
    QFETCH(QString, file);
    QFETCH(QString, standard);
    const QString path = QDir(m_submission.path()).filePath(file);
    // The premise: unconfined, nvcc reads the outside file and quotes it.
    const CuwbRun open =
        runCuwbProcess({QStringLiteral("compile"), path, QStringLiteral("-std"), standard});
    QCOMPARE(open.exitCode, 1);
    QVERIFY2(open.out.contains(QStringLiteral("TOPSECRET_LINE_abc123")), qPrintable(open.out));

    const CuwbRun confined =
        runCuwbProcess({QStringLiteral("compile"), path, QStringLiteral("-std"), standard,
                        QStringLiteral("--confine"), QStringLiteral("--json")});
    QCOMPARE(confined.exitCode, 1);
    QVERIFY2(!confined.out.contains(QStringLiteral("TOPSECRET")) &&
                 !confined.err.contains(QStringLiteral("TOPSECRET")),
             qPrintable(confined.out + confined.err));
    QVERIFY2(confined.out.contains(m_secret + QStringLiteral(": Permission denied")),
             qPrintable(confined.out));
}

void TestCuwbConfine::theFolderItselfStaysReadable()
{
    // Headers of the submission's own folder, the toolkit's and the system's are all read.
    const QDir folder(m_submission.path());
    writeFile(folder.filePath(QStringLiteral("own.h")), "#define SCALE 2.0f\n");
    writeFile(folder.filePath(QStringLiteral("good.cu")),
              "#include <cstdio>\n#include <cuda_fp16.h>\n#include \"own.h\"\n"
              "__global__ void k(float *x) { x[0] = SCALE; }\n"
              "int main() { printf(\"%d\\n\", 1); }\n");
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("compile"), folder.filePath(QStringLiteral("good.cu")),
                        QStringLiteral("--confine")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("built by nvcc")), qPrintable(run.out));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbConfine)
} // namespace tst_cuwbconfine
} // namespace

#include "tst_cuwbconfine.moc"
