// Speed of light and the roofline from a metrics pass's values: the metric names plan on the
// H200's chip with CUPTI's host library (no GPU), the device peaks match the data sheet, FLOPs
// count an FMA as two, and the point lands on the right side of the ridge.
#include "measure/metrics.h"
#include "measure/roofline.h"

#include "../support/devicefixtures.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_roofline {

namespace {

using cuwb::testing::h200;

// The tiled matmul of 2048² floats: n³ FMAs, about 3 × 16 MiB of DRAM traffic, 1.6 ms.
std::map<std::string, double> matmulValues()
{
    const double n = 2048.0;
    return {{"gpu__time_duration.sum", 1.6e6},
            {"dram__bytes_read.sum", 2 * n * n * 4},
            {"dram__bytes_write.sum", n * n * 4},
            {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", n * n * n},
            {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0},
            {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
            {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 71.5},
            {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 88.0}};
}

} // namespace

class TestRoofline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void metricsPlanOnTheH200sChip();
    void peaksOfAnH200();
    void matmulIsComputeBound();
    void copyIsMemoryBound();
    void missingValuesSayWhich();
    void unknownArchitectureHasNoFlopPeak();
};

void TestRoofline::metricsPlanOnTheH200sChip()
{
    const MetricsResult plan = planMetricPasses("GH100", rooflineMetrics());
    if (!plan.ok() && plan.error.find("could not be loaded") != std::string::npos)
        QSKIP(qPrintable(QStringLiteral("CUPTI's host library is not here: ") +
                         QString::fromStdString(plan.error)));
    QVERIFY2(plan.ok(), plan.error.c_str());
    QVERIFY(plan.passes >= 1);
}

void TestRoofline::peaksOfAnH200()
{
    const DevicePeaks peaks = devicePeaks(h200());
    QVERIFY(peaks.note.empty());
    QCOMPARE(peaks.flopsPerSecond.at(Precision::FP32), 132 * 1.98e9 * 2 * 128);
    QVERIFY(std::abs(peaks.flopsPerSecond.at(Precision::FP32) / 66.9e12 - 1.0) < 0.001);
    QCOMPARE(peaks.flopsPerSecond.at(Precision::FP64),
             peaks.flopsPerSecond.at(Precision::FP32) / 2);
    QCOMPARE(peaks.flopsPerSecond.at(Precision::FP16),
             peaks.flopsPerSecond.at(Precision::FP32) * 2);
    QVERIFY(peaks.dramBytesPerSecond > 4.0e12 && peaks.dramBytesPerSecond < 5.0e12);
}

void TestRoofline::matmulIsComputeBound()
{
    std::string why;
    const std::optional<RooflinePoint> point = rooflinePoint(matmulValues(), why);
    QVERIFY2(point, why.c_str());
    QCOMPARE(point->totalFlops(), 2.0 * 2048.0 * 2048.0 * 2048.0);
    QCOMPARE(point->dominant(), Precision::FP32);
    QCOMPARE(point->intensity(), 2.0 * 2048.0 / 12.0); // 2n³ FLOPs over 12n² bytes
    QVERIFY(std::abs(point->flopsPerSecond() - 2.0 * std::pow(2048.0, 3) / 1.6e-3) < 1.0);
    const std::optional<RooflinePlacement> placed = placeOnRoofline(*point, devicePeaks(h200()));
    QVERIFY(placed);
    QVERIFY(!placed->memoryBound);
    QCOMPARE(placed->roofFlopsPerSecond, devicePeaks(h200()).flopsPerSecond.at(Precision::FP32));
    QVERIFY(placed->fractionOfRoof > 0.15 && placed->fractionOfRoof < 0.17);
    const SpeedOfLight sol = speedOfLight(matmulValues());
    QCOMPARE(sol.computePercent.value_or(0), 71.5);
    QCOMPARE(sol.memoryPercent.value_or(0), 88.0);
    QVERIFY(!sol.l1Percent);
}

void TestRoofline::copyIsMemoryBound()
{
    // A float copy with one FADD per element: 1/8 FLOP per byte, far left of the ridge.
    std::string why;
    const std::optional<RooflinePoint> point =
        rooflinePoint({{"gpu__time_duration.sum", 200e3},
                       {"dram__bytes_read.sum", 268435456},
                       {"dram__bytes_write.sum", 268435456},
                       {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 67108864}},
                      why);
    QVERIFY(point);
    QCOMPARE(point->intensity(), 0.125);
    const std::optional<RooflinePlacement> placed = placeOnRoofline(*point, devicePeaks(h200()));
    QVERIFY(placed->memoryBound);
    QVERIFY(placed->ridgeIntensity > 10.0 && placed->ridgeIntensity < 20.0);
    QCOMPARE(placed->roofFlopsPerSecond, 0.125 * devicePeaks(h200()).dramBytesPerSecond);
    // Only the FP32 add was counted: whether the kernel did no other FLOPs is unknown.
    QVERIFY(!countsFlops({{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1.0}}));
    std::map<std::string, double> all;
    for (const std::string &name : rooflineMetrics())
        all[name] = 0.0;
    QVERIFY(countsFlops(all));
}

void TestRoofline::missingValuesSayWhich()
{
    std::string why;
    QVERIFY(!rooflinePoint({{"dram__bytes_read.sum", 1}, {"dram__bytes_write.sum", 1}}, why));
    QCOMPARE(why, std::string("the metrics pass has no gpu__time_duration.sum"));
    QVERIFY(!rooflinePoint({{"gpu__time_duration.sum", 1}, {"dram__bytes_read.sum", 1}}, why));
    QCOMPARE(why, std::string("the metrics pass has no dram__bytes_write.sum"));
}

void TestRoofline::unknownArchitectureHasNoFlopPeak()
{
    DeviceInfo d = h200();
    d.major = 12;
    const DevicePeaks peaks = devicePeaks(d);
    QVERIFY(peaks.flopsPerSecond.empty());
    QVERIFY(peaks.note.find("12.0") != std::string::npos);
    std::string why;
    QVERIFY(!placeOnRoofline(*rooflinePoint(matmulValues(), why), peaks));
}

CUWB_TEST_GUILESS_MAIN(TestRoofline)
} // namespace tst_roofline
} // namespace

#include "tst_roofline.moc"
