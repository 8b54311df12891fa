// End-to-end tests of `cuwb sass`: the listing of a sample project beside its source, the
// mix with spills, JSON, the exit codes, and the message without nvdisasm (CUWB_NVDISASM
// pointing nowhere). The tests that disassemble skip, saying why, only when no nvdisasm can
// be found; the set-up (./workbench build) installs one into the build folder.
#include "cuwbprocess.h"

#include "inspect/nvdisasm.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

namespace {
namespace tst_cuwbsass {

namespace {

CuwbRun sass(const QStringList &arguments, const QString &nvdisasm = QString())
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("CUWB_CACHE_DIR"), QStringLiteral("off"));
    if (!nvdisasm.isNull())
        environment.insert(QStringLiteral("CUWB_NVDISASM"), nvdisasm);
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QStringLiteral(CUWB_SAMPLES_DIR "/.."));
    process.start(QStringLiteral(CUWB_CLI_PATH), QStringList{QStringLiteral("sass")} + arguments);
    CuwbRun run;
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// The spilling test kernel of the core tests.
const QString kSpills = QStringLiteral("tests/core/data/sass/spills.cu");

} // namespace

class TestCuwbSass : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void listingOfAProjectBesideItsSource();
    void everyKernelOfAFile();
    void mixWithSpills();
    void json();
    void jsonMix();
    void raw();
    void compileErrors();
    void usage();
    void withoutNvdisasm();
    void help();

private:
    bool m_haveTool = false;
    QString m_why;
};

void TestCuwbSass::initTestCase()
{
    const cuwb::NvdisasmTool tool = cuwb::findNvdisasm();
    m_haveTool = tool.found();
    m_why = QString::fromStdString(tool.problem);
}

#define REQUIRE_NVDISASM()                                                                         \
    if (!m_haveTool)                                                                               \
    QSKIP(qPrintable(QStringLiteral("no nvdisasm to run: ") + m_why))

void TestCuwbSass::listingOfAProjectBesideItsSource()
{
    REQUIRE_NVDISASM();
    const CuwbRun run = sass({QStringLiteral("samples/transpose/transpose.cuwb")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    const QStringList lines = run.outLines();
    // The project's kernel only, with its source lines named as the project names the file.
    QVERIFY2(lines.first().startsWith(QStringLiteral("// transpose_naive: sm_90, ")) &&
                 lines.first().endsWith(QStringLiteral("local memory: none")),
             qPrintable(lines.first()));
    QVERIFY(!run.out.contains(QStringLiteral("transpose_shared")));
    QVERIFY(lines.contains(QStringLiteral(
        "samples/transpose/transpose.cu:19: out[(long long)x * rows + y] = in[(long long)y * cols "
        "+ x];")));
    const qsizetype load = lines.indexOf(
        QRegularExpression(QStringLiteral("^    [0-9a-f]{4} +LDG\\.E\\.CONSTANT R\\d+, .*")));
    QVERIFY2(load > 0, qPrintable(run.out));
    QVERIFY(lines.indexOf(QRegularExpression(QStringLiteral("^    [0-9a-f]{4}  @P0 EXIT$"))) > 0);
    QVERIFY(lines.last().startsWith(QStringLiteral("// disassembled by nvdisasm ")));
}

void TestCuwbSass::everyKernelOfAFile()
{
    REQUIRE_NVDISASM();
    const CuwbRun run = sass({QStringLiteral("samples/transpose/transpose.cu")});
    QCOMPARE(run.exitCode, 0);
    for (const char *kernel : {"transpose_naive", "transpose_shared", "transpose_padded"})
        QVERIFY(run.out.contains(QStringLiteral("// ") + QLatin1String(kernel) +
                                 QStringLiteral(": sm_90")));
    const CuwbRun one = sass({QStringLiteral("samples/transpose/transpose.cu"),
                              QStringLiteral("--kernel"), QStringLiteral("transpose_padded")});
    QCOMPARE(one.exitCode, 0);
    QVERIFY(one.out.startsWith(QStringLiteral("// transpose_padded: sm_90")));
    QVERIFY(!one.out.contains(QStringLiteral("// transpose_naive")));
}

void TestCuwbSass::mixWithSpills()
{
    REQUIRE_NVDISASM();
    const CuwbRun run =
        sass({kSpills, QStringLiteral("--maxrregcount"), QStringLiteral("24"),
              QStringLiteral("--kernel"), QStringLiteral("spills"), QStringLiteral("--mix")});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.first().startsWith(QStringLiteral("kernel spills: ")), qPrintable(run.out));
    // The figures ptxas reports for this compile: 32 bytes stored, 28 loaded.
    QVERIFY2(run.out.contains(QStringLiteral(
                 "of these, register spills: 2 stores (32 bytes), 7 refills (28 bytes)")),
             qPrintable(run.out));
    const qsizetype header = lines.indexOf(QRegularExpression(QStringLiteral("^ +line +total .*")));
    QVERIFY(header > 0);
    QVERIFY(lines[header].contains(QStringLiteral(" local ")));
    QVERIFY(lines[header].endsWith(QStringLiteral("source")));
    // Spills land on the loop's line; the table's loads and stores are local memory of its own.
    QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral(
                 "\\n +38 .* \\[spills\\] for \\(int k = 0; k < n; \\+\\+k\\) \\{\\n"))),
             qPrintable(run.out));
    QVERIFY(run.out.contains(
        QRegularExpression(QStringLiteral("\\n +40 .* \\[local\\] table\\[k & 15\\] = acc;\\n"))));
}

void TestCuwbSass::json()
{
    REQUIRE_NVDISASM();
    const CuwbRun run =
        sass({QStringLiteral("samples/transpose/transpose.cuwb"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const nlohmann::json document = nlohmann::json::parse(run.out.toStdString());
    QCOMPARE(document["ok"].get<bool>(), true);
    QCOMPARE(document["arch"].get<std::string>(), std::string("sm_90"));
    QCOMPARE(document["sourceName"].get<std::string>(), std::string("transpose.cu"));
    QVERIFY(!document["nvdisasm"]["version"].get<std::string>().empty());
    QCOMPARE(document["kernels"].size(), std::size_t(1));
    const nlohmann::json &kernel = document["kernels"][0];
    QCOMPARE(kernel["name"].get<std::string>(), std::string("transpose_naive"));
    const nlohmann::json &first = kernel["instructions"][0];
    QCOMPARE(first["offset"].get<int>(), 0);
    QCOMPARE(first["opcode"].get<std::string>(), std::string("LDC"));
    QCOMPARE(first["baseOpcode"].get<std::string>(), std::string("LDC"));
    QCOMPARE(first["class"].get<std::string>(), std::string("constant"));
    QCOMPARE(first["line"].get<int>(), 13);
    QCOMPARE(kernel["mix"]["total"]["classes"]["global"].get<int>(), 2);
    // Each instruction names its file as it is on disk, not as the compiler saw a copy of it.
    const QString real =
        QFileInfo(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cu")).absoluteFilePath();
    QCOMPARE(QString::fromStdString(first["file"].get<std::string>()), real);
}

void TestCuwbSass::jsonMix()
{
    REQUIRE_NVDISASM();
    const CuwbRun run = sass({kSpills, QStringLiteral("--maxrregcount=24"),
                              QStringLiteral("--json"), QStringLiteral("--mix")});
    QCOMPARE(run.exitCode, 0);
    const nlohmann::json document = nlohmann::json::parse(run.out.toStdString());
    QCOMPARE(document["kernels"].size(), std::size_t(2));
    for (const nlohmann::json &kernel : document["kernels"]) {
        QVERIFY(!kernel.contains("instructions"));
        QVERIFY(kernel["mix"]["lines"].is_array());
        if (kernel["name"] == "spills")
            QCOMPARE(kernel["mix"]["total"]["spills"]["storeBytes"].get<int>(), 32);
    }
}

void TestCuwbSass::raw()
{
    REQUIRE_NVDISASM();
    const CuwbRun run = sass({QStringLiteral("samples/copy/copy.cu"), QStringLiteral("--raw")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral(".section\t.text.copy,")));
    QVERIFY(run.out.contains(QStringLiteral("//## File ")));
}

void TestCuwbSass::compileErrors()
{
    REQUIRE_NVDISASM();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.cu"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("__global__ void k() { undeclared = 1; }\n");
    file.close();
    const CuwbRun run = sass({path});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(path + QStringLiteral(":1:")), qPrintable(run.err));
    QVERIFY(run.err.contains(QStringLiteral("does not compile for sm_90")));
    QVERIFY(run.out.isEmpty());
    const CuwbRun json = sass({path, QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 1);
    const nlohmann::json document = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(document["ok"].get<bool>(), false);
    QCOMPARE(document["diagnostics"][0]["line"].get<int>(), 1);
}

void TestCuwbSass::usage()
{
    CuwbRun run = sass({});
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err, QStringLiteral("cuwb sass: no project or source file\n"
                                     "Run 'cuwb help sass' for its options.\n"));
    run = sass({QStringLiteral("samples/transpose/transpose.cuwb"), QStringLiteral("-DTILE=16")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("-D applies to a .cu file")));
    run = sass({QStringLiteral("samples/copy/copy.cu"), QStringLiteral("--arch"),
                QStringLiteral("compute_90")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("compute_90 is not supported")));
    run = sass({QStringLiteral("nonexistent.cu")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.startsWith(QStringLiteral("cuwb sass: cannot read source 'nonexistent.cu'")));
    if (m_haveTool) {
        run = sass({QStringLiteral("samples/copy/copy.cu"), QStringLiteral("--kernel"),
                    QStringLiteral("nonesuch")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("nonesuch")), qPrintable(run.err));
    }
}

void TestCuwbSass::withoutNvdisasm()
{
    const QString missing = QStringLiteral("/nonexistent/nvdisasm");
    CuwbRun run = sass({QStringLiteral("samples/copy/copy.cu")}, missing);
    QCOMPARE(run.exitCode, 4);
    QVERIFY(run.out.isEmpty());
    QCOMPARE(run.err, QStringLiteral("cuwb sass: nvdisasm is not available: CUWB_NVDISASM names "
                                     "'/nonexistent/nvdisasm', which is not an executable "
                                     "file.\n"));
    run = sass({QStringLiteral("samples/copy/copy.cu"), QStringLiteral("--json")}, missing);
    QCOMPARE(run.exitCode, 4);
    const nlohmann::json document = nlohmann::json::parse(run.out.toStdString());
    QCOMPARE(document["ok"].get<bool>(), false);
    QCOMPARE(document["toolMissing"].get<bool>(), true);
    QVERIFY(document["error"].get<std::string>().starts_with("nvdisasm is not available"));
}

void TestCuwbSass::help()
{
    const CuwbRun list = runCuwbProcess({QStringLiteral("help")});
    QCOMPARE(list.exitCode, 0);
    QVERIFY(list.out.contains(QStringLiteral("  sass PROJECT.cuwb ")));
    const CuwbRun help = runCuwbProcess({QStringLiteral("help"), QStringLiteral("sass")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.startsWith(QStringLiteral("Usage: cuwb sass [OPTIONS] PROJECT.cuwb|FILE.cu")));
    QVERIFY(help.out.contains(QStringLiteral("4 nvdisasm is not installed")));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbSass)
} // namespace tst_cuwbsass
} // namespace

#include "tst_cuwbsass.moc"
