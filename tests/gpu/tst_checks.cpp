// On a real GPU: what a project checks as its author checks it. Several checks, each with its
// own output and reference, with the overall verdict; allclose; the largest absolute and
// relative errors and where they are; __constant__ and __device__ globals read by expressions
// and masks and checked as outputs; a sequence of kernels run, verified after the last and
// timed as a whole and each (CUPTI and events); a grid sized from the device's SM count.
// Skips, saying why, where there is no driver or no GPU.
#include "gpuavailability.h"
#include "kernel/elementtype.h"
#include "launch/launchjson.h"
#include "run/runner.h"

#include <QtTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_checks {

namespace {

// Two outputs; `bumped` is wrong at two places, one absolutely, one relatively largest.
const char *const kTwoOutputs = R"js(
__constant__ float c_scale;
__constant__ float c_table[4];
__device__ unsigned int d_count;

extern "C" __global__ void two_outputs(const float *in, float *scaled, float *bumped, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        scaled[i] = in[i] * c_scale + c_table[i % 4];
        bumped[i] = in[i] + (i == 77 ? 0.5f : 0.0f) + (i == 5 ? 0.1f : 0.0f);
        atomicAdd(&d_count, 1u);
    }
}

extern "C" __global__ void near(const float *in, float *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * (1.0f + 4e-6f) + 1e-7f;
}

extern "C" __global__ void reduce_partial(const float *in, float *partial, int n)
{
    __shared__ float sums[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    sums[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sums[0];
}

extern "C" __global__ void reduce_final(const float *values, float *result, int count)
{
    extern __shared__ float shared[];
    float sum = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        sum += values[i];
    shared[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            shared[threadIdx.x] += shared[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        result[0] = shared[0];
}

extern "C" __global__ void grid_size(unsigned int *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[0] = gridDim.x;
}
)js";

RunRequest twoOutputs()
{
    RunRequest r;
    r.source = kTwoOutputs;
    r.launch = nlohmann::json::parse(R"json({
        "kernel": "two_outputs",
        "variables": [{"name": "N", "value": "4096"}],
        "globals": [
            {"name": "c_scale", "elementType": "float", "count": "1",
             "init": {"kind": "constant", "value": "3"}},
            {"name": "c_table", "elementType": "float", "count": "4",
             "init": {"kind": "range", "start": "0", "step": "1"}}],
        "arguments": [
            {"parameter": "in", "kind": "buffer", "elementType": "float", "count": "N",
             "role": "in", "init": {"kind": "range", "start": "1", "step": "1"}},
            {"parameter": "scaled", "kind": "buffer", "elementType": "float", "count": "N",
             "role": "out"},
            {"parameter": "bumped", "kind": "buffer", "elementType": "float", "count": "N",
             "role": "out"},
            {"parameter": "n", "kind": "scalar", "elementType": "int", "value": "N"}],
        "grid": ["ceil(N / block.x)"], "block": ["256"]})json")
                   .get<LaunchSpec>();
    return r;
}

Verification checksOf(const char *json)
{
    return nlohmann::json::parse(json).get<Verification>();
}

QByteArray describe(const RunResult &result)
{
    std::string text = std::string(runStatusName(result.status)) + ": " + result.message +
                       " | verification: " + result.verification.message;
    return QByteArray::fromStdString(text);
}

} // namespace

class TestChecks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void severalChecksEachWithItsReference();
    void largestErrorsAndWhereTheyAre();
    void allClose();
    void globalsInExpressionsAndMasks();
    void sequenceVerifiedAfterTheLast();
    void sequenceTimedAsAWholeAndEach_data();
    void sequenceTimedAsAWholeAndEach();
    void gridFromTheSmCount();

private:
    std::unique_ptr<Runner> m_runner;
    QString m_skipReason;
};

void TestChecks::initTestCase()
{
    m_skipReason = gpuSkipReason();
    if (!m_skipReason.isEmpty())
        return;
    m_runner = std::make_unique<Runner>(0);
}

void TestChecks::severalChecksEachWithItsReference()
{
    CUWB_NEED_GPU();
    RunRequest r = twoOutputs();
    r.verification = checksOf(R"js([
        {"kind": "expression", "output": "scaled", "expression": "in[i] * 3.0f + (i % 4)",
         "tolerance": "ulp", "toleranceValue": 0},
        {"kind": "aggregate", "output": "scaled", "reduce": "max", "expected": "N * 3 + 3",
         "tolerance": "abs", "toleranceValue": 0},
        {"kind": "expression", "output": "bumped", "expression": "in[i]",
         "tolerance": "abs", "toleranceValue": 0},
        {"kind": "expression", "output": "d_count", "expression": "n",
         "tolerance": "abs", "toleranceValue": 0}])js");
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.status == RunStatus::Succeeded, describe(result));
    QCOMPARE(result.checks.size(), std::size_t(4));
    QVERIFY2(result.checks[0].passed, result.checks[0].message.c_str());
    QVERIFY2(result.checks[1].passed, result.checks[1].message.c_str());
    QVERIFY(!result.checks[2].passed); // two elements of `bumped` differ
    QCOMPARE(result.checks[2].mismatches, 2ULL);
    QVERIFY2(result.checks[3].passed, result.checks[3].message.c_str()); // the counter, 4096
    QCOMPARE(result.checks[3].output, std::string("d_count"));
    QCOMPARE(result.checks[3].checked, 1ULL);
    // The run's verdict: failed, with the one failing check's reason.
    QVERIFY(result.verification.ran);
    QVERIFY(!result.verification.passed);
    QVERIFY(!result.passed());
    QVERIFY2(result.verification.message.find("2 of 4096 elements of `bumped` differ") == 0,
             result.verification.message.c_str());
    QVERIFY(result.verification.message.find("(3 of 4 checks passed)") != std::string::npos);
    // The mismatches shown are the failing check's.
    QCOMPARE(result.verification.firstMismatches.size(), std::size_t(2));
    QCOMPARE(result.verification.firstMismatches[0].index, 5ULL);
}

void TestChecks::largestErrorsAndWhereTheyAre()
{
    CUWB_NEED_GPU();
    RunRequest r = twoOutputs();
    r.verification = checksOf(R"js({"kind": "expression", "output": "bumped",
        "expression": "in[i]", "tolerance": "rel", "toleranceValue": 0.05})js");
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result)); // 0.1 / 6 and 0.5 / 78 are below 5 %
    const VerificationResult &check = result.checks.at(0);
    // Absolutely largest at 77 (0.5), relatively at 5 (0.1 / 6).
    QVERIFY(check.maxAbsError);
    QCOMPARE(check.maxAbsErrorIndex, 77ULL);
    QVERIFY(std::abs(*check.maxAbsError - 0.5) < 1e-5);
    QVERIFY(check.maxRelError);
    QCOMPARE(check.maxRelErrorIndex, 5ULL);
    QVERIFY(std::abs(*check.maxRelError - 0.1 / 6.0) < 1e-5);
    // The same on a masked check, over the selected elements only.
    r.verification.checks[0].mask = "i != 77";
    const RunResult masked = m_runner->run(r);
    QCOMPARE(masked.checks.at(0).maxAbsErrorIndex, 5ULL);
}

void TestChecks::allClose()
{
    CUWB_NEED_GPU();
    RunRequest r = twoOutputs();
    r.launch.kernel = "near";
    r.launch.arguments = nlohmann::json::parse(R"json([
        {"parameter": "in", "kind": "buffer", "elementType": "float", "count": "N",
         "role": "in", "init": {"kind": "range", "start": "1", "step": "1"}},
        {"parameter": "out", "kind": "buffer", "elementType": "float", "count": "N",
         "role": "out"},
        {"parameter": "n", "kind": "scalar", "elementType": "int", "value": "N"}])json")
                             .get<std::vector<ArgumentSpec>>();
    r.launch.globals.clear();
    // out = in * (1 + 4e-6) + 1e-7: within numpy's default bounds, not within tight ones.
    r.verification = checksOf(R"js({"kind": "expression", "output": "out", "expression": "in[i]",
        "tolerance": "allclose", "atol": 1e-8, "rtol": 1e-5})js");
    RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QVERIFY2(result.verification.message.find("|out - ref| ≤ 1e-08 + 1e-05·|ref|") !=
                 std::string::npos,
             result.verification.message.c_str());
    r.verification.checks[0].rtol = 1e-6;
    result = m_runner->run(r);
    QVERIFY(!result.passed());
    QVERIFY(result.verification.mismatches > 4000);
    // The error is a multiple of the allowance: about 4 here.
    QVERIFY2(result.verification.maxError > 3.0 && result.verification.maxError < 5.0,
             result.verification.message.c_str());
    QVERIFY2(result.verification.message.find("× the allowance") != std::string::npos,
             result.verification.message.c_str());
    // An aggregate with allclose: the sums compared the same way.
    r.verification = checksOf(R"js({"kind": "aggregate", "output": "out", "reduce": "sum",
        "of": "in", "tolerance": "allclose", "atol": 0, "rtol": 1e-4})js");
    result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
}

void TestChecks::globalsInExpressionsAndMasks()
{
    CUWB_NEED_GPU();
    RunRequest r = twoOutputs();
    // c_scale and c_table read by name, as the launch set them (3 and 0, 1, 2, 3).
    r.verification = checksOf(R"js([
        {"kind": "expression", "output": "scaled",
         "expression": "in[i] * c_scale + c_table[i % 4]", "mask": "c_table[i % 4] >= 2",
         "tolerance": "ulp", "toleranceValue": 0},
        {"kind": "expression", "output": "scaled", "expression": "in[i] * c_scale",
         "mask": "i % 4 == 0 and not (i > n)", "tolerance": "ulp", "toleranceValue": 0}])js");
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(result.checks[0].checked, 2048ULL);
    QCOMPARE(result.checks[1].checked, 1024ULL);
    // A global a check reads that is not an element type is refused with its type.
}

void TestChecks::sequenceVerifiedAfterTheLast()
{
    CUWB_NEED_GPU();
    RunRequest r;
    r.source = kTwoOutputs;
    r.launch = nlohmann::json::parse(R"json({
        "kernel": "reduce_partial",
        "variables": [{"name": "N", "value": "1 << 20"}, {"name": "PARTIALS", "value": "grid.x"}],
        "arguments": [
            {"parameter": "in", "kind": "buffer", "elementType": "float", "count": "N",
             "role": "in", "init": {"kind": "constant", "value": "1"}},
            {"parameter": "partial", "kind": "buffer", "elementType": "float",
             "count": "grid.x", "role": "out"},
            {"parameter": "n", "kind": "scalar", "elementType": "int", "value": "N"}],
        "grid": ["device.smCount * 2"], "block": ["256"],
        "then": [{"kernel": "reduce_final", "grid": ["1"], "block": ["block.x"],
                  "dynamicSharedBytes": "block.x * 4",
                  "arguments": [{"parameter": "values", "buffer": "partial"},
                                {"parameter": "result", "kind": "buffer", "elementType": "float",
                                 "count": "1", "role": "out"},
                                {"parameter": "count", "kind": "scalar", "elementType": "int",
                                 "value": "PARTIALS"}]}]})json")
                   .get<LaunchSpec>();
    r.verification = checksOf(R"js([
        {"kind": "aggregate", "output": "result", "reduce": "sum", "expected": "N",
         "tolerance": "rel", "toleranceValue": 1e-6},
        {"kind": "aggregate", "output": "partial", "reduce": "sum", "of": "in",
         "tolerance": "rel", "toleranceValue": 1e-6}])js");
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(result.buffers.size(), std::size_t(3));
    QCOMPARE(result.buffers[2].parameter, std::string("result"));
    QCOMPARE(result.buffers[1].count, std::uint64_t(m_runner->device().smCount * 2));
    QCOMPARE(result.kernelTimes.size(), std::size_t(2));
    QCOMPARE(result.kernelTimes[1].kernel, std::string("reduce_final"));
    QVERIFY(result.kernelTimes[0].timeMs > 0.0 && result.kernelTimes[1].timeMs > 0.0);
    QVERIFY(result.kernelTimeMs >= result.kernelTimes[0].timeMs);
    // A step whose buffer is not bound is refused before anything runs.
    RunRequest broken = r;
    broken.launch.then[0].arguments[0].buffer = "partials";
    const RunResult refused = m_runner->run(broken);
    QCOMPARE(refused.status, RunStatus::InvalidLaunch);
    QVERIFY2(refused.message.find("there is no buffer named 'partials'") != std::string::npos,
             refused.message.c_str());
}

void TestChecks::sequenceTimedAsAWholeAndEach_data()
{
    QTest::addColumn<int>("timer");
    QTest::newRow("cupti") << int(TimingSource::Cupti);
    QTest::newRow("events") << int(TimingSource::Events);
}

void TestChecks::sequenceTimedAsAWholeAndEach()
{
    CUWB_NEED_GPU();
    QFETCH(int, timer);
    RunRequest r;
    r.source = kTwoOutputs;
    r.launch = nlohmann::json::parse(R"json({
        "kernel": "reduce_partial",
        "variables": [{"name": "N", "value": "1 << 24"}, {"name": "PARTIALS", "value": "grid.x"}],
        "arguments": [
            {"parameter": "in", "kind": "buffer", "elementType": "float", "count": "N",
             "role": "in", "init": {"kind": "constant", "value": "1"}},
            {"parameter": "partial", "kind": "buffer", "elementType": "float",
             "count": "grid.x", "role": "out"},
            {"parameter": "n", "kind": "scalar", "elementType": "int", "value": "N"}],
        "grid": ["device.smCount * 4"], "block": ["256"],
        "then": [{"kernel": "reduce_final", "grid": ["1"], "block": ["256"],
                  "dynamicSharedBytes": "1024",
                  "arguments": [{"parameter": "values", "buffer": "partial"},
                                {"parameter": "result", "kind": "buffer", "elementType": "float",
                                 "count": "1", "role": "out"},
                                {"parameter": "count", "kind": "scalar", "elementType": "int",
                                 "value": "PARTIALS"}]}]})json")
                   .get<LaunchSpec>();
    SampleSettings settings;
    settings.mode = SampleMode::Hot;
    settings.fixedSamples = 30;
    settings.timer = TimingSource(timer);
    const Measurement m = m_runner->measure(r, settings);
    QVERIFY2(m.faultStatus.empty(), m.faultMessage.c_str());
    QCOMPARE(m.samplesNs.size(), std::size_t(30));
    QCOMPARE(m.kernels.size(), std::size_t(2));
    QCOMPARE(m.kernels[0].kernel, std::string("reduce_partial"));
    QCOMPARE(m.kernels[1].kernel, std::string("reduce_final"));
    for (std::size_t k = 0; k < m.samplesNs.size(); ++k) {
        const double parts = m.kernels[0].samplesNs[k] + m.kernels[1].samplesNs[k];
        QVERIFY(m.kernels[0].samplesNs[k] > 0.0 && m.kernels[1].samplesNs[k] > 0.0);
        if (m.timingSource == TimingSource::Cupti) {
            QCOMPARE(m.samplesNs[k], parts); // the sum of the kernels' records
        } else {
            QVERIFY(std::abs(m.samplesNs[k] - parts) <= 1e3); // the events between them
        }
    }
    QVERIFY(m.kernels[0].statistics.medianNs > m.kernels[1].statistics.medianNs);
    qInfo("%s: whole %.1f µs = %s %.1f µs + %s %.1f µs", timingSourceName(m.timingSource),
          m.statistics.medianNs / 1e3, m.kernels[0].kernel.c_str(),
          m.kernels[0].statistics.medianNs / 1e3, m.kernels[1].kernel.c_str(),
          m.kernels[1].statistics.medianNs / 1e3);
}

void TestChecks::gridFromTheSmCount()
{
    CUWB_NEED_GPU();
    RunRequest r;
    r.source = kTwoOutputs;
    r.launch = nlohmann::json::parse(R"json({
        "kernel": "grid_size",
        "arguments": [{"parameter": "out", "kind": "buffer", "elementType": "unsigned int",
                       "count": "1", "role": "out"}],
        "grid": ["device.smCount * 3"], "block": ["device.warpSize"]})json")
                   .get<LaunchSpec>();
    // The device's own SM count, as the expression saw it in the worker.
    r.verification = checksOf(R"js({"kind": "aggregate", "output": "out", "reduce": "max",
        "expected": "device.smCount * 3", "tolerance": "abs", "toleranceValue": 0})js");
    const RunResult result = m_runner->run(r);
    QVERIFY2(result.passed(), describe(result));
    QCOMPARE(*result.verification.aggregateActual, double(m_runner->device().smCount * 3));
}

CUWB_TEST_GUILESS_MAIN(TestChecks)
} // namespace tst_checks
} // namespace

#include "tst_checks.moc"
