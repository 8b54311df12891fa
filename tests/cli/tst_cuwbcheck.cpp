// End-to-end tests of `cuwb check`: good and bad projects in data/ give the exact
// PROJECT: FIELD: MESSAGE lines and exit codes 0, 1 and 2; --json and --arch.
#include "cuwbprocess.h"

#include <QDir>
#include <QProcess>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

using Run = CuwbRun;

Run runCuwb(const QStringList &arguments)
{
    // The data folder is the working directory, so the lines carry short relative paths.
    return runCuwbProcess(arguments, QStringLiteral(CUWB_TEST_DATA_DIR));
}

Run check(const char *project, QStringList extra = {})
{
    return runCuwb(QStringList{QStringLiteral("check")} + extra +
                   QStringList{QString::fromUtf8(project)});
}

} // namespace

class TestCuwbCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void goodProjectWouldRun();
    void reportsEveryLimit();
    void reportsExpressionErrorsAndVerification();
    void otherArchitecture();
    void compileErrors();
    void wrongKernel();
    void missingFilesAreNamedFromTheProjectFolder();
    void malformedProjects_data();
    void malformedProjects();
    void json();
    void usage();
    void compileJsonListsParameters();
    void checksEverySweepPoint();
    void sequencesAndChecks();
};

void TestCuwbCheck::goodProjectWouldRun()
{
    const Run run = check("check_good.cuwb");
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.outLines(),
             QStringList{QStringLiteral("check_good.cuwb: vector_add would run on sm_90: grid "
                                        "(4096, 1, 1), block (256, 1, 1), 3 buffers of 12582912 "
                                        "bytes")});
}

void TestCuwbCheck::reportsEveryLimit()
{
    const Run run = check("check_bad.cuwb");
    QCOMPARE(run.exitCode, 1);
    const QStringList lines = run.outLines();
    QVERIFY2(lines.size() == 7, qPrintable(run.out));
    QCOMPARE(lines[0], QStringLiteral("check_bad.cuwb: argument n: n = N = 5000000000 does not fit "
                                      "in int (max 2147483647)"));
    QCOMPARE(lines[1],
             QStringLiteral("check_bad.cuwb: block.x: block.x is 2048; sm_90 allows 1024"));
    QCOMPARE(lines[2], QStringLiteral("check_bad.cuwb: block.z: block.z is 128; sm_90 allows 64"));
    QCOMPARE(lines[3],
             QStringLiteral("check_bad.cuwb: block: block has 262144 threads; sm_90 allows 1024"));
    QCOMPARE(lines[4],
             QStringLiteral("check_bad.cuwb: grid.y: grid.y is 70000; sm_90 allows 65535"));
    QVERIFY2(lines[5].startsWith(QStringLiteral("check_bad.cuwb: registers: ")) &&
                 lines[5].endsWith(QStringLiteral("; sm_90 allows 65536 per block")),
             qPrintable(lines[5]));
    QCOMPARE(lines[6], QStringLiteral("check_bad.cuwb: would not run: 6 problems"));
}

void TestCuwbCheck::reportsExpressionErrorsAndVerification()
{
    const Run run = check("check_expressions.cuwb");
    QCOMPARE(run.exitCode, 1);
    const QStringList expected{
        QStringLiteral(
            "check_expressions.cuwb: grid.x: a parenthesis is not closed (at character 17)"),
        QStringLiteral(
            "check_expressions.cuwb: argument a: count: unknown variable 'M' (at character 1)"),
        QStringLiteral("check_expressions.cuwb: shared memory: 0 static + 300000 dynamic = 300000 "
                       "bytes; sm_90 allows 49152 without opt-in and 232448 with it"),
        QStringLiteral("check_expressions.cuwb: verification: output: the launch has no buffer "
                       "and the module no global named 'd' (its buffers: a, b, c)"),
        QStringLiteral("check_expressions.cuwb: would not run: 4 problems"),
    };
    QCOMPARE(run.outLines(), expected);
}

void TestCuwbCheck::sequencesAndChecks()
{
    // A sequence sized from the SM count (the sm_90 catalogue's 132 SMs), with two checks whose
    // expression reads a global and whose mask is written with C++'s and/not: all compiled.
    const Run good = check("check_sequence_good.cuwb");
    QCOMPARE(good.exitCode, 0);
    QCOMPARE(good.outLines(),
             QStringList{QStringLiteral("check_sequence_good.cuwb: vector_add would run on sm_90: "
                                        "grid (528, 1, 1), block (256, 1, 1), 4 buffers of "
                                        "1622020 bytes")});
    // Every check's expression and mask compiled, each problem named with its check; the
    // further kernel's binding and block checked.
    const Run bad = check("check_sequence_bad.cuwb");
    QCOMPARE(bad.exitCode, 1);
    const QStringList expected{
        QStringLiteral("check_sequence_bad.cuwb: then[0] (sum_all): argument values: there is no "
                       "buffer named 'd' before this kernel (the sequence's buffers: a, b, c)"),
        QStringLiteral("check_sequence_bad.cuwb: then[0] (sum_all): block.x: block.x is 2048; "
                       "sm_90 allows 1024"),
        QStringLiteral("check_sequence_bad.cuwb: then[0] (sum_all): block: block has 2048 "
                       "threads; sm_90 allows 1024"),
        QStringLiteral("check_sequence_bad.cuwb: verification[0] (`c`): mask: does not compile: "
                       "verification mask:1:4: expected an expression"),
        QStringLiteral("check_sequence_bad.cuwb: verification[1] (`c`): expression: does not "
                       "compile: verification expression:1:8: identifier \"missing\" is "
                       "undefined"),
        QStringLiteral("check_sequence_bad.cuwb: verification[1] (`c`): count: `N + 1` is 4097; "
                       "`c` has 4096 elements"),
        QStringLiteral("check_sequence_bad.cuwb: verification[2] (`total`): referenceKernel: a "
                       "reference kernel takes the first kernel's parameters, and `total` is not "
                       "one of them"),
        QStringLiteral("check_sequence_bad.cuwb: would not run: 7 problems"),
    };
    QCOMPARE(bad.outLines(), expected);
    // Without a catalogue GPU for the architecture, the SM count is not known.
    const Run other =
        check("check_sequence_good.cuwb", {QStringLiteral("--arch"), QStringLiteral("sm_100")});
    QCOMPARE(other.exitCode, 1);
    QVERIFY2(other.out.contains(QStringLiteral("variables: N: device.smCount is not known "
                                               "without a GPU for sm_100")),
             qPrintable(other.out));
}

void TestCuwbCheck::otherArchitecture()
{
    const Run run = check("check_bad.cuwb", {QStringLiteral("--arch"), QStringLiteral("sm_80")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(
                 QStringLiteral("check_bad.cuwb: block.z: block.z is 128; sm_80 allows 64")),
             qPrintable(run.out));
    const Run unknown =
        check("check_good.cuwb", {QStringLiteral("--arch"), QStringLiteral("sm_12")});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains(QStringLiteral("unknown architecture 'sm_12'")),
             qPrintable(unknown.err));
}

void TestCuwbCheck::compileErrors()
{
    const Run run = check("check_compile_error.cuwb");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.outLines().value(0),
             QStringLiteral(
                 "check_compile_error.cuwb:3:12: error: identifier \"missing\" is undefined"));
}

void TestCuwbCheck::wrongKernel()
{
    const Run run = check("check_wrong_kernel.cuwb");
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.outLines().value(0),
             QStringLiteral("check_wrong_kernel.cuwb: launch: kernel: the source has no kernel "
                            "`vectorAdd` (it has: vector_add)"));
}

void TestCuwbCheck::missingFilesAreNamedFromTheProjectFolder()
{
    // Run from another folder: the files are looked for beside the project, not here.
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("check"), dataFile("check_missing_files.cuwb")}, QDir::tempPath());
    QCOMPARE(run.exitCode, 1);
    const QString folder = QStringLiteral(CUWB_TEST_DATA_DIR);
    QVERIFY2(
        run.out.contains(
            QStringLiteral("argument a: init file: '%1/inputs/a.npy' does not exist").arg(folder)),
        qPrintable(run.out));
    QVERIFY2(
        run.out.contains(
            QStringLiteral("verification: file: '%1/expected/c.npy' does not exist").arg(folder)),
        qPrintable(run.out));
}

void TestCuwbCheck::malformedProjects_data()
{
    QTest::addColumn<QString>("project");
    QTest::addColumn<QString>("error");
    QTest::newRow("malformed") << QStringLiteral("check_malformed.cuwb")
                               << QStringLiteral("check_malformed.cuwb:3:10: error: syntax error "
                                                 "while parsing object - unexpected string "
                                                 "literal; expected '}'");
    QTest::newRow("newer") << QStringLiteral("check_newer.cuwb")
                           << QStringLiteral("check_newer.cuwb: schema version 3 is newer than "
                                             "this CUDA Workbench understands (1)");
    QTest::newRow("missing source") << QStringLiteral("check_missing_source.cuwb")
                                    << QStringLiteral("check_missing_source.cuwb: cannot read "
                                                      "source 'no_such_kernel.cu': No such file "
                                                      "or directory");
    QTest::newRow("missing project") << QStringLiteral("nothing_here.cuwb")
                                     << QStringLiteral("nothing_here.cuwb: cannot read "
                                                       "project 'nothing_here.cuwb': No such file "
                                                       "or directory");
}

void TestCuwbCheck::malformedProjects()
{
    QFETCH(QString, project);
    QFETCH(QString, error);
    const Run run = runCuwb({QStringLiteral("check"), project});
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.trimmed(), error);
    QVERIFY(run.out.isEmpty());
}

void TestCuwbCheck::json()
{
    const Run good = check("check_good.cuwb", {QStringLiteral("--json")});
    QCOMPARE(good.exitCode, 0);
    const nlohmann::json report = nlohmann::json::parse(good.out.toStdString());
    QCOMPARE(report["ok"], nlohmann::json(true));
    QCOMPARE(report["kernel"], nlohmann::json("vector_add"));
    QCOMPARE(report["grid"], nlohmann::json({4096, 1, 1}));
    QCOMPARE(report["bufferBytes"], nlohmann::json(12582912));
    QCOMPARE(report["parameters"].size(), std::size_t(4));
    QCOMPARE(report["parameters"][3]["elementType"], nlohmann::json("int32_t"));

    const Run bad = check("check_expressions.cuwb", {QStringLiteral("--json")});
    QCOMPARE(bad.exitCode, 1);
    const nlohmann::json issues = nlohmann::json::parse(bad.out.toStdString())["issues"];
    QCOMPARE(issues.size(), std::size_t(4));
    QCOMPARE(issues[0]["field"], nlohmann::json("grid.x"));
    QCOMPARE(issues[0]["position"], nlohmann::json(16));
}

void TestCuwbCheck::usage()
{
    QCOMPARE(runCuwb({QStringLiteral("check")}).exitCode, 2);
    QCOMPARE(runCuwb({QStringLiteral("check"), QStringLiteral("--bogus"), QStringLiteral("x.cuwb")})
                 .exitCode,
             2);
    const Run help = runCuwb({QStringLiteral("help"), QStringLiteral("check")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("Usage: cuwb check")));
    QVERIFY(runCuwb({QStringLiteral("help")}).out.contains(QStringLiteral("check PROJECT.cuwb")));
}

void TestCuwbCheck::compileJsonListsParameters()
{
    const Run run = runCuwb({QStringLiteral("compile"), QStringLiteral("--json"),
                             QStringLiteral("check_vector_add.cu")});
    QCOMPARE(run.exitCode, 0);
    const nlohmann::json parameters =
        nlohmann::json::parse(run.out.toStdString())["kernels"][0]["parameters"];
    QCOMPARE(parameters.size(), std::size_t(4));
    const nlohmann::json expected = {{"name", "a"},       {"typeText", "const float *"},
                                     {"pointer", true},   {"elementType", "float"},
                                     {"const", true},     {"restrict", false},
                                     {"sizeBytes", 8},    {"ptxSizeBytes", 8},
                                     {"supported", true}, {"reason", ""}};
    QCOMPARE(parameters[0], expected);
    QCOMPARE(parameters[3]["pointer"], nlohmann::json(false));
    QCOMPARE(parameters[3]["sizeBytes"], nlohmann::json(4));
}

void TestCuwbCheck::checksEverySweepPoint()
{
    const Run run = runCuwbProcess({QStringLiteral("check"), dataFile("sweep_tiles.cuwb")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("sweep: 7 of 9 points would run on sm_90 (8 variants: "
                                             "8 compiled, 0 from the compile cache)")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("sweep: block.x=256 TILE=64: skipped: does not "
                                             "compile: ptxas: Entry function")),
             qPrintable(run.out));
    const Run json = runCuwbProcess(
        {QStringLiteral("check"), QStringLiteral("--json"), dataFile("sweep_tiles.cuwb")});
    QCOMPARE(json.exitCode, 0);
    const nlohmann::json report = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(report["kernelName"], nlohmann::json("tiled_sum(float const*, float*, int)"));
    QCOMPARE(report["sweep"]["runnable"], nlohmann::json(7));
    QCOMPARE(report["sweep"]["skipped"].size(), std::size_t(2));
    QCOMPARE(report["sweep"]["skipped"][0]["compileFailed"], nlohmann::json(true));
    const Run base = runCuwbProcess(
        {QStringLiteral("check"), QStringLiteral("--no-sweep"), dataFile("sweep_tiles.cuwb")});
    QCOMPARE(base.exitCode, 0);
    QVERIFY(!base.out.contains(QStringLiteral("sweep:")));
}

QTEST_GUILESS_MAIN(TestCuwbCheck)
#include "tst_cuwbcheck.moc"
