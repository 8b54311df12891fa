// The confinement of a graded project (grading/confinement.h), on project folders made by the
// test: a project that reads only inside its folder passes; an absolute path, '..' or a
// symlink out in any file it names (source, include folder, init file, reference file), an
// #include that leaves the folder directly or from a header, an #include by macro, and a
// project file that is itself a symlink out are each refused with a reason naming the file.
#include "grading/confinement.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_confinement {

namespace {

const char *const kKernel = "extern \"C\" __global__ void k(float *a) { a[0] = 1; }\n";

void writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

} // namespace

class TestConfinement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void checks_data();
    void checks();
    void projectFileSymlinkedOutIsRefused();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_project; // <dir>/student/p.cuwb
};

void TestConfinement::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_project = m_dir->filePath(QStringLiteral("student/p.cuwb"));
    writeFile(m_project, "{}");
    writeFile(m_dir->filePath(QStringLiteral("student/k.cu")), kKernel);
    writeFile(m_dir->filePath(QStringLiteral("student/inc/helper.h")), "#define H 1\n");
    writeFile(m_dir->filePath(QStringLiteral("student/inc/bad.h")),
              "#include \"../../secret.h\"\n");
    writeFile(m_dir->filePath(QStringLiteral("secret.h")), "#define SECRET 42\n");
    QVERIFY(QFile::link(m_dir->filePath(QStringLiteral("secret.h")),
                        m_dir->filePath(QStringLiteral("student/linked.h"))));
    QVERIFY(QFile::link(m_dir->filePath(QStringLiteral("student/k.cu")),
                        m_dir->filePath(QStringLiteral("student/inside.cu"))));
}

void TestConfinement::checks_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("refusal"); // empty: allowed
    const QString kernel = QString::fromLatin1(kKernel);
    QTest::newRow("inline source") << QString() << QString() << kernel << QString();
    QTest::newRow("source beside")
        << QStringLiteral("source") << QStringLiteral("k.cu") << kernel << QString();
    QTest::newRow("symlink inside")
        << QStringLiteral("source") << QStringLiteral("inside.cu") << kernel << QString();
    QTest::newRow("toolkit include")
        << QString() << QString() << QStringLiteral("#include <cuda_fp16.h>\n") + kernel
        << QString();
    QTest::newRow("header inside")
        << QString() << QString() << QStringLiteral("#include \"inc/helper.h\"\n") + kernel
        << QString();
    QTest::newRow("absolute source")
        << QStringLiteral("source") << QStringLiteral("/etc/passwd") << kernel
        << QStringLiteral("the source names an absolute path '/etc/passwd'; a graded project "
                          "may read only inside its own folder");
    QTest::newRow("dot-dot source")
        << QStringLiteral("source") << QStringLiteral("../secret.h") << kernel
        << QStringLiteral("the source goes up out of its folder with '..' in '../secret.h'");
    QTest::newRow("symlinked source")
        << QStringLiteral("source") << QStringLiteral("linked.h") << kernel
        << QStringLiteral("the source 'linked.h' is a symlink that leads out of its folder");
    QTest::newRow("include folder")
        << QStringLiteral("include") << QStringLiteral("/usr/include") << kernel
        << QStringLiteral("the include folder names an absolute path '/usr/include'");
    QTest::newRow("init file") << QStringLiteral("init") << QStringLiteral("../secret.h") << kernel
                               << QStringLiteral("buffer a's init file goes up out of its folder");
    QTest::newRow("reference file")
        << QStringLiteral("reference") << QStringLiteral("/tmp/answers.npy") << kernel
        << QStringLiteral("the reference file names an absolute path '/tmp/answers.npy'");
    QTest::newRow("include absolute")
        << QString() << QString() << QStringLiteral("#include \"/etc/passwd\"\n") + kernel
        << QStringLiteral("the inline source line 1: #include names an absolute path");
    QTest::newRow("include dot-dot")
        << QString() << QString() << QStringLiteral("  #  include <../secret.h>\n") + kernel
        << QStringLiteral("the inline source line 1: #include goes up out of its folder");
    QTest::newRow("include symlink")
        << QString() << QString() << QStringLiteral("\n#include \"linked.h\"\n") + kernel
        << QStringLiteral("the inline source line 2: #include 'linked.h' is a symlink that "
                          "leads out of its folder");
    QTest::newRow("header that leaves")
        << QString() << QString() << QStringLiteral("#include \"inc/bad.h\"\n") + kernel
        << QStringLiteral("inc/bad.h line 1: #include goes up out of its folder");
    QTest::newRow("include by macro")
        << QString() << QString() << QStringLiteral("#define F \"x.h\"\n#include F\n") + kernel
        << QStringLiteral("the inline source line 2: an #include whose name is not written out");
}

void TestConfinement::checks()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, source);
    QFETCH(QString, refusal);
    Project project;
    ArgumentSpec buffer;
    buffer.parameter = "a";
    buffer.isBuffer = true;
    project.launch.arguments.push_back(buffer);
    const std::string text = value.toStdString();
    if (field == QStringLiteral("source")) {
        project.sourcePath = text;
    } else if (field == QStringLiteral("include")) {
        project.options.includeDirs.push_back(text);
    } else if (field == QStringLiteral("init")) {
        project.launch.arguments[0].init.kind = InitKind::File;
        project.launch.arguments[0].init.file = text;
    } else if (field == QStringLiteral("reference")) {
        project.verification.checks.assign(1, VerificationSpec{});
        project.verification.checks[0].kind = ReferenceKind::File;
        project.verification.checks[0].file = text;
    }
    const std::string problem =
        checkProjectConfinement(project, m_project.toStdString(), source.toStdString());
    if (refusal.isEmpty()) {
        QVERIFY2(problem.empty(), problem.c_str());
    } else {
        QVERIFY2(problem.find(refusal.toStdString()) != std::string::npos, problem.c_str());
    }
}

void TestConfinement::projectFileSymlinkedOutIsRefused()
{
    const QString outside = m_dir->filePath(QStringLiteral("elsewhere.cuwb"));
    writeFile(outside, "{}");
    const QString linked = m_dir->filePath(QStringLiteral("student/linked.cuwb"));
    QVERIFY(QFile::link(outside, linked));
    const std::string problem =
        checkProjectConfinement(Project{}, linked.toStdString(), std::string(kKernel));
    QVERIFY2(problem.find("the project file is a symlink that leads out of its folder") == 0,
             problem.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestConfinement)
} // namespace tst_confinement
} // namespace

#include "tst_confinement.moc"
