// The stopping rules on synthetic series: quiet (stops on noise), noisy (stops when the noise
// no longer shrinks, or at the cap), drifting (clocks ramping: stops and the statistics show the
// drift), fixed count, a 30 s kernel, and the wall-clock cap. Deterministic series only.
#include "measure/statistics.h"
#include "measure/stoppingcriterion.h"

#include <QtTest>

#include <cstdint>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_stoppingcriterion {

namespace {

// A small LCG, so the series is the same with every standard library: uniform in [-1, 1).
class Jitter
{
public:
    double next()
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(m_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    }

private:
    std::uint64_t m_state = 42;
};

// Feeds samples from `sample(i)` until the criterion stops (or a safety limit), and returns
// the samples taken.
template <typename F>
std::vector<double> run(StoppingCriterion &criterion, F &&sample, std::size_t limit = 10000000)
{
    std::vector<double> taken;
    for (std::size_t i = 0; i < limit && !criterion.decision().stop; ++i) {
        taken.push_back(sample(i));
        criterion.addSample(taken.back());
    }
    return taken;
}

} // namespace

class TestStoppingCriterion : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quietStopsOnNoiseAtMinimumSamples();
    void quietShortKernelWaitsForMinimumGpuTime();
    void noisyStopsWhenNoiseNoLongerShrinks();
    void noisyLongKernelStopsAtCap();
    void driftingIsReportedHonestly();
    void fixedCount();
    void fixedCountStillCapped();
    void thirtySecondKernel();
    void wallClockCap();
    void decisionIsSticky();
    void runningNoiseMatchesStatistics();
    void settingsChecked();
};

void TestStoppingCriterion::quietStopsOnNoiseAtMinimumSamples()
{
    // 100 ms samples, +-0.1%: after 10 samples (1 s >= 0.5 s) the noise is about 0.105%.
    StoppingCriterion criterion{SampleSettings{}};
    const auto taken = run(criterion, [](std::size_t i) { return i % 2 ? 1.001e8 : 0.999e8; });
    QCOMPARE(taken.size(), std::size_t(10));
    QCOMPARE(criterion.decision().reason, StopReason::NoiseBelowTarget);
    QVERIFY(criterion.decision().stop);
    QVERIFY(criterion.relativeNoise() < 0.005);
    QVERIFY2(criterion.decision().message.find("below the target 0.50%") != std::string::npos,
             criterion.decision().message.c_str());
}

void TestStoppingCriterion::quietShortKernelWaitsForMinimumGpuTime()
{
    // 1 us samples: quiet from the start, but 0.5 s of GPU time takes exactly 500000 samples.
    StoppingCriterion criterion{SampleSettings{}};
    const auto taken = run(criterion, [](std::size_t i) { return i % 2 ? 1001.0 : 999.0; });
    QCOMPARE(taken.size(), std::size_t(500000));
    QCOMPARE(criterion.decision().reason, StopReason::NoiseBelowTarget);
    QCOMPARE(criterion.gpuTimeSeconds(), 500000 * 1000.0 * 1e-9);
}

void TestStoppingCriterion::noisyStopsWhenNoiseNoLongerShrinks()
{
    // 10 us samples with +-20% uniform jitter: the relative noise settles near 11.5%, far above
    // the target, so sampling ends once it stops improving, shortly after the 0.5 s minimum.
    StoppingCriterion criterion{SampleSettings{}};
    Jitter jitter;
    const auto taken =
        run(criterion, [&](std::size_t) { return 1e4 * (1.0 + 0.2 * jitter.next()); });
    QCOMPARE(criterion.decision().reason, StopReason::NoiseNotShrinking);
    QVERIFY(taken.size() >= 50000 + 32);
    QVERIFY2(taken.size() < 51000, std::to_string(taken.size()).c_str());
    const SampleStatistics s = computeStatistics(taken);
    QVERIFY(s.relativeNoise > 0.10 && s.relativeNoise < 0.13);
    QVERIFY2(criterion.decision().message.find("no longer shrinking") != std::string::npos,
             criterion.decision().message.c_str());
}

void TestStoppingCriterion::noisyLongKernelStopsAtCap()
{
    // 1 s samples with +-20% jitter: the noise window (32 samples past the minimums) would need
    // 42 s, so the 15 s cap ends it, and the message gives the noise as it is.
    StoppingCriterion criterion{SampleSettings{}};
    Jitter jitter;
    double total = 0;
    const auto taken = run(criterion, [&](std::size_t) {
        const double sample = 1e9 * (1.0 + 0.2 * jitter.next());
        total += sample;
        return sample;
    });
    QCOMPARE(criterion.decision().reason, StopReason::TimeCap);
    QVERIFY(total >= 15e9);
    QVERIFY(total - taken.back() < 15e9); // stopped at the first sample that reached the cap
    QVERIFY2(criterion.decision().message.find("relative noise") != std::string::npos,
             criterion.decision().message.c_str());
}

void TestStoppingCriterion::driftingIsReportedHonestly()
{
    // Clocks ramping up: 100 us samples that start 50% slower and speed up linearly over 20000
    // samples. The noise grows as the ramp continues, so it never shrinks: sampling stops on
    // that, and the statistics of the samples taken show the downward drift.
    StoppingCriterion criterion{SampleSettings{}};
    const auto taken = run(criterion, [](std::size_t i) {
        const double ramp = 1.0 - static_cast<double>(i) / 20000.0;
        return 1e5 * (1.0 + 0.5 * (ramp > 0 ? ramp : 0.0));
    });
    QCOMPARE(criterion.decision().reason, StopReason::NoiseNotShrinking);
    const SampleStatistics s = computeStatistics(taken);
    QVERIFY(s.relativeNoise > 0.005);
    QVERIFY2(s.driftRelative < -0.03, std::to_string(s.driftRelative).c_str());
}

void TestStoppingCriterion::fixedCount()
{
    SampleSettings settings;
    settings.fixedSamples = 25;
    StoppingCriterion criterion{settings};
    Jitter jitter;
    const auto taken =
        run(criterion, [&](std::size_t) { return 1e4 * (1.0 + 0.2 * jitter.next()); });
    QCOMPARE(taken.size(), std::size_t(25));
    QCOMPARE(criterion.decision().reason, StopReason::FixedCount);
}

void TestStoppingCriterion::fixedCountStillCapped()
{
    SampleSettings settings;
    settings.fixedSamples = 100;
    StoppingCriterion criterion{settings};
    const auto taken = run(criterion, [](std::size_t) { return 1e9; });
    QCOMPARE(taken.size(), std::size_t(15));
    QCOMPARE(criterion.decision().reason, StopReason::TimeCap);
    QVERIFY2(criterion.decision().message.find("15 samples of 100") != std::string::npos,
             criterion.decision().message.c_str());
}

void TestStoppingCriterion::thirtySecondKernel()
{
    StoppingCriterion criterion{SampleSettings{}};
    QCOMPARE(criterion.addSample(30e9).reason, StopReason::TimeCap);
    QCOMPARE(criterion.count(), std::size_t(1));
}

void TestStoppingCriterion::wallClockCap()
{
    // Flushing L2 and launching take time the samples do not show; the cap counts it.
    StoppingCriterion criterion{SampleSettings{}};
    QVERIFY(!criterion.addSample(1000.0, 14.9).stop);
    QCOMPARE(criterion.addSample(1000.0, 15.0).reason, StopReason::TimeCap);
}

void TestStoppingCriterion::decisionIsSticky()
{
    SampleSettings settings;
    settings.fixedSamples = 2;
    StoppingCriterion criterion{settings};
    criterion.addSample(1.0);
    QCOMPARE(criterion.addSample(2.0).reason, StopReason::FixedCount);
    QCOMPARE(criterion.addSample(3.0).reason, StopReason::FixedCount);
    QCOMPARE(criterion.count(), std::size_t(2));
    QCOMPARE(criterion.meanNs(), 1.5);
}

void TestStoppingCriterion::runningNoiseMatchesStatistics()
{
    SampleSettings settings; // a fixed count, so no rule stops it before all 1000 samples
    settings.fixedSamples = 1000;
    StoppingCriterion criterion{settings};
    std::vector<double> samples;
    Jitter jitter;
    for (int i = 0; i < 1000; ++i) {
        samples.push_back(7.9e5 * (1.0 + 0.01 * jitter.next()));
        criterion.addSample(samples.back());
    }
    const SampleStatistics s = computeStatistics(samples);
    QVERIFY(std::abs(criterion.relativeNoise() - s.relativeNoise) < 1e-12);
    QVERIFY(std::abs(criterion.meanNs() - s.meanNs) < 1e-6);
}

void TestStoppingCriterion::settingsChecked()
{
    QVERIFY(!checkSampleSettings(SampleSettings{}));
    SampleSettings one;
    one.minSamples = 1;
    QVERIFY(checkSampleSettings(one)->find("minSamples") != std::string::npos);
    SampleSettings noTarget;
    noTarget.targetRelativeNoise = 0;
    QVERIFY(checkSampleSettings(noTarget)->find("targetRelativeNoise") != std::string::npos);
    SampleSettings negative;
    negative.fixedSamples = -3;
    QVERIFY(checkSampleSettings(negative)->find("fixedSamples") != std::string::npos);
}

CUWB_TEST_GUILESS_MAIN(TestStoppingCriterion)
} // namespace tst_stoppingcriterion
} // namespace

#include "tst_stoppingcriterion.moc"
