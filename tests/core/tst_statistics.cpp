// Sample statistics on series worked out by hand: odd and even medians, unbiased spread,
// empty and single-sample series, drift, and the throttling check of SM clocks.
#include "measure/statistics.h"

#include <QtTest>

#include <cmath>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_statistics {

class TestStatistics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oddCount();
    void evenCount();
    void empty();
    void oneSample();
    void largeOffsetKeepsPrecision();
    void drift();
    void clocks();
    void clocksWithoutDefault();
};

void TestStatistics::oddCount()
{
    const SampleStatistics s = computeStatistics({3.0, 1.0, 2.0});
    QCOMPARE(s.count, std::size_t(3));
    QCOMPARE(s.medianNs, 2.0);
    QCOMPARE(s.meanNs, 2.0);
    QCOMPARE(s.minNs, 1.0);
    QCOMPARE(s.maxNs, 3.0);
    QCOMPARE(s.stddevNs, 1.0); // sqrt((1 + 0 + 1) / (3 - 1))
    QCOMPARE(s.relativeNoise, 0.5);
    QCOMPARE(s.totalNs, 6.0);
    QCOMPARE(s.driftRelative, 0.0); // fewer than 8 samples
}

void TestStatistics::evenCount()
{
    const SampleStatistics s = computeStatistics({4.0, 1.0, 3.0, 2.0});
    QCOMPARE(s.medianNs, 2.5); // (2 + 3) / 2
    QCOMPARE(s.meanNs, 2.5);
    QCOMPARE(s.stddevNs, std::sqrt(5.0 / 3.0)); // (2.25 + 0.25 + 0.25 + 2.25) / 3
    QCOMPARE(s.relativeNoise, std::sqrt(5.0 / 3.0) / 2.5);
}

void TestStatistics::empty()
{
    QCOMPARE(computeStatistics({}), SampleStatistics{});
}

void TestStatistics::oneSample()
{
    const SampleStatistics s = computeStatistics({792000.0});
    QCOMPARE(s.count, std::size_t(1));
    QCOMPARE(s.medianNs, 792000.0);
    QCOMPARE(s.meanNs, 792000.0);
    QCOMPARE(s.minNs, 792000.0);
    QCOMPARE(s.maxNs, 792000.0);
    QCOMPARE(s.stddevNs, 0.0);
    QCOMPARE(s.relativeNoise, 0.0);
}

void TestStatistics::largeOffsetKeepsPrecision()
{
    // sum(x^2) - n mean^2 would lose these digits entirely.
    const SampleStatistics s = computeStatistics({1e9 + 1, 1e9 + 2, 1e9 + 3});
    QCOMPARE(s.medianNs, 1e9 + 2);
    QCOMPARE(s.stddevNs, 1.0);
}

void TestStatistics::drift()
{
    // Quarters of 2: first mean 1.5, last mean 7.5, overall mean 4.5.
    const SampleStatistics rising = computeStatistics({1, 2, 3, 4, 5, 6, 7, 8});
    QCOMPARE(rising.driftRelative, 6.0 / 4.5);
    const SampleStatistics falling = computeStatistics({8, 7, 6, 5, 4, 3, 2, 1});
    QCOMPARE(falling.driftRelative, -6.0 / 4.5);
    QCOMPARE(computeStatistics({5, 5, 5, 5, 5, 5, 5, 5}).driftRelative, 0.0);
}

void TestStatistics::clocks()
{
    // H200 default 1980 MHz: the threshold is 1485 MHz; 0 means "not sampled".
    const ClockCheck check = checkClocks({1980, 1400, 1500, 0, 1755}, 1980);
    QCOMPARE(check.thresholdMHz, 1485.0);
    QCOMPARE(check.minMHz, 1400.0);
    QCOMPARE(check.maxMHz, 1980.0);
    QCOMPARE(check.samplesBelow, std::size_t(1));
    QVERIFY(check.throttled);

    const ClockCheck steady = checkClocks({1980, 1965, 1980}, 1980);
    QCOMPARE(steady.samplesBelow, std::size_t(0));
    QVERIFY(!steady.throttled);

    const ClockCheck none = checkClocks({}, 1980);
    QCOMPARE(none.minMHz, 0.0);
    QVERIFY(!none.throttled);
}

void TestStatistics::clocksWithoutDefault()
{
    // Without a default clock nothing can be called throttled, but the range is still known.
    const ClockCheck check = checkClocks({345, 1980}, 0);
    QCOMPARE(check.minMHz, 345.0);
    QCOMPARE(check.maxMHz, 1980.0);
    QVERIFY(!check.throttled);
}

CUWB_TEST_GUILESS_MAIN(TestStatistics)
} // namespace tst_statistics
} // namespace

#include "tst_statistics.moc"
