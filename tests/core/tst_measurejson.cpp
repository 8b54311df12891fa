// JSON round trips of measurements (every double bit-exact, absent figures staying absent),
// defaults for missing fields, and errors that name the field.
#include "measure/measurejson.h"

#include <QtTest>

using namespace cuwb;
using nlohmann::json;

namespace {

Measurement sample()
{
    Measurement m;
    m.settings.mode = SampleMode::Hot;
    m.settings.fixedSamples = 0;
    m.settings.minSamples = 12;
    m.settings.minGpuTimeSeconds = 0.25;
    m.settings.targetRelativeNoise = 0.1 + 0.2; // not exactly 0.3
    m.settings.timeCapSeconds = 7.5;
    m.settings.warmupLaunches = 3;
    m.settings.plateauWindowSamples = 40;
    m.settings.plateauMinImprovement = 0.02;
    m.samplesNs = {792000.125, 791500.0, 1.0 / 3.0, 793123.456789};
    m.statistics.count = 4;
    m.statistics.medianNs = 791750.0625;
    m.statistics.meanNs = 2.0 / 3.0;
    m.statistics.minNs = 1.0 / 3.0;
    m.statistics.maxNs = 793123.456789;
    m.statistics.stddevNs = 1e-300;
    m.statistics.relativeNoise = 0.00123456789012345;
    m.statistics.totalNs = 2376623.9;
    m.statistics.driftRelative = -0.0421;
    m.stop = {true, StopReason::NoiseNotShrinking, "relative noise 0.12% ..."};
    m.throughput.bytes = 3221225472.0;
    m.throughput.effectiveGBps = 3221225472.0 / 791750.0625;
    m.throughput.theoreticalPeakGBps = 4814.304;
    m.throughput.percentOfPeak = 84.48;
    m.throughput.flopsExpression = "N";
    m.throughput.flops = 268435456.0;
    m.throughput.gflops = 268435456.0 / 791750.0625;
    m.throughput.warnings = {"a warning"};
    m.timingSource = TimingSource::Events;
    m.notes = {"CUPTI unavailable: another profiler is attached; timed with events"};
    m.smClocksMHz = {1980, 1980, 1410, 1965};
    m.smClockMinMHz = 1410;
    m.smClockMaxMHz = 1980;
    m.throttledSamples = 1;
    m.throttled = true;
    return m;
}

} // namespace

class TestMeasureJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip();
    void roundTripThroughText();
    void absentFiguresStayAbsent();
    void enumNames();
    void missingFieldsKeepDefaults();
    void errorsNameTheField();
};

void TestMeasureJson::roundTrip()
{
    const Measurement m = sample();
    QCOMPARE(json(m).get<Measurement>(), m);
    QCOMPARE(json(Measurement{}).get<Measurement>(), Measurement{});
}

void TestMeasureJson::roundTripThroughText()
{
    const Measurement m = sample();
    const std::string text = json(m).dump();
    const Measurement back = json::parse(text).get<Measurement>();
    QVERIFY(back == m); // doubles compared exactly
    QCOMPARE(back.settings.targetRelativeNoise, 0.1 + 0.2);
    QCOMPARE(json(back).dump(), text);
}

void TestMeasureJson::absentFiguresStayAbsent()
{
    const json j = sample().throughput;
    QVERIFY(!j.contains("copyCeilingGBps"));
    QVERIFY(!j.contains("percentOfCeiling"));
    QVERIFY(j.contains("effectiveGBps"));
    const Throughput back = j.get<Throughput>();
    QVERIFY(!back.copyCeilingGBps);
    QVERIFY(back.effectiveGBps);
}

void TestMeasureJson::enumNames()
{
    const json j = sample();
    QCOMPARE(j.at("settings").at("mode").get<std::string>(), std::string("hot"));
    QCOMPARE(j.at("timingSource").get<std::string>(), std::string("events"));
    QCOMPARE(j.at("stop").at("reason").get<std::string>(), std::string("noise-not-shrinking"));
    for (StopReason reason :
         {StopReason::NotStopped, StopReason::NoiseBelowTarget, StopReason::NoiseNotShrinking,
          StopReason::TimeCap, StopReason::FixedCount})
        QCOMPARE(json(reason).get<StopReason>(), reason);
}

void TestMeasureJson::missingFieldsKeepDefaults()
{
    const auto settings =
        json::parse(R"({"mode": "cold", "fixedSamples": 50})").get<SampleSettings>();
    QCOMPARE(settings.fixedSamples, 50);
    QCOMPARE(settings.minSamples, 10);
    QCOMPARE(settings.minGpuTimeSeconds, 0.5);
    QCOMPARE(settings.targetRelativeNoise, 0.005);
    QCOMPARE(settings.timeCapSeconds, 15.0);
    QCOMPARE(json::object().get<Measurement>(), Measurement{});
}

void TestMeasureJson::errorsNameTheField()
{
    try {
        (void)json::parse(R"({"settings": {"mode": "warm"}})").get<Measurement>();
        QFAIL("no error");
    } catch (const json::exception &error) {
        const std::string message = error.what();
        QVERIFY2(message.find("settings.mode: expected one of cold, hot, found 'warm'") !=
                     std::string::npos,
                 message.c_str());
    }
    try {
        (void)json::parse(R"({"samplesNs": [1, "two"]})").get<Measurement>();
        QFAIL("no error");
    } catch (const json::exception &error) {
        QVERIFY2(std::string(error.what()).find("samplesNs") != std::string::npos, error.what());
    }
}

QTEST_GUILESS_MAIN(TestMeasureJson)
#include "tst_measurejson.moc"
