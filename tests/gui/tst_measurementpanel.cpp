#include "compiler/kernelcompiler.h"
#include "launchpanel.h"
#include "measurementhistogram.h"
#include "measurementpanel.h"
#include "runcontroller.h"

#include <QAction>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <numeric>

using namespace cuwb;

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

QString vectorAddSource()
{
    QFile file(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
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
        QCOMPARE(int(bins.size()), MeasurementHistogram::MaxBins);
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

        LaunchPanel panel;
        const QString reason =
            QStringLiteral("Run needs a CUDA GPU: No CUDA driver (libcuda.so.1 not found)");
        panel.setRunAvailability(false, reason);
        panel.setCompileResult(result, source, QStringLiteral("vector_add.cu"));
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

QTEST_MAIN(TestMeasurementPanel)
#include "tst_measurementpanel.moc"
