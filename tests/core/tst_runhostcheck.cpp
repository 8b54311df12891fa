// What a run would fail on, found on the host with real compiles and no GPU: the verification's
// expression and mask compiled as the worker compiles them (a buffer that does not exist is an
// error here, not a surprise on the GPU; tst_verificationcheck covers every kind of check), and
// every file the run reads checked against its buffer: .npy dtype, order, number of values and
// length, a raw file's size; the files of outputs are not read. The window's copy of a launch
// is checked the same way.
#include "run/runhostcheck.h"

#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "kernel/elementtype.h"
#include "kernel/kernelsignature.h"
#include "run/bufferfiles.h"
#include "run/elementsource.h"
#include "run/hostelements.h"
#include "run/runtext.h"
#include "run/verificationcheck.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_runhostcheck {

namespace {

const char *const kSource = R"(__global__ void scale(const float *a, float *c, float2 *v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { c[i] = 2.0f * a[i]; v[i] = make_float2(a[i], 0.0f); }
}
__global__ void scale_ref(const float *a, float *c, float2 *v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + a[i];
}
)";

ArgumentSpec buffer(const char *name, const char *type, BufferRole role)
{
    ArgumentSpec argument;
    argument.parameter = name;
    argument.elementType = parseElementType(type).value();
    argument.count = "N";
    argument.role = role;
    return argument;
}

// A .npy v1.0 file with the header dictionary as given, then `dataBytes` zero bytes.
void writeNpy(const std::string &path, const std::string &dictionary, std::size_t dataBytes)
{
    std::string text = dictionary;
    const std::size_t unpadded = 10 + text.size() + 1;
    text.append((64 - unpadded % 64) % 64, ' ');
    text += '\n';
    std::string file("\x93NUMPY\x01\x00", 8);
    file += char(text.size() & 0xff);
    file += char((text.size() >> 8) & 0xff);
    file += text;
    file.append(dataBytes, '\0');
    std::ofstream(path, std::ios::binary) << file;
}

bool mentions(const std::vector<LaunchIssue> &issues, const std::string &field,
              const std::string &words)
{
    return std::any_of(issues.begin(), issues.end(), [&](const LaunchIssue &issue) {
        return issue.field == field && issue.message.find(words) != std::string::npos;
    });
}

std::string text(const std::vector<LaunchIssue> &issues)
{
    std::string all;
    for (const LaunchIssue &issue : issues)
        all += issue.field + ": " + issue.message + "\n";
    return all;
}

} // namespace

class TestRunHostCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void expressionReadingAMissingBufferDoesNotCompile();
    void expressionNeedingConstantsCompilesAsTheWorkerRetries();
    void maskIsCompiledToo();
    void npyFilesAreCheckedAgainstTheirBuffers();
    void rawFilesAreCheckedBySize();
    void outputsAreNotRead();
    void aLaunchThatDidNotResolveIsNotCheckedFurther();
    void aSessionIsCheckedFromItsCopy();

private:
    [[nodiscard]] CompileFunction compile() const;
    [[nodiscard]] std::vector<LaunchIssue> issuesOf(const VerificationSpec &verification) const;

    KernelCompiler m_compiler{0};
    CompileResult m_compiled;
    ResolvedLaunch m_resolved;
    LaunchSpec m_launch;
    QTemporaryDir m_dir;
};

void TestRunHostCheck::initTestCase()
{
    CompileOptions options;
    options.arch = "sm_90";
    m_compiled = m_compiler.compile(kSource, "scale.cu", options);
    QVERIFY2(m_compiled.success, m_compiled.log.c_str());
    const KernelLookup lookup = findKernel(m_compiled, "scale");
    QVERIFY(lookup.found());
    const KernelSignature signature = parseKernelSignature(kSource, m_compiled.ptx, *lookup.kernel);
    m_launch.kernel = "scale";
    m_launch.variables = {{"N", "1024"}, {"ALPHA", "2"}};
    ArgumentSpec n;
    n.parameter = "n";
    n.isBuffer = false;
    n.elementType = parseElementType("int").value();
    n.value = "N";
    m_launch.arguments = {buffer("a", "float", BufferRole::In),
                          buffer("c", "float", BufferRole::Out),
                          buffer("v", "float2", BufferRole::Out), n};
    m_launch.grid = {"N / block.x", "1", "1"};
    m_launch.block = {"256", "1", "1"};
    m_resolved = resolveLaunch(m_launch, signature);
    QVERIFY2(m_resolved.ok(), joinIssues(m_resolved.issues).c_str());
}

CompileFunction TestRunHostCheck::compile() const
{
    auto *compiler = const_cast<KernelCompiler *>(&m_compiler);
    return [compiler](std::string_view source, std::string_view fileName,
                      const CompileOptions &options) {
        return compiler->compile(source, fileName, options);
    };
}

std::vector<LaunchIssue> TestRunHostCheck::issuesOf(const VerificationSpec &verification) const
{
    return checkVerification(Verification(verification),
                             {m_compiled, kSource, m_resolved, compile(), "sm_90", true, {}});
}

void TestRunHostCheck::expressionReadingAMissingBufferDoesNotCompile()
{
    VerificationSpec verification;
    verification.kind = ReferenceKind::Expression;
    verification.output = "c";
    verification.expression = "2 * b[i]";
    const std::vector<LaunchIssue> issues = issuesOf(verification);
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("verification: expression"));
    // The compiler's own words, at the place in the expression.
    QVERIFY2(issues[0].message.starts_with("does not compile: verification expression:1:5: "),
             issues[0].message.c_str());
    QVERIFY2(issues[0].message.find("\"b\" is undefined") != std::string::npos,
             issues[0].message.c_str());
    // The kernel is the worker's: the same source, compiled the same way, fails the same way.
    const ElementSource source =
        elementSource(verification.expression, "verification expression", false, "float",
                      m_resolved, moduleVariables(m_compiled.ptx, kSource));
    QVERIFY(source.problem.empty());
    CompileOptions options;
    options.arch = "sm_90";
    options.lineInfo = false;
    options.compiler = "nvrtc"; // as the worker builds its own kernels
    const CompileResult worker = compile()(source.withParameters, "reference.cu", options);
    QVERIFY(!worker.success);
    QCOMPARE(issues[0].message, "does not compile: " + firstErrors(worker, 2));
}

void TestRunHostCheck::expressionNeedingConstantsCompilesAsTheWorkerRetries()
{
    // An array bound needs a constant expression: the kernel with parameters fails, the one with
    // constants compiles, as in the worker; no issue.
    VerificationSpec verification;
    verification.kind = ReferenceKind::Expression;
    verification.output = "c";
    verification.expression = "a[i] * (float)sizeof(char[N])";
    const ElementSource source =
        elementSource(verification.expression, "verification expression", false, "float",
                      m_resolved, moduleVariables(m_compiled.ptx, kSource));
    CompileOptions options;
    options.arch = "sm_90";
    options.lineInfo = false;
    options.compiler = "nvrtc"; // as the worker builds its own kernels
    QVERIFY(!compile()(source.withParameters, "reference.cu", options).success);
    QVERIFY(compile()(source.withConstants, "reference.cu", options).success);
    const std::vector<LaunchIssue> issues = issuesOf(verification);
    QVERIFY2(issues.empty(), text(issues).c_str());
}

void TestRunHostCheck::maskIsCompiledToo()
{
    VerificationSpec verification;
    verification.kind = ReferenceKind::Kernel;
    verification.referenceKernel = "scale_ref";
    verification.output = "c";
    verification.mask = "i % 32 == 0 && a[i] != 0";
    QVERIFY2(issuesOf(verification).empty(), text(issuesOf(verification)).c_str());
    verification.mask = "i % WARP == 0";
    const std::vector<LaunchIssue> issues = issuesOf(verification);
    QVERIFY2(mentions(issues, "verification: mask", "does not compile: verification mask:1:5: "),
             text(issues).c_str());
    // A reduction takes no mask (the window can set one; a project file refuses it).
    verification.reduce = Reduction::Sum;
    QVERIFY2(mentions(issuesOf(verification), "verification: mask", "a reduction takes no mask"),
             text(issuesOf(verification)).c_str());
}

void TestRunHostCheck::npyFilesAreCheckedAgainstTheirBuffers()
{
    const std::string folder = m_dir.path().toStdString();
    const std::string good = folder + "/good.npy";
    std::ofstream(good, std::ios::binary)
        << npyHeader(parseElementType("float").value(), 1024) << std::string(4096, '\0');
    const std::string doubles = folder + "/doubles.npy";
    writeNpy(doubles, "{'descr': '<f8', 'fortran_order': False, 'shape': (1024,), }", 8192);
    const std::string shape = folder + "/shape.npy";
    writeNpy(shape, "{'descr': '<f4', 'fortran_order': False, 'shape': (32, 16), }", 2048);
    const std::string fortran = folder + "/fortran.npy";
    writeNpy(fortran, "{'descr': '<f4', 'fortran_order': True, 'shape': (32, 32), }", 4096);
    const std::string shorter = folder + "/short.npy";
    writeNpy(shorter, "{'descr': '<f4', 'fortran_order': False, 'shape': (1024,), }", 100);
    const std::string matrix = folder + "/matrix.npy";
    writeNpy(matrix, "{'descr': '<f4', 'fortran_order': False, 'shape': (32, 32), }", 4096);

    const ElementType f32 = parseElementType("float").value();
    QCOMPARE(checkBufferFile(good, f32, 1024, "`a`"), std::uint64_t(128));
    QCOMPARE(checkBufferFile(matrix, f32, 1024, "`a`"), std::uint64_t(128)); // any C-order shape

    const auto problemOf = [&](const std::string &path) {
        ResolvedLaunch resolved = m_resolved;
        resolved.buffers[0].init.kind = InitKind::File;
        resolved.buffers[0].init.file = path;
        const std::vector<LaunchIssue> issues = checkInputFiles(resolved);
        return issues.empty() ? std::string() : issues[0].field + ": " + issues[0].message;
    };
    QCOMPARE(problemOf(good), std::string());
    QCOMPARE(problemOf(doubles),
             "argument a: init file: `" + doubles +
                 "` holds dtype <f8 (float64); `a` needs <f4 (float32) for its elements of "
                 "float (save it with .astype(numpy.float32))");
    QCOMPARE(problemOf(shape), "argument a: init file: `" + shape +
                                   "` holds 512 values (shape (32, 16)); `a` has 1024 (1024 × "
                                   "float)");
    QCOMPARE(problemOf(fortran), "argument a: init file: `" + fortran +
                                     "` is in Fortran order (shape (32, 32)); save it in C "
                                     "order (numpy.ascontiguousarray)");
    QVERIFY2(problemOf(shorter).find("is shorter than its header says") != std::string::npos,
             problemOf(shorter).c_str());
    QCOMPARE(problemOf(folder + "/none.npy"),
             "argument a: init file: '" + folder + "/none.npy' does not exist");

    // The reference file of the output, against the output's type and count.
    VerificationSpec verification;
    verification.kind = ReferenceKind::File;
    verification.output = "c";
    verification.file = doubles;
    QVERIFY2(
        mentions(issuesOf(verification), "verification: file", "the reference of `c` needs <f4"),
        text(issuesOf(verification)).c_str());
    verification.file = good;
    QVERIFY(issuesOf(verification).empty());
    // A vector output counts its lanes: 1024 float2 are 2048 values.
    verification.output = "v";
    QVERIFY(mentions(issuesOf(verification), "verification: file", "has 2048 (1024 × float2)"));
}

void TestRunHostCheck::rawFilesAreCheckedBySize()
{
    const std::string folder = m_dir.path().toStdString();
    const std::string exact = folder + "/exact.bin";
    std::ofstream(exact, std::ios::binary) << std::string(4096, '\0');
    const std::string wrong = folder + "/wrong.bin";
    std::ofstream(wrong, std::ios::binary) << std::string(4000, '\0');
    ResolvedLaunch resolved = m_resolved;
    resolved.buffers[0].init.kind = InitKind::File;
    resolved.buffers[0].init.file = exact;
    QVERIFY(checkInputFiles(resolved).empty());
    resolved.buffers[0].init.file = wrong;
    const std::vector<LaunchIssue> issues = checkInputFiles(resolved);
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].message, "`" + wrong +
                                    "` has 4000 bytes; `a` needs 4096 (1024 × float; a file "
                                    "without the .npy magic is read as raw bytes)");
    // A global's file is checked the same way.
    ResolvedBuffer table;
    table.parameter = "c_table";
    table.elementType = parseElementType("float").value();
    table.count = 17;
    table.bytes = 68;
    table.init.kind = InitKind::File;
    table.init.file = wrong;
    resolved.buffers[0].init.file = exact;
    resolved.globals = {table};
    QVERIFY(mentions(checkInputFiles(resolved), "global c_table: init file", "needs 68"));
}

void TestRunHostCheck::outputsAreNotRead()
{
    ResolvedLaunch resolved = m_resolved;
    resolved.buffers[1].init.kind = InitKind::File; // c, an output: it starts as poison
    resolved.buffers[1].init.file = m_dir.path().toStdString() + "/none.npy";
    QVERIFY(checkInputFiles(resolved).empty());
}

void TestRunHostCheck::aLaunchThatDidNotResolveIsNotCheckedFurther()
{
    // The window's copy of a launch whose names did not resolve: its files are only looked
    // for, and a check that needs the names says nothing the launch's own issue does not.
    RunHostInput input;
    input.resolved = m_resolved;
    input.resolved.issues.push_back({"argument a: count", "unknown variable 'M'", 0});
    input.module.kernels = m_compiled.kernels;
    input.module.ptx = m_compiled.ptx;
    input.source = kSource;
    input.arch = "sm_90";
    VerificationSpec verification;
    verification.kind = ReferenceKind::File;
    verification.output = "c";
    const std::string wrong = m_dir.path().toStdString() + "/unresolved.bin";
    std::ofstream(wrong, std::ios::binary) << std::string(10, '\0'); // not 1024 floats
    verification.file = wrong;
    input.verification = Verification(verification);
    QVERIFY2(checkRunOnHost(input, compile()).empty(),
             text(checkRunOnHost(input, compile())).c_str());
    input.verification.checks[0].file = m_dir.path().toStdString() + "/none.npy";
    QVERIFY(mentions(checkRunOnHost(input, compile()), "verification: file", "does not exist"));
}

void TestRunHostCheck::aSessionIsCheckedFromItsCopy()
{
    // The window's launch, copied for another thread: the same findings as from the parts.
    LaunchSession session;
    QVERIFY(!runHostInput(session)); // no module, nothing to check
    session.setModule(m_compiled, kSource, "scale.cu");
    VerificationSpec verification;
    verification.kind = ReferenceKind::Expression;
    verification.output = "c";
    verification.expression = "2 * b[i]";
    session.setLaunch(m_launch, Verification(verification));
    const std::optional<RunHostInput> input = runHostInput(session);
    QVERIFY(input);
    QCOMPARE(input->arch, std::string("sm_90")); // no device: the target's
    QCOMPARE(input->module.kernels.size(), std::size_t(2));
    QVERIFY(input->resolved.ok());
    QVERIFY(*input == *runHostInput(session));
    const std::vector<LaunchIssue> issues = checkRunOnHost(*input, compile());
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("verification: expression"));
    // Another expression is another input.
    verification.expression = "2 * a[i]";
    session.setVerification(Verification(verification));
    QVERIFY(!(*input == *runHostInput(session)));
    QVERIFY(checkRunOnHost(*runHostInput(session), compile()).empty());
    session.setUncompiled();
    QVERIFY(!runHostInput(session));
}

CUWB_TEST_GUILESS_MAIN(TestRunHostCheck)
} // namespace tst_runhostcheck
} // namespace

#include "tst_runhostcheck.moc"
