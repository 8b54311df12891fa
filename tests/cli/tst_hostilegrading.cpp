// A class of hostile submissions (tests/hostile/, each explained in its README) graded as a
// grader would: `cuwb run CLASS --json --summary`. Beside the class lie a header and a project
// file holding a secret; every submission tries to read it, crash the reader, exhaust the
// compiler or run host code. Each must be refused or failed with its reason, the secret must
// appear nowhere in what the grader prints, no host code may run, and the honest submissions
// must be graded as honest (passed on a GPU; without one they reach the worker, which says
// there is no GPU). The escapes that pass the text check are compiled confined, as a graded
// project's worker compiles them, which works without a GPU too. The timing cheats, graded with
// --measure on a GPU, are timed doing the work or fail with the sample that was wrong. Skips,
// saying why, where the kernel has no Landlock or there is no nvcc (and the timing part where
// there is no GPU).
#include "compiler/nvcc.h"
#include "cuwbprocess.h"
#include "util/sandbox.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include <sys/stat.h>

#include "support/testmain.h"

namespace {
namespace tst_hostilegrading {

namespace {

const char *const kSecret = "TOPSECRET_HOSTILE_5e1d";

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

QString classDir()
{
    return QStringLiteral(CUWB_TEST_DATA_DIR "/../../hostile/class");
}

} // namespace

class TestHostileGrading : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everySubmissionIsGradedAlone();
    void escapesStopAtTheKernel_data();
    void escapesStopAtTheKernel();
    void hostCodeIsSetAsideNotRun_data();
    void hostCodeIsSetAsideNotRun();
    void timingCheatsAreTimedDoingTheWork();

private:
    QString submission(const char *name) const
    {
        return m_class + QLatin1Char('/') + QLatin1String(name);
    }

    QTemporaryDir m_root;
    QString m_class;
};

void TestHostileGrading::initTestCase()
{
    if (const std::string why = cuwb::sandboxUnavailableReason(); !why.empty())
        QSKIP(why.c_str());
    if (!cuwb::nvccInstallation().found())
        QSKIP(("a confined compile needs nvcc: " + cuwb::nvccInstallation().problem).c_str());
    QVERIFY(m_root.isValid());
    namespace fs = std::filesystem;
    m_class = m_root.filePath(QStringLiteral("class"));
    std::error_code error;
    // As handed in: the relative symlinks stay symlinks.
    fs::copy(classDir().toStdString(), m_class.toStdString(),
             fs::copy_options::recursive | fs::copy_options::copy_symlinks, error);
    QVERIFY2(!error, error.message().c_str());
    // What the submissions are after, beside the class folder.
    const QByteArray secret = QByteArray("float leaked = ") + kSecret + ";\n";
    writeFile(m_root.filePath(QStringLiteral("SECRET.h")), secret);
    writeFile(m_root.filePath(QStringLiteral("secret.cuwb")), QByteArray("{ \"") + kSecret + "\"");

    // The submissions made here rather than committed: a 400 KB file, a FIFO, and an honest
    // submission whose reader crashes (as a parser bug would; CUWB_TEST_READER_CRASHES_IN).
    QVERIFY(QDir(m_class).mkpath(QStringLiteral("12-deep-nesting")));
    writeFile(submission("12-deep-nesting") + QStringLiteral("/project.cuwb"),
              QByteArray("{\"launch\": ") + QByteArray(200000, '[') + QByteArray(200000, ']') +
                  "}");
    for (const char *name : {"17-fifo-source", "18-reader-crash"}) {
        QVERIFY(QDir(m_class).mkpath(QLatin1String(name)));
        QVERIFY(QFile::copy(submission("01-honest") + QStringLiteral("/project.cuwb"),
                            submission(name) + QStringLiteral("/project.cuwb")));
    }
    QVERIFY(QFile::copy(submission("01-honest") + QStringLiteral("/kernel.cu"),
                        submission("18-reader-crash") + QStringLiteral("/kernel.cu")));
    QCOMPARE(::mkfifo(QFile::encodeName(submission("17-fifo-source") + QStringLiteral("/kernel.cu"))
                          .constData(),
                      0600),
             0);
}

// One grading of the whole class: every submission has its verdict and reason, the JSON is
// written, and the exit status says "some submissions failed" (1), not "grading failed" (2).
void TestHostileGrading::everySubmissionIsGradedAlone()
{
    qputenv("CUWB_TEST_READER_CRASHES_IN", "18-reader-crash");
    const CuwbRun run = runCuwbProcess({QStringLiteral("run"), m_class, QStringLiteral("--json"),
                                        QStringLiteral("--summary"), QStringLiteral("--deadline"),
                                        QStringLiteral("10")});
    qunsetenv("CUWB_TEST_READER_CRASHES_IN");
    QVERIFY2(run.exitCode == 1, qPrintable(QString::number(run.exitCode) + run.err));
    QVERIFY2(!run.out.contains(QLatin1String(kSecret)) && !run.err.contains(QLatin1String(kSecret)),
             qPrintable(run.out + run.err));
    QVERIFY(!QFile::exists(m_root.filePath(QStringLiteral("HOST_CODE_RAN"))));

    const QJsonObject summary = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonArray results = summary.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 23);
    QCOMPARE(summary.value(QStringLiteral("projects")).toInt(), 23);
    QHash<QString, QJsonObject> byName;
    for (const QJsonValue &value : results) {
        const QJsonObject result = value.toObject();
        const QString project = result.value(QStringLiteral("project")).toString();
        byName.insert(project.section(QLatin1Char('/'), -2, -2), result);
    }
    const auto field = [&](const char *name, const char *key) {
        return byName.value(QLatin1String(name)).value(QLatin1String(key)).toString();
    };
    // Refused or failed while being read, each with its reason, the others graded all the same.
    QVERIFY2(
        field("09-symlinked-project", "refused").contains(QStringLiteral("symlink that leads out")),
        qPrintable(field("09-symlinked-project", "refused")));
    QVERIFY2(field("10-symlinked-source", "refused").contains(QStringLiteral("leads out")),
             qPrintable(field("10-symlinked-source", "refused")));
    QVERIFY2(field("11-symlinked-folder", "refused").contains(QStringLiteral("leads out")),
             qPrintable(field("11-symlinked-folder", "refused")));
    QVERIFY2(field("12-deep-nesting", "error").contains(QStringLiteral("nested deeper than 64")),
             qPrintable(field("12-deep-nesting", "error")));
    QVERIFY2(field("17-fifo-source", "error").contains(QStringLiteral("a FIFO (named pipe)")),
             qPrintable(field("17-fifo-source", "error")));
    QVERIFY2(field("18-reader-crash", "error").contains(QStringLiteral("crashed (signal ")),
             qPrintable(field("18-reader-crash", "error")));

    // The rest reach the worker: on a GPU the honest ones and those whose host code is set
    // aside pass, the escapes fail to compile; without one each is told there is no GPU.
    const auto status = [&](const char *name) {
        return byName.value(QLatin1String(name))
            .value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("status"))
            .toString();
    };
    const bool gpu = status("01-honest") != QLatin1String("no-device");
    // The timing cheats compute correctly on a first launch; 23 only on some.
    for (const char *name : {"01-honest", "02-honest-grid-stride", "14-fork-bomb", "15-network",
                             "16-outlives-worker", "19-first-launch-only", "20-cached-result",
                             "21-recognises-inputs", "22-stash-in-input"}) {
        if (gpu)
            QVERIFY2(byName.value(QLatin1String(name)).value(QStringLiteral("passed")).toBool(),
                     name);
        else
            QCOMPARE(status(name), QStringLiteral("no-device"));
    }
    for (const char *name : {"03-digraph", "04-line-splice", "05-comment", "06-form-feed",
                             "07-trigraph", "08-include-chain", "13-memory-hog"}) {
        QCOMPARE(status(name),
                 gpu ? QStringLiteral("compile-failed") : QStringLiteral("no-device"));
    }
    QCOMPARE(status("23-sometimes-wrong"),
             gpu ? QStringLiteral("succeeded") : QStringLiteral("no-device"));
}

void TestHostileGrading::escapesStopAtTheKernel_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("standard");
    QTest::addColumn<QString>("reason");
    const QString denied = QStringLiteral("SECRET.h: Permission denied");
    for (const char *name :
         {"03-digraph", "04-line-splice", "05-comment", "06-form-feed", "08-include-chain"})
        QTest::newRow(name) << QString::fromLatin1(name) << QStringLiteral("c++17") << denied;
    QTest::newRow("07-trigraph") << QStringLiteral("07-trigraph") << QStringLiteral("c++11")
                                 << denied;
    QTest::newRow("13-memory-hog") << QStringLiteral("13-memory-hog") << QStringLiteral("c++17")
                                   << QStringLiteral("out of memory");
}

// Each spelling of #include that the text check cannot see, compiled as a graded project's
// worker compiles it: the kernel refuses to open the file outside the folder, and the
// preprocessor reading /dev/zero stops at the compile's memory limit.
void TestHostileGrading::escapesStopAtTheKernel()
{
    QFETCH(QString, name);
    QFETCH(QString, standard);
    QFETCH(QString, reason);
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("compile"),
         m_class + QLatin1Char('/') + name + QStringLiteral("/kernel.cu"), QStringLiteral("-std"),
         standard, QStringLiteral("--confine"), QStringLiteral("--json")});
    // 1: the source did not compile; 2: the compiler itself failed (out of memory).
    QVERIFY2(run.exitCode == 1 || run.exitCode == 2, qPrintable(run.out + run.err));
    QVERIFY2(!run.out.contains(QLatin1String(kSecret)) && !run.err.contains(QLatin1String(kSecret)),
             qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(reason) || run.err.contains(reason), qPrintable(run.out + run.err));
}

void TestHostileGrading::hostCodeIsSetAsideNotRun_data()
{
    QTest::addColumn<QString>("name");
    for (const char *name : {"14-fork-bomb", "15-network", "16-outlives-worker"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

// A whole .cu with a host main() that forks without end, connects to the network or leaves a
// daemon: its kernel is built, its host code is never run.
void TestHostileGrading::hostCodeIsSetAsideNotRun()
{
    QFETCH(QString, name);
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("compile"),
                        m_class + QLatin1Char('/') + name + QStringLiteral("/kernel.cu"),
                        QStringLiteral("--confine")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("vector_add")), qPrintable(run.out));
    QVERIFY(!QFile::exists(m_root.filePath(QStringLiteral("HOST_CODE_RAN"))));
}

// The timing cheats beside an honest submission, graded with --measure: a graded submission is
// measured guarded (the globals, inputs and outputs put back before every sample, every sample
// verified), so the cheats that coast after a first launch are timed doing the work, no faster
// than the honest one beyond the noise, and the one that is wrong on some launches fails with
// the sample.
void TestHostileGrading::timingCheatsAreTimedDoingTheWork()
{
    namespace fs = std::filesystem;
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const char *const names[] = {"01-honest",         "19-first-launch-only",
                                 "20-cached-result",  "21-recognises-inputs",
                                 "22-stash-in-input", "23-sometimes-wrong"};
    for (const char *name : names) {
        std::error_code error;
        fs::copy(submission(name).toStdString(), root.filePath(QLatin1String(name)).toStdString(),
                 fs::copy_options::recursive, error);
        QVERIFY2(!error, error.message().c_str());
    }
    // Each measurement may take its time cap (5 s graded) and its compile.
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("run"), root.path(), QStringLiteral("--json"),
                        QStringLiteral("--summary"), QStringLiteral("--measure")},
                       QString(), QByteArray(), 300000);
    const QJsonObject summary = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QHash<QString, QJsonObject> byName;
    for (const QJsonValue &value : summary.value(QStringLiteral("results")).toArray()) {
        const QJsonObject result = value.toObject();
        byName.insert(
            result.value(QStringLiteral("project")).toString().section(QLatin1Char('/'), -2, -2),
            result);
    }
    QCOMPARE(byName.size(), 6);
    const QJsonObject honest = byName.value(QStringLiteral("01-honest"));
    if (honest.value(QStringLiteral("result")).toObject().value(QStringLiteral("status")) ==
        QLatin1String("no-device"))
        QSKIP("the timing cheats need a GPU: every submission reached the worker, which has none");
    QVERIFY2(run.exitCode == 1, qPrintable(run.out.left(3000) + run.err));
    const auto median = [&](const QJsonObject &result) {
        return result.value(QStringLiteral("measurement"))
            .toObject()
            .value(QStringLiteral("statistics"))
            .toObject()
            .value(QStringLiteral("medianNs"))
            .toDouble();
    };
    const double honestNs = median(honest);
    QVERIFY2(honestNs > 0.0, qPrintable(run.out.left(3000)));
    for (const char *name : names) {
        const QJsonObject result = byName.value(QLatin1String(name));
        const QJsonObject measurement = result.value(QStringLiteral("measurement")).toObject();
        if (QLatin1String(name) == QLatin1String("23-sometimes-wrong")) {
            QVERIFY2(!result.value(QStringLiteral("passed")).toBool(), name);
            continue;
        }
        QVERIFY2(result.value(QStringLiteral("passed")).toBool(),
                 QJsonDocument(result).toJson().constData());
        const QJsonObject settings = measurement.value(QStringLiteral("settings")).toObject();
        QVERIFY2(settings.value(QStringLiteral("guarded")).toBool(), name);
        // Every timed launch verified: the kept samples, and those the stopping rule dropped
        // from the batch it stopped in.
        const int verified = measurement.value(QStringLiteral("verifiedSamples")).toInt();
        const int kept = measurement.value(QStringLiteral("statistics"))
                             .toObject()
                             .value(QStringLiteral("count"))
                             .toInt();
        QVERIFY2(kept > 0 && verified >= kept, name);
        qInfo("%s: median %.2f µs (honest %.2f µs)", name, median(result) * 1e-3, honestNs * 1e-3);
        // Doing all the work: no faster than the honest kernel beyond a tenth.
        QVERIFY2(median(result) > 0.9 * honestNs, name);
    }
}

CUWB_TEST_GUILESS_MAIN(TestHostileGrading)
} // namespace tst_hostilegrading
} // namespace

#include "tst_hostilegrading.moc"
