// Shards of a sweep (sweep/sweepshard.h): the round-robin split covers every point exactly once
// and balances the shards; shards of the recorded fixture sweep (support/sweepfixture.h, a
// point of every kind) merge back into the whole, point by point, in any order; the shard
// survives the JSON round trip; and every merge that must not happen is refused with a message
// naming the files.
#include "sweep/sweepjson.h"
#include "sweep/sweepshard.h"

#include "../support/sweepfixture.h"

#include <QtTest>

#include <algorithm>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweepshard {

namespace {

// Shard `index` of `count` of a whole result, as `cuwb sweep --shard` would have written it.
ShardInput shardOf(const SweepResult &whole, int index, int count)
{
    ShardInput input;
    input.name = "shard-" + std::to_string(index) + ".json";
    input.result = whole;
    input.result.points.clear();
    for (const SweepPointResult &point : whole.points) {
        if (inShard(point.point.index, {index, count})) {
            input.result.points.push_back(point);
        }
    }
    input.result.shard = SweepShard{index, count, whole.points.size()};
    input.result.wallSeconds = 1.0 + index;
    input.result.startedAt = "2026-01-0" + std::to_string(index) + "T00:00:00Z";
    return input;
}

std::vector<ShardInput> shardsOf(const SweepResult &whole, int count)
{
    std::vector<ShardInput> shards;
    for (int index = 1; index <= count; ++index) {
        shards.push_back(shardOf(whole, index, count));
    }
    return shards;
}

} // namespace

class TestSweepShard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesSelection_data();
    void parsesSelection();
    void roundRobinCoversEveryPointOnce();
    void mergeGivesTheWholeSweep_data();
    void mergeGivesTheWholeSweep();
    void mergedWallTimeIsTheLongestShard();
    void shardSurvivesJson();
    void shardOutOfRangeIsRefusedWhenRead();
    void refusesWhatMustNotMerge_data();
    void refusesWhatMustNotMerge();
};

void TestSweepShard::parsesSelection_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("count");
    QTest::newRow("1/1") << QStringLiteral("1/1") << 1 << 1;
    QTest::newRow("3/4") << QStringLiteral("3/4") << 3 << 4;
    QTest::newRow("1000/1000") << QStringLiteral("1000/1000") << 1000 << 1000;
    QTest::newRow("K above N") << QStringLiteral("5/4") << 0 << 0;
    QTest::newRow("zero") << QStringLiteral("0/4") << 0 << 0;
    QTest::newRow("no slash") << QStringLiteral("4") << 0 << 0;
    QTest::newRow("words") << QStringLiteral("a/b") << 0 << 0;
    QTest::newRow("negative") << QStringLiteral("-1/4") << 0 << 0;
    QTest::newRow("trailing") << QStringLiteral("1/4x") << 0 << 0;
    QTest::newRow("too many") << QStringLiteral("1/1001") << 0 << 0;
}

void TestSweepShard::parsesSelection()
{
    QFETCH(QString, text);
    QFETCH(int, index);
    QFETCH(int, count);
    std::string error;
    const std::optional<ShardSelection> shard = parseShardSelection(text.toStdString(), error);
    if (index == 0) {
        QVERIFY(!shard);
        QVERIFY2(error.find(text.toStdString()) != std::string::npos ||
                     error.find("at most 1000 shards") != std::string::npos,
                 error.c_str());
        return;
    }
    QVERIFY2(shard.has_value(), error.c_str());
    QCOMPARE(shard->index, index);
    QCOMPARE(shard->count, count);
}

void TestSweepShard::roundRobinCoversEveryPointOnce()
{
    for (std::size_t total = 0; total <= 40; ++total) {
        for (int count = 1; count <= 7; ++count) {
            std::vector<int> owners(total, 0);
            std::size_t smallest = total;
            std::size_t largest = 0;
            for (int index = 1; index <= count; ++index) {
                std::size_t held = 0;
                for (std::size_t point = 0; point < total; ++point) {
                    if (inShard(point, {index, count})) {
                        ++owners[point];
                        ++held;
                    }
                }
                QCOMPARE(shardSize(total, {index, count}), held);
                smallest = std::min(smallest, held);
                largest = std::max(largest, held);
            }
            QVERIFY(std::all_of(owners.begin(), owners.end(), [](int n) { return n == 1; }));
            QVERIFY2(largest - smallest <= 1, "the shards are balanced to within one point");
        }
    }
    // Neighbouring points (block 32, 64, 96...) go to different shards.
    QVERIFY(inShard(0, {1, 4}) && inShard(1, {2, 4}) && inShard(2, {3, 4}) && inShard(3, {4, 4}));
    QVERIFY(inShard(4, {1, 4}));
}

void TestSweepShard::mergeGivesTheWholeSweep_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("reversed");
    QTest::newRow("1 shard") << 1 << false;
    QTest::newRow("2 shards") << 2 << false;
    QTest::newRow("3 shards, given backwards") << 3 << true;
    QTest::newRow("4 shards") << 4 << false;
    QTest::newRow("8 shards, one point each") << 8 << true;
    QTest::newRow("11 shards, three empty") << 11 << false;
}

void TestSweepShard::mergeGivesTheWholeSweep()
{
    QFETCH(int, count);
    QFETCH(bool, reversed);
    const SweepResult whole = sweepfixture::result();
    std::vector<ShardInput> shards = shardsOf(whole, count);
    if (reversed) {
        std::reverse(shards.begin(), shards.end());
    }
    const SweepMerge merge = mergeSweepShards(shards);
    QVERIFY2(merge.result.has_value(), merge.error.c_str());
    const SweepResult &merged = *merge.result;
    QVERIFY(!merged.shard);
    QCOMPARE(merged.points.size(), whole.points.size());
    for (std::size_t i = 0; i < whole.points.size(); ++i) {
        QCOMPARE(nlohmann::json(merged.points[i]), nlohmann::json(whole.points[i]));
    }
    QCOMPARE(merged.bestPoint(), whole.bestPoint());
    QCOMPARE(merged.pointsTiedWithBest(), whole.pointsTiedWithBest());
    QCOMPARE(merged.projectName, whole.projectName);
    QCOMPARE(merged.sourceHash, whole.sourceHash);
    QCOMPARE(merged.deviceName, whole.deviceName);
    QCOMPARE(nlohmann::json(merged.spec), nlohmann::json(whole.spec));
    QCOMPARE(merged.theoreticalPeakGBps, whole.theoreticalPeakGBps);
    QCOMPARE(merged.copyCeilingGBps, whole.copyCeilingGBps);
    // The JSON a merged result writes reads back as one whole sweep.
    const SweepResultLoad load = parseSweepResult(serializeSweepResult(merged));
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QVERIFY(!load.result->shard);
    QCOMPARE(load.result->points.size(), whole.points.size());
}

void TestSweepShard::mergedWallTimeIsTheLongestShard()
{
    const SweepResult whole = sweepfixture::result();
    std::vector<ShardInput> shards = shardsOf(whole, 3);
    shards[1].result.cancelled = true;
    shards[2].result.error = "the worker could not start: ssh: connect refused";
    shards[0].result.notes = {"a note of every shard"};
    shards[1].result.notes = {"a note of every shard"};
    shards[2].result.notes = {};
    const SweepMerge merge = mergeSweepShards(shards);
    QVERIFY2(merge.result.has_value(), merge.error.c_str());
    QCOMPARE(merge.result->wallSeconds, 4.0); // shard 3's, 1 + 3
    QCOMPARE(merge.result->startedAt, std::string("2026-01-01T00:00:00Z"));
    QVERIFY(merge.result->cancelled);
    QCOMPARE(merge.result->error,
             std::string("shard 3 of 3: the worker could not start: ssh: connect refused"));
    QCOMPARE(merge.result->notes.size(), std::size_t(2));
    QCOMPARE(merge.result->notes[0], std::string("a note of every shard"));
    QVERIFY2(merge.result->notes[1].find("merged from 3 shards") == 0,
             merge.result->notes[1].c_str());
}

void TestSweepShard::shardSurvivesJson()
{
    const ShardInput shard = shardOf(sweepfixture::result(), 2, 3);
    const nlohmann::json document = sweepResultToJson(shard.result);
    QCOMPARE(document["shard"], (nlohmann::json{{"index", 2}, {"count", 3}, {"totalPoints", 8}}));
    const SweepResultLoad load = parseSweepResult(serializeSweepResult(shard.result));
    QVERIFY2(load.result.has_value(), load.error.c_str());
    QCOMPARE(load.result->shard, shard.result.shard);
    QCOMPARE(load.result->points.size(), std::size_t(3)); // points 1, 4 and 7
    QCOMPARE(load.result->points[1].point.index, std::size_t(4));
    // A whole sweep writes no shard.
    QVERIFY(!sweepResultToJson(sweepfixture::result()).contains("shard"));
}

void TestSweepShard::shardOutOfRangeIsRefusedWhenRead()
{
    nlohmann::json document = sweepResultToJson(shardOf(sweepfixture::result(), 2, 3).result);
    document["shard"]["index"] = 5;
    const SweepResultLoad load = parseSweepResult(document.dump());
    QVERIFY(!load.result);
    QVERIFY2(load.error.find("shard: shard 5 of 3 does not exist") != std::string::npos,
             load.error.c_str());
}

void TestSweepShard::refusesWhatMustNotMerge_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("message");
    QTest::newRow("none given") << QStringLiteral("none") << QStringLiteral("no shard given");
    QTest::newRow("missing") << QStringLiteral("drop 2")
                             << QStringLiteral("shard 2 of 3 is missing; give every shard's "
                                               "result (2 of 3 given)");
    QTest::newRow("two missing") << QStringLiteral("keep 1")
                                 << QStringLiteral("shards 2, 3 of 3 are missing");
    QTest::newRow("duplicate") << QStringLiteral("duplicate 1")
                               << QStringLiteral(
                                      "shard 1 of 3 is given twice: shard-1.json and shard-1.json");
    QTest::newRow("source") << QStringLiteral("source")
                            << QStringLiteral("shard-1.json and shard-3.json are shards of "
                                              "different sweeps: their source hashes differ");
    QTest::newRow("project") << QStringLiteral("project")
                             << QStringLiteral("their projects differ ('tile' and 'other')");
    QTest::newRow("device") << QStringLiteral("device")
                            << QStringLiteral("their devices differ ('NVIDIA H200' and "
                                              "'NVIDIA A100')");
    QTest::newRow("spec") << QStringLiteral("spec") << QStringLiteral("their sweep specs differ");
    QTest::newRow("shard count") << QStringLiteral("count")
                                 << QStringLiteral("one is split into 3 shards, the other into 4");
    QTest::newRow("whole sweep")
        << QStringLiteral("whole")
        << QStringLiteral("whole.json is a whole sweep, not a shard (it was written without "
                          "--shard)");
    QTest::newRow("point removed")
        << QStringLiteral("truncate")
        << QStringLiteral("shard-3.json: shard 3 of 3 holds 1 points, expected 2; was the file "
                          "edited?");
    QTest::newRow("point of another shard")
        << QStringLiteral("foreign")
        << QStringLiteral("shard-3.json: point 0 does not belong to shard 3 of 3");
}

void TestSweepShard::refusesWhatMustNotMerge()
{
    QFETCH(QString, change);
    QFETCH(QString, message);
    const SweepResult whole = sweepfixture::result();
    std::vector<ShardInput> shards = shardsOf(whole, 3);
    if (change == QStringLiteral("none")) {
        shards.clear();
    } else if (change == QStringLiteral("drop 2")) {
        shards.erase(shards.begin() + 1);
    } else if (change == QStringLiteral("keep 1")) {
        shards.resize(1);
    } else if (change == QStringLiteral("duplicate 1")) {
        shards.push_back(shards[0]);
    } else if (change == QStringLiteral("source")) {
        shards[2].result.sourceHash = "fnv1a64:ffffffffffffffff";
    } else if (change == QStringLiteral("project")) {
        shards[1].result.projectName = "other";
    } else if (change == QStringLiteral("device")) {
        shards[1].result.deviceName = "NVIDIA A100";
    } else if (change == QStringLiteral("spec")) {
        shards[1].result.spec.settings.fixedSamples = 7;
    } else if (change == QStringLiteral("count")) {
        shards[1] = shardOf(whole, 2, 4);
    } else if (change == QStringLiteral("whole")) {
        shards[1] = {"whole.json", whole};
    } else if (change == QStringLiteral("truncate")) {
        shards[2].result.points.pop_back();
    } else if (change == QStringLiteral("foreign")) {
        shards[2].result.points.front() = whole.points.front();
    }
    const SweepMerge merge = mergeSweepShards(shards);
    QVERIFY(!merge.result);
    QVERIFY2(merge.error.find(message.toStdString()) != std::string::npos, merge.error.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestSweepShard)
} // namespace tst_sweepshard
} // namespace

#include "tst_sweepshard.moc"
