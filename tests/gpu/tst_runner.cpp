// On a real GPU: the runner runs the samples and verifies them; guard bands catch writes past
// either end of a buffer with the right index; unwritten outputs are counted; illegal
// addresses, traps and endless loops each end a worker process (a fresh `cuwb worker`, since
// the context dies) with a plain message and the next worker runs fine; 4 GiB buffers
// initialise and verify; every init kind, tolerance kind, page and export format works;
// verification waits for the copies it reads even while the GPU is busy elsewhere.
// Skips, saying why, where there is no driver or no GPU.
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "cuda/devicememory.h"
#include "cuda/driverapi.h"
#include "cuda/driverfunctions.h"
#include "device/deviceinfo.h"
#include "gpuavailability.h"
#include "kernel/elementtype.h"
#include "kernel/kernelsignature.h"
#include "project/project.h"
#include "run/hostelements.h"
#include "run/runner.h"
#include "run/verificationcheck.h"
#include "worker/protocol.h"
#include "worker/workerprocess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <fstream>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_runner {

namespace {

ElementType type(const char *name)
{
    const auto parsed = parseElementType(name);
    if (!parsed) {
        qFatal("unknown element type %s", name);
    }
    return *parsed;
}

ArgumentSpec buffer(const char *name, const char *elementType, BufferRole role,
                    BufferInit init = {}, const char *count = "N")
{
    ArgumentSpec a;
    a.parameter = name;
    a.isBuffer = true;
    a.elementType = type(elementType);
    a.count = count;
    a.role = role;
    a.init = init;
    return a;
}

ArgumentSpec scalar(const char *name, const char *elementType, const char *value)
{
    ArgumentSpec a;
    a.parameter = name;
    a.isBuffer = false;
    a.elementType = type(elementType);
    a.value = value;
    return a;
}

BufferInit init(InitKind kind, const char *a = "0", const char *b = "1", std::uint64_t seed = 1)
{
    BufferInit i;
    i.kind = kind;
    switch (kind) {
    case InitKind::Constant:
        i.value = a;
        break;
    case InitKind::Range:
        i.start = a;
        i.step = b;
        break;
    case InitKind::Uniform:
        i.low = a;
        i.high = b;
        break;
    case InitKind::Normal:
        i.mean = a;
        i.stddev = b;
        break;
    default:
        break;
    }
    i.seed = seed;
    return i;
}

RunRequest request(const char *source, const char *kernel, const char *n,
                   std::vector<ArgumentSpec> arguments)
{
    RunRequest r;
    r.source = source;
    r.launch.kernel = kernel;
    r.launch.variables = {{"N", n}};
    r.launch.arguments = std::move(arguments);
    return r;
}

VerificationSpec expression(const char *output, const char *text, ToleranceKind tolerance,
                            double value)
{
    VerificationSpec v;
    v.kind = ReferenceKind::Expression;
    v.output = output;
    v.expression = text;
    v.tolerance = tolerance;
    v.toleranceValue = value;
    return v;
}

const BufferReport *report(const RunResult &result, const std::string &name)
{
    for (const BufferReport &b : result.buffers) {
        if (b.parameter == name) {
            return &b;
        }
    }
    return nullptr;
}

QByteArray describe(const RunResult &result)
{
    std::string text = std::string(runStatusName(result.status)) + ": " + result.message +
                       " | verification: " + result.verification.message;
    for (const BufferReport &b : result.buffers) {
        for (const GuardViolation &g : b.guardViolations) {
            text += " | " + g.message;
        }
    }
    return QByteArray::fromStdString(text);
}

const char *const kScale = R"(
extern "C" __global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 1.000001f;
}
extern "C" __global__ void scale_reference(const float *in, float *out, int n)
{
    for (int i = 0; i < n; ++i) out[i] = in[i] * 1.000001f;
}
)";

// out = 2·in + again, where `again` is a copy of `in`; the reference computes 3·in, which
// rounds the same (2·in is exact).
const char *const kTwiceAndOnce = R"(
extern "C" __global__ void twice_and_once(const float *in, float *out, const float *again, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f + again[i];
}
extern "C" __global__ void thrice(const float *in, float *out, const float *again, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 3.0f;
}
)";

const char *const kMistakes = R"(
extern "C" __global__ void off_by_one(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) c[i] = a[i] * 2.0f;
}
extern "C" __global__ void before_start(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i - 3] = a[i];
}
extern "C" __global__ void skip_seven(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i != 7) c[i] = a[i];
}
)";

const char *const kFaults = R"(
extern "C" __global__ void illegal_address(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *wild = (float *)0x10;
    if (i < n) wild[i * 1024] = 1.0f;
    out[0] = 0.0f;
}
extern "C" __global__ void trap(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == n / 2) __trap();
    if (i < n) out[i] = 1.0f;
}
extern "C" __global__ void misaligned(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *odd = (float *)((char *)out + 1);
    if (i < n - 1) odd[i] = 1.0f;
}
extern "C" __global__ void device_assert(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i != n / 2);
    if (i < n) out[i] = 1.0f;
}
extern "C" __global__ void endless(float *out, int n)
{
    volatile float *v = out;
    while (v[0] == 0.0f) {
    }
    out[n - 1] = 1.0f;
}
)";

// Half of the output is meaningful (the even elements); the module's variables hold a factor
// the project sets and a counter the kernel writes.
const char *const kEveryOther = R"(
__constant__ float coeff[4];
__device__ unsigned int hits;
extern "C" __global__ void every_other(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = i % 2 == 0 ? a[i] * coeff[0] : -1.0f;
        if (i % 2 == 0) atomicAdd(&hits, 1u);
    }
}
)";

} // namespace

class TestRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void samplesLoad_data();
    void samplesLoad();
    void samplesRunAndVerify_data();
    void samplesRunAndVerify();
    void invalidLaunchTouchesNothing();
    void compileErrorIsReported();
    void offByOneIsCaught();
    void writeBeforeStartIsCaught();
    void unwrittenElementIsReported();
    void initKinds();
    void seedsGiveIndependentStreams();
    void halfAndBfloat16();
    void toleranceKinds();
    void kernelAndFileReferences();
    void verificationWaitsForItsCopies();
    void masksAndGlobals();
    void loopUnrollFactorsRunAndVerify();
    void hostCheckSaysWhatTheWorkerSays();
    void pagesAndExports();
    void fourGiBBuffers();
    void faultsEndTheWorker_data();
    void faultsEndTheWorker();

private:
    RunResult runSample(const QString &name);
    std::unique_ptr<Runner> m_runner;
    QString m_skipReason;
};

void TestRunner::initTestCase()
{
    m_skipReason = gpuSkipReason();
    if (!m_skipReason.isEmpty())
        return;
    m_runner = std::make_unique<Runner>(0);
    qInfo("device: %s (%s), %d SMs, %.1f GiB free", m_runner->device().name.c_str(),
          m_runner->device().arch().c_str(), m_runner->device().smCount,
          double(m_runner->freeMemoryBytes()) / double(1ull << 30));
}

void TestRunner::samplesLoad_data()
{
    QTest::addColumn<QString>("name");
    for (const char *name : {"vector_add", "saxpy", "copy"}) {
        QTest::newRow(name) << QString::fromLatin1(name);
    }
}

// Without a GPU too: every sample project parses and finds its source.
void TestRunner::samplesLoad()
{
    QFETCH(QString, name);
    const QString path = QStringLiteral(CUWB_SAMPLES_DIR "/%1/%1.cuwb").arg(name);
    const ProjectLoad load = loadProject(path.toStdString());
    QVERIFY2(load.project, load.error.c_str());
    std::string source;
    std::string error;
    QVERIFY2(readProjectSource(*load.project, path.toStdString(), source, error), error.c_str());
    QVERIFY(!source.empty());
    QVERIFY(load.project->verification.configured());
}

RunResult TestRunner::runSample(const QString &name)
{
    const QString path = QStringLiteral(CUWB_SAMPLES_DIR "/%1/%1.cuwb").arg(name);
    const ProjectLoad load = loadProject(path.toStdString());
    if (!load.project) {
        RunResult failed;
        failed.status = RunStatus::InvalidLaunch;
        failed.message = load.error;
        return failed;
    }
    RunRequest r;
    std::string error;
    readProjectSource(*load.project, path.toStdString(), r.source, error);
    r.fileName = name.toStdString() + ".cu";
    r.options = load.project->options;
    r.launch = load.project->launch;
    r.verification = load.project->verification;
    return m_runner->run(r);
}

void TestRunner::samplesRunAndVerify_data()
{
    samplesLoad_data();
}

void TestRunner::samplesRunAndVerify()
{
    CUWB_NEED_GPU();
    QFETCH(QString, name);
    const RunResult result = runSample(name);
    QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
    QVERIFY2(result.verification.ran, describe(result));
    QVERIFY2(result.verification.passed, describe(result));
    QVERIFY2(result.passed(), describe(result));
    QVERIFY(result.kernelTimeMs > 0.0);
    QCOMPARE(result.verification.mismatches, std::uint64_t(0));
    for (const BufferReport &b : result.buffers) {
        QVERIFY2(b.guardViolations.empty(), b.parameter.c_str());
        QCOMPARE(b.unwritten, std::uint64_t(0));
        QVERIFY(b.stats.valid);
        QCOMPARE(b.stats.nanCount, std::uint64_t(0));
    }
    qInfo("%s: %s; kernel %.3f ms, run %.1f ms", qPrintable(name),
          result.verification.message.c_str(), result.kernelTimeMs, result.wallTimeMs);
    if (name == QLatin1String("vector_add")) {
        const BufferReport *a = report(result, "a");
        QVERIFY(a);
        QCOMPARE(a->count, std::uint64_t(1) << 24);
        QVERIFY(a->stats.min >= 0.0 && a->stats.max < 1.0);
        QVERIFY(std::fabs(a->stats.mean - 0.5) < 0.01);
        const BufferReport *c = report(result, "c");
        QVERIFY(c && c->stats.max < 2.0 && c->stats.max > 1.9);
    }
}

void TestRunner::invalidLaunchTouchesNothing()
{
    CUWB_NEED_GPU();
    RunRequest r = request(kScale, "scale", "1024",
                           {buffer("in", "float", BufferRole::In, init(InitKind::Range)),
                            buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
    r.launch.block = {"2048", "1", "1"};
    const RunResult result = m_runner->run(r);
    QCOMPARE(result.status, RunStatus::InvalidLaunch);
    QVERIFY2(result.message.find("block") != std::string::npos, result.message.c_str());
    QVERIFY(result.buffers.empty());
    QVERIFY(!m_runner->contextLost());

    // More memory than the device has free is refused before any allocation, naming both.
    r.launch.block = {"256", "1", "1"};
    r.launch.variables = {{"N", "1 << 36"}};
    r.launch.arguments[2].value = "1024"; // n itself must still fit its int
    const RunResult huge = m_runner->run(r);
    QCOMPARE(huge.status, RunStatus::InvalidLaunch);
    QVERIFY2(huge.message.find("free") != std::string::npos, huge.message.c_str());
    QVERIFY(!m_runner->contextLost());
}

void TestRunner::compileErrorIsReported()
{
    CUWB_NEED_GPU();
    RunRequest r = request("extern \"C\" __global__ void k(float *p) { p[0] = undefined_name; }",
                           "k", "16", {buffer("p", "float", BufferRole::Out)});
    r.options.arch = "sm_80"; // the runner compiles for the device instead
    const RunResult result = m_runner->run(r);
    QCOMPARE(result.status, RunStatus::CompileFailed);
    QVERIFY2(result.message.find("undefined_name") != std::string::npos, result.message.c_str());
}

void TestRunner::offByOneIsCaught()
{
    CUWB_NEED_GPU();
    RunRequest r = request(kMistakes, "off_by_one", "1000003",
                           {buffer("a", "float", BufferRole::In, init(InitKind::Range)),
                            buffer("c", "float", BufferRole::Out), scalar("n", "int", "N")});
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
    QVERIFY(!result.passed());
    const BufferReport *c = report(result, "c");
    QVERIFY(c);
    QCOMPARE(c->guardViolations.size(), std::size_t(1));
    const GuardViolation &g = c->guardViolations.front();
    QVERIFY(!g.before);
    QCOMPARE(g.elements, std::uint64_t(1));
    QCOMPARE(g.firstIndex, std::int64_t(1000003));
    QCOMPARE(QString::fromStdString(g.message),
             QStringLiteral("wrote 1 element past the end of `c`, first at index 1000003"));
    QCOMPARE(c->unwritten, std::uint64_t(0));
    // a[n] is read from a's band: reading does not count, only writing.
    QVERIFY(report(result, "a")->guardViolations.empty());
}

void TestRunner::writeBeforeStartIsCaught()
{
    CUWB_NEED_GPU();
    RunRequest r = request(kMistakes, "before_start", "4096",
                           {buffer("a", "float", BufferRole::In, init(InitKind::Range)),
                            buffer("c", "float", BufferRole::Out), scalar("n", "int", "N")});
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
    const BufferReport *c = report(result, "c");
    QVERIFY(c);
    QCOMPARE(c->guardViolations.size(), std::size_t(1));
    QVERIFY(c->guardViolations.front().before);
    QCOMPARE(c->guardViolations.front().elements, std::uint64_t(3));
    QCOMPARE(c->guardViolations.front().firstIndex, std::int64_t(-3));
    QCOMPARE(QString::fromStdString(c->guardViolations.front().message),
             QStringLiteral("wrote 3 elements before the start of `c`, first at index -3"));
    QCOMPARE(c->unwritten, std::uint64_t(3)); // the last three were never written
    QCOMPARE(c->firstUnwritten, std::int64_t(4093));
}

void TestRunner::unwrittenElementIsReported()
{
    CUWB_NEED_GPU();
    RunRequest r = request(kMistakes, "skip_seven", "100000",
                           {buffer("a", "float", BufferRole::In, init(InitKind::Range, "1", "1")),
                            buffer("c", "float", BufferRole::Out), scalar("n", "int", "N")});
    r.verification = expression("c", "a[i]", ToleranceKind::Relative, 1e-6);
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
    const BufferReport *c = report(result, "c");
    QVERIFY(c);
    QCOMPARE(c->unwritten, std::uint64_t(1));
    QCOMPARE(c->firstUnwritten, std::int64_t(7));
    QCOMPARE(c->stats.nanCount, std::uint64_t(1));
    QVERIFY(c->guardViolations.empty());
    const VerificationResult &v = result.verification;
    QVERIFY(v.ran);
    QVERIFY(!v.passed);
    QCOMPARE(v.mismatches, std::uint64_t(1));
    QCOMPARE(v.firstMismatches.size(), std::size_t(1));
    QCOMPARE(v.firstMismatches[0].index, std::uint64_t(7));
    QCOMPARE(v.firstMismatches[0].expected, 8.0);
    QVERIFY(std::isnan(v.firstMismatches[0].actual));
    QCOMPARE(v.firstMismatches[0].thread[0], std::uint64_t(7));
    QCOMPARE(v.firstMismatches[0].block[0], std::uint64_t(0));
    QVERIFY2(v.message.find("one element per thread") != std::string::npos, v.message.c_str());
    QVERIFY(!result.passed());
}

const char *const kTouch = R"(
extern "C" __global__ void touch(const float *zeros, const float *constant, const double *range,
                                 const float *uniform, const double *normal, const int *ints,
                                 const float *copied, const unsigned char *bytes, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = zeros[i] + copied[i] + bytes[i];
}
)";

void TestRunner::initKinds()
{
    CUWB_NEED_GPU();
    RunRequest r =
        request(kTouch, "touch", "1 << 20",
                {buffer("zeros", "float", BufferRole::In, init(InitKind::Zeros)),
                 buffer("constant", "float", BufferRole::In, init(InitKind::Constant, "N / 4")),
                 buffer("range", "double", BufferRole::In, init(InitKind::Range, "-5", "0.5")),
                 buffer("uniform", "float", BufferRole::In, init(InitKind::Uniform, "2", "4", 11)),
                 buffer("normal", "double", BufferRole::In, init(InitKind::Normal, "5", "2", 12)),
                 buffer("ints", "int", BufferRole::In, init(InitKind::Uniform, "-10", "10", 13)),
                 buffer("copied", "float", BufferRole::In,
                        [] {
                            BufferInit i;
                            i.kind = InitKind::CopyOf;
                            i.copyOf = "uniform";
                            return i;
                        }()),
                 buffer("bytes", "uint8_t", BufferRole::In, init(InitKind::Constant, "7")),
                 buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
    r.verification = expression("out", "copied[i] + 7", ToleranceKind::Absolute, 1e-6);
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    const double n = double(1 << 20);
    QCOMPARE(report(result, "zeros")->stats.max, 0.0);
    QCOMPARE(report(result, "constant")->stats.min, n / 4);
    QCOMPARE(report(result, "constant")->stats.max, n / 4);
    QCOMPARE(report(result, "range")->stats.min, -5.0);
    QCOMPARE(report(result, "range")->stats.max, -5.0 + 0.5 * (n - 1));
    const BufferStats &u = report(result, "uniform")->stats;
    QVERIFY(u.min >= 2.0 && u.max < 4.0 && std::fabs(u.mean - 3.0) < 0.01);
    const BufferStats &g = report(result, "normal")->stats;
    QVERIFY2(std::fabs(g.mean - 5.0) < 0.02, qPrintable(QString::number(g.mean)));
    QVERIFY(g.min < -3.0 && g.max > 13.0); // about ±4.5 sigma over a million values
    const BufferStats &ints = report(result, "ints")->stats;
    QCOMPARE(ints.min, -10.0);
    QCOMPARE(ints.max, 9.0);
    QCOMPARE(report(result, "copied")->stats.mean, u.mean);
    QCOMPARE(report(result, "bytes")->stats.mean, 7.0);

    // The same seed gives the same values run after run; another seed does not.
    const RunResult again = m_runner->run(r);
    QCOMPARE(report(again, "uniform")->stats.mean, u.mean);
}

const char *const kTwoStreams = R"(
extern "C" __global__ void sum(const double *a, const double *b, double *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
)";

void TestRunner::seedsGiveIndependentStreams()
{
    // Seeds 1 and 2 once gave a[j] == b[k] whenever j == 2 and k == 1 (seed and index were
    // interchangeable in the generator): no value of one stream may appear in the other.
    CUWB_NEED_GPU();
    RunRequest r =
        request(kTwoStreams, "sum", "4096",
                {buffer("a", "double", BufferRole::In, init(InitKind::Uniform, "0", "1", 1)),
                 buffer("b", "double", BufferRole::In, init(InitKind::Uniform, "0", "1", 2)),
                 buffer("c", "double", BufferRole::Out), scalar("n", "int", "N")});
    r.verification = expression("c", "a[i] + b[i]", ToleranceKind::Relative, 1e-12);
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    const Page a = m_runner->page({report(result, "a")->handle, 0, 256});
    const Page b = m_runner->page({report(result, "b")->handle, 0, 256});
    QCOMPARE(a.values.size(), std::size_t(256));
    const std::set<std::string> inA(a.values.begin(), a.values.end());
    QCOMPARE(inA.size(), a.values.size());
    for (const std::string &value : b.values)
        QVERIFY2(!inA.count(value), value.c_str());
}

const char *const kHalves = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void halves(const __half *h, const __nv_bfloat16 *b, __half *ho,
                                  __nv_bfloat16 *bo, float4 *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ho[i] = __hadd(h[i], h[i]);
        bo[i] = __float2bfloat16(__bfloat162float(b[i]) * 2.0f);
        v[i] = make_float4(i, i + 0.5f, -i, 1.0f);
    }
}
)";

void TestRunner::halfAndBfloat16()
{
    CUWB_NEED_GPU();
    RunRequest r = request(
        kHalves, "halves", "1000",
        {buffer("h", "half", BufferRole::In, init(InitKind::Range, "0", "0.25")),
         buffer("b", "__nv_bfloat16", BufferRole::In, init(InitKind::Constant, "1.5")),
         buffer("ho", "half", BufferRole::Out), buffer("bo", "__nv_bfloat16", BufferRole::Out),
         buffer("v", "float4", BufferRole::Out), scalar("n", "int", "N")});
    r.verification = expression("ho", "h[i] + h[i]", ToleranceKind::Ulp, 0);
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(report(result, "ho")->stats.max, 2.0 * 0.25 * 999);
    QCOMPARE(report(result, "bo")->stats.mean, 3.0);
    QCOMPARE(report(result, "v")->unwritten, std::uint64_t(0));
    const Page ho = m_runner->page({report(result, "ho")->handle, 2, 3});
    QCOMPARE(ho.values, (std::vector<std::string>{"1", "1.5", "2"}));
    const Page bo = m_runner->page({report(result, "bo")->handle, 0, 1});
    QCOMPARE(bo.values, std::vector<std::string>{"3"});
    const Page v = m_runner->page({report(result, "v")->handle, 3, 1});
    QCOMPARE(v.values, std::vector<std::string>{"(3, 3.5, -3, 1)"});
}

void TestRunner::toleranceKinds()
{
    CUWB_NEED_GPU();
    struct Case
    {
        ToleranceKind kind;
        double bound;
        bool passes;
    };
    // out = in * 1.000001f with in in [1, 2): relative error about 1e-6, 8 or 9 ULP.
    const Case cases[] = {
        {ToleranceKind::Absolute, 1e-5, true}, {ToleranceKind::Absolute, 1e-7, false},
        {ToleranceKind::Relative, 2e-6, true}, {ToleranceKind::Relative, 1e-7, false},
        {ToleranceKind::Ulp, 16, true},        {ToleranceKind::Ulp, 2, false},
    };
    for (const Case &c : cases) {
        RunRequest r =
            request(kScale, "scale", "65536",
                    {buffer("in", "float", BufferRole::In, init(InitKind::Uniform, "1", "2", 3)),
                     buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
        r.verification = expression("out", "in[i]", c.kind, c.bound);
        const RunResult result = m_runner->run(r);
        QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
        QVERIFY2(result.verification.passed == c.passes, describe(result));
        if (!c.passes) {
            QVERIFY(result.verification.mismatches > 0);
            QCOMPARE(result.verification.firstMismatches.size(), std::size_t(10));
            QVERIFY(result.verification.firstMismatches[0].index <
                    result.verification.firstMismatches[9].index);
            QVERIFY(result.verification.firstMismatches[0].error > c.bound);
        }
        QVERIFY(result.verification.maxError > 0.0);
    }
}

void TestRunner::kernelAndFileReferences()
{
    CUWB_NEED_GPU();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunRequest r = request(kScale, "scale", "4096",
                           {buffer("in", "float", BufferRole::In, init(InitKind::Range, "1", "1")),
                            buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
    r.verification.checks.assign(1, VerificationSpec{});
    r.verification.checks[0].kind = ReferenceKind::Kernel;
    r.verification.checks[0].output = "out";
    r.verification.checks[0].referenceKernel = "scale_reference";
    r.verification.checks[0].tolerance = ToleranceKind::Ulp;
    r.verification.checks[0].toleranceValue = 0;
    r.launch.grid = {"ceil(N / block.x)", "1", "1"};
    RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));

    // Export the result, then verify a run against that file, and start one from it.
    const std::string npy = dir.filePath(QStringLiteral("out.npy")).toStdString();
    m_runner->exportBuffer(report(result, "out")->handle, npy, ExportFormat::Npy);
    r.verification.checks[0].kind = ReferenceKind::File;
    r.verification.checks[0].file = npy;
    result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));

    const std::string bin = dir.filePath(QStringLiteral("in.bin")).toStdString();
    {
        std::vector<float> values(4096);
        for (std::size_t k = 0; k < values.size(); ++k) {
            values[k] = float(k + 1);
        }
        std::ofstream out(bin, std::ios::binary);
        out.write(reinterpret_cast<const char *>(values.data()),
                  std::streamsize(values.size() * sizeof(float)));
    }
    BufferInit fromFile;
    fromFile.kind = InitKind::File;
    fromFile.file = bin;
    r.launch.arguments[0].init = fromFile;
    result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));

    // A file of the wrong size is refused with a message before the launch.
    r.launch.variables = {{"N", "4000"}};
    result = m_runner->run(r);
    QCOMPARE(result.status, RunStatus::InvalidLaunch);
    QVERIFY2(result.message.find("16384 bytes") != std::string::npos, result.message.c_str());
}

// The softmax false verdict (issue 27): the copies a reference kernel runs on, and a buffer
// that is a copy of another, were made on the legacy default stream, which the runner's
// non-blocking stream does not wait for. Here another thread keeps the legacy stream busy
// (memsets of a scratch buffer, queued without pause) while the samples verify: every copy the
// runner makes must be ordered on its own stream, or the reference reads its inputs before
// they arrive and the poisoned output's copy lands on the reference afterwards.
void TestRunner::verificationWaitsForItsCopies()
{
    CUWB_NEED_GPU();
    const DriverFunctions &cu = detail::driverFunctions();
    CUcontext context = nullptr;
    QCOMPARE(cu.cuCtxGetCurrent(&context), CUDA_SUCCESS);
    const std::size_t scratchBytes = std::size_t(256) << 20;
    DeviceBuffer scratch(scratchBytes);
    std::atomic<bool> stop = false;
    std::atomic<int> failures = 0;
    std::thread busy([&] {
        if (cu.cuCtxSetCurrent(context) != CUDA_SUCCESS) {
            ++failures;
            return;
        }
        for (unsigned k = 0; !stop; ++k) {
            if (cu.cuMemsetD32Async(scratch.pointer(), k, scratchBytes / 4, nullptr) !=
                CUDA_SUCCESS) {
                ++failures;
                return;
            }
        }
    });
    struct Join
    {
        std::atomic<bool> &stop;
        std::thread &thread;
        ~Join()
        {
            stop = true;
            thread.join();
        }
    } join{stop, busy};
    const RunResult softmax = runSample(QStringLiteral("softmax"));
    QVERIFY2(softmax.passed(), describe(softmax));

    RunRequest r = request(kTwiceAndOnce, "twice_and_once", "(1 << 24)",
                           {buffer("in", "float", BufferRole::In, init(InitKind::Uniform)),
                            buffer("out", "float", BufferRole::Out),
                            buffer("again", "float", BufferRole::In), scalar("n", "int", "N")});
    r.launch.arguments[2].init.kind = InitKind::CopyOf;
    r.launch.arguments[2].init.copyOf = "in";
    r.launch.grid = {"ceil(N / block.x)", "1", "1"};
    r.verification.checks.assign(1, VerificationSpec{});
    r.verification.checks[0].kind = ReferenceKind::Kernel;
    r.verification.checks[0].output = "out";
    r.verification.checks[0].referenceKernel = "thrice";
    r.verification.checks[0].tolerance = ToleranceKind::Ulp;
    r.verification.checks[0].toleranceValue = 0;
    RunResult scaled = m_runner->run(r);
    QVERIFY2(scaled.passed(), describe(scaled));
    // `again` is `in` as the kernel found it: equal statistics.
    const BufferReport *in = report(scaled, "in");
    const BufferReport *again = report(scaled, "again");
    QVERIFY(in && again);
    QCOMPARE(again->stats.mean, in->stats.mean);
    QCOMPARE(again->stats.min, in->stats.min);
    QCOMPARE(failures.load(), 0);
}

// Kernel Tuner's loop_unroll_factor: 0 (the pragma removed), 1 and 8 each compile, run and
// verify, and kernel_tuner is defined as under Kernel Tuner.
void TestRunner::loopUnrollFactorsRunAndVerify()
{
    CUWB_NEED_GPU();
    const char *const source = R"(
__global__ void sum_columns(const float *in, float *out, int rows)
{
    float s = 0.0f;
#pragma unroll loop_unroll_factor_0
    for (int r = 0; r < rows; ++r)
        s += in[r * blockDim.x + threadIdx.x];
#ifdef kernel_tuner
    out[threadIdx.x] = s;
#endif
}
)";
    for (const char *factor : {"0", "1", "8"}) {
        RunRequest r =
            request(source, "sum_columns", "64",
                    {buffer("in", "float", BufferRole::In, init(InitKind::Range, "0", "1")),
                     buffer("out", "float", BufferRole::Out), scalar("rows", "int", "N")});
        r.launch.arguments[0].count = "N * 256";
        r.launch.arguments[1].count = "256";
        r.launch.grid = {"1", "1", "1"};
        r.launch.block = {"256", "1", "1"};
        r.launch.tunerDefines = true;
        r.launch.defines = {{"loop_unroll_factor_0", factor}};
        // Column i holds i, i + 256, ...: its sum is N * i + 256 * N * (N - 1) / 2.
        r.verification =
            expression("out", "N * i + 256.0 * N * (N - 1) / 2", ToleranceKind::Relative, 1e-6);
        const RunResult result = m_runner->run(r);
        QVERIFY2(result.passed(), describe(result) + " at loop_unroll_factor_0=" + factor);
    }
}

// What the host check says of a verification that does not compile is word for word what the
// worker says when it runs it: the same kernel source, compiled the same way.
void TestRunner::hostCheckSaysWhatTheWorkerSays()
{
    CUWB_NEED_GPU();
    RunRequest r = request(kScale, "scale", "4096",
                           {buffer("in", "float", BufferRole::In, init(InitKind::Range, "1", "1")),
                            buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
    r.launch.grid = {"ceil(N / block.x)", "1", "1"};
    r.verification = expression("out", "2 * inn[i]", ToleranceKind::Relative, 1e-6);
    const RunResult run = m_runner->run(r);
    QVERIFY(!run.verification.passed);

    CompileOptions options;
    options.arch = m_runner->device().arch();
    KernelCompiler compiler(0);
    const CompileResult compiled = compiler.compile(kScale, "scale.cu", options);
    QVERIFY(compiled.success);
    const KernelLookup lookup = findKernel(compiled, "scale");
    QVERIFY(lookup.found());
    const ResolvedLaunch resolved =
        resolveLaunch(r.launch, parseKernelSignature(kScale, compiled.ptx, *lookup.kernel), {});
    const CompileFunction compile = [&compiler](std::string_view text, std::string_view name,
                                                const CompileOptions &with) {
        return compiler.compile(text, name, with);
    };
    const std::vector<LaunchIssue> issues = checkVerification(
        r.verification, {compiled, kScale, resolved, compile, options.arch, true, {}});
    QCOMPARE(issues.size(), std::size_t(1));
    // The same compiler error, at the same place in the expression, as the worker's.
    const std::string error = issues[0].message.substr(issues[0].message.find(": ") + 2);
    QVERIFY2(run.verification.message.find(error) != std::string::npos,
             (issues[0].message + " | " + run.verification.message).c_str());
}

void TestRunner::masksAndGlobals()
{
    CUWB_NEED_GPU();
    RunRequest r = request(kEveryOther, "every_other", "4096",
                           {buffer("a", "float", BufferRole::In, init(InitKind::Range, "1", "1")),
                            buffer("c", "float", BufferRole::Out), scalar("n", "int", "N")});
    r.launch.grid = {"ceil(N / block.x)", "1", "1"};
    GlobalSpec coeff;
    coeff.name = "coeff";
    coeff.elementType = type("float");
    coeff.count = "4";
    coeff.init = init(InitKind::Constant, "2");
    GlobalSpec hits;
    hits.name = "hits";
    hits.elementType = type("uint32_t");
    r.launch.globals = {coeff, hits};
    r.verification = expression("c", "a[i] * 2.0f", ToleranceKind::Ulp, 0);

    // Without a mask the odd elements count, and they are wrong.
    RunResult result = m_runner->run(r);
    QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
    QVERIFY(!result.verification.passed);
    QCOMPARE(result.verification.mismatches, 2048ULL);

    // The globals as the kernel left them: the factor, and the counter it incremented.
    QCOMPARE(result.globals.size(), std::size_t(2));
    QCOMPARE(result.globals[0].parameter, std::string("coeff"));
    QCOMPARE(result.globals[0].bytes, 16ULL);
    QCOMPARE(result.globals[0].stats.max, 2.0);
    QCOMPARE(result.globals[1].parameter, std::string("hits"));
    QCOMPARE(result.globals[1].stats.max, 2048.0);

    // The even elements only.
    r.verification.checks[0].mask = "i % 2 == 0";
    result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(result.verification.checked, 2048ULL);
    QVERIFY2(result.verification.message.find("selected by the mask") != std::string::npos,
             result.verification.message.c_str());

    // Every third element: the odd ones among them (3, 9, 15...) differ, and only they.
    r.verification.checks[0].mask = "i % 3 == 0";
    result = m_runner->run(r);
    QVERIFY(!result.verification.passed);
    QCOMPARE(result.verification.checked, 1366ULL);
    QCOMPARE(result.verification.mismatches, 683ULL);
    QCOMPARE(result.verification.firstMismatches.front().index, 3ULL);
    QCOMPARE(result.verification.firstMismatches[1].index, 9ULL);

    // A mask reads the buffers as the kernel found them, and combines with a count.
    r.verification.checks[0].mask = "a[i] > 2048 && i % 2 == 0";
    result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(result.verification.checked, 1024ULL);
    r.verification.checks[0].mask = "i % 2 == 0";
    r.verification.checks[0].count = "N / 4";
    result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(result.verification.checked, 512ULL);
    r.verification.checks[0].count.clear();

    // A mask that selects nothing, or does not compile, is said, not passed.
    r.verification.checks[0].mask = "i < 0";
    result = m_runner->run(r);
    QVERIFY(!result.verification.passed);
    QVERIFY2(result.verification.message.find("selects none of the 4096 elements") !=
                 std::string::npos,
             result.verification.message.c_str());
    r.verification.checks[0].mask = "no_such_name[i] > 0";
    result = m_runner->run(r);
    QVERIFY(!result.verification.passed);
    QVERIFY2(result.verification.message.find("the verification mask did not compile") !=
                 std::string::npos,
             result.verification.message.c_str());
}

void TestRunner::pagesAndExports()
{
    CUWB_NEED_GPU();
    QTemporaryDir dir;
    RunRequest r = request(kScale, "scale", "1000",
                           {buffer("in", "float", BufferRole::In, init(InitKind::Range, "0", "1")),
                            buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    const std::string in = report(result, "in")->handle;
    const Page page = m_runner->page({in, 998, 256});
    QCOMPARE(page.first, std::uint64_t(998));
    QCOMPARE(page.values, (std::vector<std::string>{"998", "999"}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, m_runner->page({in, 1001, 1}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, m_runner->page({"run0/nothing", 0, 1}));

    const std::string npy = dir.filePath(QStringLiteral("in.npy")).toStdString();
    const std::string bin = dir.filePath(QStringLiteral("in.bin")).toStdString();
    const std::string csv = dir.filePath(QStringLiteral("in.csv")).toStdString();
    QCOMPARE(m_runner->exportBuffer(in, bin, ExportFormat::Bin), std::uint64_t(4000));
    const std::uint64_t npyBytes = m_runner->exportBuffer(in, npy, ExportFormat::Npy);
    QCOMPARE(npyBytes, std::uint64_t(4000 + 128));
    m_runner->exportBuffer(in, csv, ExportFormat::Csv);

    QFile npyFile(QString::fromStdString(npy));
    QVERIFY(npyFile.open(QIODevice::ReadOnly));
    const QByteArray npyData = npyFile.readAll();
    QVERIFY(npyData.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)));
    QVERIFY(npyData.contains("'descr': '<f4'"));
    QVERIFY(npyData.contains("'shape': (1000,)"));
    QCOMPARE((10 + (unsigned char)npyData[8] + 256 * (unsigned char)npyData[9]) % 64, 0);
    float last = 0;
    std::memcpy(&last, npyData.constData() + npyData.size() - 4, 4);
    QCOMPARE(last, 999.0f);

    QFile csvFile(QString::fromStdString(csv));
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().split('\n');
    QCOMPARE(lines[0], QByteArray("index,value"));
    QCOMPARE(lines[1], QByteArray("0,0"));
    QCOMPARE(lines[1000], QByteArray("999,999"));

    // A float4 buffer: a .npy of shape (count, 4) and CSV columns x, y, z, w.
    RunRequest v =
        request(kHalves, "halves", "10",
                {buffer("h", "half", BufferRole::In), buffer("b", "bfloat16", BufferRole::In),
                 buffer("ho", "half", BufferRole::Out), buffer("bo", "bfloat16", BufferRole::Out),
                 buffer("v", "float4", BufferRole::Out), scalar("n", "int", "N")});
    const RunResult vectors = m_runner->run(v);
    QVERIFY2(vectors.passed(), describe(vectors));
    const std::string vh = report(vectors, "v")->handle;
    m_runner->exportBuffer(vh, npy, ExportFormat::Npy);
    m_runner->exportBuffer(vh, csv, ExportFormat::Csv);
    npyFile.close();
    QVERIFY(npyFile.open(QIODevice::ReadOnly));
    QVERIFY(npyFile.readAll().contains("'shape': (10, 4)"));
    csvFile.close();
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> vlines = csvFile.readAll().split('\n');
    QCOMPARE(vlines[0], QByteArray("index,x,y,z,w"));
    QCOMPARE(vlines[2], QByteArray("1,1,1.5,-1,1"));

    // The first run's buffers went with the second run.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, m_runner->page({in, 0, 1}));
    m_runner->release();
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, m_runner->page({vh, 0, 1}));
}

void TestRunner::fourGiBBuffers()
{
    CUWB_NEED_GPU();
    if (m_runner->freeMemoryBytes() < (14ull << 30)) {
        QSKIP("needs 14 GiB of free device memory");
    }
    const QString path = QStringLiteral(CUWB_SAMPLES_DIR "/copy/copy.cuwb");
    const ProjectLoad load = loadProject(path.toStdString());
    QVERIFY2(load.project, load.error.c_str());
    RunRequest r;
    std::string error;
    QVERIFY(readProjectSource(*load.project, path.toStdString(), r.source, error));
    r.launch = load.project->launch;
    r.launch.variables = {{"N", "1 << 30"}};
    r.launch.arguments[0].init = init(InitKind::Uniform, "-1", "1", 5);
    r.verification = load.project->verification;
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    const BufferReport *out = report(result, "out");
    QCOMPARE(out->bytes, std::uint64_t(4) << 30);
    QCOMPARE(out->unwritten, std::uint64_t(0));
    QVERIFY(std::fabs(out->stats.mean) < 0.001);
    QCOMPARE(result.verification.checked, std::uint64_t(1) << 30);
    qInfo("4 GiB copy: kernel %.3f ms (%.0f GB/s), whole run %.0f ms", result.kernelTimeMs,
          8.0 * double(1ull << 30) / (result.kernelTimeMs * 1e6), result.wallTimeMs);
    m_runner->release();
}

void TestRunner::faultsEndTheWorker_data()
{
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("messagePart");
    QTest::addColumn<QString>("deviceError");
    QTest::addColumn<double>("deadlineSeconds");
    QTest::newRow("illegal address")
        << QStringLiteral("illegal_address") << int(RunStatus::Fault)
        << QStringLiteral("illegal address") << QStringLiteral("CUDA_ERROR_ILLEGAL_ADDRESS") << 2.0;
    QTest::newRow("trap") << QStringLiteral("trap") << int(RunStatus::Fault)
                          << QStringLiteral("__trap()") << QString() << 2.0;
    QTest::newRow("misaligned address")
        << QStringLiteral("misaligned") << int(RunStatus::Fault) << QStringLiteral("misaligned")
        << QStringLiteral("CUDA_ERROR_MISALIGNED_ADDRESS")
        << 10.0; // a million faulting threads took over 2 s to report on the H200
    QTest::newRow("device assert")
        << QStringLiteral("device_assert") << int(RunStatus::Fault) << QStringLiteral("assert()")
        << QStringLiteral("CUDA_ERROR_ASSERT") << 2.0;
    QTest::newRow("endless loop") << QStringLiteral("endless") << int(RunStatus::Timeout)
                                  << QStringLiteral("the kernel ran past the 2 s deadline")
                                  << QString() << 2.0;
}

void TestRunner::faultsEndTheWorker()
{
    CUWB_NEED_GPU();
    QFETCH(QString, kernel);
    QFETCH(int, status);
    QFETCH(QString, messagePart);
    QFETCH(QString, deviceError);
    QFETCH(double, deadlineSeconds);
    const QString cli = cuwbBesideTest();
    if (!QFileInfo::exists(cli)) {
        QSKIP(qPrintable(QStringLiteral("cuwb not found at %1").arg(cli)));
    }
    WorkerProcess::Options options;
    options.executable = cli.toStdString();
    WorkerProcess worker(options);

    RunRequest faulty =
        request(kFaults, kernel.toUtf8().constData(), "1 << 20",
                {buffer("out", "float", BufferRole::InOut), scalar("n", "int", "N")});
    faulty.launch.deadlineSeconds = deadlineSeconds;
    WorkerProcess::Reply reply = worker.request(makeRunRequest(faulty), 60.0);
    QVERIFY2(reply.ok(), reply.error.c_str());
    const RunResult failed = parseRunResultReply(reply.message);
    QVERIFY2(int(failed.status) == status, describe(failed));
    QVERIFY2(failed.message.find(messagePart.toStdString()) != std::string::npos, describe(failed));
    if (!deviceError.isEmpty()) {
        QCOMPARE(QString::fromStdString(failed.deviceError), deviceError);
    }
    QVERIFY(replyIsExiting(reply.message));
    qInfo("%s: %s [%s]", qPrintable(kernel), failed.message.c_str(), failed.deviceError.c_str());

    // The next run goes to a fresh worker and passes.
    RunRequest good = request(kScale, "scale", "1 << 20",
                              {buffer("in", "float", BufferRole::In, init(InitKind::Range)),
                               buffer("out", "float", BufferRole::Out), scalar("n", "int", "N")});
    good.verification = expression("out", "in[i] * 1.000001f", ToleranceKind::Ulp, 0);
    reply = worker.request(makeRunRequest(good), 60.0);
    QVERIFY2(reply.ok(), reply.error.c_str());
    const RunResult next = parseRunResultReply(reply.message);
    QVERIFY2(next.passed(), describe(next));
    QCOMPARE(worker.starts(), 2);
    worker.stop();
}

CUWB_TEST_GUILESS_MAIN(TestRunner)
} // namespace tst_runner
} // namespace

#include "tst_runner.moc"
