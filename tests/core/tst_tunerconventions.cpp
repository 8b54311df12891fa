// Kernel Tuner's loop_unroll_factor convention, as a transformed source for one compile: a
// factor of 0 removes the `#pragma unroll NAME` lines, another value becomes `constexpr int
// NAME = VALUE;` before the source with `#line 1` after it, the define is no macro, and what was
// done is a remark at the pragma's line. Then through KernelCompiler with real NVRTC: the user's
// line numbers survive in diagnostics and kernel declarations, and the factor changes the code.
#include "compiler/kernelcompiler.h"
#include "compiler/tunerconventions.h"

#include <QtTest>

#include <algorithm>
#include <cstring>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_tunerconventions {

class TestTunerConventions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nothingToDoWithoutAFactor();
    void nonZeroFactorBecomesAConstant();
    void zeroFactorRemovesThePragma();
    void onlyCodeAndWholeNamesCount();
    void factorMustBeAWholeNumber();
    void compilesWithTheUsersLineNumbers_data();
    void compilesWithTheUsersLineNumbers();
    void zeroAndNonZeroCompileDifferently();
};

namespace {

const char *const kSource = "__global__ void sum(const float *in, float *out, int n)\n"
                            "{\n"
                            "    float s = 0.0f;\n"
                            "    #pragma unroll loop_unroll_factor_0 // the inner loop\n"
                            "    for (int k = 0; k < n; ++k)\n"
                            "        s += in[k * blockDim.x + threadIdx.x];\n"
                            "    out[threadIdx.x] = s;\n"
                            "}\n";

CompileOptions withFactor(const std::string &value)
{
    CompileOptions options;
    options.defines = {"TILE=4", "loop_unroll_factor_0=" + value};
    return options;
}

} // namespace

void TestTunerConventions::nothingToDoWithoutAFactor()
{
    CompileOptions options;
    options.defines = {"TILE=4", "block_size_x=256"};
    QVERIFY(!applyTunerConventions(kSource, "sum.cu", options));
    QVERIFY(isLoopUnrollFactor("loop_unroll_factor_0"));
    QVERIFY(isLoopUnrollFactor("inner_loop_unroll_factor")); // as Kernel Tuner tests it
    QVERIFY(!isLoopUnrollFactor("unroll"));
}

void TestTunerConventions::nonZeroFactorBecomesAConstant()
{
    const auto tuned = applyTunerConventions(kSource, "sum.cu", withFactor("4"));
    QVERIFY(tuned);
    QVERIFY(!tuned->error);
    QCOMPARE(tuned->prefixLines, 2);
    QVERIFY(tuned->source.starts_with("constexpr int loop_unroll_factor_0 = 4;\n"
                                      "#line 1 \"sum.cu\"\n"));
    // The user's text follows unchanged, the pragma included.
    QCOMPARE(tuned->source.substr(tuned->source.find("__global__")), std::string(kSource));
    // No macro of the name: it would turn the declaration into `constexpr int 4 = 4;`.
    QCOMPARE(tuned->options.defines, std::vector<std::string>{"TILE=4"});
    QCOMPARE(tuned->remarks.size(), std::size_t(1));
    QCOMPARE(tuned->remarks[0].line, 4);
    QCOMPARE(tuned->remarks[0].severity, Severity::Remark);
    QVERIFY2(tuned->remarks[0].message.find("unrolled 4 times") != std::string::npos,
             tuned->remarks[0].message.c_str());
    QCOMPARE(tuned->notes,
             std::vector<std::string>{
                 "Kernel Tuner's convention: loop_unroll_factor_0 is `constexpr int "
                 "loop_unroll_factor_0 = 4;` before the source, not -Dloop_unroll_factor_0 (1 "
                 "`#pragma unroll loop_unroll_factor_0` line)"});
}

void TestTunerConventions::zeroFactorRemovesThePragma()
{
    const auto tuned = applyTunerConventions(kSource, "sum.cu", withFactor("0"));
    QVERIFY(tuned);
    QCOMPARE(tuned->prefixLines, 0);
    QVERIFY(tuned->source.find("#pragma") == std::string::npos);
    QVERIFY(tuned->source.find("loop_unroll_factor_0") == std::string::npos);
    // The line stays (the comment after the pragma too), so every line keeps its number.
    QCOMPARE(std::count(tuned->source.begin(), tuned->source.end(), '\n'),
             std::count(kSource, kSource + std::strlen(kSource), '\n'));
    QVERIFY(tuned->source.find("     // the inner loop\n") != std::string::npos);
    QCOMPARE(tuned->remarks.size(), std::size_t(1));
    QCOMPARE(tuned->remarks[0].line, 4);
    QVERIFY2(tuned->remarks[0].message.find("left out of this compile") != std::string::npos,
             tuned->remarks[0].message.c_str());
    QCOMPARE(tuned->notes, std::vector<std::string>{
                               "Kernel Tuner's convention: loop_unroll_factor_0 is 0, so its "
                               "pragmas are left out of this compile (1 `#pragma unroll "
                               "loop_unroll_factor_0` line)"});
}

void TestTunerConventions::onlyCodeAndWholeNamesCount()
{
    const std::string source = "// #pragma unroll loop_unroll_factor_1 in a comment\n"
                               "/* #pragma unroll loop_unroll_factor_1 */\n"
                               "#pragma unroll loop_unroll_factor_10\n"
                               "#  pragma   unroll ( loop_unroll_factor_1 )\n";
    CompileOptions options;
    options.defines = {"loop_unroll_factor_1=0", "loop_unroll_factor_10=2"};
    const auto tuned = applyTunerConventions(source, "k.cu", options);
    QVERIFY(tuned);
    const std::string expected = "constexpr int loop_unroll_factor_10 = 2;\n"
                                 "#line 1 \"k.cu\"\n"
                                 "// #pragma unroll loop_unroll_factor_1 in a comment\n"
                                 "/* #pragma unroll loop_unroll_factor_1 */\n"
                                 "#pragma unroll loop_unroll_factor_10\n"
                                 "\n";
    QCOMPARE(tuned->source, expected);
    QCOMPARE(tuned->remarks.size(), std::size_t(2));
    QCOMPARE(tuned->remarks[0].line, 3);
    QCOMPARE(tuned->remarks[1].line, 4);
    QVERIFY(tuned->options.defines.empty());
}

void TestTunerConventions::factorMustBeAWholeNumber()
{
    const auto tuned = applyTunerConventions(kSource, "sum.cu", withFactor("four"));
    QVERIFY(tuned);
    QVERIFY(tuned->error);
    QVERIFY2(tuned->error->message.find("must be a whole number") != std::string::npos,
             tuned->error->message.c_str());
    KernelCompiler compiler(0);
    const CompileResult result = compiler.compile(kSource, "sum.cu", withFactor("four"));
    QVERIFY(!result.success);
    QVERIFY(result.failureMessage.empty()); // what this input compiles to, like a compile error
    QCOMPARE(result.counts().errors, 1);
    QCOMPARE(result.diagnostics[0].file, std::string("sum.cu"));
}

void TestTunerConventions::compilesWithTheUsersLineNumbers_data()
{
    QTest::addColumn<QString>("compiler_");
    QTest::newRow("auto") << QStringLiteral("auto");
    QTest::newRow("nvrtc") << QStringLiteral("nvrtc");
    QTest::newRow("nvcc") << QStringLiteral("nvcc");
}

void TestTunerConventions::compilesWithTheUsersLineNumbers()
{
    QFETCH(QString, compiler_);
    KernelCompiler compiler(0);
    const auto withFactor = [&](const std::string &value) {
        CompileOptions options = tst_tunerconventions::withFactor(value);
        options.compiler = compiler_.toStdString();
        return options;
    };
    if (compiler_ == QStringLiteral("nvcc") &&
        !compiler.compile("__global__ void k() {}\n", "k.cu", withFactor("1")).success)
        QSKIP("this toolkit has no nvcc");
    // An error on line 7 of the user's text is reported on line 7, after two lines of constants.
    std::string broken = kSource;
    broken.replace(broken.find("out[threadIdx.x] = s;"), 21, "out[threadIdx.x] = t;");
    const CompileResult failed = compiler.compile(broken, "sum.cu", withFactor("4"));
    QVERIFY(!failed.success);
    const auto error =
        std::find_if(failed.diagnostics.begin(), failed.diagnostics.end(),
                     [](const Diagnostic &d) { return d.severity == Severity::Error; });
    QVERIFY(error != failed.diagnostics.end());
    QCOMPARE(error->file, std::string("sum.cu"));
    QCOMPARE(error->line, 7);

    const CompileResult compiled = compiler.compile(kSource, "sum.cu", withFactor("4"));
    QVERIFY2(compiled.success, compiled.log.c_str());
    QCOMPARE(compiled.kernels.size(), std::size_t(1));
    QCOMPARE(compiled.kernels[0].sourceLine, 1);
    // A template's line too, on the user's text.
    const std::string templated =
        "template <int N> __global__ void t(float *x) { x[0] = N; }\n" + std::string(kSource);
    const CompileResult withTemplate = compiler.compile(templated, "sum.cu", withFactor("2"));
    QVERIFY2(withTemplate.success, withTemplate.log.c_str());
    QCOMPARE(withTemplate.templates.size(), std::size_t(1));
    QCOMPARE(withTemplate.templates[0].line, 1);
    QCOMPARE(compiled.options, withFactor("4")); // the caller's options, as asked
    const auto remarks = std::count_if(
        compiled.diagnostics.begin(), compiled.diagnostics.end(),
        [](const Diagnostic &d) { return d.severity == Severity::Remark && d.line == 4; });
    QCOMPARE(remarks, 1);
    QCOMPARE(std::count_if(compiled.notes.begin(), compiled.notes.end(),
                           [](const std::string &note) {
                               return note.starts_with("Kernel Tuner's convention");
                           }),
             1);
    // From the cache: the same remark and note once.
    KernelCompiler cached(4);
    (void)cached.compile(kSource, "sum.cu", withFactor("4"));
    const CompileResult again = cached.compile(kSource, "sum.cu", withFactor("4"));
    QVERIFY(again.fromCache);
    QCOMPARE(again.diagnostics, compiled.diagnostics);
    QCOMPARE(again.notes, compiled.notes);
}

void TestTunerConventions::zeroAndNonZeroCompileDifferently()
{
    KernelCompiler compiler(0);
    const CompileResult none = compiler.compile(kSource, "sum.cu", withFactor("0"));
    const CompileResult one = compiler.compile(kSource, "sum.cu", withFactor("1"));
    const CompileResult eight = compiler.compile(kSource, "sum.cu", withFactor("8"));
    for (const CompileResult *result : {&none, &one, &eight})
        QVERIFY2(result->success, result->log.c_str());
    // `#pragma unroll 1` keeps the loop rolled; 8 unrolls it: more registers for the loads in
    // flight; 0 leaves it to the compiler's own choice, which is not "rolled".
    QVERIFY(one.ptx != eight.ptx);
    QVERIFY(none.ptx != one.ptx);
    QVERIFY2(eight.kernels[0].resources.registers > one.kernels[0].resources.registers,
             qPrintable(QStringLiteral("%1 vs %2")
                            .arg(eight.kernels[0].resources.registers)
                            .arg(one.kernels[0].resources.registers)));
}

CUWB_TEST_GUILESS_MAIN(TestTunerConventions)
} // namespace tst_tunerconventions
} // namespace

#include "tst_tunerconventions.moc"
