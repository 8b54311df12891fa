// The roofline chart and its data: the roofs and the ridge at the H200's peaks (devicePeaks of
// a compute capability 9.0 device), log axes that hold every point, a sweep's cloud in a few
// colour buckets (a thousand points in at most kRooflineBuckets series), the best point, the
// baseline, tooltips, and the count of points left out with the reason.
//
// Every metric value here is made up for the test (shaped like a tiled SGEMM on an H200:
// 2 N^3 FLOPs as FFMA instructions over a few milliseconds); none is a measurement.
#include "gui/roofline/rooflinechart.h"
#include "gui/roofline/rooflinedata.h"

#include "../support/devicefixtures.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QtTest>

#include <cmath>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_rooflinechart {

namespace {

using cuwb::testing::h200;

// Made-up metric values of a launch: `ns` long, `bytes` of DRAM traffic, `flops` as FFMAs.
std::map<std::string, double> launchValues(double ns, double bytes, double flops)
{
    return {{"gpu__time_duration.sum", ns},
            {"dram__bytes_read.sum", bytes * 0.9},
            {"dram__bytes_write.sum", bytes * 0.1},
            {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", flops / 2.0},
            {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0.0},
            {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0.0},
            {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 73.3},
            {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 93.7},
            {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 0.5},
            {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 17.4},
            {"l1tex__throughput.avg.pct_of_peak_sustained_active", 93.9}};
}

// A made-up sweep of `count` points over block.x = 32, 64, ... (each point's time and traffic
// vary with it); points from `withoutPassFrom` on have no metrics pass.
SweepResult sweepOf(std::size_t count, std::size_t withoutPassFrom = SIZE_MAX)
{
    SweepResult result;
    result.deviceName = "NVIDIA H200";
    result.device = h200();
    SweepAxis axis;
    axis.target = "block.x";
    result.spec.axes = {axis};
    for (std::size_t i = 0; i < count; ++i) {
        SweepPointResult p;
        p.point.index = i;
        p.point.values = {{"block.x", std::to_string(32 * (i + 1))}};
        p.status = PointStatus::Measured;
        Measurement m;
        m.statistics.count = 20;
        m.statistics.medianNs = 2.0e6 + 1.0e3 * double((i * 37) % 101);
        p.measurement = m;
        if (i < withoutPassFrom) {
            MetricsResult metrics;
            metrics.values =
                launchValues(m.statistics.medianNs, 5.5e7 * (1.0 + 0.01 * double(i)), 1.718e10);
            p.metrics = metrics;
        }
        result.points.push_back(p);
    }
    return result;
}

std::vector<QLineSeries *> lines(QChart *chart)
{
    std::vector<QLineSeries *> out;
    for (QAbstractSeries *s : chart->series()) {
        if (auto *line = qobject_cast<QLineSeries *>(s))
            out.push_back(line);
    }
    return out;
}

} // namespace

class TestRooflineChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roofsAndRidgeAtTheH200Peaks();
    void axesHoldEveryPoint();
    void cloudIsBucketedByTheSweptValue();
    void fewValuesGetOneBucketEach();
    void thousandPointsAreAHandfulOfSeries();
    void bestAndBaselineAreMarked();
    void missingValuesAreCountedWithTheReason();
    void runWithoutRooflineMetricsSaysSo();
    void toolTipNamesThePoint();
};

void TestRooflineChart::roofsAndRidgeAtTheH200Peaks()
{
    const RooflineData data = rooflineOfRun(launchValues(2.1e6, 5.5e7, 1.718e10),
                                            devicePeaks(h200()), QStringLiteral("k"));
    QVERIFY(std::abs(data.dramBytesPerSecond - 4.8143e12) < 1e9);
    QCOMPARE(data.ceilings.size(), std::size_t(3));
    // Highest first: FP16 133.8, FP32 66.9, FP64 33.5 TFLOP/s.
    QCOMPARE(data.ceilings[0].precision, Precision::FP16);
    QCOMPARE(data.ceilings[1].precision, Precision::FP32);
    QCOMPARE(data.ceilings[2].precision, Precision::FP64);
    QVERIFY(std::abs(data.ceilings[1].flopsPerSecond - 66.9e12) < 0.1e12);
    QVERIFY(std::abs(data.ceilings[2].flopsPerSecond - 33.45e12) < 0.1e12);
    QVERIFY(std::abs(data.ceilings[0].flopsPerSecond - 133.8e12) < 0.1e12);
    QVERIFY(data.ridge.has_value());
    QCOMPARE(data.ridge->precision, Precision::FP32);
    QVERIFY(std::abs(data.ridge->ridgeIntensity - 13.9) < 0.05);

    RooflineChart chart;
    chart.setData(data);
    const std::vector<QLineSeries *> roofs = lines(chart.chart());
    QCOMPARE(roofs.size(), std::size_t(4)); // DRAM and three ceilings
    // The DRAM roof's slope is the bandwidth, and it ends where the highest ceiling starts.
    const QList<QPointF> dram = roofs[0]->points();
    QCOMPARE(dram.size(), 2);
    QVERIFY(std::abs(dram[1].y() / dram[1].x() - data.dramBytesPerSecond) < 1e6);
    QVERIFY(std::abs(dram[1].y() - data.ceilings[0].flopsPerSecond) < 1e9);
    // Each ceiling is flat from its ridge and named with its TFLOP/s.
    const QList<QPointF> fp32 = roofs[2]->points();
    QCOMPARE(fp32[0].y(), fp32[1].y());
    QVERIFY(std::abs(fp32[0].x() - data.ridge->ridgeIntensity) < 1e-9);
    QCOMPARE(roofs[2]->name(), QStringLiteral("FP32 peak 66.9 TFLOP/s"));
    QCOMPARE(roofs[1]->name(), QStringLiteral("FP16 peak 134 TFLOP/s"));
}

void TestRooflineChart::axesHoldEveryPoint()
{
    const RooflineData data = rooflineOfSweep(sweepOf(40));
    QCOMPARE(data.points.size(), std::size_t(40));
    RooflineChart chart;
    chart.setData(data);
    const QLogValueAxis *x = chart.xAxis();
    const QLogValueAxis *y = chart.yAxis();
    for (const RooflineMarker &m : data.points) {
        QVERIFY(m.intensity > x->min() && m.intensity < x->max());
        QVERIFY(m.flopsPerSecond > y->min() && m.flopsPerSecond < y->max());
    }
    for (const RooflineCeiling &c : data.ceilings) {
        QVERIFY(c.ridgeIntensity > x->min() && c.ridgeIntensity < x->max());
        QVERIFY(c.flopsPerSecond < y->max());
    }
    // Whole decades.
    QVERIFY(std::abs(std::log10(x->min()) - std::round(std::log10(x->min()))) < 1e-9);
    QVERIFY(std::abs(std::log10(y->max()) - std::round(std::log10(y->max()))) < 1e-9);
}

void TestRooflineChart::cloudIsBucketedByTheSweptValue()
{
    const RooflineData data = rooflineOfSweep(sweepOf(32)); // block.x 32..1024
    QCOMPARE(data.colourTarget, QStringLiteral("block.x"));
    QVERIFY(data.buckets.size() <= kRooflineBuckets);
    QVERIFY(data.buckets.size() >= 4);
    std::size_t total = 0;
    double previousHigh = 0.0;
    for (const RooflineBucket &b : data.buckets) {
        QVERIFY(!b.markers.empty());
        QVERIFY(b.low > previousHigh); // ascending and disjoint
        previousHigh = b.high;
        for (const std::size_t i : b.markers) {
            QVERIFY(*data.points[i].value >= b.low && *data.points[i].value <= b.high);
        }
        total += b.markers.size();
    }
    QCOMPARE(total, data.points.size());
    // Named by the values they hold: 32 alone in the lowest range, 672 to 1024 in the highest.
    QCOMPARE(data.buckets.size(), std::size_t(8));
    QCOMPARE(data.buckets.front().name, QStringLiteral("block.x = 32"));
    QCOMPARE(data.buckets.back().name, QStringLiteral("block.x 672\u20131024"));
    // Ordered colours: the ramp's ends differ.
    QVERIFY(RooflineChart::bucketColor(0, 8) != RooflineChart::bucketColor(7, 8));
}

void TestRooflineChart::fewValuesGetOneBucketEach()
{
    const RooflineData data = rooflineOfSweep(sweepOf(5));
    QCOMPARE(data.buckets.size(), std::size_t(5));
    QCOMPARE(data.buckets[2].name, QStringLiteral("block.x = 96"));
    QCOMPARE(data.buckets[2].markers, std::vector<std::size_t>{2});
}

void TestRooflineChart::thousandPointsAreAHandfulOfSeries()
{
    const RooflineData data = rooflineOfSweep(sweepOf(1000));
    QCOMPARE(data.points.size(), std::size_t(1000));
    RooflineChart chart;
    chart.setData(data);
    QCOMPARE(chart.bucketSeries().size(), kRooflineBuckets);
    int drawn = 0;
    for (const QScatterSeries *s : chart.bucketSeries())
        drawn += int(s->count());
    QCOMPARE(drawn, 1000);
    QVERIFY(chart.chart()->series().size() <= 16);
}

void TestRooflineChart::bestAndBaselineAreMarked()
{
    const SweepResult current = sweepOf(12);
    const SweepResult baseline = sweepOf(6);
    const RooflineData data = rooflineOfSweep(current, &baseline);
    QVERIFY(data.bestMarker().has_value());
    QCOMPARE(data.points[*data.bestMarker()].point, *current.bestPoint());
    QCOMPARE(data.baseline.size(), std::size_t(6));
    RooflineChart chart;
    chart.setData(data);
    bool hollow = false;
    bool star = false;
    for (QAbstractSeries *s : chart.chart()->series()) {
        auto *scatter = qobject_cast<QScatterSeries *>(s);
        if (!scatter)
            continue;
        if (scatter->name().startsWith(QStringLiteral("baseline"))) {
            hollow = scatter->color().alpha() == 0 && scatter->count() == 6;
        }
        if (scatter->name().startsWith(QStringLiteral("best: "))) {
            star =
                scatter->markerShape() == QScatterSeries::MarkerShapeStar && scatter->count() == 1;
        }
    }
    QVERIFY(hollow);
    QVERIFY(star);
}

void TestRooflineChart::missingValuesAreCountedWithTheReason()
{
    const RooflineData data = rooflineOfSweep(sweepOf(20, 8)); // 12 without a metrics pass
    QCOMPARE(data.points.size(), std::size_t(8));
    QCOMPARE(data.missing, std::size_t(12));
    QCOMPARE(data.missingText,
             QStringLiteral("12 points have no metrics pass: run the sweep with Roofline on"));
    RooflineChart chart;
    chart.setData(data);
    QVERIFY(chart.noteText().contains(data.missingText));

    // A pass with the default metrics only: time and bytes but no FLOPs counted.
    SweepResult plain = sweepOf(3);
    for (SweepPointResult &p : plain.points) {
        for (const char *name : {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"})
            p.metrics->values.erase(name);
    }
    const RooflineData noFlops = rooflineOfSweep(plain);
    QVERIFY(noFlops.points.empty());
    QCOMPARE(noFlops.missing, std::size_t(3));
    QVERIFY2(noFlops.missingText.startsWith(QStringLiteral("3 points have no floating-point")),
             qPrintable(noFlops.missingText));
}

void TestRooflineChart::runWithoutRooflineMetricsSaysSo()
{
    const RooflineData none = rooflineOfRun({{"gpu__time_duration.sum", 1000.0}},
                                            devicePeaks(h200()), QStringLiteral("k"));
    QVERIFY(none.empty());
    QCOMPARE(none.missing, std::size_t(1));
    QVERIFY2(none.missingText.contains(QStringLiteral("Roofline and speed of light")),
             qPrintable(none.missingText));
    // A copy: every floating-point counter collected, and all of them zero. Its pass did not
    // miss anything; the kernel has no FLOPs to place.
    std::map<std::string, double> copy = launchValues(2.0e5, 5.4e8, 0.0);
    for (const char *op : {"dadd", "dmul", "dfma", "hadd", "hmul", "hfma"})
        copy[std::string("smsp__sass_thread_inst_executed_op_") + op + "_pred_on.sum"] = 0.0;
    const RooflineData noFlops = rooflineOfRun(copy, devicePeaks(h200()), QStringLiteral("copy"));
    QVERIFY(noFlops.empty());
    QVERIFY2(noFlops.missingText.startsWith(
                 QStringLiteral("The kernel executed no floating-point instructions")),
             qPrintable(noFlops.missingText));
    copy.erase("smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"); // one counter missing
    QVERIFY(rooflineOfRun(copy, devicePeaks(h200()), QStringLiteral("copy"))
                .missingText.contains(QStringLiteral("Roofline and speed of light")));
    // A device whose FP peaks are not in the table still gets its DRAM roof.
    DeviceInfo unknown = h200();
    unknown.major = 12;
    const RooflineData onlyDram = rooflineOfRun(launchValues(2.1e6, 5.5e7, 1.718e10),
                                                devicePeaks(unknown), QStringLiteral("k"));
    QVERIFY(onlyDram.ceilings.empty());
    QVERIFY(onlyDram.dramBytesPerSecond > 0);
    QVERIFY(!onlyDram.peaksNote.isEmpty());
    QVERIFY(!onlyDram.points.front().fractionOfRoof.has_value());
}

void TestRooflineChart::toolTipNamesThePoint()
{
    const RooflineData data = rooflineOfRun(launchValues(2.1e6, 5.5e7, 1.718e10),
                                            devicePeaks(h200()), QStringLiteral("k"));
    const RooflineMarker &m = data.points.front();
    QVERIFY(std::abs(m.intensity - 312.36) < 0.01);
    QVERIFY(std::abs(m.flopsPerSecond - 8.181e12) < 0.001e12);
    QVERIFY(!m.memoryBound);
    QVERIFY(std::abs(*m.fractionOfRoof - 8.181 / 66.9) < 0.001);
    RooflineChart chart;
    chart.setData(data);
    const QString tip =
        chart.toolTipAt(chart.bucketSeries().front(), QPointF(m.intensity, m.flopsPerSecond));
    QCOMPARE(tip, QStringLiteral("k\n8181 GFLOP/s FP32 at 312 FLOP/byte\n12.2% of the roof "
                                 "(compute-bound)"));
}

CUWB_TEST_MAIN(TestRooflineChart)
} // namespace tst_rooflinechart
} // namespace

#include "tst_rooflinechart.moc"
