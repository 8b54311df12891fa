// JSON of sweeps: the spec (the project's "sweep" section) with its defaults and errors, the
// whole result against a file written by hand (data/sweep_result.json; the points' requests
// and measurements are the worker protocol's and the measurement's own forms, checked by the
// round trip), reading a result back, and files of another format version.
#include "sweep/sweepjson.h"

#include "launch/launchjson.h"
#include "measure/measurejson.h"

#include "../support/sweepfixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweepjson {
using nlohmann::json;

namespace {

std::string readData(const char *name)
{
    QFile file(QStringLiteral(CUWB_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll().toStdString();
}

std::string specError(const std::string &text)
{
    try {
        (void)json::parse(text).get<SweepSpec>();
    } catch (const json::exception &error) {
        return plainJsonError(error);
    }
    return {};
}

} // namespace

class TestSweepJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void specRoundTrips();
    void specValuesMayBeNumbersOrText();
    void specSettingsKeepSweepDefaults();
    void specErrorsNameTheField_data();
    void specErrorsNameTheField();
    void resultMatchesTheHandWrittenFile();
    void resultRoundTrips();
    void rooflineAndDeviceRoundTrip();
    void resultFileReadsBack();
    void otherFormatVersionsAreRefused_data();
    void otherFormatVersionsAreRefused();
    void numberTooLargeIsAnError();
    void dimensionOutOfRangeIsAnError();
};

void TestSweepJson::specRoundTrips()
{
    SweepSpec spec;
    SweepAxis list;
    list.target = "-DTILE";
    list.values = {"8", "16", "1 << 5", "fast"};
    SweepAxis range;
    range.target = "block.x";
    range.kind = AxisValues::Range;
    range.from = 32;
    range.to = 1024;
    range.step = 32;
    SweepAxis powers;
    powers.target = "block.y";
    powers.kind = AxisValues::PowersOfTwo;
    powers.from = 1;
    powers.to = 0.5e3;
    spec.axes = {list, range, powers};
    spec.combination = AxisCombination::Zip;
    spec.constraints = {"block.x*block.y <= 1024"};
    spec.settings.mode = SampleMode::Cold;
    spec.settings.fixedSamples = 0;
    spec.verify = true;
    spec.metrics = true;
    const json document = spec;
    QCOMPARE(document["axes"][0],
             (json{{"target", "-DTILE"}, {"kind", "list"}, {"values", {8, 16, "1 << 5", "fast"}}}));
    QCOMPARE(
        document["axes"][1],
        (json{{"target", "block.x"}, {"kind", "range"}, {"from", 32}, {"to", 1024}, {"step", 32}}));
    QCOMPARE(document["axes"][2],
             (json{{"target", "block.y"}, {"kind", "powersOfTwo"}, {"from", 1}, {"to", 500}}));
    QCOMPARE(document["combination"], json("zip"));
    QCOMPARE(json::parse(document.dump()).get<SweepSpec>(), spec);
}

void TestSweepJson::specValuesMayBeNumbersOrText()
{
    const SweepSpec spec =
        json::parse(R"({"axes": [{"target": "N", "values": [1024, 0.5, "1<<20"]}]})")
            .get<SweepSpec>();
    QCOMPARE(spec.axes[0].kind, AxisValues::List);
    QCOMPARE(spec.axes[0].values, (std::vector<std::string>{"1024", "0.5", "1<<20"}));
    QCOMPARE(spec.combination, AxisCombination::Cartesian);
}

void TestSweepJson::specSettingsKeepSweepDefaults()
{
    const SweepSpec none = json::parse(R"({"axes": []})").get<SweepSpec>();
    QCOMPARE(none.settings, SweepSpec::defaultSweepSettings());
    const SweepSpec some = json::parse(R"({"settings": {"fixedSamples": 50}})").get<SweepSpec>();
    QCOMPARE(some.settings.mode, SampleMode::Hot); // the sweep's default, not a measurement's
    QCOMPARE(some.settings.fixedSamples, 50);
    const SweepSpec adaptive =
        json::parse(R"({"settings": {"mode": "cold", "fixedSamples": 0}})").get<SweepSpec>();
    QCOMPARE(adaptive.settings.mode, SampleMode::Cold);
    QCOMPARE(adaptive.settings.fixedSamples, 0);
}

void TestSweepJson::specErrorsNameTheField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object") << "[]"
                                   << "expected an object, found array";
    QTest::newRow("axes not an array") << R"({"axes": {}})"
                                       << "axes: expected an array, found object";
    QTest::newRow("unknown kind")
        << R"({"axes": [{"target": "block.x", "kind": "ranges", "from": 1, "to": 2}]})"
        << "axes[0].kind: expected one of list, range, powersOfTwo, found 'ranges'";
    QTest::newRow("range without step")
        << R"({"axes": [{"target": "block.x", "kind": "range", "from": 1, "to": 2}]})"
        << "axes[0].step: missing; a range needs a step";
    QTest::newRow("powers without to")
        << R"({"axes": [{"target": "block.x", "kind": "powersOfTwo", "from": 1}]})"
        << "axes[0].to: missing; a powersOfTwo axis needs from and to";
    QTest::newRow("neither kind nor values") << R"({"axes": [{"target": "block.x"}]})"
                                             << "axes[0].kind: missing";
    QTest::newRow("bad value") << R"({"axes": [{"target": "N", "values": [1, true]}]})"
                               << "axes[0].values[1]: expected a value (a number or a string), "
                                  "found boolean";
    QTest::newRow("from as text")
        << R"({"axes": [{"target": "N", "kind": "range", "from": "1", "to": 2, "step": 1}]})"
        << "axes[0].from: expected a number, found string";
    QTest::newRow("combination") << R"({"combination": "product"})"
                                 << "combination: expected one of cartesian, zip, found 'product'";
    QTest::newRow("constraint") << R"({"constraints": [1]})"
                                << "constraints[0]: expected an expression, found number";
    QTest::newRow("verify") << R"({"verify": "yes"})"
                            << "verify: expected true or false";
    QTest::newRow("settings") << R"({"settings": {"minSamples": 1}})"
                              << "settings: minSamples must be at least 2";
}

void TestSweepJson::specErrorsNameTheField()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const std::string error = specError(text.toStdString());
    QVERIFY2(error.starts_with(message.toStdString()), error.c_str());
}

void TestSweepJson::resultMatchesTheHandWrittenFile()
{
    json written = sweepResultToJson(sweepfixture::result());
    QVERIFY(written["points"][0].contains("request"));
    QVERIFY(!written["points"][0]["request"].contains("source")); // once, at the top
    QVERIFY(written["points"][0].contains("measurement"));
    // The time breakdown is derived from the points: the sums of their parts.
    const json breakdown = written["timeBreakdown"];
    QCOMPARE(breakdown["wallMs"].get<double>(), 12500.0);
    double compileMs = 0.0;
    double verifyMs = 0.0;
    for (const json &point : written["points"]) {
        compileMs += point["compileMs"].get<double>();
        verifyMs += point["verifyMs"].get<double>();
    }
    QCOMPARE(breakdown["hostCompileMs"].get<double>(), compileMs);
    QCOMPARE(breakdown["verifyMs"].get<double>(), verifyMs);
    QCOMPARE(breakdown["otherMs"].get<double>(), 12500.0 - compileMs - verifyMs);
    // What a point costs beyond its samples and compile: the median over the measured points.
    std::vector<double> overheads;
    for (const json &point : written["points"]) {
        if (point.contains("measurement") && !point["measurement"].is_null())
            overheads.push_back(std::max(
                0.0, point["wallSeconds"].get<double>() * 1e3 -
                         point["measurement"]["statistics"]["totalNs"].get<double>() / 1e6 -
                         point["compileMs"].get<double>()));
    }
    QVERIFY(!overheads.empty());
    std::sort(overheads.begin(), overheads.end());
    const std::size_t half = overheads.size() / 2;
    const double median =
        overheads.size() % 2 ? overheads[half] : (overheads[half - 1] + overheads[half]) / 2.0;
    QCOMPARE(breakdown["medianOverheadMs"].get<double>(), median);
    QCOMPARE(breakdown["measuredPoints"].get<std::size_t>(), overheads.size());
    written.erase("timeBreakdown");
    for (json &point : written["points"]) {
        point.erase("request");
        point.erase("measurement");
    }
    const json expected = json::parse(readData("sweep_result.json"));
    // Numbers compare by value (4210 and 4210.0 are equal); the patch names any difference.
    QVERIFY2(written == expected, json::diff(expected, written).dump().c_str());
}

void TestSweepJson::resultRoundTrips()
{
    const SweepResult original = sweepfixture::result();
    const SweepResultLoad load = parseSweepResult(serializeSweepResult(original));
    QVERIFY2(load.result.has_value(), load.error.c_str());
    const SweepResult &back = *load.result;
    QCOMPARE(sweepResultToJson(back), sweepResultToJson(original));
    QCOMPARE(back.spec, original.spec);
    QCOMPARE(back.points.size(), original.points.size());
    for (std::size_t i = 0; i < back.points.size(); ++i) {
        QCOMPARE(back.points[i].point.request.source, original.points[i].point.request.source);
        QCOMPARE(back.points[i].point.request.fileName, std::string("tile.cu"));
        QCOMPARE(back.points[i].point.request.options, original.points[i].point.request.options);
        QCOMPARE(back.points[i].point.request.launch, original.points[i].point.request.launch);
        QCOMPARE(back.points[i].measurement, original.points[i].measurement);
        QCOMPARE(back.points[i].status, original.points[i].status);
        QCOMPARE(back.points[i].point.label(), original.points[i].point.label());
    }
    // Skips keep their kind, every point its dynamic shared memory.
    QCOMPARE(back.points[4].point.skipKind, SkipKind::Limits);
    QCOMPARE(back.points[5].point.skipKind, SkipKind::Compile);
    QCOMPARE(back.points[5].point.skipReason, original.points[5].message);
    QCOMPARE(back.points[0].point.skipKind, SkipKind::None);
    QCOMPARE(back.bestPoint(), std::optional<std::size_t>(1));
    QCOMPARE(back.pointsTiedWithBest(), std::vector<std::size_t>{2});
}

// The roofline flag and the worker's device (for the roofs) come back; a result without a
// device, as files written before it was recorded, reads back without one.
void TestSweepJson::rooflineAndDeviceRoundTrip()
{
    SweepResult original = sweepfixture::result();
    QVERIFY(!sweepResultToJson(original)["spec"].contains("roofline"));
    QVERIFY(!sweepResultToJson(original).contains("device"));
    QVERIFY(!parseSweepResult(serializeSweepResult(original)).result->device.has_value());
    original.spec.roofline = true;
    DeviceInfo device;
    device.name = "NVIDIA H200";
    device.major = 9;
    device.smCount = 132;
    device.smClockKHz = 1980000;
    device.memoryClockKHz = 3201000;
    device.memoryBusWidthBits = 6016;
    original.device = device;
    const SweepResultLoad load = parseSweepResult(serializeSweepResult(original));
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QVERIFY(load.result->spec.roofline);
    QVERIFY(load.result->device.has_value());
    QCOMPARE(*load.result->device, device);
}

void TestSweepJson::resultFileReadsBack()
{
    const QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("sweep.json")).toStdString();
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(serializeSweepResult(sweepfixture::result())));
    file.close();
    const SweepResultLoad load = loadSweepResult(path);
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QCOMPARE(load.result->projectName, std::string("tile"));
    const SweepResultLoad missing = loadSweepResult(path + ".missing");
    QVERIFY(!missing.result);
    QVERIFY2(missing.error.starts_with("cannot read '"), missing.error.c_str());
}

void TestSweepJson::otherFormatVersionsAreRefused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("newer") << R"({"format": "cuwb-sweep-result", "formatVersion": 2})"
                           << "the sweep result has format version 2, but this CUDA Workbench "
                              "reads version 1; it was written by a newer CUDA Workbench";
    QTest::newRow("older") << R"({"formatVersion": 0, "points": []})"
                           << "the sweep result has format version 0, but this CUDA Workbench "
                              "reads version 1; it was written by an older CUDA Workbench";
    QTest::newRow("missing") << R"({"points": []})"
                             << "formatVersion is missing; this is not a CUDA Workbench sweep "
                                "result";
    QTest::newRow("other format") << R"({"format": "kernel-tuner", "formatVersion": 1})"
                                  << "this is not a CUDA Workbench sweep result (its format is "
                                     "\"kernel-tuner\", expected \"cuwb-sweep-result\")";
    QTest::newRow("not JSON") << "{"
                              << "not a readable sweep result: ";
    QTest::newRow("bad point") << R"({"formatVersion": 1, "points": [{"status": "great"}]})"
                               << "points[0].status: expected one of pending, measured, skipped, "
                                  "failed, wrong, found 'great'";
}

void TestSweepJson::otherFormatVersionsAreRefused()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const SweepResultLoad load = parseSweepResult(text.toStdString());
    QVERIFY(!load.result);
    QVERIFY2(load.error.starts_with(message.toStdString()), load.error.c_str());
}

// Found by fuzz/fuzz_sweep: nlohmann reports a number too large for a double as out_of_range,
// not as a parse error, and it escaped parseSweepResult (`cuwb merge` of such a file aborted).
void TestSweepJson::numberTooLargeIsAnError()
{
    for (const char *text : {"1e999", R"({"formatVersion": 1, "points": [1e3081]})"}) {
        const SweepResultLoad load = parseSweepResult(text);
        QVERIFY(!load.result);
        QVERIFY2(load.error.starts_with("not a readable sweep result: "), load.error.c_str());
    }
}

// Found by fuzz/fuzz_sweep under UBSan: a point's block of 1e64 was converted to an integer
// by nlohmann's static_cast, which is undefined for a value that does not fit.
void TestSweepJson::dimensionOutOfRangeIsAnError()
{
    for (const double bad : {1e64, -1.0, std::nan("")}) {
        nlohmann::json point = {{"block", {bad, 1, 1}}};
        if (bad == 1e64) // and an index that does not fit
            point = {{"index", bad}};
        bool refused = false;
        try {
            (void)point.get<SweepPointResult>();
        } catch (const nlohmann::json::exception &) {
            refused = true;
        }
        QVERIFY(refused);
    }
    const nlohmann::json point = {{"block", {256.0, 1, 1}}};
    QCOMPARE(point.get<SweepPointResult>().point.block[0], std::uint64_t(256));
}

CUWB_TEST_GUILESS_MAIN(TestSweepJson)
} // namespace tst_sweepjson
} // namespace

#include "tst_sweepjson.moc"
