// End-to-end tests of `cuwb check`: good and bad projects in data/ give the exact
// PROJECT: FIELD: MESSAGE lines and exit codes 0, 1 and 2; --json and --arch; the verification
// compiled as the worker compiles it, .npy and raw files against their buffers, each kernel's
// resources and occupancy, a sweep's skips with compile failures first, Kernel Tuner's
// loop_unroll_factor, and one compile cache with `cuwb sweep --list`.
#include "cuwbprocess.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

namespace {
namespace tst_cuwbcheck {

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
    void verificationIsCompiledAsTheWorkerCompilesIt();
    void filesAreCheckedAgainstTheirBuffers();
    void compileFailuresComeBeforeConstraintExclusions();
    void sharesTheCompileCacheWithSweepList();
    void loopUnrollFactorFollowsTheSweep();
};

void TestCuwbCheck::goodProjectWouldRun()
{
    const Run run = check("check_good.cuwb");
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.size(), 2);
    // The kernel's resources and its theoretical occupancy at the project's block; the
    // register count is ptxas' (it may change with the toolkit).
    const QRegularExpression kernel(QStringLiteral(
        "^check_good\\.cuwb: kernel vector_add: \\d+ registers, 0 bytes static \\+ 0 bytes "
        "dynamic shared memory, no stack, no spills; theoretical occupancy 100% \\(8 blocks of "
        "256 threads an SM; limited by warps\\)$"));
    QVERIFY2(kernel.match(lines[0]).hasMatch(), qPrintable(lines[0]));
    QCOMPARE(lines[1], QStringLiteral("check_good.cuwb: vector_add would run on sm_90: grid "
                                      "(4096, 1, 1), block (256, 1, 1), 3 buffers of 12582912 "
                                      "bytes"));
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
    // Each kernel of the sequence with its resources at its own block, then the verdict.
    const QStringList lines = good.outLines();
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].startsWith(QStringLiteral("check_sequence_good.cuwb: kernel vector_add: ")),
             qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith(QStringLiteral("check_sequence_good.cuwb: then[0] sum_all: ")) &&
                 lines[1].contains(QStringLiteral(" blocks of 32 threads an SM")),
             qPrintable(lines[1]));
    QCOMPARE(lines[2], QStringLiteral("check_sequence_good.cuwb: vector_add would run on sm_90: "
                                      "grid (528, 1, 1), block (256, 1, 1), 4 buffers of "
                                      "1622020 bytes"));
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

void TestCuwbCheck::verificationIsCompiledAsTheWorkerCompilesIt()
{
    // The expression reads a buffer the kernel does not have and the mask a name the launch
    // does not define: the worker would compile both and fail; check finds it first.
    const Run run = check("check_verify.cuwb");
    QCOMPARE(run.exitCode, 1);
    const QStringList lines = run.outLines();
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines[0].startsWith(QStringLiteral("check_verify.cuwb: kernel vector_add: ")));
    QCOMPARE(lines[1], QStringLiteral("check_verify.cuwb: verification: expression: does not "
                                      "compile: verification expression:1:8: identifier \"d\" "
                                      "is undefined"));
    QCOMPARE(lines[2], QStringLiteral("check_verify.cuwb: verification: mask: does not compile: "
                                      "verification mask:1:5: identifier \"WARP\" is "
                                      "undefined"));
    QCOMPARE(lines[3], QStringLiteral("check_verify.cuwb: would not run: 2 problems"));
    const Run json = check("check_verify.cuwb", {QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 1);
    const nlohmann::json report = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(report["issues"].size(), std::size_t(2));
    QCOMPARE(report["issues"][0]["field"], nlohmann::json("verification: expression"));
    QCOMPARE(report["issues"][1]["field"], nlohmann::json("verification: mask"));
    QCOMPARE(report["kernels"].size(), std::size_t(1));
    QCOMPARE(report["kernels"][0]["role"], nlohmann::json("kernel"));
    QCOMPARE(report["kernels"][0]["occupancy"]["occupancy"], nlohmann::json(1.0));
    QVERIFY(report["kernels"][0]["resources"]["registers"].get<int>() > 0);
}

void TestCuwbCheck::filesAreCheckedAgainstTheirBuffers()
{
    const Run run = check("check_npy.cuwb");
    QCOMPARE(run.exitCode, 1);
    const QString folder = QStringLiteral(CUWB_TEST_DATA_DIR "/npy/");
    const QStringList expected{
        QStringLiteral("check_npy.cuwb: verification: file: `%1c_fortran.npy` is in Fortran "
                       "order (shape (4, 4)); save it in C order (numpy.ascontiguousarray)")
            .arg(folder),
        QStringLiteral("check_npy.cuwb: argument a: init file: `%1a_float64.npy` holds dtype <f8 "
                       "(float64); `a` needs <f4 (float32) for its elements of float (save it "
                       "with .astype(numpy.float32))")
            .arg(folder),
        QStringLiteral("check_npy.cuwb: argument b: init file: `%1b_shape.npy` holds 8 values "
                       "(shape (4, 2)); `b` has 16 (16 × float)")
            .arg(folder),
        QStringLiteral("check_npy.cuwb: would not run: 3 problems")};
    QCOMPARE(run.outLines().mid(1), expected);
    // A 4 × 4 array in C order fills 16 floats; a raw file of 60 bytes fills 15.
    const Run good = check("check_npy_good.cuwb");
    QCOMPARE(good.exitCode, 0);
    QVERIFY2(good.out.contains(QStringLiteral("vector_add would run on sm_90")),
             qPrintable(good.out));
}

void TestCuwbCheck::compileFailuresComeBeforeConstraintExclusions()
{
    // 64 points: 56 excluded by the constraint come first in sweep order, then the 4 points
    // ptxas rejects. The rejects are named one by one before the exclusions, counted.
    const Run run = check("sweep_skips.cuwb");
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.outLines();
    const QString reject = QStringLiteral(
        "sweep_skips.cuwb: sweep: TILE=16384 block.x=%1: skipped: does not compile: ptxas: "
        "Entry function '_Z5tiledPKfPfi' uses too much shared data (0x10000 bytes, 0xc000 "
        "max)");
    const qsizetype first = lines.indexOf(reject.arg(256));
    QVERIFY2(first > 0, qPrintable(run.out));
    QCOMPARE(lines[first - 1], QStringLiteral("sweep_skips.cuwb: sweep: 4 of 64 points would run "
                                              "on sm_90 (2 variants: 2 compiled, 0 from the "
                                              "compile cache)"));
    QCOMPARE(lines[first + 1], reject.arg(512));
    QCOMPARE(lines[first + 2], reject.arg(768));
    QCOMPARE(lines[first + 3], reject.arg(1024));
    QCOMPARE(lines[first + 4],
             QStringLiteral("sweep_skips.cuwb: sweep: 56 points skipped: excluded by the "
                            "constraint `block.x % 256 == 0` (the first: TILE=256 block.x=32)"));

    const Run json = check("sweep_skips.cuwb", {QStringLiteral("--json")});
    const nlohmann::json sweep = nlohmann::json::parse(json.out.toStdString())["sweep"];
    QCOMPARE(sweep["skipGroups"].size(), std::size_t(2));
    QCOMPARE(sweep["skipGroups"][0]["kind"], nlohmann::json("compile"));
    QCOMPARE(sweep["skipGroups"][0]["count"], nlohmann::json(4));
    QCOMPARE(sweep["skipGroups"][0]["points"][0], nlohmann::json("TILE=16384 block.x=256"));
    QCOMPARE(sweep["skipGroups"][1]["kind"], nlohmann::json("constraint"));
    QCOMPARE(sweep["skipGroups"][1]["count"], nlohmann::json(56));
    QCOMPARE(sweep["skipped"].size(), std::size_t(60));
}

void TestCuwbCheck::sharesTheCompileCacheWithSweepList()
{
    // check compiles the project and its sweep's two variants (the base launch is one of
    // them); sweep --list then compiles nothing, the variant ptxas rejects included, and
    // neither does a second check.
    QTemporaryDir cache;
    qputenv("CUWB_CACHE_DIR", cache.path().toUtf8());
    const Run first = check("sweep_skips.cuwb");
    const Run list = runCuwb(
        {QStringLiteral("sweep"), QStringLiteral("sweep_skips.cuwb"), QStringLiteral("--list")});
    const Run again = check("sweep_skips.cuwb");
    qunsetenv("CUWB_CACHE_DIR");
    QCOMPARE(first.exitCode, 0);
    QVERIFY2(first.out.contains(QStringLiteral("(2 variants: 1 compiled, 1 from the compile "
                                               "cache)")),
             qPrintable(first.out));
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(list.out.contains(QStringLiteral("64 points, 4 to measure on sm_90 (2 variants: 0 "
                                              "compiled on the host in 0 ms, 2 from the compile "
                                              "cache)")),
             qPrintable(list.out));
    QVERIFY2(list.out.contains(QStringLiteral("uses too much shared data")), qPrintable(list.out));
    QString expected = first.out;
    expected.replace(QStringLiteral("1 compiled, 1 from"), QStringLiteral("0 compiled, 2 from"));
    QCOMPARE(again.out, expected);
}

void TestCuwbCheck::loopUnrollFactorFollowsTheSweep()
{
    // The project's factor of 4 is a constexpr for its compile, and said so at the pragma's
    // line; the sweep's three factors (0 removes the pragma) compile to three variants.
    const Run run = check("sweep_unroll.cuwb");
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral(
                 "unroll.cu:5: remark: this loop is unrolled 4 times: loop_unroll_factor_0 is "
                 "`constexpr int loop_unroll_factor_0 = 4;` in this compile (Kernel Tuner's "
                 "convention)\n")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral(
                 "sweep_unroll.cuwb: compile: note: Kernel Tuner's convention: "
                 "loop_unroll_factor_0 is `constexpr int loop_unroll_factor_0 = 4;` before the "
                 "source, not -Dloop_unroll_factor_0 (1 `#pragma unroll loop_unroll_factor_0` "
                 "line)\n")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("sweep: 3 of 3 points would run on sm_90 (3 "
                                             "variants: 3 compiled")),
             qPrintable(run.out));

    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("plan.json"));
    const Run list = runCuwb({QStringLiteral("sweep"), QStringLiteral("sweep_unroll.cuwb"),
                              QStringLiteral("--list"), QStringLiteral("--json"), json});
    QCOMPARE(list.exitCode, 0);
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json points = nlohmann::json::parse(file.readAll().toStdString())["points"];
    QCOMPARE(points.size(), std::size_t(3));
    // Rolled (1) and unrolled 8 times are different code: more registers for the loads.
    const int rolled = points[1]["registersPerThread"].get<int>();
    const int unrolled = points[2]["registersPerThread"].get<int>();
    QVERIFY2(unrolled > rolled, qPrintable(QStringLiteral("%1 vs %2").arg(unrolled).arg(rolled)));
    // Each point compiles with its factor and Kernel Tuner's kernel_tuner define.
    const nlohmann::json defines = points[0]["request"]["options"]["defines"];
    QVERIFY2(std::find(defines.begin(), defines.end(), "loop_unroll_factor_0=0") != defines.end(),
             defines.dump().c_str());
    QVERIFY2(std::find(defines.begin(), defines.end(), "kernel_tuner=1") != defines.end(),
             defines.dump().c_str());
}

CUWB_TEST_GUILESS_MAIN(TestCuwbCheck)
} // namespace tst_cuwbcheck
} // namespace

#include "tst_cuwbcheck.moc"
