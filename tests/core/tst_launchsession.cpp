// The launch being set up, apart from the Launch dock (core/launch/launchsession.h), against
// modules NVRTC really compiled (no GPU needed): a project's launch waits for its kernel, each
// kernel keeps what the user set up while another is chosen, a recompile keeps the chosen
// kernel by name, and validation checks against the device or, without one, the target.
#include "compiler/kernelcompiler.h"
#include "launch/launchsession.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchsession {

namespace {

const char *const kTwoKernels = R"(
__global__ void scale(float *x, float f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= f;
}
__global__ void shift(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1.0f;
}
)";

CompileResult compile(const std::string &source, const std::string &arch = "sm_90")
{
    static KernelCompiler compiler;
    CompileOptions options;
    options.arch = arch;
    return compiler.compile(source, "session.cu", options);
}

std::vector<std::string> fields(const std::vector<LaunchIssue> &issues)
{
    std::vector<std::string> names;
    for (const LaunchIssue &issue : issues)
        names.push_back(issue.field + ": " + issue.message);
    return names;
}

} // namespace

class TestLaunchSession : public QObject
{
    Q_OBJECT

private:
    CompileResult m_module;

private Q_SLOTS:
    void initTestCase()
    {
        m_module = compile(kTwoKernels);
        QVERIFY2(m_module.success, m_module.log.c_str());
        QCOMPARE(m_module.kernels.size(), std::size_t(2));
    }

    void firstKernelByDefault()
    {
        LaunchSession session;
        QVERIFY(!session.hasKernel());
        const LaunchSession::Change change = session.setModule(m_module, kTwoKernels, "s.cu");
        QVERIFY(change.adopted && change.specChanged && change.kernelChanged);
        QVERIFY(session.compiled());
        QCOMPARE(session.spec().kernel, std::string("scale"));
        QCOMPARE(session.signature().parameters.size(), std::size_t(3));
        QCOMPARE(session.otherKernelNames(), std::vector<std::string>{"shift"});
        QVERIFY(session.validate().empty());
    }

    void sequenceAndChecksAreValidated()
    {
        LaunchSession session;
        session.setModule(m_module, kTwoKernels, "s.cu");
        // scale(x, f, n) then shift(in, out, n): shift's `in` bound to scale's `x`.
        LaunchSpec spec = session.spec();
        KernelStep step = session.newStep(1);
        QCOMPARE(step.kernel, std::string("shift"));
        QCOMPARE(step.arguments.size(), std::size_t(3));
        QCOMPARE(step.arguments[0].buffer, std::string("x")); // the only float buffer
        QVERIFY(step.arguments[1].buffer.empty());            // a new output, `out`
        spec.then = {step};
        session.setSpec(spec);
        QCOMPARE(session.sequenceKernels().signatures.size(), std::size_t(1));
        const std::vector<std::string> none = fields(session.validate());
        QVERIFY2(none.empty(), none.empty() ? "" : none.front().c_str());
        // A check of the further kernel's output is known; one of a missing buffer is not.
        Verification checks;
        VerificationSpec ofOut;
        ofOut.kind = ReferenceKind::Expression;
        ofOut.output = "out";
        ofOut.expression = "x[i] + 1.0f";
        VerificationSpec ofNothing = ofOut;
        ofNothing.output = "nothing";
        checks.checks = {ofOut, ofNothing};
        session.setVerification(checks);
        QCOMPARE(fields(session.validate()),
                 std::vector<std::string>{"verification[1]: choose the output buffer to check"});
        // The step's block is checked against the limits, named with the step.
        spec.then[0].block = {"2048", "1", "1"};
        session.setSpec(spec);
        session.setVerification(Verification(ofOut));
        const std::vector<std::string> issues = fields(session.validate());
        QVERIFY(!issues.empty());
        QVERIFY2(issues.front().starts_with("then[0] (shift): block.x"), issues.front().c_str());
    }

    void deviceNamesFollowTheDevice()
    {
        LaunchSession session;
        session.setModule(m_module, kTwoKernels, "s.cu");
        QVERIFY(session.deviceNames().source.find("catalogue entry for sm_90") !=
                std::string::npos);
        LaunchSpec spec = session.spec();
        spec.grid = {"device.smCount * 2", "1", "1"};
        session.setSpec(spec);
        QVERIFY(session.validate().empty());
        DeviceInfo device;
        device.name = "Tiny";
        device.major = 8;
        device.minor = 0;
        device.smCount = 2;
        session.setDevice(device, std::nullopt);
        QCOMPARE(session.deviceNames().values.at("device.smCount"), 2.0);
        QCOMPARE(session.deviceNames().source, std::string("Tiny (the device)"));
    }

    void projectLaunchWaitsForItsKernel()
    {
        LaunchSession session;
        LaunchSpec project;
        project.kernel = "shift";
        project.block = {"64", "1", "1"};
        VerificationSpec check;
        check.kind = ReferenceKind::Expression;
        check.expression = "in[i] + 1";
        // No module yet: nothing is adopted, the launch is what a compile would use.
        QVERIFY(!session.setLaunch(project, check).adopted);
        QCOMPARE(session.launchForCompile().block[0], std::string("64"));

        const LaunchSession::Change change = session.setModule(m_module, kTwoKernels, "s.cu");
        QVERIFY(change.kernelChanged);
        QCOMPARE(session.loweredName(), m_module.kernels[1].loweredName);
        QCOMPARE(session.spec().kernel, std::string("shift"));
        QCOMPARE(session.spec().block[0], std::string("64"));
        // The project's arguments were empty: the kernel's defaults fill them in.
        QCOMPARE(session.spec().arguments.size(), std::size_t(3));
        // A check without an output compares the first buffer the kernel may write.
        QCOMPARE(session.verification().first().output, std::string("out"));
        QVERIFY(session.validate().empty());
    }

    void eachKernelKeepsItsSetUp()
    {
        LaunchSession session;
        session.setModule(m_module, kTwoKernels, "s.cu");
        LaunchSpec edited = session.spec();
        edited.block[0] = "32";
        session.setSpec(edited);

        const LaunchSession::Change toShift = session.chooseKernel(1);
        QVERIFY(toShift.kernelChanged && toShift.specChanged);
        QCOMPARE(session.spec().kernel, std::string("shift"));
        QVERIFY(session.spec().block[0] != "32");
        QVERIFY(!session.chooseKernel(1).adopted); // already chosen: nothing to do

        session.chooseKernel(0);
        QCOMPARE(session.spec().kernel, std::string("scale"));
        QCOMPARE(session.spec().block[0], std::string("32"));
    }

    void recompileKeepsTheChosenKernel()
    {
        LaunchSession session;
        session.setModule(m_module, kTwoKernels, "s.cu");
        session.chooseKernel(1);
        LaunchSpec edited = session.spec();
        edited.block[0] = "512";
        session.setSpec(edited);

        // The same module again (an edit elsewhere): the kernel and the launch stay.
        LaunchSession::Change change = session.setModule(m_module, kTwoKernels, "s.cu");
        QVERIFY(change.adopted);
        QVERIFY(!change.kernelChanged);
        QVERIFY(!change.specChanged);
        QCOMPARE(session.spec().block[0], std::string("512"));

        // A failed compile keeps the kernels on show but nothing can run.
        session.setUncompiled();
        QVERIFY(session.hasKernel());
        QVERIFY(!session.compiled());

        // A source whose kernels are gone clears the session.
        const CompileResult none = compile("__device__ int x;\n");
        QVERIFY2(none.success, none.log.c_str());
        change = session.setModule(none, "__device__ int x;\n", "s.cu");
        QVERIFY(!change.adopted);
        QVERIFY(!session.hasKernel());
        QVERIFY(!session.compiled());
        QVERIFY(session.validate().empty());
    }

    void validatesAgainstTheDeviceElseTheTarget()
    {
        const CompileResult module = compile(kTwoKernels, "sm_90a");
        QVERIFY2(module.success, module.log.c_str());
        LaunchSession session;
        session.setModule(module, kTwoKernels, "s.cu");
        QCOMPARE(session.validationContext().limitsName, std::string("sm_90a"));
        QCOMPARE(session.metricsArchitecture(), std::string("sm_90"));

        LaunchSpec tooBig = session.spec();
        tooBig.block[0] = "2048";
        session.setSpec(tooBig);
        const std::vector<LaunchIssue> issues = session.validate();
        QVERIFY(!issues.empty());
        QVERIFY2(issues.front().message.find("1024") != std::string::npos,
                 issues.front().message.c_str());

        DeviceInfo device;
        device.name = "Test GPU";
        device.major = 8;
        device.minor = 6;
        session.setDevice(device, 1u << 30);
        QCOMPARE(session.validationContext().limitsName, std::string("Test GPU"));
        QCOMPARE(session.validationContext().freeMemoryBytes,
                 std::optional<std::uint64_t>(1u << 30));
        QCOMPARE(session.metricsArchitecture(), std::string("sm_86"));
    }

    void issuesComeInOrder()
    {
        LaunchSession session;
        session.setModule(m_module, kTwoKernels, "s.cu");
        LaunchSpec wrong = session.spec();
        wrong.block[0] = "2048";
        session.setSpec(wrong);
        VerificationSpec check;
        check.kind = ReferenceKind::Kernel;
        check.output = "nonexistent";
        session.setVerification(check);
        const std::vector<std::string> found =
            fields(session.validate({{"global g", "no such variable", -1}}));
        QVERIFY(found.size() >= 4);
        QVERIFY2(found.front().rfind("block", 0) == 0, found.front().c_str());
        const std::vector<std::string> tail(found.end() - 3, found.end());
        QCOMPARE(tail, (std::vector<std::string>{"global g: no such variable",
                                                 "verification: choose the output buffer to check",
                                                 "verification: choose the reference kernel"}));
    }
};

CUWB_TEST_GUILESS_MAIN(TestLaunchSession)
} // namespace tst_launchsession
} // namespace

#include "tst_launchsession.moc"
