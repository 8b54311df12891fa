// End-to-end tests of the cuwb command line: the real binary, run through QProcess, on good
// and bad kernels in data/. Checks the exact FILE:LINE:COLUMN lines, exit codes 0/1/2, the
// JSON documents, occupancy output, devices without a driver, and --version.
#include "cuda/driverapi.h"
#include "device/devicejson.h"

#include "cuwbprocess.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbcli {

namespace {

using Run = CuwbRun;

Run runCuwb(const QStringList &arguments, const QString &workingDirectory = QString())
{
    return runCuwbProcess(arguments, workingDirectory);
}

nlohmann::json parseJson(const QString &text)
{
    return nlohmann::json::parse(text.toStdString());
}

} // namespace

class TestCuwbCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compilesGoodFile();
    void compilesSample();
    void reportsErrorsAtExactColumns();
    void keepsPathAsGiven();
    void warningsStillSucceed();
    void appliesDefinesAndIncludes();
    void findsHeadersBesideTheFile();
    void instantiatesNameExpressions();
    void printsJson();
    void printsPtx();
    void listsModuleVariables();
    void compilesAProjectsSource();
    void wholeProgramWithHostCode();
    void compilerAndFlags();
    void listsTemplatesToInstantiate();
    void headersVariablesOnRequest();
    void rejectsBadUsage_data();
    void rejectsBadUsage();
    void computesOccupancy();
    void occupancyJson();
    void occupancyRejectsBadInput_data();
    void occupancyRejectsBadInput();
    void devicesWithoutDriverSayCompileOnly();
    void printsVersions();
    void outputThatCannotBeWrittenIsAnError_data();
    void outputThatCannotBeWrittenIsAnError();
    void helpAndNoArguments();
    void workerAnswersALastLineWithoutNewline();
    void workerRefusesAnotherProtocol();
};

void TestCuwbCli::compilesGoodFile()
{
    const Run run = runCuwb({QStringLiteral("compile"), dataFile("good.cu")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(!run.out.contains(QStringLiteral(": error:")), qPrintable(run.out));
    QVERIFY2(QRegularExpression(QStringLiteral("^kernel scale: \\d+ registers, 0 bytes shared"),
                                QRegularExpression::MultilineOption)
                 .match(run.out)
                 .hasMatch(),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("0 errors, 0 warnings, 1 kernel")));
}

void TestCuwbCli::compilesSample()
{
    const QString sample = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu");
    if (!QFile::exists(sample)) {
        QSKIP("samples/vector_add/vector_add.cu is not there yet");
    }
    const Run run = runCuwb(
        {QStringLiteral("compile"), QStringLiteral("--arch"), QStringLiteral("sm_80"), sample});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("kernel ")), qPrintable(run.out));
}

void TestCuwbCli::reportsErrorsAtExactColumns()
{
    const QString file = dataFile("errors.cu");
    const Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 1);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.size() >= 2, qPrintable(run.out));
    QCOMPARE(lines[0], file + QStringLiteral(":5:14: error: identifier \"undeclared_value\" is "
                                             "undefined"));
    QCOMPARE(lines[1],
             file + QStringLiteral(":6:5: error: identifier \"not_a_function\" is undefined"));
    QVERIFY(run.out.contains(QStringLiteral("2 errors")));
}

void TestCuwbCli::keepsPathAsGiven()
{
    // Relative, with a folder: the line names the file exactly as typed, not its base name.
    const QString testsDir = QFileInfo(QStringLiteral(CUWB_TEST_DATA_DIR)).absolutePath();
    Run run = runCuwb({QStringLiteral("compile"), QStringLiteral("data/errors.cu")}, testsDir);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.outLines().value(0).startsWith(QStringLiteral("data/errors.cu:5:14: error: ")),
             qPrintable(run.out));

    run = runCuwb({QStringLiteral("compile"), QStringLiteral("errors.cu")},
                  QStringLiteral(CUWB_TEST_DATA_DIR));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.outLines().value(0).startsWith(QStringLiteral("errors.cu:5:14: error: ")),
             qPrintable(run.out));
}

void TestCuwbCli::warningsStillSucceed()
{
    const QString file = dataFile("warning.cu");
    const Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.outLines().value(0),
             file + QStringLiteral(":4:9: warning: #177-D: variable \"unused\" was declared but "
                                   "never referenced"));
    QVERIFY(run.out.contains(QStringLiteral("kernel unusedVariable: ")));
}

void TestCuwbCli::appliesDefinesAndIncludes()
{
    const QString file = dataFile("needsdefine.cu");
    Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral("cannot open source file \"element.h\"")),
             qPrintable(run.out));

    // Both spellings: "-D NAME=VALUE" / "-DNAME", "-I DIR" / "-IDIR".
    run = runCuwb({QStringLiteral("compile"), QStringLiteral("-D"), QStringLiteral("ELEMENT=float"),
                   QStringLiteral("-I"), dataFile("inc"), file});
    QCOMPARE(run.exitCode, 0);
    run = runCuwb({QStringLiteral("compile"), QStringLiteral("-DELEMENT=double"),
                   QStringLiteral("-I") + dataFile("inc"), QStringLiteral("-O2"),
                   QStringLiteral("-std=c++20"), QStringLiteral("--use_fast_math"),
                   QStringLiteral("--maxrregcount"), QStringLiteral("32"), file});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("kernel fill: ")));

    // The #error fires when only the include folder is given.
    run = runCuwb({QStringLiteral("compile"), QStringLiteral("-I"), dataFile("inc"), file});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(file + QStringLiteral(":5:2: error: ")), qPrintable(run.out));
}

void TestCuwbCli::findsHeadersBesideTheFile()
{
    const Run run = runCuwb({QStringLiteral("compile"), dataFile("local/usesneighbour.cu")});
    QCOMPARE(run.exitCode, 0);
}

void TestCuwbCli::instantiatesNameExpressions()
{
    const Run run = runCuwb({QStringLiteral("compile"), QStringLiteral("--name-expression"),
                             QStringLiteral("twice<float>"), dataFile("template.cu")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("twice<float>")), qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("_Z5twiceIfEvPT_")));
}

void TestCuwbCli::printsJson()
{
    const QString file = dataFile("errors.cu");
    Run run = runCuwb({QStringLiteral("compile"), QStringLiteral("--json"), file});
    QCOMPARE(run.exitCode, 1);
    nlohmann::json json = parseJson(run.out);
    QCOMPARE(json.at("success").get<bool>(), false);
    QVERIFY(json.contains("compileTimeMs"));
    QCOMPARE(json.at("diagnostics").size(), std::size_t(2));
    const nlohmann::json &first = json.at("diagnostics").at(0);
    QCOMPARE(QString::fromStdString(first.at("file").get<std::string>()), file);
    QCOMPARE(first.at("line").get<int>(), 5);
    QCOMPARE(first.at("column").get<int>(), 14);
    QCOMPARE(first.at("severity").get<std::string>(), std::string("error"));

    run = runCuwb({QStringLiteral("compile"), QStringLiteral("--json"), QStringLiteral("--arch"),
                   QStringLiteral("sm_80"), dataFile("good.cu")});
    QCOMPARE(run.exitCode, 0);
    json = parseJson(run.out);
    QCOMPARE(json.at("success").get<bool>(), true);
    QVERIFY(json.at("diagnostics").empty());
    QCOMPARE(json.at("kernels").size(), std::size_t(1));
    const nlohmann::json &kernel = json.at("kernels").at(0);
    QCOMPARE(kernel.at("loweredName").get<std::string>(), std::string("scale"));
    QVERIFY(kernel.at("resources").at("registers").get<int>() > 0);
    QVERIFY(!json.contains("ptx"));
}

// `cuwb compile PROJECT.cuwb` compiles the project's source with its options and bound launch
// defines, not the JSON, and names the compiler and its command.
void TestCuwbCli::compilesAProjectsSource()
{
    const QString project = QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cuwb");
    const Run run = runCuwb({QStringLiteral("compile"), project});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("kernel transpose_shared: ")), qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("compiled ") + QStringLiteral(CUWB_SAMPLES_DIR) +
                             QStringLiteral("/transpose/transpose.cu")));
    const QRegularExpression builtBy(QStringLiteral("built by (nvcc [0-9.]+|NVRTC [0-9.]+): "));
    QVERIFY2(builtBy.match(run.out).hasMatch(), qPrintable(run.out));
    const Run json = runCuwb({QStringLiteral("compile"), QStringLiteral("--json"), project});
    QCOMPARE(json.exitCode, 0);
    const nlohmann::json document = parseJson(json.out);
    QVERIFY(!document.at("compiledBy").at("command").get<std::string>().empty());
}

void TestCuwbCli::wholeProgramWithHostCode()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("program.cu"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("#include <cstdio>\n#include <vector>\n#include \"gone.h\"\n#include \"gone_too.h\"\n"
              "__global__ void k(uint *p) { p[0] = uint(M_PI); }\n"
              "int main() { std::vector<int> v(3); std::printf(\"%zu\\n\", v.size()); }\n");
    out.close();
    // Both missing headers at once, each on its line.
    Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(file + QStringLiteral(":3:")) &&
                 run.out.contains(file + QStringLiteral(":4:")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("\"gone_too.h\"")));
    // With the headers there, it compiles as it is, and the note names the host code.
    QFile(dir.filePath(QStringLiteral("gone.h"))).open(QIODevice::WriteOnly);
    QFile(dir.filePath(QStringLiteral("gone_too.h"))).open(QIODevice::WriteOnly);
    run = runCuwb({QStringLiteral("compile"), file});
    if (run.out.contains(QStringLiteral("built by NVRTC")))
        QSKIP("the toolkit has no nvcc");
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("note: host code set aside: main()")),
             qPrintable(run.out));
}

void TestCuwbCli::compilerAndFlags()
{
    const QString good = dataFile("good.cu");
    Run run = runCuwb({QStringLiteral("compile"), QStringLiteral("--compiler"),
                       QStringLiteral("nvrtc"), QStringLiteral("--flag=-ftz=true"), good});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("built by NVRTC")), qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("-ftz=true")));
    run = runCuwb(
        {QStringLiteral("compile"), QStringLiteral("--flag=-Xcompiler=-fplugin=x.so"), good});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("runs another program")), qPrintable(run.err));
    run = runCuwb(
        {QStringLiteral("compile"), QStringLiteral("--compiler"), QStringLiteral("gcc"), good});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("not one of auto, nvcc, nvrtc")));
}

void TestCuwbCli::listsTemplatesToInstantiate()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("t.cu"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("template <unsigned N, typename T>\n__global__ void tile(T *x) { x[0] = N; }\n"
              "__global__ void plain(int *x) { x[0] = 1; }\n");
    out.close();
    Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("template kernel tile<unsigned N, typename T>(T *x), "
                                             "line 2: not instantiated; name it as tile<N, T>")),
             qPrintable(run.out));
    // Named as the source spells it, the unsigned argument without its suffix.
    run = runCuwb({QStringLiteral("compile"), QStringLiteral("--json"),
                   QStringLiteral("--name-expression"), QStringLiteral("tile<32, float>"), file});
    QCOMPARE(run.exitCode, 0);
    const nlohmann::json json = parseJson(run.out);
    QCOMPARE(json.at("templates").size(), std::size_t(1));
    QCOMPARE(json.at("templates")[0].at("placeholder").get<std::string>(),
             std::string("tile<N, T>"));
    QCOMPARE(json.at("templates")[0].at("instantiated").size(), std::size_t(1));
}

void TestCuwbCli::headersVariablesOnRequest()
{
    // The cooperative-groups headers bring module variables of their own; the listing shows
    // the file's, and says how many it left out.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("cg.cu"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
              "namespace cg = cooperative_groups;\n__constant__ float c_table[16];\n"
              "__global__ void k(float *p) { auto w = cg::tiled_partition<32>("
              "cg::this_thread_block()); p[0] = cg::reduce(w, p[1] * c_table[0], "
              "cg::plus<float>()); }\n");
    out.close();
    const Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 0);
    const QStringList variables =
        run.out.split(QLatin1Char('\n')).filter(QStringLiteral("variable "));
    QCOMPARE(variables.size(), 1);
    QVERIFY(variables[0].startsWith(QStringLiteral("variable c_table (__constant__ float)")));
    QVERIFY2(run.out.contains(QStringLiteral("of included headers not listed (--all-variables")),
             qPrintable(run.out));
    const Run all = runCuwb({QStringLiteral("compile"), QStringLiteral("--all-variables"), file});
    QVERIFY(all.out.split(QLatin1Char('\n')).filter(QStringLiteral("variable ")).size() > 1);
}

void TestCuwbCli::printsPtx()
{
    const Run run =
        runCuwb({QStringLiteral("compile"), QStringLiteral("--ptx"), dataFile("good.cu")});
    QCOMPARE(run.exitCode, 0);
    // stdout is the PTX alone, ready to redirect into a file; the report goes to stderr.
    QVERIFY2(run.out.startsWith(QStringLiteral("//")), qPrintable(run.out.left(200)));
    QVERIFY(run.out.contains(QStringLiteral(".entry scale")));
    QVERIFY(!run.out.contains(QStringLiteral("kernel scale:")));
    QVERIFY(run.err.contains(QStringLiteral("kernel scale:")));
}

void TestCuwbCli::rejectsBadUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString good = dataFile("good.cu");
    QTest::newRow("missing file") << QStringList{QStringLiteral("compile"), dataFile("nope.cu")}
                                  << QStringLiteral("cannot read");
    QTest::newRow("directory") << QStringList{QStringLiteral("compile"),
                                              QStringLiteral(CUWB_TEST_DATA_DIR)}
                               << QStringLiteral("is a directory");
    QTest::newRow("unknown option")
        << QStringList{QStringLiteral("compile"), QStringLiteral("--frobnicate"), good}
        << QStringLiteral("unknown option --frobnicate");
    QTest::newRow("unsupported arch")
        << QStringList{QStringLiteral("compile"), QStringLiteral("--arch"), QStringLiteral("sm_12"),
                       good}
        << QStringLiteral("unsupported architecture 'sm_12'");
    QTest::newRow("no file") << QStringList{QStringLiteral("compile")}
                             << QStringLiteral("no input file");
    QTest::newRow("two files") << QStringList{QStringLiteral("compile"), good, good}
                               << QStringLiteral("one input file");
    QTest::newRow("missing value")
        << QStringList{QStringLiteral("compile"), good, QStringLiteral("--arch")}
        << QStringLiteral("needs a value");
    QTest::newRow("bad -O") << QStringList{QStringLiteral("compile"), QStringLiteral("-O9"), good}
                            << QStringLiteral("-O0, -O1, -O2 or -O3");
    QTest::newRow("unknown command")
        << QStringList{QStringLiteral("frobnicate")} << QStringLiteral("unknown command");
    QTest::newRow("devices argument")
        << QStringList{QStringLiteral("devices"), QStringLiteral("--all")}
        << QStringLiteral("unknown option --all");
}

void TestCuwbCli::rejectsBadUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = runCuwb(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void TestCuwbCli::computesOccupancy()
{
    // sm_90, 1024 threads at 64 registers: 2048 registers a warp, 32 warps an SM -> 1 block.
    const Run run =
        runCuwb({QStringLiteral("occupancy"), QStringLiteral("--arch"), QStringLiteral("sm_90"),
                 QStringLiteral("--registers"), QStringLiteral("64"), QStringLiteral("--block"),
                 QStringLiteral("1024")});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.contains(QStringLiteral("blocks per SM: 1")), qPrintable(run.out));
    QVERIFY(lines.contains(QStringLiteral("warps per SM: 32 of 64")));
    QVERIFY(lines.contains(QStringLiteral("occupancy: 50.0%")));
    QVERIFY(lines.contains(QStringLiteral("limiter: registers")));
}

void TestCuwbCli::occupancyJson()
{
    // sm_80, 128 threads, 48 KB dynamic: (49152 + 1024 reserved) per block, 3 in 164 KB.
    const Run run = runCuwb(
        {QStringLiteral("occupancy"), QStringLiteral("--arch=sm_80"), QStringLiteral("--registers"),
         QStringLiteral("16"), QStringLiteral("--shared-dynamic"), QStringLiteral("49152"),
         QStringLiteral("--block"), QStringLiteral("128"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const nlohmann::json json = parseJson(run.out);
    QCOMPARE(json.at("valid").get<bool>(), true);
    QCOMPARE(json.at("activeBlocksPerSm").get<int>(), 3);
    QCOMPARE(json.at("activeWarpsPerSm").get<int>(), 12);
    QCOMPARE(json.at("occupancy").get<double>(), 0.1875);
    QCOMPARE(json.at("limiter").get<std::string>(), std::string("shared memory"));
    QCOMPARE(json.at("arch").get<std::string>(), std::string("sm_80"));
}

void TestCuwbCli::occupancyRejectsBadInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QStringList base{QStringLiteral("occupancy"), QStringLiteral("--arch"),
                           QStringLiteral("sm_90"), QStringLiteral("--registers"),
                           QStringLiteral("32")};
    QTest::newRow("missing block") << base << 2 << QStringLiteral("missing --block");
    QTest::newRow("not a number") << (base + QStringList{QStringLiteral("--block"),
                                                         QStringLiteral("many")})
                                  << 2 << QStringLiteral("whole number");
    QTest::newRow("unknown arch") << QStringList{QStringLiteral("occupancy"),
                                                 QStringLiteral("--arch"),
                                                 QStringLiteral("sm_12"),
                                                 QStringLiteral("--registers"),
                                                 QStringLiteral("32"),
                                                 QStringLiteral("--block"),
                                                 QStringLiteral("128")}
                                  << 2 << QStringLiteral("unknown architecture");
    // A configuration that cannot run is an answer, not a usage error.
    QTest::newRow("block too large")
        << (base + QStringList{QStringLiteral("--block"), QStringLiteral("2048")}) << 1
        << QStringLiteral("block size 2048 exceeds");
}

void TestCuwbCli::occupancyRejectsBadInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run run = runCuwb(arguments);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2((run.out + run.err).contains(message), qPrintable(run.out + run.err));
}

void TestCuwbCli::devicesWithoutDriverSayCompileOnly()
{
    if (DriverApi::instance().available()) {
        QSKIP("a CUDA driver is installed here; this test covers machines without one");
    }
    Run run = runCuwb({QStringLiteral("devices")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("No CUDA driver (libcuda.so.1 not found) — "
                                             "compile-only mode")),
             qPrintable(run.out));

    run = runCuwb({QStringLiteral("devices"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const DeviceQuery query = parseJson(run.out).get<DeviceQuery>();
    QCOMPARE(query.driverLoaded, false);
    QVERIFY(query.devices.empty());
    QVERIFY(QString::fromStdString(query.message).contains(QStringLiteral("compile-only")));
}

void TestCuwbCli::outputThatCannotBeWrittenIsAnError_data()
{
    QTest::addColumn<QStringList>("arguments");
    const QString sample = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb");
    QTest::newRow("compile --json")
        << QStringList{QStringLiteral("compile"), sample, QStringLiteral("--json")};
    QTest::newRow("check --json") << QStringList{QStringLiteral("check"), sample,
                                                 QStringLiteral("--json")};
    QTest::newRow("sweep --list") << QStringList{QStringLiteral("sweep"), sample,
                                                 QStringLiteral("--list")};
}

// On a full disk the JSON is lost: exit 5, with a sentence on stderr, never 0.
void TestCuwbCli::outputThatCannotBeWrittenIsAnError()
{
    QFETCH(QStringList, arguments);
    if (!QFile::exists(QStringLiteral("/dev/full")))
        QSKIP("no /dev/full on this system");
    QProcess process;
    process.setStandardOutputFile(QStringLiteral("/dev/full"));
    process.start(QStringLiteral(CUWB_CLI_PATH), arguments);
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 5);
    QVERIFY2(process.readAllStandardError().contains("the output could not be written"),
             "no word of it on stderr");
}

void TestCuwbCli::printsVersions()
{
    const Run run = runCuwb({QStringLiteral("--version")});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.size(), 3);
    QVERIFY2(
        QRegularExpression(QStringLiteral("^cuwb \\d+\\.\\d+\\.\\d+$")).match(lines[0]).hasMatch(),
        qPrintable(lines[0]));
    QVERIFY2(QRegularExpression(QStringLiteral("^NVRTC \\d+\\.\\d+$")).match(lines[1]).hasMatch(),
             qPrintable(lines[1]));
    if (DriverApi::instance().available()) {
        QVERIFY2(QRegularExpression(QStringLiteral("^CUDA driver \\d+\\.\\d+$"))
                     .match(lines[2])
                     .hasMatch(),
                 qPrintable(lines[2]));
    } else {
        QVERIFY2(lines[2].startsWith(QStringLiteral("CUDA driver: no driver")),
                 qPrintable(lines[2]));
    }
}

void TestCuwbCli::helpAndNoArguments()
{
    Run run = runCuwb({});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QStringLiteral("Usage: cuwb")));
    run = runCuwb({QStringLiteral("help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("Usage: cuwb")));
    run = runCuwb({QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    run = runCuwb({QStringLiteral("compile"), QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("FILE:LINE:COLUMN")));
    run = runCuwb({QStringLiteral("help"), QStringLiteral("occupancy")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("--shared-dynamic")));
}

void TestCuwbCli::listsModuleVariables()
{
    // What a project can initialise with launch.globals, from the compiled module.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("filter.cu"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("__constant__ float c_filter[17];\n__device__ int d_count;\n"
              "__global__ void use(float *x) { x[0] = c_filter[3] + d_count; }\n");
    out.close();
    const Run run = runCuwb({QStringLiteral("compile"), file});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("variable c_filter (__constant__ float): 68 bytes\n")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("variable d_count (__device__ int): 4 bytes\n")),
             qPrintable(run.out));
    const Run json = runCuwb({QStringLiteral("compile"), QStringLiteral("--json"), file});
    QCOMPARE(json.exitCode, 0);
    const nlohmann::json report = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(report["variables"].size(), std::size_t(2));
    QCOMPARE(report["variables"][0]["space"], nlohmann::json("constant"));
    QCOMPARE(report["variables"][0]["type"], nlohmann::json("float"));
}

void TestCuwbCli::workerAnswersALastLineWithoutNewline()
{
    // The input ends without a newline: the request is still answered (it was dropped).
    const CuwbRun run =
        runCuwbProcess({QStringLiteral("worker")}, {},
                       QByteArrayLiteral(R"({"id":7,"type":"hello","protocol":1,"cuwb":"0.1.0"})"));
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.size(), 1);
    const nlohmann::json reply = nlohmann::json::parse(lines.first().toStdString());
    QCOMPARE(reply["id"], 7);
    QCOMPARE(reply["type"], "hello");
}

void TestCuwbCli::workerRefusesAnotherProtocol()
{
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("worker")}, {},
        QByteArrayLiteral("{\"id\":1,\"type\":\"hello\",\"protocol\":99,\"cuwb\":\"9.9\"}\n"));
    QCOMPARE(run.exitCode, 0);
    const nlohmann::json reply = nlohmann::json::parse(run.outLines().value(0).toStdString());
    QCOMPARE(reply["type"], "error");
    QVERIFY2(reply["message"].get<std::string>().find(
                 "speaks protocol version 1 but the client (cuwb 9.9) speaks version 99") !=
                 std::string::npos,
             reply.dump().c_str());
}

CUWB_TEST_GUILESS_MAIN(TestCuwbCli)
} // namespace tst_cuwbcli
} // namespace

#include "tst_cuwbcli.moc"
