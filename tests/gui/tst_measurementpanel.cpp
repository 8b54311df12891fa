#include "compiler/kernelcompiler.h"
#include "gui/launch/launchpanel.h"
#include "gui/measure/measurementhistogram.h"
#include "gui/measure/measurementpanel.h"
#include "gui/roofline/rooflinechart.h"
#include "gui/roofline/speedoflightbars.h"
#include "gui/run/runcontroller.h"
#include "gui/workspace/workspace.h"

#include "../support/devicefixtures.h"

#include "measure/statistics.h"

#include <QAction>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

#include <numeric>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_measurementpanel {

namespace {

// 40 samples around 12.5 µs: 20 at 12.4, 10 at 12.5, 9 at 12.6 and one outlier at 14.0, so that
// the outlier stretches the bins and the rest share the first.
Measurement syntheticMeasurement()
{
    Measurement m;
    m.settings.mode = SampleMode::Cold;
    for (int i = 0; i < 20; ++i)
        m.samplesNs.push_back(12400.0);
    for (int i = 0; i < 10; ++i)
        m.samplesNs.push_back(12500.0);
    for (int i = 0; i < 9; ++i)
        m.samplesNs.push_back(12600.0);
    m.samplesNs.push_back(14000.0);
    m.statistics.count = m.samplesNs.size();
    m.statistics.medianNs = 12450.0;
    m.statistics.meanNs = 12500.0;
    m.statistics.minNs = 12400.0;
    m.statistics.maxNs = 14000.0;
    m.statistics.stddevNs = 250.0;
    m.statistics.relativeNoise = 0.02;
    m.stop = {true, StopReason::TimeCap, "gave up at the time cap of 15 s"};
    m.timingSource = TimingSource::Events;
    m.notes = {"CUPTI unavailable: another profiler is attached; timed with events"};
    m.smClockMinMHz = 1200.0;
    m.smClockMaxMHz = 1980.0;
    m.throttled = true;
    m.throttledSamples = 3;
    m.throughput.bytes = 8.0 * 1024 * 1024;
    m.throughput.effectiveGBps = 673.4;
    m.throughput.theoreticalPeakGBps = 4800.0;
    m.throughput.percentOfPeak = 14.03;
    m.throughput.copyCeilingGBps = 4000.0;
    m.throughput.percentOfCeiling = 16.8;
    m.throughput.gflops = 12.3;
    return m;
}

// The copy sample on an H200 (docs/results/h200-measure), scaled to 2^28 floats: 2.15 GB.
MetricsResult syntheticMetrics()
{
    MetricsResult r;
    r.chip = "GH100";
    r.passes = 1;
    r.values = {
        {"dram__bytes_read.sum", 1.0739e9},
        {"dram__bytes_write.sum", 1.0818e9},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 93.14},
        {"gpu__time_duration.sum", 802336.0},
        {"sm__warps_active.avg.pct_of_peak_sustained_active", 70.99},
    };
    r.registersPerThread = 8;
    r.blockThreads = 256;
    r.gridBlocks = 1048576;
    r.theoreticalOccupancy = 1.0;
    r.activeBlocksPerSm = 8;
    r.occupancyLimiter = "warps";
    r.waves = 992.97;
    return r;
}

Measurement copyMeasurement()
{
    Measurement m = syntheticMeasurement();
    m.throughput.bytes = 2147483648.0;
    m.notes = {"a note stays last"};
    return m;
}

QString vectorAddSource()
{
    QFile file(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

using cuwb::testing::h200;

// A metrics pass with rooflineMetrics(): made-up values shaped like a tiled SGEMM of N = 2048
// (2 N^3 = 1.718e10 FLOPs as FFMAs in 2.1 ms, 55 MB of DRAM traffic); not a measurement.
MetricsResult rooflineMetricsResult()
{
    MetricsResult r = syntheticMetrics();
    r.values["gpu__time_duration.sum"] = 2.1e6;
    r.values["dram__bytes_read.sum"] = 4.95e7;
    r.values["dram__bytes_write.sum"] = 0.55e7;
    r.values["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] = 8.59e9;
    r.values["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] = 0.0;
    r.values["smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"] = 0.0;
    r.values["sm__throughput.avg.pct_of_peak_sustained_elapsed"] = 73.3;
    r.values["gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"] = 93.7;
    r.values["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 0.5;
    r.values["lts__throughput.avg.pct_of_peak_sustained_elapsed"] = 17.4;
    r.values["l1tex__throughput.avg.pct_of_peak_sustained_active"] = 93.9;
    return r;
}

} // namespace

class TestMeasurementPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void binsHoldEverySampleOnce()
    {
        const Measurement m = syntheticMeasurement();
        const std::vector<HistogramBin> bins = MeasurementHistogram::bins(m.samplesNs);
        QCOMPARE(bins.size(), std::size_t(7)); // ceil(sqrt(40))
        const int total =
            std::accumulate(bins.begin(), bins.end(), 0,
                            [](int sum, const HistogramBin &b) { return sum + b.count; });
        QCOMPARE(total, 40);
        QCOMPARE(bins.front().count, 39); // 12.4, 12.5 and 12.6 µs share the first bin
        QCOMPARE(bins.back().count, 1);   // the maximum lands in the last bin
        QCOMPARE(bins.front().lowNs, 12400.0);
        QCOMPARE(bins.back().highNs, 14000.0);
    }

    void binsAreCapped()
    {
        std::vector<double> samples;
        for (int i = 0; i < 10000; ++i)
            samples.push_back(1000.0 + i);
        const std::vector<HistogramBin> bins = MeasurementHistogram::bins(samples);
        QCOMPARE(int(bins.size()), MeasurementHistogram::kMaxBins);
        int total = 0;
        for (const HistogramBin &bin : bins)
            total += bin.count;
        QCOMPARE(total, 10000);
    }

    void equalOrNoSamples()
    {
        QVERIFY(MeasurementHistogram::bins({}).empty());
        const std::vector<HistogramBin> same = MeasurementHistogram::bins({5.0, 5.0, 5.0});
        QCOMPARE(same.size(), std::size_t(1));
        QCOMPARE(same.front().count, 3);
    }

    void cardShowsEachKernelOfASequence()
    {
        Measurement m = syntheticMeasurement();
        KernelSamples first{"partial", {}, {}};
        KernelSamples second{"finish", {}, {}};
        for (const double sample : m.samplesNs) {
            first.samplesNs.push_back(sample * 0.75);
            second.samplesNs.push_back(sample * 0.25);
        }
        first.statistics = computeStatistics(first.samplesNs);
        second.statistics = computeStatistics(second.samplesNs);
        m.kernels = {first, second};
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("partial"), m);
        QVERIFY2(panel.shownValue(QStringLiteral("kernel0")).startsWith(QStringLiteral("median ")),
                 qPrintable(panel.shownValue(QStringLiteral("kernel0"))));
        QVERIFY(!panel.shownValue(QStringLiteral("kernel1")).isEmpty());
        // One kernel: no rows of its own.
        MeasurementPanel single;
        single.showMeasurement(QStringLiteral("copy"), syntheticMeasurement());
        QVERIFY(single.shownValue(QStringLiteral("kernel0")).isEmpty());
    }

    void cardShowsTheFigures()
    {
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), syntheticMeasurement());
        QCOMPARE(panel.shownValue(QStringLiteral("median")), QStringLiteral("12.45 \u00b5s"));
        QCOMPARE(panel.shownValue(QStringLiteral("mean")), QStringLiteral("12.5 \u00b5s"));
        QCOMPARE(panel.shownValue(QStringLiteral("min")), QStringLiteral("12.4 \u00b5s"));
        QCOMPARE(panel.shownValue(QStringLiteral("max")), QStringLiteral("14 \u00b5s"));
        QCOMPARE(panel.shownValue(QStringLiteral("stddev")), QStringLiteral("250 ns"));
        QCOMPARE(panel.shownValue(QStringLiteral("noise")), QStringLiteral("2.00%"));
        QVERIFY(panel.shownValue(QStringLiteral("samples")).startsWith(QStringLiteral("40 (")));
        QVERIFY(panel.shownValue(QStringLiteral("source")).startsWith(QStringLiteral("events")));
        QVERIFY(panel.shownValue(QStringLiteral("source")).contains(QStringLiteral("latency")));
        QCOMPARE(panel.shownValue(QStringLiteral("clock")), QStringLiteral("1200\u20131980 MHz"));
        QVERIFY(panel.shownValue(QStringLiteral("throttled")).startsWith(QStringLiteral("3 ")));
        QCOMPARE(panel.shownValue(QStringLiteral("bandwidth")), QStringLiteral("673.4 GB/s"));
        QCOMPARE(panel.shownValue(QStringLiteral("peak")), QStringLiteral("14.0% of 4800 GB/s"));
        QCOMPARE(panel.shownValue(QStringLiteral("ceiling")), QStringLiteral("16.8% of 4000 GB/s"));
        QCOMPARE(panel.shownValue(QStringLiteral("gflops")), QStringLiteral("12.3"));
        QVERIFY(panel.shownValue(QStringLiteral("notes")).contains(QStringLiteral("CUPTI")));
        QVERIFY(panel.shownValue(QStringLiteral("fault")).isEmpty());
        QVERIFY(panel.statusText().contains(QStringLiteral("copy")));
        QVERIFY(panel.statusText().contains(QStringLiteral("40 sample")));
    }

    void optionalFiguresAreLeftOut()
    {
        Measurement m = syntheticMeasurement();
        m.timingSource = TimingSource::Cupti;
        m.throttled = false;
        m.smClockMaxMHz = 0.0;
        m.throughput = Throughput{};
        m.notes.clear();
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), m);
        QCOMPARE(panel.shownValue(QStringLiteral("source")), QStringLiteral("CUPTI"));
        for (const char *key :
             {"clock", "throttled", "bandwidth", "peak", "ceiling", "gflops", "notes"})
            QVERIFY2(panel.shownValue(QString::fromLatin1(key)).isEmpty(), key);
    }

    void faultIsShownWithTheSamplesTaken()
    {
        Measurement m = syntheticMeasurement();
        m.faultStatus = "fault";
        m.faultMessage = "illegal address at sample 5";
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), m);
        QVERIFY(panel.shownValue(QStringLiteral("fault")).contains(QStringLiteral("sample 5")));
        QVERIFY(panel.statusText().contains(QStringLiteral("stopped")));
        QVERIFY(!panel.shownValue(QStringLiteral("median")).isEmpty());
    }

    void histogramCountsEverySample()
    {
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), syntheticMeasurement());
        const QList<QAbstractSeries *> series = panel.chart()->series();
        QCOMPARE(series.size(), 1);
        auto *bars = qobject_cast<QBarSeries *>(series.front());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 1);
        const QBarSet *set = bars->barSets().front();
        QCOMPARE(set->count(), 7);
        double total = 0.0;
        for (int i = 0; i < set->count(); ++i)
            total += set->at(i);
        QCOMPARE(total, 40.0);

        panel.showMeasuring(QStringLiteral("copy"));
        QVERIFY(panel.chart()->series().isEmpty());
    }

    void metricsShowBesideTheEffectiveFigures()
    {
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), copyMeasurement());
        panel.showMetrics(syntheticMetrics());
        QCOMPARE(panel.shownValue(QStringLiteral("metrics")),
                 QStringLiteral("Hardware metrics: 1 replay pass on GH100, not timed"));
        QCOMPARE(panel.shownValue(QStringLiteral("dramBytes")),
                 QStringLiteral("declared 2.15 GB, DRAM moved 2.16 GB (read 1.07 GB, written "
                                "1.08 GB)"));
        QCOMPARE(panel.shownValue(QStringLiteral("dramThroughput")),
                 QStringLiteral("93.1% of peak"));
        QCOMPARE(panel.shownValue(QStringLiteral("metricsTime")), QStringLiteral("802.3 \u00b5s"));
        QCOMPARE(panel.shownValue(QStringLiteral("occupancy")),
                 QStringLiteral("achieved 71.0%, theoretical 100.0%"));
        QCOMPARE(panel.shownValue(QStringLiteral("limiter")),
                 QStringLiteral("warps (8 blocks of 256 threads per SM, 8 registers per thread)"));
        QCOMPARE(panel.shownValue(QStringLiteral("waves")),
                 QStringLiteral("992.97 (1048576 blocks)"));
        QVERIFY(panel.shownValue(QStringLiteral("otherMetrics")).isEmpty());
        QVERIFY(panel.shownValue(QStringLiteral("metricsError")).isEmpty());
        // The timing stays, and the metrics come after the effective figures, before the notes.
        QCOMPARE(panel.shownValue(QStringLiteral("median")), QStringLiteral("12.45 \u00b5s"));
        const QList<MeasurementPanel::Figure> rows = MeasurementPanel::figures(copyMeasurement());
        QStringList keys;
        for (const MeasurementPanel::Figure &figure : rows)
            keys.append(figure.key);
        QCOMPARE(keys.last(), QStringLiteral("notes"));
        QVERIFY(keys.contains(QStringLiteral("gflops")));
    }

    void rooflineTabShowsSpeedOfLightAndThePoint()
    {
        MeasurementPanel panel;
        panel.setDevice(h200());
        panel.showMeasurement(QStringLiteral("matmul_tiled"), copyMeasurement());
        QVERIFY(!panel.tabs()->isTabEnabled(1));
        panel.showMetrics(rooflineMetricsResult());
        QVERIFY(panel.tabs()->isTabEnabled(1));
        QCOMPARE(panel.tabs()->currentIndex(), 1);
        QCOMPARE(panel.speedOfLightBars()->valueText(0), QStringLiteral("73.3 %"));
        QCOMPARE(panel.speedOfLightBars()->valueText(1), QStringLiteral("93.7 %"));
        QCOMPARE(panel.speedOfLightBars()->valueText(2), QStringLiteral("0.5 %"));
        const RooflineData &data = panel.rooflineChart()->data();
        QCOMPARE(data.points.size(), std::size_t(1));
        QCOMPARE(data.points.front().label, QStringLiteral("matmul_tiled"));
        QCOMPARE(data.ceilings.size(), std::size_t(3));
        QCOMPARE(panel.shownValue(QStringLiteral("speedOfLight")),
                 QStringLiteral("compute (SM) 73.3%, memory 93.7% (DRAM 0.5%, L2 17.4%, L1 "
                                "93.9%)"));
        QCOMPARE(panel.shownValue(QStringLiteral("countedGflops")),
                 QStringLiteral("8181.0 GFLOP/s FP32 (1.718e+10 FLOP counted), at 312 FLOP/byte"));
        QCOMPARE(panel.shownValue(QStringLiteral("roofline")),
                 QStringLiteral("compute-bound, 12.2% of the roof (66.9 TFLOP/s; ridge 13.9 "
                                "FLOP/byte)"));
        // The roofline's counters are summed up, not listed one by one.
        QVERIFY(panel.shownValue(QStringLiteral("otherMetrics")).isEmpty());
        // Kept for a person to look at when CUWB_MEASUREMENT_SCREENSHOT_DIR names a folder.
        if (const QString keep = qEnvironmentVariable("CUWB_MEASUREMENT_SCREENSHOT_DIR");
            !keep.isEmpty()) {
            panel.resize(1400, 520);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY(panel.grab().save(keep + QStringLiteral("/measurement-roofline.png")));
        }
        // A new measurement empties the tab until its own pass arrives.
        panel.showMeasurement(QStringLiteral("matmul_tiled"), copyMeasurement());
        QVERIFY(!panel.tabs()->isTabEnabled(1));
        QVERIFY(panel.rooflineChart()->data().empty());
    }

    void withoutRooflineMetricsTheTabStaysOff()
    {
        MeasurementPanel panel;
        panel.setDevice(h200());
        panel.showMeasurement(QStringLiteral("copy"), copyMeasurement());
        panel.showMetrics(syntheticMetrics());
        QVERIFY(!panel.tabs()->isTabEnabled(1));
        QCOMPARE(panel.tabs()->currentIndex(), 0);
        QVERIFY(panel.shownValue(QStringLiteral("speedOfLight")).isEmpty());
        QVERIFY(panel.shownValue(QStringLiteral("roofline")).isEmpty());
    }

    // A project that declares measure.flops ("2 * N * N * N", samples/matmul) gets GFLOP/s
    // beside the effective bandwidth (made-up figures of the size cuwb measure prints for it).
    void declaredFlopsShowGflopsBesideBandwidth()
    {
        Measurement m = copyMeasurement();
        m.throughput.flops = 1.718e10;
        m.throughput.gflops = 8156.29;
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("matmul_tiled"), m);
        QCOMPARE(panel.shownValue(QStringLiteral("gflops")), QStringLiteral("8156.3"));
        QVERIFY(!panel.shownValue(QStringLiteral("bandwidth")).isEmpty());
        m.throughput.gflops.reset();
        panel.showMeasurement(QStringLiteral("copy"), m);
        QVERIFY(panel.shownValue(QStringLiteral("gflops")).isEmpty());
    }

    void metricRowsAreInOrder()
    {
        QStringList keys;
        for (const MeasurementPanel::Figure &figure :
             MeasurementPanel::metricFigures(copyMeasurement(), syntheticMetrics()))
            keys.append(figure.key);
        QCOMPARE(keys, QStringList({QStringLiteral("metrics"), QStringLiteral("dramBytes"),
                                    QStringLiteral("dramThroughput"), QStringLiteral("metricsTime"),
                                    QStringLiteral("occupancy"), QStringLiteral("limiter"),
                                    QStringLiteral("waves")}));
    }

    void undeclaredBytesAndOtherMetrics()
    {
        Measurement m = copyMeasurement();
        m.throughput.bytes.reset(); // the bytes expression failed
        MetricsResult r = syntheticMetrics();
        r.values["lts__t_bytes.sum"] = 4.5e9;
        r.passes = 3;
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), m);
        panel.showMetrics(r);
        QVERIFY(panel.shownValue(QStringLiteral("dramBytes"))
                    .startsWith(QStringLiteral("DRAM moved 2.16 GB")));
        QCOMPARE(panel.shownValue(QStringLiteral("otherMetrics")),
                 QStringLiteral("lts__t_bytes.sum = 4.5e+09"));
        QVERIFY(panel.shownValue(QStringLiteral("metrics"))
                    .contains(QStringLiteral("3 replay passes")));
    }

    void permissionDeniedShowsTheReasonAndKeepsTheTiming()
    {
        MetricsResult r = syntheticMetrics();
        r.values.clear();
        r.passes = 0;
        r.permissionDenied = true;
        r.error =
            "hardware metrics need permission to use the GPU's performance counters, which "
            "this driver restricts to administrators (NVreg_RestrictProfilingToAdminUsers=1); "
            "timing still works. To allow it: run as root, or give the program CAP_PERFMON";
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), copyMeasurement());
        panel.showMetrics(r);
        QCOMPARE(panel.shownValue(QStringLiteral("metrics")),
                 QStringLiteral("Hardware metrics: not collected"));
        const QString reason = panel.shownValue(QStringLiteral("metricsError"));
        QVERIFY(reason.contains(QStringLiteral("NVreg_RestrictProfilingToAdminUsers")));
        QVERIFY(reason.contains(QStringLiteral("CAP_PERFMON"))); // the fix
        for (const char *key : {"dramBytes", "dramThroughput", "metricsTime"})
            QVERIFY2(panel.shownValue(QString::fromLatin1(key)).isEmpty(), key);
        // Computed on the host from the kernel's resources: known without the counters.
        QCOMPARE(panel.shownValue(QStringLiteral("occupancy")),
                 QStringLiteral("theoretical 100.0%"));
        QVERIFY(!panel.shownValue(QStringLiteral("waves")).isEmpty());
        QCOMPARE(panel.shownValue(QStringLiteral("median")), QStringLiteral("12.45 \u00b5s"));
        QCOMPARE(panel.chart()->series().size(), 1);
    }

    void unknownMetricIsNamedOnTheCard()
    {
        MetricsResult r;
        r.chip = "GH100";
        r.error = "unknown metric `dram__no_such_counter.sum`: the chip GH100 has no metric of "
                  "that name";
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), copyMeasurement());
        panel.showMetrics(r);
        QVERIFY(panel.shownValue(QStringLiteral("metricsError"))
                    .contains(QStringLiteral("`dram__no_such_counter.sum`")));
        QVERIFY(panel.shownValue(QStringLiteral("occupancy")).isEmpty()); // nothing known
        QVERIFY(!panel.shownValue(QStringLiteral("median")).isEmpty());
    }

    void pendingMetricsAreAnnounced()
    {
        MeasurementPanel panel;
        panel.showMeasurement(QStringLiteral("copy"), copyMeasurement());
        panel.showMetricsPending(5);
        QVERIFY(panel.shownValue(QStringLiteral("metrics"))
                    .contains(QStringLiteral("collecting 5 metrics")));
        panel.showMetrics(syntheticMetrics());
        QVERIFY(
            !panel.shownValue(QStringLiteral("metrics")).contains(QStringLiteral("collecting")));
        // A new measurement starts without the old metrics.
        panel.showMeasuring(QStringLiteral("copy"));
        QVERIFY(panel.shownValue(QStringLiteral("dramBytes")).isEmpty());
        panel.showMeasurement(QStringLiteral("copy"), copyMeasurement());
        QVERIFY(panel.shownValue(QStringLiteral("dramBytes")).isEmpty());
    }

    void cancelledMeasurementShowsTheSamplesTaken()
    {
        Measurement m = syntheticMeasurement();
        m.stop = {true, StopReason::Cancelled, "cancelled after 40 samples"};
        MeasurementPanel panel;
        panel.showMeasuring(QStringLiteral("copy"));
        panel.showCancelling();
        QVERIFY(panel.statusText().contains(QStringLiteral("Cancelling")));
        panel.showMeasurement(QStringLiteral("copy"), m);
        QCOMPARE(panel.shownValue(QStringLiteral("samples")),
                 QStringLiteral("40 (cancelled after 40 samples)"));
        QVERIFY(panel.statusText().contains(QStringLiteral("cancelled after 40 samples")));
        QVERIFY(panel.statusText().contains(QStringLiteral("median 12.45")));
        QVERIFY(panel.shownValue(QStringLiteral("fault")).isEmpty());
        QCOMPARE(panel.chart()->series().size(), 1);
    }

    void cancelButtonAndEscape()
    {
        Workspace workspace;
        LaunchPanel launch(&workspace);
        MeasurementPanel panel;
        QAction *cancel = launch.cancelMeasurementAction();
        QCOMPARE(cancel->shortcut(), QKeySequence(Qt::Key_Escape));
        QVERIFY(!cancel->isEnabled());
        panel.setCancelAction(cancel);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.cancelButton()->isHidden());

        QSignalSpy requested(&launch, &LaunchPanel::cancelMeasurementRequested);
        launch.setMeasurementCancellable(true);
        panel.setCancellable(true);
        QVERIFY(cancel->isEnabled());
        QVERIFY(!panel.cancelButton()->isHidden());
        QVERIFY(!launch.cancelMeasurementButton()->isHidden());
        QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
        QCOMPARE(requested.size(), 1);
        // Esc where the measurement is shown, while it has focus.
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        panel.cancelButton()->setFocus();
        QTest::keyClick(panel.cancelButton(), Qt::Key_Escape);
        QCOMPARE(requested.size(), 2);

        launch.setMeasurementCancellable(false);
        panel.setCancellable(false);
        QVERIFY(panel.cancelButton()->isHidden());
        QTest::keyClick(&panel, Qt::Key_Escape);
        QCOMPARE(requested.size(), 2); // nothing to cancel
    }

    void bytesAreFormattedAsTheCliDoes()
    {
        QCOMPARE(MeasurementPanel::formatBytes(2147483648.0), QStringLiteral("2.15 GB"));
        QCOMPARE(MeasurementPanel::formatBytes(536870912.0), QStringLiteral("0.54 GB"));
        QCOMPARE(MeasurementPanel::formatBytes(8.0 * 1024 * 1024), QStringLiteral("8.39 MB"));
        QCOMPARE(MeasurementPanel::formatBytes(4096.0), QStringLiteral("4.10 kB"));
        QCOMPARE(MeasurementPanel::formatBytes(512.0), QStringLiteral("512 B"));
    }

    void measureNeedsAGpu()
    {
        const QString source = vectorAddSource();
        QVERIFY(!source.isEmpty());
        KernelCompiler compiler;
        CompileOptions options;
        options.arch = "sm_90";
        const CompileResult result =
            compiler.compile(source.toStdString(), "vector_add.cu", options);
        QVERIFY2(result.success, result.log.c_str());

        Workspace workspace;
        LaunchPanel panel(&workspace);
        const QString reason =
            QStringLiteral("Run needs a CUDA GPU: No CUDA driver (libcuda.so.1 not found)");
        panel.setRunAvailability(false, reason);
        workspace.setModule(result, source.toStdString(), "vector_add.cu");
        QVERIFY(!panel.measureAction()->isEnabled());
        QCOMPARE(panel.measureAction()->toolTip(), reason);
        QCOMPARE(panel.measureAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));

        panel.setRunAvailability(true, {});
        QVERIFY(panel.measureAction()->isEnabled());
        QSignalSpy requested(&panel, &LaunchPanel::measureRequested);
        panel.measureAction()->trigger();
        QCOMPARE(requested.size(), 1);
    }

    void controllerReportsNoDeviceAsData()
    {
        RunController controller;
        const QString reason = QStringLiteral("Run needs a CUDA GPU: no GPU found");
        controller.setAvailability(false, reason);
        QSignalSpy finished(&controller, &RunController::measurementFinished);
        SampleSettings settings;
        settings.fixedSamples = 7;
        QCOMPARE(controller.measure(RunRequest{}, settings), quint64(0));
        QCOMPARE(finished.size(), 1);
        const auto measurement = finished.front().at(1).value<Measurement>();
        QCOMPARE(measurement.faultStatus, std::string("no-device"));
        QCOMPARE(QString::fromStdString(measurement.faultMessage), reason);
        QCOMPARE(measurement.settings.fixedSamples, 7);
    }
};

CUWB_TEST_MAIN(TestMeasurementPanel)
} // namespace tst_measurementpanel
} // namespace

#include "tst_measurementpanel.moc"
