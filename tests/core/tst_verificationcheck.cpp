// The checks of a project without a GPU: each check's output, reference, count and mask, its
// expression and mask compiled by NVRTC into the kernels the worker runs (globals read by name,
// C++'s and/or/not), the runner's own helper kernels compiling; and, from the results, the
// overall verdict of several checks, their largest errors and the reduction of the compare
// kernel's per-block results.
#include "compilertesthelpers.h"

#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "kernel/kernelsignature.h"
#include "launch/launchjson.h"
#include "launch/launchsequence.h"
#include "launch/launchspec.h"
#include "run/elementsource.h"
#include "run/gpuhelpers.h"
#include "run/verification.h"
#include "run/verificationcheck.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_verificationcheck {

namespace {

constexpr const char *kSource = R"(
__constant__ float c_scale;
__constant__ float c_table[16];
__device__ unsigned int d_count;
struct Params { int a; float b; };
__constant__ Params c_params;

extern "C" __global__ void scale(const float *in, float *out, float *twice, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = c_scale * in[i] + c_table[i % 16];
        twice[i] = 2.0f * out[i];
        atomicAdd(&d_count, 1u);
    }
}

extern "C" __global__ void scale_naive(const float *in, float *out, float *twice, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = c_scale * in[i] + c_table[i % 16];
}

extern "C" __global__ void finish(const float *twice, float *sum, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float total = 0.0f;
        for (int i = 0; i < n; ++i)
            total += twice[i];
        sum[0] = total;
    }
}
)";

VerificationSpec check(ReferenceKind kind, const char *output)
{
    VerificationSpec spec;
    spec.kind = kind;
    spec.output = output;
    return spec;
}

// The project's launch of `scale` then `finish`, resolved against the compiled module.
struct Fixture
{
    KernelCompiler compiler;
    CompileResult compiled;
    LaunchSpec launch;
    ResolvedLaunch resolved;

    Fixture()
    {
        CompileOptions options;
        options.arch = "sm_90";
        compiled = compiler.compile(kSource, "scale.cu", options);
        launch = nlohmann::json::parse(R"json({
            "kernel": "scale",
            "variables": [{"name": "N", "value": "4096"}],
            "globals": [{"name": "c_scale", "elementType": "float", "count": "1",
                         "init": {"kind": "constant", "value": "3"}}],
            "arguments": [
                {"parameter": "in", "kind": "buffer", "elementType": "float", "count": "N",
                 "role": "in"},
                {"parameter": "out", "kind": "buffer", "elementType": "float", "count": "N",
                 "role": "out"},
                {"parameter": "twice", "kind": "buffer", "elementType": "float", "count": "N",
                 "role": "out"},
                {"parameter": "n", "kind": "scalar", "elementType": "int", "value": "N"}],
            "grid": ["ceil(N / block.x)"], "block": ["256"],
            "then": [{"kernel": "finish", "grid": ["1"], "block": ["32"],
                      "arguments": [{"parameter": "twice", "buffer": "twice"},
                                    {"parameter": "sum", "kind": "buffer", "elementType": "float",
                                     "count": "1", "role": "out"},
                                    {"parameter": "n", "kind": "scalar", "elementType": "int",
                                     "value": "N"}]}]})json")
                     .get<LaunchSpec>();
        const KernelInfo *kernel = findKernel(compiled, launch.kernel).kernel;
        const SequenceKernels sequence = findSequenceKernels(launch, compiled, kSource);
        resolved = resolveLaunch(launch, parseKernelSignature(kSource, compiled.ptx, *kernel), {},
                                 {}, sequence.signatures);
    }

    std::vector<LaunchIssue> issues(const Verification &verification)
    {
        const CompileFunction compile = [this](std::string_view text, std::string_view name,
                                               const CompileOptions &options) {
            return compiler.compile(text, name, options);
        };
        return checkVerification(verification,
                                 {compiled, kSource, resolved, compile, "sm_90", true, {}});
    }
};

std::string joined(const std::vector<LaunchIssue> &issues)
{
    std::string text;
    for (const LaunchIssue &issue : issues)
        text += (text.empty() ? "" : " | ") + issue.field + ": " + issue.message;
    return text;
}

} // namespace

class TestVerificationCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void goodChecksPass();
    void expressionsCompile();
    void globalsAreReadByName();
    void masksAreCppConditions();
    void outputs();
    void referenceKernels();
    void countsAndExpected();
    void files();
    void identifiers();
    void helperKernelsCompile();
    void combinesChecks();
    void largestErrors();
    void summarisesTheCompare();

private:
    std::unique_ptr<Fixture> m_fixture;
};

void TestVerificationCheck::initTestCase()
{
    m_fixture = std::make_unique<Fixture>();
    QVERIFY2(m_fixture->compiled.success, m_fixture->compiled.log.c_str());
    QVERIFY2(m_fixture->resolved.ok(), m_fixture->resolved.issues.empty()
                                           ? ""
                                           : m_fixture->resolved.issues[0].message.c_str());
}

void TestVerificationCheck::goodChecksPass()
{
    VerificationSpec out = check(ReferenceKind::Expression, "out");
    out.expression = "c_scale * in[i] + c_table[i % 16]";
    out.tolerance = ToleranceKind::AllClose;
    VerificationSpec twice = check(ReferenceKind::Expression, "twice");
    twice.expression = "2.0f * (c_scale * in[i] + c_table[i % 16])";
    VerificationSpec sum = check(ReferenceKind::Aggregate, "sum");
    sum.reduce = Reduction::Sum;
    sum.expected = "N * 3";
    VerificationSpec count = check(ReferenceKind::Expression, "d_count");
    count.expression = "n";
    VerificationSpec naive = check(ReferenceKind::Kernel, "out");
    naive.referenceKernel = "scale_naive";
    Verification verification;
    verification.checks = {out, twice, sum, count, naive};
    const std::vector<LaunchIssue> issues = m_fixture->issues(verification);
    QVERIFY2(issues.empty(), joined(issues).c_str());
}

void TestVerificationCheck::expressionsCompile()
{
    VerificationSpec wrong = check(ReferenceKind::Expression, "out");
    wrong.expression = "in[i] + missing[i]";
    const std::vector<LaunchIssue> issues = m_fixture->issues(Verification(wrong));
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("verification: expression"));
    QVERIFY2(issues[0].message.find("does not compile") != std::string::npos &&
                 issues[0].message.find("missing") != std::string::npos,
             issues[0].message.c_str());
    // An expression that needs constant expressions compiles the second way, as in the worker.
    VerificationSpec constant = check(ReferenceKind::Expression, "out");
    constant.expression = "([]{ constexpr long long k = N / 2; return float(k); })()";
    const std::vector<LaunchIssue> constantIssues = m_fixture->issues(Verification(constant));
    QVERIFY2(constantIssues.empty(), joined(constantIssues).c_str());
    // Without a compiler, only what needs none is checked.
    Fixture &f = *m_fixture;
    QVERIFY(
        checkVerification(Verification(wrong), {f.compiled, kSource, f.resolved, nullptr}).empty());
}

void TestVerificationCheck::globalsAreReadByName()
{
    const std::vector<ModuleVariable> variables = moduleVariables(m_fixture->compiled.ptx, kSource);
    const ElementSource source =
        elementSource("c_scale * in[i] + c_table[i % 16] + d_count", "verification expression",
                      false, "float", m_fixture->resolved, variables);
    QVERIFY(source.problem.empty());
    QCOMPARE(source.globals.size(), std::size_t(3));
    // The set global's type is the project's; the others' the source's.
    QCOMPARE(source.globals[0].name, std::string("c_scale"));
    QCOMPARE(source.globals[0].count, std::uint64_t(1));
    const auto table = std::find_if(source.globals.begin(), source.globals.end(),
                                    [](const ElementGlobal &g) { return g.name == "c_table"; });
    QVERIFY(table != source.globals.end());
    QCOMPARE(table->count, std::uint64_t(16));
    QVERIFY(source.withParameters.find("const float &c_scale = *cuwb_global_c_scale;") !=
            std::string::npos);
    QVERIFY(source.withParameters.find("const float *const c_table = cuwb_global_c_table;") !=
            std::string::npos);
    // A global the expression does not name is not bound.
    const ElementSource plain = elementSource("in[i]", "verification expression", false, "float",
                                              m_fixture->resolved, variables);
    QVERIFY(plain.globals.empty());
    // A struct cannot be read element by element: the message says so.
    VerificationSpec params = check(ReferenceKind::Expression, "out");
    params.expression = "c_params.b";
    const std::vector<LaunchIssue> issues = m_fixture->issues(Verification(params));
    QCOMPARE(issues.size(), std::size_t(1));
    QVERIFY2(issues[0].message.find("`c_params` is a __constant__ of type Params") !=
                 std::string::npos,
             issues[0].message.c_str());
}

void TestVerificationCheck::masksAreCppConditions()
{
    // Masks are CUDA C++: && || ! and C++'s own and/or/not.
    for (const char *mask : {"i % 32 == 0 && in[i] > 0", "i % 32 == 0 and not (in[i] < 0)",
                             "i < 16 or c_table[i % 16] != 0", "!(i & 1)"}) {
        VerificationSpec masked = check(ReferenceKind::Expression, "out");
        masked.expression = "in[i]";
        masked.mask = mask;
        const std::vector<LaunchIssue> issues = m_fixture->issues(Verification(masked));
        QVERIFY2(issues.empty(), (std::string(mask) + ": " + joined(issues)).c_str());
    }
    VerificationSpec bad = check(ReferenceKind::Expression, "out");
    bad.expression = "in[i]";
    bad.mask = "i %% 2";
    const std::vector<LaunchIssue> issues = m_fixture->issues(Verification(bad));
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("verification: mask"));
}

void TestVerificationCheck::outputs()
{
    Verification verification;
    VerificationSpec unknown = check(ReferenceKind::Expression, "result");
    unknown.expression = "1";
    VerificationSpec structured = check(ReferenceKind::Expression, "c_params");
    structured.expression = "1";
    VerificationSpec stepBuffer = check(ReferenceKind::Aggregate, "sum");
    stepBuffer.reduce = Reduction::Sum;
    stepBuffer.of = "twice";
    verification.checks = {unknown, structured, stepBuffer};
    const std::vector<LaunchIssue> issues = m_fixture->issues(verification);
    QCOMPARE(issues.size(), std::size_t(2));
    QCOMPARE(issues[0].field, std::string("verification[0] (`result`): output"));
    QVERIFY2(issues[0].message.find("no buffer and the module no global named 'result' (its "
                                    "buffers: in, out, twice, sum)") != std::string::npos,
             issues[0].message.c_str());
    QCOMPARE(issues[1].field, std::string("verification[1] (`c_params`): output"));
    QVERIFY(issues[1].message.find("not an element type") != std::string::npos);
    // A vector element type needs a reference kernel or a file.
}

void TestVerificationCheck::referenceKernels()
{
    VerificationSpec ofGlobal = check(ReferenceKind::Kernel, "d_count");
    ofGlobal.referenceKernel = "scale_naive";
    VerificationSpec ofStepBuffer = check(ReferenceKind::Kernel, "sum");
    ofStepBuffer.referenceKernel = "scale_naive";
    VerificationSpec missing = check(ReferenceKind::Kernel, "out");
    missing.referenceKernel = "scale_naif";
    Verification verification;
    verification.checks = {ofGlobal, ofStepBuffer, missing};
    const std::vector<LaunchIssue> issues = m_fixture->issues(verification);
    QCOMPARE(issues.size(), std::size_t(3));
    QVERIFY(issues[0].message.find("would write the module's own global `d_count`") !=
            std::string::npos);
    QVERIFY(issues[1].message.find("takes the first kernel's parameters, and `sum` is not one") !=
            std::string::npos);
    QVERIFY(issues[2].message.find("scale_naif") != std::string::npos);
}

void TestVerificationCheck::countsAndExpected()
{
    VerificationSpec tooMany = check(ReferenceKind::Expression, "out");
    tooMany.expression = "1";
    tooMany.count = "N + 1";
    VerificationSpec unknownName = check(ReferenceKind::Aggregate, "sum");
    unknownName.reduce = Reduction::Sum;
    unknownName.expected = "M * 2";
    VerificationSpec deviceName = check(ReferenceKind::Aggregate, "sum");
    deviceName.reduce = Reduction::Sum;
    deviceName.expected = "device.smCount";
    Verification verification;
    verification.checks = {tooMany, unknownName, deviceName};
    const std::vector<LaunchIssue> issues = m_fixture->issues(verification);
    QCOMPARE(issues.size(), std::size_t(3));
    QCOMPARE(issues[0].field, std::string("verification[0] (`out`): count"));
    QCOMPARE(issues[0].message, std::string("`N + 1` is 4097; `out` has 4096 elements"));
    QCOMPARE(issues[1].message, std::string("unknown variable 'M'"));
    QCOMPARE(issues[1].position, 0);
    QVERIFY2(issues[2].message.find("device.smCount is not known here") != std::string::npos,
             issues[2].message.c_str());
}

void TestVerificationCheck::files()
{
    QTemporaryDir dir;
    // A raw file of exactly `out`'s 4096 floats; one of the wrong size; one that is not there.
    const std::string present = dir.filePath(QStringLiteral("c.bin")).toStdString();
    std::ofstream(present, std::ios::binary) << std::string(4096 * 4, '\0');
    const std::string shorter = dir.filePath(QStringLiteral("short.bin")).toStdString();
    std::ofstream(shorter, std::ios::binary) << "x";
    VerificationSpec there = check(ReferenceKind::File, "out");
    there.file = present;
    VerificationSpec missing = check(ReferenceKind::File, "out");
    missing.file = dir.filePath(QStringLiteral("d.npy")).toStdString();
    VerificationSpec wrong = check(ReferenceKind::File, "twice");
    wrong.file = shorter;
    Verification verification;
    verification.checks = {there, missing, wrong};
    const std::vector<LaunchIssue> issues = m_fixture->issues(verification);
    QCOMPARE(issues.size(), std::size_t(2));
    QCOMPARE(issues[0].field, std::string("verification[1] (`out`): file"));
    QCOMPARE(issues[1].field, std::string("verification[2] (`twice`): file"));
    QVERIFY2(issues[1].message.find("has 1 bytes; the reference of `twice` needs 16384") !=
                 std::string::npos,
             issues[1].message.c_str());
}

void TestVerificationCheck::identifiers()
{
    QCOMPARE(expressionIdentifiers("a[i] + s.x * p->y + 1e5f + 0x1Fu + c_table[i % 16]"),
             (std::vector<std::string>{"a", "i", "s", "p", "c_table"}));
}

void TestVerificationCheck::helperKernelsCompile()
{
    // The runner's own kernels (fill, compare with allclose and the largest errors, ...) are
    // compiled by each worker; a mistake in them would only show on a GPU.
    KernelCompiler compiler(1);
    CompileOptions options;
    options.arch = "sm_90";
    options.lineInfo = false;
    const CompileResult result = compiler.compile(helperKernelSource(), "helpers.cu", options);
    QVERIFY2(result.success, result.log.c_str());
    QVERIFY(findKernel(result, "cuwb_compare").found());
    const KernelInfo *compare = findKernel(result, "cuwb_compare").kernel;
    // actual, expected, n, kind, tolerance, bound, rtol, from, 4 result pointers, mask, lanes
    QCOMPARE(ptxEntryParameterSizes(result.ptx, compare->loweredName).size(), std::size_t(14));
}

void TestVerificationCheck::combinesChecks()
{
    VerificationResult first;
    first.ran = true;
    first.passed = true;
    first.output = "c";
    first.label = "`c` (expression)";
    first.message = "all 4 elements of `c` match";
    first.checked = 4;
    VerificationResult second;
    second.ran = true;
    second.passed = false;
    second.output = "d";
    second.label = "`d` (file)";
    second.message = "3 of 4 elements of `d` differ";
    second.checked = 4;
    second.mismatches = 3;
    second.maxError = 0.5;
    second.maxErrorIndex = 2;
    second.firstMismatches.resize(3);
    VerificationResult third;
    third.ran = true;
    third.output = "e";
    third.message = "cannot verify: `e` is not a buffer";
    // One check: that check.
    QCOMPARE(combineChecks({second}).message, second.message);
    const VerificationResult all = combineChecks({first, second, third});
    QVERIFY(all.ran);
    QVERIFY(!all.passed);
    QCOMPARE(all.checked, std::uint64_t(8));
    QCOMPARE(all.mismatches, std::uint64_t(3));
    QCOMPARE(all.maxErrorIndex, std::uint64_t(2));
    QCOMPARE(all.firstMismatches.size(), std::size_t(3));
    QVERIFY(all.output.empty());
    QCOMPARE(all.message.substr(0, all.message.find('\n')),
             std::string("3 of 4 elements of `d` differ (1 of 3 checks passed)"));
    QVERIFY(all.message.find("\n`c` (expression): passed: all 4") != std::string::npos);
    QVERIFY(all.message.find("\n`e`: FAILED: cannot verify") != std::string::npos);
    const VerificationResult good = combineChecks({first, first});
    QVERIFY(good.passed);
    QCOMPARE(good.message.substr(0, good.message.find('\n')), std::string("all 2 checks passed"));
    QVERIFY(!combineChecks({}).ran);
}

void TestVerificationCheck::largestErrors()
{
    VerificationResult check;
    check.output = "c";
    QCOMPARE(largestErrorText(check), std::string());
    check.maxAbsError = 3e-7;
    check.maxAbsErrorIndex = 12;
    check.maxRelError = 1.25e-6;
    check.maxRelErrorIndex = 40;
    QCOMPARE(largestErrorText(check), std::string("abs 3e-07 at c[12], rel 1.25e-06 at c[40]"));
    check.aggregateActual = 1.0;
    QCOMPARE(largestErrorText(check), std::string("abs 3e-07, rel 1.25e-06"));

    VerificationResult small;
    small.ran = small.passed = true;
    small.maxRelError = 1e-3;
    VerificationResult failed;
    failed.ran = true;
    failed.maxRelError = 1e-6;
    VerificationResult unmeasured;
    const std::vector<VerificationResult> checks{small, failed, unmeasured};
    QCOMPARE(worstCheck(checks), &checks[1]); // a failed check comes first
    const std::vector<VerificationResult> passing{unmeasured, small};
    QCOMPARE(worstCheck(passing), &passing[1]);
    const std::vector<VerificationResult> none{unmeasured};
    QVERIFY(!worstCheck(none));
}

void TestVerificationCheck::summarisesTheCompare()
{
    // Two blocks: the tolerance's error, the absolute and the relative one, each with its index;
    // -1 where a block compared nothing.
    const std::vector<double> errors = {0.5, 2.0, 0.1, /**/ 0.5, 3.0, -1.0};
    const std::vector<std::uint64_t> indices = {7, 7, 7, /**/ 3, 300, 0};
    const CompareSummary summary = summariseCompare(errors, indices, {2, 1}, 3);
    QCOMPARE(summary.mismatches, std::uint64_t(3));
    QCOMPARE(summary.maxError, 0.5);
    QCOMPARE(summary.maxErrorScalar, std::uint64_t(3)); // the tie goes to the smaller index
    QCOMPARE(*summary.maxAbsError, 3.0);
    QCOMPARE(summary.maxAbsErrorScalar, std::uint64_t(300));
    QCOMPARE(*summary.maxRelError, 0.1);
    QCOMPARE(summary.maxRelErrorScalar, std::uint64_t(7));
    QCOMPARE(summary.firstScalar, std::int64_t(3));
    const CompareSummary nothing = summariseCompare({-1.0, -1.0, -1.0}, {0, 0, 0}, {0}, ~0ull);
    QVERIFY(!nothing.maxAbsError);
    QVERIFY(!nothing.maxRelError);
    QCOMPARE(nothing.firstScalar, std::int64_t(-1));
}

CUWB_TEST_GUILESS_MAIN(TestVerificationCheck)
} // namespace tst_verificationcheck
} // namespace

#include "tst_verificationcheck.moc"
