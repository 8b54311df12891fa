// On a real GPU: Runner::measure times a kernel that spins for a known number of SM cycles to
// within 2% of cycles / the clock the kernel itself observed; CUPTI and cuEvent medians agree
// within 5% for a kernel longer than 100 µs, and within a few µs for a 5 µs kernel (the
// blocking kernel keeps the launch latency out of the events); a fixed sample count is taken
// exactly; CUPTI records are matched to our launches; the time cap stops a kernel longer than
// the cap after one sample; a cancel keeps the samples taken; a kernel that faults at its fifth
// sample reports the fault and the four samples before it; a guarded measurement times a kernel
// that would coast after its first launch doing the work, verifies every sample and stops at a
// wrong one. Skips, saying why, where there is no driver or no GPU.
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

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_measure {

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

// Counts its launches in counter[0] and traps on the launch that finds `trapAt` there.
const char *const kTrapLater = R"(
extern "C" __global__ void trapLater(unsigned *counter, unsigned trapAt)
{
    if (atomicAdd(counter, 1u) == trapAt) {
        __trap();
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

// Two timing cheats (docs/grading.md). `once` does the work on its first launch only: its
// blocks count themselves in a __device__ global, and a block that finds the whole grid counted
// returns at once, leaving the first launch's output in place. `flaky` does the work, except
// that on launches that begin in an odd millisecond of the GPU's clock it leaves one element
// unwritten: nothing the guard restores, so a guarded measurement must catch a wrong sample.
const char *const kCheats = R"(
__device__ unsigned int blocksDone;

extern "C" __global__ void once(const float *in, float *out, unsigned long long n)
{
    if (blocksDone >= gridDim.x)
        return;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&blocksDone, 1u);
}

extern "C" __global__ void flaky(const float *in, float *out, unsigned long long n)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i == 0) {
        unsigned long long now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if ((now / 1000000ull) % 2 == 1)
            return;
    }
    if (i < n) out[i] = in[i] * 2.0f;
}
)";

RunRequest cheatRequest(const char *kernel)
{
    RunRequest r;
    r.source = kCheats;
    r.launch.kernel = kernel;
    r.launch.variables = {{"N", "1 << 24"}};
    r.launch.arguments = {buffer("in", "float", BufferRole::In),
                          buffer("out", "float", BufferRole::Out),
                          scalar("n", "unsigned long long", "N")};
    r.launch.block = {"256", "1", "1"};
    VerificationSpec check;
    check.kind = ReferenceKind::Expression;
    check.output = "out";
    check.expression = "2 * i";
    check.tolerance = ToleranceKind::Absolute;
    check.toleranceValue = 0;
    r.verification.checks = {check};
    return r;
}

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

RunRequest trapRequest(const char *trapAt)
{
    RunRequest r;
    r.source = kTrapLater;
    r.launch.kernel = "trapLater";
    r.launch.variables = {{"N", "1"}};
    ArgumentSpec counter = buffer("counter", "unsigned int", BufferRole::InOut);
    counter.init.kind = InitKind::Constant;
    counter.init.value = "0";
    r.launch.arguments = {counter, scalar("trapAt", "unsigned int", trapAt)};
    r.launch.grid = {"1", "1", "1"};
    r.launch.block = {"1", "1", "1"};
    return r;
}

bool hasNote(const Measurement &m, const char *text)
{
    return std::any_of(m.notes.begin(), m.notes.end(), [&](const std::string &note) {
        return note.find(text) != std::string::npos;
    });
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
    void eventsMatchCuptiOnShortKernels();
    void timeCapStopsLongKernelAfterOneSample();
    void cancelKeepsSamplesTaken();
    void coldFlushLeavesNoDirtyLines();
    void profilerTimesWhatNsightComputeTimes();
    void timerLeftOnOnlyBetweenMeasurements();
    void guardedSamplesDoTheWork();
    void guardedSamplesAreVerified();
    // Last: the trap loses the context for the rest of this process.
    void faultAtFifthSampleKeepsFourSamples();

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

// `once` measured as usual is timed coasting; guarded, every sample starts from the state the
// first launch found (blocksDone 0, the output poisoned), so it is timed doing the work, and
// every sample's output is verified.
void TestMeasure::guardedSamplesDoTheWork()
{
    CUWB_NEED_GPU();
    const SampleSettings plain = fixedSettings(SampleMode::Cold, 20);
    SampleSettings guarded = plain;
    guarded.guarded = true;
    const Measurement coasting = m_runner->measure(cheatRequest("once"), plain);
    QVERIFY2(coasting.faultStatus.empty(), describe(coasting));
    const Measurement working = m_runner->measure(cheatRequest("once"), guarded);
    QVERIFY2(working.faultStatus.empty(), describe(working));
    QVERIFY2(working.wrongSample.empty(), working.wrongSample.c_str());
    QCOMPARE(working.verifiedSamples, std::size_t(20));
    QCOMPARE(working.statistics.count, std::size_t(20));
    const Measurement honest = m_runner->measure(copyRequest("1 << 24"), plain);
    qInfo("once: %.1f µs coasting, %.1f µs guarded; an honest copy %.1f µs",
          coasting.statistics.medianNs * 1e-3, working.statistics.medianNs * 1e-3,
          honest.statistics.medianNs * 1e-3);
    // Coasting reads one global per block; working reads and writes 64 MiB each way, as the
    // copy does.
    QVERIFY2(working.statistics.medianNs > 3.0 * coasting.statistics.medianNs,
             describe(working) + " | " + describe(coasting));
    QVERIFY2(working.statistics.medianNs > 0.7 * honest.statistics.medianNs,
             describe(working) + " | " + describe(honest));
    // The guard's work is outside the timed span: a guarded copy times as a plain one.
    SampleSettings guardedCopy = plain;
    guardedCopy.guarded = true;
    const Measurement copy = m_runner->measure(copyRequest("1 << 24"), guardedCopy);
    QVERIFY2(std::fabs(copy.statistics.medianNs / honest.statistics.medianNs - 1.0) < 0.05,
             describe(copy) + " | " + describe(honest));
}

// `flaky` leaves an element unwritten on some launches: a guarded measurement stops at the
// first such sample and says which; a plain one never looks.
void TestMeasure::guardedSamplesAreVerified()
{
    CUWB_NEED_GPU();
    SampleSettings guarded = fixedSettings(SampleMode::Cold, 200);
    guarded.guarded = true;
    const Measurement m = m_runner->measure(cheatRequest("flaky"), guarded);
    QVERIFY2(m.faultStatus.empty(), describe(m));
    QVERIFY2(!m.wrongSample.empty(), describe(m));
    QCOMPARE(m.stop.reason, StopReason::WrongSample);
    QVERIFY2(m.wrongSample.rfind("sample ", 0) == 0, m.wrongSample.c_str());
    QVERIFY2(m.wrongSample.find("1 of 16777216 elements of `out` differ") != std::string::npos,
             m.wrongSample.c_str());
    QVERIFY(m.verifiedSamples < m.statistics.count);
    qInfo("flaky: %s after %zu verified samples", m.wrongSample.c_str(), m.verifiedSamples);
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

void TestMeasure::eventsMatchCuptiOnShortKernels()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    // 2^20 floats: about 5 µs on an H200, where the launch costs as much as the kernel.
    const Measurement m =
        m_runner->measure(copyRequest("1 << 20"), fixedSettings(SampleMode::Hot, 200));
    qInfo("copy 2^20 floats, hot, 200 samples: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    if (m.timingSource != TimingSource::Cupti) {
        QSKIP("CUPTI is not available here: nothing to compare the events with");
    }
    const double gapNs = m.eventStatistics.medianNs - m.statistics.medianNs;
    qInfo("short copy: CUPTI median %.2f µs, event median %.2f µs, events - CUPTI %.2f µs",
          m.statistics.medianNs * 1e-3, m.eventStatistics.medianNs * 1e-3, gapNs * 1e-3);
    // Without the blocking kernel the events read 150-190 µs here (CUPTI's launch hook runs
    // between the two records); with it, only the records' own cost remains.
    QVERIFY2(gapNs > -1000.0 && gapNs < 5000.0, describe(m).constData());
    QVERIFY2(!hasNote(m, "blocking kernel gave up"), describe(m).constData());
}

void TestMeasure::timeCapStopsLongKernelAfterOneSample()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    // About 1.5 s per launch at 1980 MHz (longer at lower clocks), a 1 s cap and a fixed count
    // of 100: the cap ends it after the first sample, and says "1 sample of 100".
    SampleSettings s = fixedSettings(SampleMode::Hot, 100);
    s.warmupLaunches = 1;
    s.timeCapSeconds = 1.0;
    RunRequest request = spinRequest("3000000000");
    request.launch.deadlineSeconds = 30;
    const Measurement m = m_runner->measure(request, s);
    qInfo("spin 3e9 cycles, cap 1 s: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    QCOMPARE(m.samplesNs.size(), std::size_t(1));
    QCOMPARE(m.stop.reason, StopReason::TimeCap);
    QVERIFY2(m.stop.message.find("1 sample of 100") != std::string::npos, m.stop.message.c_str());
    QVERIFY2(m.statistics.medianNs > 1e9, describe(m).constData());
}

void TestMeasure::cancelKeepsSamplesTaken()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    int checks = 0;
    m_runner->setCancelCheck([&checks] { return ++checks >= 3; });
    const Measurement m =
        m_runner->measure(copyRequest("1 << 22"), fixedSettings(SampleMode::Cold, 50));
    m_runner->setCancelCheck({});
    qInfo("copy 2^22 floats, cancelled at the third check: %s", describe(m).constData());
    QVERIFY2(m.faultStatus.empty(), describe(m).constData());
    QCOMPARE(m.stop.reason, StopReason::Cancelled);
    QCOMPARE(m.samplesNs.size(), std::size_t(3));
    QCOMPARE(m.statistics.count, std::size_t(3));
    QVERIFY(m.statistics.medianNs > 0.0);
    // The runner stays usable after a cancel.
    const Measurement next =
        m_runner->measure(copyRequest("1 << 22"), fixedSettings(SampleMode::Hot, 5));
    QVERIFY2(next.faultStatus.empty(), describe(next).constData());
    QCOMPARE(next.samplesNs.size(), std::size_t(5));
}

// The flush before a cold sample reads a buffer twice the L2's size. The fill it replaced left
// the L2 full of dirty lines that the timed kernel paid to write back: a streaming copy much
// larger than the L2 then ran slower cold than hot (+0.6 % on an H200 at block 256). After a
// read, the L2 holds only clean lines, and cold is faster than hot, whose kernel writes back
// the previous launch's output (docs/measurement.md: 195.5 against 198.1 µs).
void TestMeasure::coldFlushLeavesNoDirtyLines()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    if (m_runner->device().l2CacheBytes <= 0 ||
        (1ull << 28) < 4ull * std::uint64_t(m_runner->device().l2CacheBytes)) {
        QSKIP("the copy must move at least four times the L2's size");
    }
    const Measurement cold =
        m_runner->measure(copyRequest("1 << 26"), fixedSettings(SampleMode::Cold, 200));
    const Measurement hot =
        m_runner->measure(copyRequest("1 << 26"), fixedSettings(SampleMode::Hot, 200));
    qInfo("copy 2^26 floats: cold %s; hot %s", describe(cold).constData(),
          describe(hot).constData());
    QVERIFY2(cold.faultStatus.empty() && hot.faultStatus.empty(), describe(cold).constData());
    QVERIFY2(cold.statistics.medianNs < hot.statistics.medianNs,
             qPrintable(QStringLiteral("cold %1 ns, hot %2 ns")
                            .arg(cold.statistics.medianNs)
                            .arg(hot.statistics.medianNs)));
    QVERIFY(cold.phases.samplingMs > 0.0 && cold.phases.totalMs >= cold.phases.samplingMs);
}

// --timer profiler: each sample is the profiler's gpu__time_duration, Nsight Compute's figure.
// On a 40 µs copy it reads a little less than CUPTI's kernel records (docs/measurement.md:
// 0.3-1.3 µs), never more than them, and within 3 %. Cold, a flush's range comes before each
// kernel's and is not a sample. Without profiling permission the measurement goes on with
// CUPTI's records and says why.
void TestMeasure::profilerTimesWhatNsightComputeTimes()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    SampleSettings settings = fixedSettings(SampleMode::Hot, 64);
    settings.timer = TimingSource::Profiler;
    const Measurement profiled = m_runner->measure(copyRequest("1 << 24"), settings);
    qInfo("copy 2^24 floats, hot, profiler: %s", describe(profiled).constData());
    QVERIFY2(profiled.faultStatus.empty(), describe(profiled).constData());
    if (profiled.timingSource != TimingSource::Profiler) {
        const bool said =
            std::any_of(profiled.notes.begin(), profiled.notes.end(), [](const auto &n) {
                return n.find("profiler timing unavailable") != std::string::npos;
            });
        QVERIFY2(said, describe(profiled).constData());
        QSKIP("the profiler is not available here (no profiling permission?)");
    }
    QCOMPARE(profiled.samplesNs.size(), std::size_t(64));
    QCOMPARE(profiled.eventSamplesNs, profiled.samplesNs);
    const Measurement records =
        m_runner->measure(copyRequest("1 << 24"), fixedSettings(SampleMode::Hot, 64));
    qInfo("copy 2^24 floats, hot, CUPTI records: %s", describe(records).constData());
    QVERIFY(records.timingSource == TimingSource::Cupti);
    // The profiler's launches leave CUPTI records without times: not this measurement's.
    QVERIFY2(!hasNote(records, "CUPTI"), describe(records).constData());
    const double ratio = profiled.statistics.medianNs / records.statistics.medianNs;
    QVERIFY2(ratio <= 1.002 && ratio > 0.97, qPrintable(QString::number(ratio, 'f', 5)));

    settings = fixedSettings(SampleMode::Cold, 10);
    settings.timer = TimingSource::Profiler;
    const Measurement cold = m_runner->measure(copyRequest("1 << 24"), settings);
    qInfo("copy 2^24 floats, cold, profiler: %s", describe(cold).constData());
    QVERIFY2(cold.faultStatus.empty() && cold.timingSource == TimingSource::Profiler,
             describe(cold).constData());
    QCOMPARE(cold.samplesNs.size(), std::size_t(10));
    // The flush reads twice the L2: were its ranges taken for samples, they would be far longer.
    QVERIFY(cold.statistics.maxNs < records.statistics.medianNs * 1.5);
}

void TestMeasure::timerLeftOnOnlyBetweenMeasurements()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    // A completed measurement leaves CUPTI's kernel records on for the next one (a sweep's
    // next point); events timing, a run and a metrics pass in between turn them off first, and
    // every measurement still matches each sample to its own record.
    const RunRequest request = copyRequest("1 << 24");
    const SampleSettings settings = fixedSettings(SampleMode::Hot, 20);
    const Measurement first = m_runner->measure(request, settings);
    if (first.timingSource != TimingSource::Cupti) {
        QSKIP("CUPTI is not available here");
    }
    QVERIFY2(first.faultStatus.empty(), describe(first).constData());
    const Measurement second = m_runner->measure(request, settings);
    QVERIFY2(second.timingSource == TimingSource::Cupti && second.statistics.count == 20,
             describe(second).constData());

    SampleSettings events = settings;
    events.timer = TimingSource::Events;
    const Measurement timedByEvents = m_runner->measure(request, events);
    QVERIFY2(timedByEvents.timingSource == TimingSource::Events,
             describe(timedByEvents).constData());

    const RunResult run = m_runner->run(request);
    QVERIFY2(run.status == RunStatus::Succeeded, run.message.c_str());
    MetricsRequest metrics;
    metrics.metrics = {"dram__bytes_read.sum"};
    const MetricsResult counted = m_runner->profileMetrics(request, metrics);
    QVERIFY2(counted.error.empty() || counted.permissionDenied, counted.error.c_str());

    const Measurement after = m_runner->measure(request, settings);
    QVERIFY2(after.timingSource == TimingSource::Cupti && after.statistics.count == 20 &&
                 !hasNote(after, "CUPTI"),
             describe(after).constData());
    // The same kernel on the same data: the medians agree whichever requests came between.
    QVERIFY2(std::abs(after.statistics.medianNs / second.statistics.medianNs - 1.0) < 0.05,
             (describe(second) + " vs " + describe(after)).constData());
}

void TestMeasure::faultAtFifthSampleKeepsFourSamples()
{
    if (!m_runner) {
        QSKIP(qPrintable(m_skipReason));
    }
    // One warm-up launch finds 0; samples 1-4 find 1-4; the fifth sample finds 5 and traps.
    SampleSettings s = fixedSettings(SampleMode::Hot, 20);
    s.warmupLaunches = 1;
    const Measurement m = m_runner->measure(trapRequest("5"), s);
    qInfo("trap at the fifth sample: %s", describe(m).constData());
    QVERIFY2(!m.faultStatus.empty(), describe(m).constData());
    QVERIFY2(m.faultMessage.find("trap") != std::string::npos ||
                 m.faultMessage.find("assert") != std::string::npos,
             m.faultMessage.c_str());
    QCOMPARE(m.samplesNs.size(), std::size_t(4));
    QCOMPARE(m.statistics.count, std::size_t(4));
    QVERIFY2(hasNote(m, "stopped after 4 samples"), describe(m).constData());
    QCOMPARE(m.stop.reason, StopReason::Fault);
}

CUWB_TEST_GUILESS_MAIN(TestMeasure)
} // namespace tst_measure
} // namespace

#include "tst_measure.moc"
