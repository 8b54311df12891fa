// JSON round trips of measurements (every double bit-exact, absent figures staying absent),
// defaults for missing fields, and errors that name the field.
#include "measure/measurejson.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_measurejson {
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
    m.eventSamplesNs = {801000.5, 799999.75, 7.0 / 3.0, 805000.0};
    m.eventStatistics.count = 4;
    m.eventStatistics.medianNs = 800500.125;
    m.eventStatistics.relativeNoise = 1.0 / 7.0;
    m.faultStatus = "fault";
    m.faultMessage = "the kernel read or wrote an address it does not own (sample 5)";
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
    m.provenance.deviceName = "NVIDIA H200";
    m.provenance.arch = "sm_90";
    m.provenance.deviceOrdinal = 1;
    m.provenance.driverVersion = 13000;
    m.provenance.toolkitVersion = "13.0";
    m.provenance.nvrtcVersion = "13.0";
    m.provenance.compileOptionsJson = R"({"defines":["N=4"],"std":"c++17"})";
    m.provenance.sourceHash = sourceHashFnv1a64("__global__ void k() {}");
    m.provenance.sourceBytes = 21;
    m.provenance.kernel = "copy";
    m.provenance.grid = {1056, 1, 1};
    m.provenance.block = {256, 1, 1};
    m.provenance.dynamicSharedBytes = 1024;
    m.provenance.buffers = {{"in", 268435456, 1073741824}, {"out", 268435456, 1073741824}};
    m.provenance.defaultSmClockKHz = 1980000;
    m.provenance.memoryClockKHz = 3201000;
    m.phases = {1.25, 0.5, 0.625, 6.5, 0.0625, 9.25};
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
    void provenanceJson();
    void sourceHashIsFnv1a64();
    void faultAndEventFieldsAreWritten();
    void missingFieldsKeepDefaults();
    void guardedFieldsOnlyWhenGuarded();
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
          StopReason::TimeCap, StopReason::FixedCount, StopReason::Cancelled, StopReason::Fault,
          StopReason::WrongSample})
        QCOMPARE(json(reason).get<StopReason>(), reason);
}

// A guarded measurement (grading) carries the flag, the verified samples and the wrong one; an
// ordinary one keeps its shape, none of the three written.
void TestMeasureJson::guardedFieldsOnlyWhenGuarded()
{
    const json plain = sample();
    QVERIFY(!plain.at("settings").contains("guarded"));
    QVERIFY(!plain.contains("verifiedSamples"));
    QVERIFY(!plain.contains("wrongSample"));
    Measurement guarded = sample();
    guarded.settings.guarded = true;
    guarded.verifiedSamples = 7;
    guarded.wrongSample = "sample 8: 1 of 1024 elements of `c` differ";
    guarded.stop = {true, StopReason::WrongSample, "stopped"};
    const json j = guarded;
    QCOMPARE(j.at("settings").at("guarded").get<bool>(), true);
    QCOMPARE(j.at("stop").at("reason").get<std::string>(), std::string("wrong-sample"));
    QCOMPARE(j.get<Measurement>(), guarded);
    SampleSettings profiled;
    profiled.guarded = true;
    profiled.timer = TimingSource::Profiler;
    QVERIFY(checkSampleSettings(profiled));
    profiled.timer = TimingSource::Cupti;
    QVERIFY(!checkSampleSettings(profiled));
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

void TestMeasureJson::provenanceJson()
{
    const json j = sample();
    const json &p = j.at("provenance");
    // The compile options travel as an object, not as escaped text.
    QVERIFY(p.at("compileOptions").is_object());
    QCOMPARE(p.at("compileOptions").at("std").get<std::string>(), std::string("c++17"));
    QCOMPARE(p.at("grid").at(0).get<unsigned>(), 1056u);
    QCOMPARE(p.at("buffers").at(1).at("parameter").get<std::string>(), std::string("out"));
    QCOMPARE(j.get<Measurement>().provenance, sample().provenance);
    // Where the worker's time went, in milliseconds, by phase.
    QCOMPARE(j.at("phases").at("samplingMs").get<double>(), 6.5);
    QCOMPARE(j.at("phases").at("totalMs").get<double>(), 9.25);
    // The timer asked for travels with the settings.
    SampleSettings settings;
    settings.timer = TimingSource::Profiler;
    QCOMPARE(json(settings).at("timer").get<std::string>(), std::string("profiler"));
    QCOMPARE(json(settings).get<SampleSettings>(), settings);
    // Options that are not JSON are kept as text.
    Provenance odd;
    odd.compileOptionsJson = "not json";
    QCOMPARE(json(odd).get<Provenance>(), odd);
}

void TestMeasureJson::sourceHashIsFnv1a64()
{
    // The published FNV-1a 64 test vectors.
    QCOMPARE(sourceHashFnv1a64(""), std::string("fnv1a64:cbf29ce484222325"));
    QCOMPARE(sourceHashFnv1a64("a"), std::string("fnv1a64:af63dc4c8601ec8c"));
    QCOMPARE(sourceHashFnv1a64("foobar"), std::string("fnv1a64:85944171f73967e8"));
}

void TestMeasureJson::faultAndEventFieldsAreWritten()
{
    const json j = sample();
    QCOMPARE(j.at("faultStatus").get<std::string>(), std::string("fault"));
    QVERIFY(j.at("faultMessage").get<std::string>().find("sample 5") != std::string::npos);
    QCOMPARE(j.at("eventSamplesNs").size(), std::size_t(4));
    QCOMPARE(j.at("eventStatistics").at("medianNs").get<double>(), 800500.125);
    // A measurement without them (an older worker's) reads back with empty defaults.
    json old = j;
    old.erase("eventSamplesNs");
    old.erase("eventStatistics");
    old.erase("faultStatus");
    old.erase("faultMessage");
    const Measurement back = old.get<Measurement>();
    QVERIFY(back.eventSamplesNs.empty());
    QCOMPARE(back.eventStatistics, SampleStatistics{});
    QVERIFY(back.faultStatus.empty());
    QVERIFY(back.faultMessage.empty());
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

CUWB_TEST_GUILESS_MAIN(TestMeasureJson)
} // namespace tst_measurejson
} // namespace

#include "tst_measurejson.moc"
