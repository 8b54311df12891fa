// On a real GPU: the copy sample swept over block sizes 32-1024 in steps of 32 (the classroom
// experiment) with SweepRunner and a real `cuwb worker`: all 32 points are measured, each with
// CUPTI timing, verified output and the theoretical occupancy; the best point is one of the
// mid-sized blocks, its bandwidth is below the theoretical peak, and 32 threads per block are
// several times slower than the best. Then the naive matmul swept over three block shapes with
// the roofline: every point carries the speed of light and a roofline point whose FP32 FLOPs
// are exactly the 2 N^3 of the product, below the device's roofs. Skips, saying why, where
// there is no driver or no GPU.
#include "gpuavailability.h"
#include "measure/roofline.h"
#include "project/project.h"
#include "sampleproject.h"
#include "sweep/sweep.h"
#include "sweep/sweeprunner.h"
#include "worker/workerprocess.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QtTest>

#include <string>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweep {

class TestSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void copyBlockSizesStep32();
    void matmulRoofline();

private:
    QString m_skipReason;
};

void TestSweep::initTestCase()
{
    m_skipReason = gpuSkipReason();
}

void TestSweep::copyBlockSizesStep32()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const SampleProject sample = loadSampleProject("copy/copy.cuwb");
    QVERIFY2(sample.error.empty(), sample.error.c_str());
    const Project &project = sample.project;
    const RunRequest &base = sample.request;

    const auto &presets = sweepPresets();
    const auto preset = std::find_if(presets.begin(), presets.end(), [](const SweepPreset &p) {
        return p.id == "block-32-step-32";
    });
    QVERIFY(preset != presets.end());
    SweepSpec spec = preset->spec;
    spec.verify = true;

    WorkerProcess::Options options;
    options.executable = cuwbBesideTest().toStdString();
    WorkerProcess worker(options);
    SweepRunner runner(worker);
    std::size_t streamed = 0;
    runner.setPointCallback([&](const SweepPointResult &, const SweepProgress &progress) {
        ++streamed;
        QCOMPARE(progress.done, streamed);
    });
    SweepContext context;
    context.projectName = project.name;
    const SweepResult result = runner.run(spec, base, context);
    worker.stop();
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.points.size(), std::size_t(32));
    QCOMPARE(streamed, std::size_t(32));
    QCOMPARE(runner.hostCompiles(), std::size_t(1));

    double slowest = 0.0;
    for (const SweepPointResult &p : result.points) {
        const QByteArray label = QByteArray::fromStdString(p.point.label() + ": " + p.message);
        QVERIFY2(p.status == PointStatus::Measured, label.constData());
        QVERIFY2(p.measurement && p.measurement->faultStatus.empty(), label.constData());
        QVERIFY2(p.measurement->timingSource == TimingSource::Cupti ||
                     !p.measurement->notes.empty(),
                 label.constData());
        QCOMPARE(p.measurement->statistics.count, std::size_t(20));
        QVERIFY2(p.theoreticalOccupancy && *p.theoreticalOccupancy > 0.0, label.constData());
        const auto gbps = p.measurement->throughput.effectiveGBps;
        QVERIFY(gbps.has_value());
        QVERIFY2(!result.theoreticalPeakGBps || *gbps < *result.theoreticalPeakGBps,
                 label.constData());
        slowest = std::max(slowest, p.measurement->statistics.medianNs);
        qInfo("%-14s median %8.2f µs  %7.1f GB/s  occupancy %3.0f%%  %.2f ms wall",
              p.point.label().c_str(), p.measurement->statistics.medianNs * 1e-3, *gbps,
              *p.theoreticalOccupancy * 100.0, p.wallSeconds * 1e3);
    }
    const auto best = result.bestPoint();
    QVERIFY(best.has_value());
    const SweepPointResult &b = result.points[*best];
    const long long bestBlock = std::stoll(b.point.values.at(0).second);
    qInfo("best %s, %zu tied; sweep %.2f s", b.point.label().c_str(),
          result.pointsTiedWithBest().size(), result.wallSeconds);
    // docs/measurement.md on an H200: about 430 GB/s at 32 up to about 2.5 TB/s near 256.
    QVERIFY2(bestBlock >= 64 && bestBlock <= 1024, b.point.label().c_str());
    const SweepPointResult &first = result.points.front();
    QVERIFY(first.measurement->statistics.medianNs > 2.0 * b.measurement->statistics.medianNs);
    QCOMPARE(slowest, first.measurement->statistics.medianNs);
}

void TestSweep::matmulRoofline()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const SampleProject sample = loadSampleProject("matmul/matmul_naive.cuwb");
    QVERIFY2(sample.error.empty(), sample.error.c_str());
    const Project &project = sample.project;
    const RunRequest &base = sample.request;

    SweepSpec spec;
    SweepAxis x;
    x.target = "block.x";
    x.values = {"8", "16", "32"};
    SweepAxis y;
    y.target = "block.y";
    y.values = {"8"};
    spec.axes = {x, y};
    spec.settings.fixedSamples = 5;
    spec.roofline = true;

    WorkerProcess::Options options;
    options.executable = cuwbBesideTest().toStdString();
    WorkerProcess worker(options);
    SweepRunner runner(worker);
    SweepContext context;
    context.projectName = project.name;
    const SweepResult result = runner.run(spec, base, context);
    worker.stop();
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.points.size(), std::size_t(3));
    QVERIFY(result.device.has_value());
    const DevicePeaks peaks = devicePeaks(*result.device);
    QVERIFY2(peaks.dramBytesPerSecond > 0.0, peaks.note.c_str());
    QVERIFY2(peaks.flopsPerSecond.count(Precision::FP32) != 0, peaks.note.c_str());

    const double n = 2048.0; // the project's N
    for (const SweepPointResult &p : result.points) {
        const QByteArray label = QByteArray::fromStdString(p.point.label() + ": " + p.message);
        QVERIFY2(p.status == PointStatus::Measured, label.constData());
        QVERIFY2(p.metrics.has_value(), label.constData());
        QVERIFY2(p.metrics->ok(), p.metrics->error.c_str());
        std::string why;
        const auto point = rooflinePoint(p.metrics->values, why);
        QVERIFY2(point.has_value(), why.c_str());
        // Every thread does N fused multiply-adds: 2 N^3 FLOPs, counted, not estimated.
        QCOMPARE(point->dominant(), Precision::FP32);
        QCOMPARE(point->totalFlops(), 2.0 * n * n * n);
        // At least A, B and C cross DRAM once... or most of them: the 60 MB L2 may hold part
        // of C's write-back past the kernel's end (docs/results/h200-roofline).
        QVERIFY2(point->dramBytes > 0.5 * 3.0 * n * n * 4.0, label.constData());
        const auto placement = placeOnRoofline(*point, peaks);
        QVERIFY(placement.has_value());
        QVERIFY2(placement->fractionOfRoof > 0.0 && placement->fractionOfRoof <= 1.0,
                 label.constData());
        const SpeedOfLight sol = speedOfLight(p.metrics->values);
        QVERIFY(sol.computePercent && sol.memoryPercent);
        QVERIFY(*sol.computePercent > 0.0 && *sol.computePercent <= 100.0);
        qInfo("%-12s %7.1f GFLOP/s  %6.1f FLOP/byte  %5.1f%% of the roof  SM %4.1f%%  "
              "memory %4.1f%%",
              p.point.label().c_str(), point->flopsPerSecond() * 1e-9, point->intensity(),
              placement->fractionOfRoof * 100.0, *sol.computePercent, *sol.memoryPercent);
    }
}

CUWB_TEST_GUILESS_MAIN(TestSweep)
} // namespace tst_sweep
} // namespace

#include "tst_sweep.moc"
