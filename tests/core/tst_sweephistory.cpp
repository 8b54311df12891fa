// A finished sweep as a history entry: the one-line summary (the best point, what went wrong),
// the record's fields, and the document, which reads back as the same result, through the
// store as well.
#include "sweep/sweephistory.h"
#include "sweep/sweepjson.h"

#include "../support/sweepfixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweephistory {

class TestSweepHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void summaryNamesTheBestAndWhatWentWrong()
    {
        const SweepResult result = sweepfixture::result();
        QCOMPARE(sweepSummary(result),
                 std::string("8 points, best block.x=256 TILE=16: median 1.50 µs, 2000 GB/s, "
                             "0.5 GFLOP/s; 2 skipped, 1 failed, 1 wrong, 1 not measured, "
                             "cancelled"));
    }

    void summaryOfASweepThatNeverRan()
    {
        SweepResult result;
        SweepPointResult pending;
        result.points = {pending, pending};
        result.error = "no GPU: the worker found none";
        QCOMPARE(sweepSummary(result),
                 std::string("2 points, not run: no GPU: the worker found none"));
        result.error.clear();
        result.points[0].status = PointStatus::Failed;
        QCOMPARE(sweepSummary(result),
                 std::string("2 points, none measured; 1 failed, 1 not measured"));
    }

    void entryCarriesTheRecordAndTheDocument()
    {
        const SweepResult result = sweepfixture::result();
        const HistoryEntry entry = sweepEntry(result, "", "/p/tile.cuwb");
        QCOMPARE(entry.kind, HistoryKind::Sweep);
        QCOMPARE(entry.projectName, std::string("tile")); // the result's, when none is given
        QCOMPARE(entry.projectPath, std::string("/p/tile.cuwb"));
        QCOMPARE(entry.kernel, std::string("tile_kernel"));
        QCOMPARE(entry.deviceName, std::string("NVIDIA H200"));
        QCOMPARE(entry.sourceHash, std::string("fnv1a64:0123456789abcdef"));
        QCOMPARE(entry.summary, sweepSummary(result));
        QCOMPARE(entry.jsonBytes, std::uint64_t(entry.json.size()));
        QCOMPARE(sweepEntry(result, "renamed", "").projectName, std::string("renamed"));

        const SweepResultLoad load = parseSweepResult(entry.json);
        QVERIFY2(load.result, load.error.c_str());
        QCOMPARE(load.result->points.size(), result.points.size());
        QCOMPARE(load.result->bestPoint(), result.bestPoint());
        QCOMPARE(load.result->cancelled, true);
    }

    void storedAndLoadedBack()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        HistoryStore store =
            HistoryStore::open(dir.filePath(QStringLiteral("h.sqlite")).toStdString());
        const std::int64_t id = store.add(sweepEntry(sweepfixture::result(), "tile", ""));
        const std::optional<HistoryEntry> loaded = store.load(id);
        QVERIFY(loaded);
        QCOMPARE(loaded->kind, HistoryKind::Sweep);
        const SweepResultLoad load = parseSweepResult(loaded->json);
        QVERIFY2(load.result, load.error.c_str());
        QCOMPARE(load.result->kernel, std::string("tile_kernel"));
    }

    void documentsReadBackAsTheirKind()
    {
        const HistoryEntry sweep = sweepEntry(sweepfixture::result(), "tile", "");
        HistoryDocument document = readHistoryDocument("sweep", sweep.json);
        QVERIFY2(document.error.empty(), document.error.c_str());
        QVERIFY(document.sweep && !document.measurement);
        QCOMPARE(document.sweep->kernel, std::string("tile_kernel"));

        Measurement measured;
        measured.provenance.kernel = "copy";
        measured.samplesNs = {1000.0, 1010.0};
        const HistoryEntry entry = measurementEntry(measured, "copy", "");
        document = readHistoryDocument("measurement", entry.json);
        QVERIFY2(document.error.empty(), document.error.c_str());
        QVERIFY(document.measurement && !document.sweep);
        QCOMPARE(document.measurement->provenance.kernel, std::string("copy"));
        QCOMPARE(document.measurement->samplesNs.size(), std::size_t(2));

        // A damaged document says why, whatever its kind.
        QVERIFY(!readHistoryDocument("sweep", "{\"points\": 3").error.empty());
        document = readHistoryDocument("measurement", "not json");
        QVERIFY(!document.error.empty());
        QVERIFY(!document.sweep && !document.measurement);
    }

    void aPointAppliesOnlyTheFlagsASweepVaries()
    {
        CompileOptions user;
        user.arch = "sm_80";
        user.includeDirs = {"/home/me/include"};
        user.defines = {"OLD=1"};
        SweepPoint point;
        point.request.options.arch = "sm_90";
        point.request.options.defines = {"TILE=16"};
        point.request.options.maxRegisters = 64;
        point.request.options.fastMath = true;
        const CompileOptions applied = point.appliedTo(user);
        QCOMPARE(applied.defines, std::vector<std::string>{"TILE=16"});
        QCOMPARE(applied.maxRegisters, 64);
        QVERIFY(applied.fastMath);
        QCOMPARE(applied.arch, std::string("sm_80")); // the user's, not the worker's
        QCOMPARE(applied.includeDirs, std::vector<std::string>{"/home/me/include"});
    }
};

CUWB_TEST_GUILESS_MAIN(TestSweepHistory)
} // namespace tst_sweephistory
} // namespace

#include "tst_sweephistory.moc"
