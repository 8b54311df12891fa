// MultiDeviceSweep against stand-in workers for several GPUs (fakesweepworker.cpp with
// $CUWB_FAKE_DEVICES): every point measured exactly once, in sweep order in the result, on as
// many GPUs at once as there are and never two workers on one; a failing point retried once on
// a fresh worker, then Failed with both reasons; a GPU whose worker cannot start, or is lost
// mid-sweep, hands its points to the others; GPUs of different models give no single best;
// --per-device runs the whole sweep on each. Parallelism is shown by the order of the workers'
// begin/end lines, never by a clock.
#include "sweep/multidevicesweep.h"
#include "sweep/sweepjson.h"

#include "../support/sweeptesthelpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_multidevicesweep {

namespace {

MultiDeviceSweep::WorkerOptionsFor fakeWorkers(const std::string &marker = {})
{
    return [marker](int device) {
        WorkerProcess::Options options;
        options.executable = CUWB_FAKE_SWEEP_WORKER_PATH;
        options.arguments = {"ok"};
        if (!marker.empty()) {
            options.arguments.push_back(marker);
        }
        options.arguments.insert(options.arguments.end(), {"--device", std::to_string(device)});
        return options;
    };
}

// block.x = 32, 64, ..., 256: eight points.
SweepSpec eightPoints()
{
    SweepSpec spec;
    spec.axes = {rangeAxis("block.x", 32, 256, 32)};
    spec.settings.fixedSamples = 5;
    return spec;
}

struct Timeline
{
    std::map<long, int> begins; // measure requests by block.x
    int maxActive = 0;          // workers measuring at once, at most
    int maxActiveOnOneGpu = 0;
    std::map<int, int> beginsByGpu;
};

// The stand-in workers' begin/end lines, in the order they were written.
Timeline readTimeline(const QString &path)
{
    Timeline t;
    std::ifstream in(path.toStdString());
    std::map<int, int> activeByGpu;
    int active = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string event;
        int gpu = 0;
        long blockX = 0;
        words >> event >> gpu >> blockX;
        if (event == "begin") {
            ++t.begins[blockX];
            ++t.beginsByGpu[gpu];
            t.maxActive = std::max(t.maxActive, ++active);
            t.maxActiveOnOneGpu = std::max(t.maxActiveOnOneGpu, ++activeByGpu[gpu]);
        } else if (event == "end") {
            --active;
            --activeByGpu[gpu];
        }
    }
    return t;
}

std::size_t measuredOn(const SweepResult &result, int device)
{
    std::size_t n = 0;
    for (const SweepPointResult &r : result.points) {
        n += r.status == PointStatus::Measured && r.deviceIndex == device ? 1 : 0;
    }
    return n;
}

} // namespace

class TestMultiDeviceSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("CUWB_CACHE_DIR", "off"); }
    void init();
    void everyPointOnceOnAllGpusAtOnce();
    void aGpuListedTwiceGetsOneWorker();
    void aFailingPointIsRetriedOnceThenFailed();
    void aFaultIsRetriedOnAFreshWorker();
    void aPointThatFailsOnceIsMeasuredOnTheRetry();
    void aGpuWhoseWorkerCannotStartLeavesItsPointsToTheOthers();
    void aGpuLostMidSweepLeavesItsPointsToTheOthers();
    void noWorkerStartsSaysWhyForEachGpu();
    void differentModelsGiveNoSingleBest();
    void perDeviceRunsTheWholeSweepOnEachGpu();
    void cancelStopsEveryGpu();
    void theDevicesTravelInTheJson();

private:
    QTemporaryDir m_dir;
    QString m_timeline;
};

void TestMultiDeviceSweep::init()
{
    QVERIFY(m_dir.isValid());
    static int run = 0;
    m_timeline = m_dir.filePath(QStringLiteral("timeline-%1").arg(++run));
    qputenv("CUWB_FAKE_TIMELINE", m_timeline.toLocal8Bit());
    qputenv("CUWB_FAKE_DEVICES", "Fake H200,Fake H200,Fake H200");
    qputenv("CUWB_FAKE_MEASURE_DELAY_MS", "150");
    qunsetenv("CUWB_FAKE_DEVICE_MODES");
    qputenv("CUWB_FAKE_MARKER", m_dir.filePath(QStringLiteral("marker-%1").arg(run)).toLocal8Bit());
}

void TestMultiDeviceSweep::everyPointOnceOnAllGpusAtOnce()
{
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    std::vector<std::size_t> streamed;
    std::size_t lastDone = 0;
    sweep.setPointCallback([&](const SweepPointResult &r, const SweepProgress &progress) {
        streamed.push_back(r.point.index);
        lastDone = progress.done;
    });
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.points.size(), std::size_t(8));
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
    for (std::size_t k = 0; k < result.points.size(); ++k) {
        QCOMPARE(result.points[k].point.index, k); // the result is in sweep order
        QVERIFY(result.points[k].deviceIndex.has_value());
        QCOMPARE(result.points[k].deviceName, std::string("Fake H200"));
    }
    QCOMPARE(streamed.size(), std::size_t(8));
    QCOMPARE(lastDone, std::size_t(8));
    QCOMPARE(result.devices.size(), std::size_t(2));
    QVERIFY(!result.mixedModels());

    const Timeline t = readTimeline(m_timeline);
    QCOMPARE(t.begins.size(), std::size_t(8));
    for (const auto &[blockX, count] : t.begins) {
        QCOMPARE(count, 1); // each point measured exactly once
    }
    QCOMPARE(t.maxActive, 2);         // both GPUs at once...
    QCOMPARE(t.maxActiveOnOneGpu, 1); // ...and never two on one
    QVERIFY(measuredOn(result, 0) > 0);
    QVERIFY(measuredOn(result, 1) > 0);
    QCOMPARE(measuredOn(result, 0) + measuredOn(result, 1), std::size_t(8));

    // One model: one best point (block.x=256 is the stand-in's fastest), marked with its GPU.
    const std::optional<std::size_t> best = result.bestPoint();
    QVERIFY(best.has_value());
    QCOMPARE(result.points[*best].point.label(), std::string("block.x=256"));
    QVERIFY(result.points[*best].deviceIndex.has_value());
    QCOMPARE(sweep.hostCompiles(), std::size_t(1)); // one variant, compiled once for both
    QCOMPARE(sweep.reports().size(), std::size_t(2));
    QCOMPARE(sweep.reports()[0].workerStarts + sweep.reports()[1].workerStarts, 2);
}

void TestMultiDeviceSweep::aGpuListedTwiceGetsOneWorker()
{
    MultiDeviceSweep sweep({1, 0, 1, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QCOMPARE(sweep.reports().size(), std::size_t(2));
    QCOMPARE(sweep.reports()[0].index, 1);
    QCOMPARE(sweep.reports()[1].index, 0);
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
    const Timeline t = readTimeline(m_timeline);
    QCOMPARE(t.maxActiveOnOneGpu, 1);
    QCOMPARE(t.maxActive, 2);
}

void TestMultiDeviceSweep::aFailingPointIsRetriedOnceThenFailed()
{
    qputenv("CUWB_FAKE_DEVICE_MODES", "0=crash-block-64;1=crash-block-64");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.count(PointStatus::Failed), std::size_t(1));
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(7));
    const SweepPointResult &failed = result.points[1];
    QCOMPARE(failed.point.label(), std::string("block.x=64"));
    QCOMPARE(failed.status, PointStatus::Failed);
    QVERIFY2(failed.message.find("again on a fresh worker") != std::string::npos,
             failed.message.c_str());
    QVERIFY(failed.deviceIndex.has_value());
    const Timeline t = readTimeline(m_timeline);
    QCOMPARE(t.begins.at(64), 2); // tried, retried once, then given up
    QCOMPARE(t.begins.at(128), 1);
    QCOMPARE(sweep.reports()[0].retries + sweep.reports()[1].retries, std::size_t(1));
}

void TestMultiDeviceSweep::aFaultIsRetriedOnAFreshWorker()
{
    qputenv("CUWB_FAKE_DEVICE_MODES", "0=fault-block-96;1=fault-block-96");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    const SweepPointResult &failed = result.points[2];
    QCOMPARE(failed.status, PointStatus::Failed);
    QVERIFY2(failed.message.find("fault") != std::string::npos, failed.message.c_str());
    QVERIFY2(failed.message.find("again on a fresh worker") != std::string::npos,
             failed.message.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(7));
    QCOMPARE(readTimeline(m_timeline).begins.at(96), 2);
}

void TestMultiDeviceSweep::aPointThatFailsOnceIsMeasuredOnTheRetry()
{
    // Each GPU's worker crashes at its second measurement, once (a marker per GPU).
    qputenv("CUWB_FAKE_DEVICE_MODES", "0=crash-at-2;1=crash-at-2");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
    QCOMPARE(sweep.reports()[0].retries, std::size_t(1));
    QCOMPARE(sweep.reports()[1].retries, std::size_t(1));
    QCOMPARE(sweep.reports()[0].workerStarts, 2);
    std::size_t retried = 0;
    for (const SweepPointResult &r : result.points) {
        retried += r.message.find("measured on a fresh worker") != std::string::npos ? 1 : 0;
    }
    QCOMPARE(retried, std::size_t(2));
}

void TestMultiDeviceSweep::aGpuWhoseWorkerCannotStartLeavesItsPointsToTheOthers()
{
    qputenv("CUWB_FAKE_DEVICE_MODES", "1=no-start");
    MultiDeviceSweep sweep({0, 1, 2}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
    QCOMPARE(measuredOn(result, 1), std::size_t(0));
    QCOMPARE(measuredOn(result, 0) + measuredOn(result, 2), std::size_t(8));
    QCOMPARE(result.devices.size(), std::size_t(2));
    QVERIFY(!sweep.reports()[1].error.empty());
    bool noted = false;
    for (const std::string &note : result.notes) {
        noted = noted || note.rfind("GPU 1 took no further part", 0) == 0;
    }
    QVERIFY(noted);
    QCOMPARE(readTimeline(m_timeline).maxActive, 2);
}

void TestMultiDeviceSweep::aGpuLostMidSweepLeavesItsPointsToTheOthers()
{
    // GPU 1's worker dies at its second point and no worker starts on it after that.
    qputenv("CUWB_FAKE_DEVICE_MODES", "1=die-at-2");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
    QCOMPARE(measuredOn(result, 1), std::size_t(1));
    QCOMPARE(measuredOn(result, 0), std::size_t(7));
    QVERIFY(!sweep.reports()[1].error.empty());
    QVERIFY(sweep.reports()[0].error.empty());
    bool noted = false;
    for (const std::string &note : result.notes) {
        noted = noted || note.find("its points went to the other GPUs") != std::string::npos;
    }
    QVERIFY(noted);
}

void TestMultiDeviceSweep::noWorkerStartsSaysWhyForEachGpu()
{
    qputenv("CUWB_FAKE_DEVICE_MODES", "0=no-start;1=no-start");
    MultiDeviceSweep sweep({0, 1, 7}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QVERIFY(result.error.find("GPU 0: its worker could not start") != std::string::npos);
    QVERIFY(result.error.find("GPU 1:") != std::string::npos);
    QVERIFY2(result.error.find("GPU 7: no GPU") != std::string::npos, result.error.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(0));
    QCOMPARE(result.points.size(), std::size_t(8)); // still listed
}

void TestMultiDeviceSweep::differentModelsGiveNoSingleBest()
{
    qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
    QVERIFY(result.mixedModels());
    QVERIFY(!result.bestPoint().has_value());
    QVERIFY(result.pointsTiedWithBest().empty());
    const auto perDevice = result.bestPointPerDevice();
    QCOMPARE(perDevice.size(), std::size_t(2));
    QCOMPARE(perDevice[0].first, 0);
    QCOMPARE(perDevice[1].first, 1);
    QCOMPARE(result.points[perDevice[1].second].deviceName, std::string("Fake A100"));
    QCOMPARE(sweep.hostCompiles(), std::size_t(2)); // sm_90 and sm_80
    bool noted = false;
    for (const std::string &note : result.notes) {
        noted = noted || note.find("different models") != std::string::npos;
    }
    QVERIFY(noted);
}

void TestMultiDeviceSweep::perDeviceRunsTheWholeSweepOnEachGpu()
{
    qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
    qputenv("CUWB_FAKE_MEASURE_DELAY_MS", "50");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    int started = 0;
    sweep.setStartedCallback([&](const SweepResult &) { ++started; });
    const std::vector<SweepResult> results = sweep.runPerDevice(eightPoints(), addOneRequest());
    QCOMPARE(started, 2);
    QCOMPARE(results.size(), std::size_t(2));
    for (int device = 0; device < 2; ++device) {
        const SweepResult &result = results[std::size_t(device)];
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(8));
        QCOMPARE(measuredOn(result, device), std::size_t(8));
        QVERIFY(result.bestPoint().has_value()); // within one GPU there is a best
    }
    QCOMPARE(results[1].deviceName, std::string("Fake A100"));
    const Timeline t = readTimeline(m_timeline);
    for (const auto &[blockX, count] : t.begins) {
        QCOMPARE(count, 2); // every point on each GPU
    }
    QCOMPARE(t.beginsByGpu.at(0), 8);
    QCOMPARE(t.beginsByGpu.at(1), 8);
    QCOMPARE(t.maxActive, 2);
    QCOMPARE(t.maxActiveOnOneGpu, 1);
}

void TestMultiDeviceSweep::cancelStopsEveryGpu()
{
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    sweep.setPointCallback(
        [&](const SweepPointResult &, const SweepProgress &) { sweep.cancel(); });
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    QVERIFY(result.cancelled);
    QVERIFY(result.count(PointStatus::Pending) >= 5);
    QVERIFY(readTimeline(m_timeline).begins.size() <= 3);
}

void TestMultiDeviceSweep::theDevicesTravelInTheJson()
{
    qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
    MultiDeviceSweep sweep({0, 1}, fakeWorkers());
    const SweepResult result = sweep.run(eightPoints(), addOneRequest());
    const SweepResultLoad load = parseSweepResult(serializeSweepResult(result));
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QCOMPARE(load.result->devices.size(), std::size_t(2));
    QCOMPARE(load.result->devices[1].name, std::string("Fake A100"));
    QVERIFY(load.result->mixedModels());
    for (std::size_t k = 0; k < result.points.size(); ++k) {
        QCOMPARE(load.result->points[k].deviceIndex, result.points[k].deviceIndex);
        QCOMPARE(load.result->points[k].deviceName, result.points[k].deviceName);
    }
    const nlohmann::json document = sweepResultToJson(result);
    QVERIFY(document["best"].is_null());
    QCOMPARE(document["bestPerDevice"].size(), std::size_t(2));
}

CUWB_TEST_GUILESS_MAIN(TestMultiDeviceSweep)
} // namespace tst_multidevicesweep
} // namespace

#include "tst_multidevicesweep.moc"
