// On a real GPU: Runner::measure times a kernel that spins for a known number of SM cycles to
// within 2% of cycles / the clock the kernel itself observed; CUPTI and cuEvent medians agree
// within 5% for a kernel longer than 100 µs; a fixed sample count is taken exactly; CUPTI
// records are matched to our launches. Skips, saying why, where there is no driver or no GPU.
#include "cuda/driverapi.h"
#include "device/deviceinfo.h"
#include "gpuavailability.h"
#include "kernel/elementtype.h"
#include "measure/measurement.h"
#include "run/runner.h"
#include "worker/protocol.h"

#include <QtTest>
#include <algorithm>

#include <cmath>
#include <memory>
#include <string>

using namespace cuwb;

namespace {

ElementType type(const char *name)
{
    const auto parsed = parseElementType(name);
    if (!parsed) {
        qFatal("unknown element type %s", name);
    }
    return *parsed;
}

ArgumentSpec buffer(const char *name, const char *elementType, BufferRole role)
{
    ArgumentSpec a;
    a.parameter = name;
    a.isBuffer = true;
    a.elementType = type(elementType);
    a.count = "N";
    a.role = role;
    if (role != BufferRole::Out) {
        a.init.kind = InitKind::Range;
        a.init.start = "0";
        a.init.step = "1";
    }
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

// One thread spins for `cycles` SM cycles and records the cycles and the %globaltimer
// nanoseconds it saw, so the expectation uses the clock the kernel actually ran at.
const char *const kSpin = R"(
extern "C" __global__ void spin(long long cycles, unsigned long long *seen, int n)
{
    unsigned long long g0, g1;
    const long long t0 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    while (clock64() - t0 < cycles) {
    }
    const long long t1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    if (n >= 2) {
        seen[0] = (unsigned long long)(t1 - t0);
        seen[1] = g1 - g0;
    }
}
)";

const char *const kCopy = R"(
extern "C" __global__ void copy(const float *in, float *out, unsigned long long n)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
)";

RunRequest spinRequest(const char *cycles)
{
    RunRequest r;
    r.source = kSpin;
    r.launch.kernel = "spin";
    r.launch.variables = {{"N", "2"}};
    r.launch.arguments = {scalar("cycles", "long long", cycles),
                          buffer("seen", "unsigned long long", BufferRole::Out),
                          scalar("n", "int", "N")};
    r.launch.grid = {"1", "1", "1"};
    r.launch.block = {"1", "1", "1"};
    return r;
}

RunRequest copyRequest(const char *n)
{
    RunRequest r;
    r.source = kCopy;
    r.launch.kernel = "copy";
    r.launch.variables = {{"N", n}};
    r.launch.arguments = {buffer("in", "float", BufferRole::In),
                          buffer("out", "float", BufferRole::Out),
                          scalar("n", "unsigned long long", "N")};
    r.launch.block = {"256", "1", "1"};
    return r;
}

SampleSettings fixedSettings(SampleMode mode, int samples)
{
    SampleSettings s;
    s.mode = mode;
    s.fixedSamples = samples;
    s.warmupLaunches = 2;
    return s;
}

QByteArray describe(const Measurement &m)
{
    char text[512];
    std::snprintf(text, sizeof text,
                  "%s: %zu samples, median %.3f µs (events %.3f µs), min %.3f, max %.3f, noise "
                  "%.3f%%, stop: %s",
                  timingSourceName(m.timingSource), m.statistics.count,
                  m.statistics.medianNs * 1e-3, m.eventStatistics.medianNs * 1e-3,
                  m.statistics.minNs * 1e-3, m.statistics.maxNs * 1e-3,
                  m.statistics.relativeNoise * 100.0, m.stop.message.c_str());
    std::string all = text;
    if (!m.faultStatus.empty()) {
        all += " | fault " + m.faultStatus + ": " + m.faultMessage;
    }
    for (const std::string &note : m.notes) {
        all += " | " + note;
    }
    return QByteArray::fromStdString(all);
}

} // namespace

class TestMeasure : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void spinMatchesObservedClock();
    void cuptiAndEventsAgreeOnLongKernels();
    void fixedCountTakesExactlyThatMany();
    void cuptiRecordsAreMatched();

private:
    std::unique_ptr<Runner> m_runner;
    QString m_skipReason;
};

void TestMeasure::initTestCase()
{
    m_skipReason = gpuSkipReason();
    if (!m_skipReason.isEmpty())
        return;
    m_runner = std::make_unique<Runner>(0);
    qInfo("device: %s (%s), %d SMs, L2 %d bytes", m_runner->device().name.c_str(),
          m_runner->device().arch().c_str(), m_runner->device().smCount,
          m_runner->device().l2CacheBytes);
}

void TestMeasure::spinMatchesObservedClock()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    const char *const cycles = "20000000";
    const Measurement m =
        m_runner->measure(spinRequest(cycles), fixedSettings(SampleMode::Hot, 10));
    qInfo("spin: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    QCOMPARE(m.statistics.count, std::size_t(10));

    // The clock the kernel ran at, read by one more launch that keeps its buffers.
    const RunResult run = m_runner->run(spinRequest(cycles));
    QVERIFY2(run.status == RunStatus::Succeeded, run.message.c_str());
    PageRequest page;
    page.handle = run.buffers.at(0).handle;
    page.first = 0;
    page.count = 2;
    const Page seen = m_runner->page(page);
    QCOMPARE(seen.values.size(), std::size_t(2));
    const double seenCycles = std::stod(seen.values[0]);
    const double seenNs = std::stod(seen.values[1]);
    QVERIFY(seenCycles >= 2e7 && seenNs > 0);
    const double clockGHz = seenCycles / seenNs;
    const double expectedNs = 2e7 / clockGHz;
    const double error = std::fabs(m.statistics.medianNs - expectedNs) / expectedNs;
    qInfo("spin: observed SM clock %.1f MHz, expected %.1f µs, measured median %.1f µs, "
          "error %.3f%%",
          clockGHz * 1e3, expectedNs * 1e-3, m.statistics.medianNs * 1e-3, error * 100.0);
    QVERIFY2(error < 0.02, describe(m).constData());
}

void TestMeasure::cuptiAndEventsAgreeOnLongKernels()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    const Measurement m =
        m_runner->measure(copyRequest("1 << 28"), fixedSettings(SampleMode::Cold, 20));
    qInfo("copy 2^28 floats, cold: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    QVERIFY2(m.statistics.medianNs > 100e3, describe(m).constData());
    QCOMPARE(m.eventSamplesNs.size(), m.samplesNs.size());
    const double agreement =
        std::fabs(m.statistics.medianNs - m.eventStatistics.medianNs) / m.statistics.medianNs;
    qInfo("copy: CUPTI median %.2f µs, event median %.2f µs, difference %.3f%%, %.1f GB/s",
          m.statistics.medianNs * 1e-3, m.eventStatistics.medianNs * 1e-3, agreement * 100.0,
          2.0 * 4.0 * double(1u << 28) / m.statistics.medianNs);
    QVERIFY2(agreement < 0.05, describe(m).constData());
}

void TestMeasure::fixedCountTakesExactlyThatMany()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    const Measurement m =
        m_runner->measure(copyRequest("1 << 20"), fixedSettings(SampleMode::Hot, 37));
    qInfo("copy 2^20 floats, hot: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    QCOMPARE(m.samplesNs.size(), std::size_t(37));
    QCOMPARE(m.eventSamplesNs.size(), std::size_t(37));
    QCOMPARE(m.statistics.count, std::size_t(37));
    QCOMPARE(m.stop.reason, StopReason::FixedCount);
    // NVML comes with the driver: the SM clock is read for every sample, and a note says why
    // when it is not.
    const bool noted = std::any_of(m.notes.begin(), m.notes.end(), [](const std::string &note) {
        return note.find("SM clock not sampled") != std::string::npos;
    });
    if (m.smClocksMHz.empty()) {
        QVERIFY2(noted, describe(m).constData());
    } else {
        QCOMPARE(m.smClocksMHz.size(), std::size_t(37));
        QVERIFY(m.smClockMinMHz > 0.0 && m.smClockMinMHz <= m.smClockMaxMHz);
        qInfo("SM clock %.0f-%.0f MHz, %zu throttled samples", m.smClockMinMHz, m.smClockMaxMHz,
              m.throttledSamples);
    }
}

void TestMeasure::cuptiRecordsAreMatched()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    SampleSettings adaptive;
    adaptive.mode = SampleMode::Cold;
    adaptive.minGpuTimeSeconds = 0.05;
    adaptive.timeCapSeconds = 5.0;
    const Measurement m = m_runner->measure(copyRequest("1 << 24"), adaptive);
    qInfo("copy 2^24 floats, cold, adaptive: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    QVERIFY2(m.timingSource == TimingSource::Cupti, describe(m).constData());
    QVERIFY(m.stop.stop);
    QVERIFY(m.statistics.count >= std::size_t(adaptive.minSamples));
    // CUPTI's figure leaves out the launch latency that the event pair includes.
    QVERIFY2(m.statistics.medianNs <= m.eventStatistics.medianNs, describe(m).constData());
}

QTEST_GUILESS_MAIN(TestMeasure)
#include "tst_measure.moc"
