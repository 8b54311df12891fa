// A launch sequence: further kernels resolved against their signatures (buffers bound by name
// or declared, scalars and dimensions with the step's own block and grid), the errors a user
// meets, the sequence found in a compiled module and validated per kernel, the default of a new
// step, and the JSON of `then`.
#include "compilertesthelpers.h"

#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "kernel/kernelsignature.h"
#include "launch/launchjson.h"
#include "launch/launchsequence.h"
#include "launch/launchspec.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchsequence {

namespace {

KernelParameter pointer(const char *name, ScalarKind kind, bool isConst)
{
    KernelParameter p;
    p.name = name;
    p.typeText = std::string(isConst ? "const " : "") + ElementType{kind, 1}.name() + " *";
    p.isPointer = true;
    p.isConst = isConst;
    p.elementType = {kind, 1};
    p.elementTypeKnown = true;
    p.sizeBytes = 8;
    return p;
}

KernelParameter scalar(const char *name)
{
    KernelParameter p;
    p.name = name;
    p.typeText = "int";
    p.elementType = {ScalarKind::Int32, 1};
    p.elementTypeKnown = true;
    p.sizeBytes = 4;
    return p;
}

// reduce_partial(const float *in, float *partial, int n), then
// reduce_final(const float *partial, float *result, int n).
KernelSignature partialSignature()
{
    KernelSignature signature;
    signature.kernelName = "reduce_partial";
    signature.parameters = {pointer("in", ScalarKind::Float32, true),
                            pointer("partial", ScalarKind::Float32, false), scalar("n")};
    return signature;
}

KernelSignature finalSignature()
{
    KernelSignature signature;
    signature.kernelName = "reduce_final";
    signature.parameters = {pointer("values", ScalarKind::Float32, true),
                            pointer("result", ScalarKind::Float32, false), scalar("count")};
    return signature;
}

ArgumentSpec buffer(const char *name, const char *count, BufferRole role)
{
    ArgumentSpec argument;
    argument.parameter = name;
    argument.elementType = {ScalarKind::Float32, 1};
    argument.count = count;
    argument.role = role;
    return argument;
}

ArgumentSpec value(const char *name, const char *expression)
{
    ArgumentSpec argument;
    argument.parameter = name;
    argument.isBuffer = false;
    argument.value = expression;
    return argument;
}

ArgumentSpec bound(const char *name, const char *to)
{
    ArgumentSpec argument;
    argument.parameter = name;
    argument.buffer = to;
    return argument;
}

LaunchSpec reduction()
{
    LaunchSpec spec;
    spec.kernel = "reduce_partial";
    spec.variables = {{"N", "1 << 20"}, {"PARTIALS", "grid.x"}};
    spec.arguments = {buffer("in", "N", BufferRole::In),
                      buffer("partial", "grid.x", BufferRole::Out), value("n", "N")};
    spec.block = {"256", "1", "1"};
    spec.grid = {"ceil(N / block.x / 8)", "1", "1"};
    KernelStep step;
    step.kernel = "reduce_final";
    step.arguments = {bound("values", "partial"), buffer("result", "1", BufferRole::Out),
                      value("count", "PARTIALS")};
    step.block = {"block.x * 2", "1", "1"};
    step.grid = {"ceil(PARTIALS / block.x)", "1", "1"};
    step.dynamicSharedBytes = "block.x * 4";
    spec.then = {step};
    return spec;
}

std::vector<std::string> messages(const ResolvedLaunch &resolved)
{
    std::vector<std::string> result;
    for (const LaunchIssue &issue : resolved.issues)
        result.push_back(issue.field + ": " + issue.message);
    return result;
}

bool contains(const std::vector<std::string> &list, const std::string &part)
{
    return std::any_of(list.begin(), list.end(), [&](const std::string &each) {
        return each.find(part) != std::string::npos;
    });
}

constexpr const char *kReductionSource = R"(
extern "C" __global__ void reduce_partial(const float *in, float *partial, int n)
{
    __shared__ float sums[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    sums[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int k = 0; k < blockDim.x; ++k)
            total += sums[k];
        partial[blockIdx.x] = total;
    }
}

extern "C" __global__ void __launch_bounds__(512) reduce_final(const float *values, float *result,
                                                               int count)
{
    extern __shared__ float shared[];
    float sum = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        sum += values[i];
    shared[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int k = 0; k < blockDim.x; ++k)
            total += shared[k];
        result[0] = total;
    }
}
)";

} // namespace

class TestLaunchSequence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resolvesTheSteps();
    void withoutSignaturesStepsWait();
    void stepErrors();
    void newBuffersAreInitialisedAndCopied();
    void jsonRoundTrip();
    void jsonErrors();
    void inACompiledModule();
    void defaultStep();
    void kernelNames();
};

void TestLaunchSequence::resolvesTheSteps()
{
    const ResolvedLaunch resolved =
        resolveLaunch(reduction(), partialSignature(), {}, {}, {finalSignature()});
    QVERIFY2(resolved.ok(), resolved.issues.empty() ? "" : resolved.issues[0].message.c_str());
    QCOMPARE(resolved.grid[0], std::uint64_t(512));
    // The sequence's buffers: the first kernel's, then the one the second declares.
    QCOMPARE(resolved.buffers.size(), std::size_t(3));
    QCOMPARE(resolved.buffers[2].parameter, std::string("result"));
    QCOMPARE(resolved.buffers[2].count, std::uint64_t(1));
    QCOMPARE(resolved.steps.size(), std::size_t(1));
    const ResolvedStep &step = resolved.steps[0];
    QCOMPARE(step.kernel, std::string("reduce_final"));
    // values -> partial (buffer 1), result -> the new buffer 2, count -> a scalar.
    QCOMPARE(step.parameterSlots, (std::vector<int>{1, 2, -1}));
    QCOMPARE(step.scalars.size(), std::size_t(1));
    QCOMPARE(step.scalars[0].value, 512.0); // PARTIALS = the first kernel's grid.x
    // Its block from the launch's names (block.x is the first kernel's), its grid and shared
    // memory with its own block.
    QCOMPARE(step.block[0], std::uint64_t(512));
    QCOMPARE(step.grid[0], std::uint64_t(1));
    QCOMPARE(step.dynamicSharedBytes, std::uint64_t(2048));
    QCOMPARE(resolved.totalBufferBytes(), std::uint64_t((1 << 20) * 4 + 512 * 4 + 4));
}

void TestLaunchSequence::withoutSignaturesStepsWait()
{
    // A host check of the first kernel alone resolves no step, and says nothing of them.
    const ResolvedLaunch resolved = resolveLaunch(reduction(), partialSignature());
    QVERIFY(resolved.ok());
    QVERIFY(resolved.steps.empty());
    QCOMPARE(resolved.buffers.size(), std::size_t(2));
}

void TestLaunchSequence::stepErrors()
{
    {
        LaunchSpec spec = reduction();
        spec.then[0].arguments[0] = bound("values", "partials"); // a typo
        const auto found =
            messages(resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()}));
        QVERIFY2(contains(found, "then[0] (reduce_final): argument values: there is no buffer "
                                 "named 'partials' before this kernel (the sequence's buffers: "
                                 "in, partial)"),
                 found.empty() ? "" : found[0].c_str());
    }
    {
        LaunchSpec spec = reduction();
        spec.then[0].arguments[1] = buffer("partial", "1", BufferRole::Out);
        spec.then[0].arguments[1].parameter = "result";
        spec.then[0].arguments[1] = bound("result", "in");
        spec.then[0].arguments.push_back(buffer("in", "1", BufferRole::Out)); // unknown parameter
        const auto found =
            messages(resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()}));
        QVERIFY(contains(found, "then[0] (reduce_final): argument in: the kernel `reduce_final` "
                                "has no parameter named 'in'"));
    }
    {
        // Declaring a buffer the sequence already has.
        KernelSignature signature = finalSignature();
        signature.parameters[1].name = "partial";
        LaunchSpec spec = reduction();
        spec.then[0].arguments[1] = buffer("partial", "1", BufferRole::Out);
        const auto found = messages(resolveLaunch(spec, partialSignature(), {}, {}, {signature}));
        QVERIFY(contains(found, "declares a buffer `partial`, which the sequence has already; "
                                "bind it with \"buffer\": \"partial\""));
    }
    {
        // A pointer to int bound to a buffer of float.
        KernelSignature signature = finalSignature();
        signature.parameters[0] = pointer("values", ScalarKind::Int32, true);
        const auto found =
            messages(resolveLaunch(reduction(), partialSignature(), {}, {}, {signature}));
        QVERIFY2(contains(found, "argument values: points to int32_t, but the buffer `partial` "
                                 "holds float"),
                 found.empty() ? "no issue" : found[0].c_str());
    }
    {
        // A pointer left without a buffer, a value without an expression's name.
        LaunchSpec spec = reduction();
        spec.then[0].arguments = {value("count", "MISSING")};
        const auto found =
            messages(resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()}));
        QVERIFY(contains(found, "argument values: no buffer is given for this pointer parameter"));
        QVERIFY(contains(found, "argument count: unknown variable 'MISSING'"));
    }
    {
        // The first kernel cannot bind: its buffers are its own.
        LaunchSpec spec = reduction();
        spec.arguments[0] = bound("in", "partial");
        const auto found =
            messages(resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()}));
        QVERIFY(contains(found, "argument in: the first kernel's buffers are its own"));
    }
    {
        // A grid of 0 in a step, named with the step.
        LaunchSpec spec = reduction();
        spec.then[0].grid = {"PARTIALS - 512", "1", "1"};
        const auto found =
            messages(resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()}));
        QVERIFY2(contains(found, "then[0] (reduce_final): grid.x: is PARTIALS - 512 = 0; it must "
                                 "be at least 1"),
                 found.empty() ? "" : found[0].c_str());
    }
    {
        // A kernel the module does not have.
        KernelSignature missing;
        missing.error = "the source has no kernel `reduce_finale`";
        const auto found =
            messages(resolveLaunch(reduction(), partialSignature(), {}, {}, {missing}));
        QVERIFY(contains(found, "then[0] (reduce_final): kernel: the source has no kernel"));
    }
}

void TestLaunchSequence::newBuffersAreInitialisedAndCopied()
{
    LaunchSpec spec = reduction();
    ArgumentSpec copy = buffer("result", "grid.x", BufferRole::InOut);
    copy.init.kind = InitKind::CopyOf;
    copy.init.copyOf = "partial";
    spec.then[0].arguments[1] = copy;
    spec.then[0].grid = {"1", "1", "1"};
    // In the step, grid.x is its own (1): a copy of `partial` (512) has another size.
    ResolvedLaunch resolved = resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()});
    QVERIFY(contains(messages(resolved), "a copy needs the same size"));
    spec.then[0].arguments[1].count = "PARTIALS";
    resolved = resolveLaunch(spec, partialSignature(), {}, {}, {finalSignature()});
    QVERIFY(resolved.ok());
    QCOMPARE(resolved.buffers[2].copyOfIndex, 1);
}

void TestLaunchSequence::jsonRoundTrip()
{
    const LaunchSpec spec = reduction();
    const nlohmann::json json = spec;
    QCOMPARE(json["then"][0]["kernel"], nlohmann::json("reduce_final"));
    // A bound argument is written as its binding only.
    QCOMPARE(json["then"][0]["arguments"][0],
             nlohmann::json::parse(R"({"parameter": "values", "buffer": "partial"})"));
    QCOMPARE(json.get<LaunchSpec>(), spec);
    // One kernel: no "then", as before.
    LaunchSpec single = spec;
    single.then.clear();
    QVERIFY(!nlohmann::json(single).contains("then"));
}

void TestLaunchSequence::jsonErrors()
{
    const std::pair<const char *, const char *> cases[] = {
        {R"({"then": {"kernel": "k"}})", "then: expected an array of kernels, found object"},
        {R"({"then": [{"grid": [1]}]})",
         "then[0].kernel: a further kernel of the sequence needs its name"},
        {R"({"then": [{"kernel": "k", "block": [1, 2, 3, 4]}]})",
         "then[0].block: expected an array of 1 to 3 expressions (x, y, z), found 4 elements"},
        {R"({"then": [{"kernel": "k", "arguments": [{"parameter": "a", "kind": "scalar",
             "buffer": "b"}]}]})",
         "then[0].arguments[0].buffer: a value is not bound to a buffer; leave out \"buffer\" or "
         "\"kind\""},
    };
    for (const auto &[text, message] : cases) {
        try {
            (void)nlohmann::json::parse(text).get<LaunchSpec>();
            QFAIL(text);
        } catch (const nlohmann::json::exception &error) {
            QCOMPARE(plainJsonError(error), std::string(message));
        }
    }
}

void TestLaunchSequence::inACompiledModule()
{
    KernelCompiler compiler;
    CompileOptions options;
    options.arch = "sm_90";
    const CompileResult compiled = compiler.compile(kReductionSource, "reduce.cu", options);
    QVERIFY2(compiled.success, compiled.log.c_str());
    LaunchSpec spec = reduction();
    const SequenceKernels kernels = findSequenceKernels(spec, compiled, kReductionSource);
    QVERIFY(kernels.ok());
    QCOMPARE(kernels.signatures.size(), std::size_t(1));
    QCOMPARE(kernels.signatures[0].parameters.size(), std::size_t(3));
    const KernelInfo *first = findKernel(compiled, spec.kernel).kernel;
    QVERIFY(first);
    const KernelSignature signature = parseKernelSignature(kReductionSource, compiled.ptx, *first);
    ResolvedLaunch resolved = resolveLaunch(spec, signature, {}, {}, kernels.signatures);
    QVERIFY(resolved.ok());
    const ValidationContext context{*archLimits("sm_90"), "sm_90", std::nullopt};
    const std::vector<LaunchIssue> fine = validateSequence(spec, resolved, kernels, context);
    QVERIFY2(fine.empty(), fine.empty() ? "" : (fine[0].field + ": " + fine[0].message).c_str());
    // 1024 threads against the step's own __launch_bounds__(512).
    const std::vector<LaunchIssue> issues = validateSequence(spec, resolved, kernels, context);
    spec.then[0].block = {"512 * 2", "1", "1"};
    resolved = resolveLaunch(spec, signature, {}, {}, kernels.signatures);
    std::vector<LaunchIssue> bounded = validateSequence(spec, resolved, kernels, context);
    QCOMPARE(bounded.size(), std::size_t(1));
    QCOMPARE(bounded[0].field, std::string("then[0] (reduce_final): block"));
    QVERIFY(bounded[0].message.find("__launch_bounds__ allows 512") != std::string::npos);
    // A kernel the module lacks.
    spec.then[0].kernel = "reduce_finale";
    const SequenceKernels missing = findSequenceKernels(spec, compiled, kReductionSource);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.issues[0].field, std::string("then[0] (reduce_finale): kernel"));
    QVERIFY(!missing.signatures[0].error.empty());
}

void TestLaunchSequence::defaultStep()
{
    LaunchSpec spec = reduction();
    spec.then.clear();
    const KernelStep step = cuwb::defaultStep(finalSignature(), spec);
    QCOMPARE(step.arguments.size(), std::size_t(3));
    // `values` has no buffer of its name; of float buffers there are two: a new input.
    QVERIFY(step.arguments[0].buffer.empty());
    QCOMPARE(step.arguments[0].role, BufferRole::In);
    QCOMPARE(step.arguments[1].role, BufferRole::Out);
    QCOMPARE(step.arguments[2].value, std::string("N"));
    QCOMPARE(step.block, (std::array<std::string, 3>{"block.x", "block.y", "block.z"}));
    // A parameter named as a buffer of the sequence is bound to it.
    KernelSignature again = partialSignature();
    const KernelStep rebound = cuwb::defaultStep(again, spec);
    QCOMPARE(rebound.arguments[0].buffer, std::string("in"));
    QCOMPARE(rebound.arguments[1].buffer, std::string("partial"));
    QCOMPARE(rebound.grid[0], std::string("ceil((grid.x) / block.x)"));
    // The step it makes resolves.
    LaunchSpec withStep = spec;
    withStep.then = {rebound};
    withStep.then[0].kernel = "reduce_partial";
    const ResolvedLaunch resolved =
        resolveLaunch(withStep, partialSignature(), {}, {}, {partialSignature()});
    QVERIFY2(resolved.ok(), resolved.issues.empty() ? "" : resolved.issues[0].message.c_str());
}

void TestLaunchSequence::kernelNames()
{
    Verification verification;
    VerificationSpec check;
    check.kind = ReferenceKind::Kernel;
    check.referenceKernel = "reduce_naive<float>";
    verification.checks = {check};
    QCOMPARE(launchKernelNames(reduction(), verification),
             (std::vector<std::string>{"reduce_partial", "reduce_final", "reduce_naive<float>"}));
}

CUWB_TEST_GUILESS_MAIN(TestLaunchSequence)
} // namespace tst_launchsequence
} // namespace

#include "tst_launchsequence.moc"
