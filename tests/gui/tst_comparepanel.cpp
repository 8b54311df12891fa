// The Compare view on recorded data, without a GPU: the table of A beside B from two H200
// inspections of transpose.cu (data/inspect/), its highlighting and "show only significant",
// the findings on one side only and the per-line differences (clicking a line asks for it);
// a side that failed says why and the rest still compares; kernels of two source files skip
// the lines with a sentence; a history entry's stored measurement becomes side A with what it
// lacks said to be absent; the sweep table's "Compare these two points" is enabled with exactly
// two rows selected and hands over their stored measurements.
#include "compare/comparedata.h"
#include "gui/compare/comparedialog.h"
#include "gui/compare/comparelinesmodel.h"
#include "gui/compare/comparemodel.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/sweepcompareaction.h"
#include "gui/history/historypanel.h"
#include "gui/sweep/sweepresultsview.h"

#include "gui/common/qtconvert.h"
#include "history/historystore.h"
#include "measure/measurejson.h"
#include "measure/statistics.h"
#include "sweep/sweephistory.h"
#include "sweeptestdata.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_comparepanel {
using cuwb::testdata::copySweep;

namespace {

std::string readData(const char *name)
{
    QFile file(QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", name);
    return file.readAll().toStdString();
}

CompareSideInput recorded(const char *name)
{
    CompareSideInput side;
    const std::string problem = addRecordedJson(side, readData(name));
    if (!problem.empty())
        qFatal("%s: %s", name, problem.c_str());
    return side;
}

Measurement measurement(double medianNs, double spread)
{
    Measurement m;
    for (int k = 0; k < 20; ++k)
        m.samplesNs.push_back(medianNs + spread * ((k % 5) - 2));
    m.statistics = computeStatistics(m.samplesNs);
    m.provenance.kernel = "matmul_naive";
    return m;
}

// The row of `model` whose What column reads `what`, or -1.
int rowOf(const QAbstractItemModel &model, const QString &what)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, CompareModel::WhatColumn).data().toString() == what)
            return row;
    }
    return -1;
}

} // namespace

class TestComparePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordedInspectionsCompareRowByRow()
    {
        const CompareData data =
            buildCompare(recorded("transpose.json"), recorded("transpose_shared.json"));
        QCOMPARE(data.a.side.name, std::string("transpose_naive"));
        QCOMPARE(data.b.side.name, std::string("transpose_shared"));
        QCOMPARE(data.a.sourceFile, std::string("transpose.cu"));
        CompareModel model;
        QAbstractItemModelTester tester(&model);
        model.setData(data);

        // The naive store's 32 sectors per request against the tile's 4: the sectors drop to a
        // fifth and count; the requests are the same and do not.
        const int sectors = rowOf(model, QStringLiteral("global sectors"));
        const int requests = rowOf(model, QStringLiteral("global requests"));
        QVERIFY(sectors >= 0 && requests >= 0);
        QCOMPARE(model.index(sectors, CompareModel::AColumn).data().toString(),
                 QStringLiteral("75,497,472"));
        QCOMPARE(model.index(sectors, CompareModel::BColumn).data().toString(),
                 QStringLiteral("16,777,216"));
        QCOMPARE(model.index(sectors, CompareModel::RatioColumn).data().toString(),
                 QStringLiteral("0.22\u00d7"));
        QVERIFY(model.index(sectors, 0).data(CompareModel::SignificantRole).toBool());
        QVERIFY(model.index(sectors, CompareModel::WhatColumn)
                    .data(Qt::FontRole)
                    .value<QFont>()
                    .bold());
        QVERIFY(model.index(sectors, CompareModel::AColumn).data(Qt::ForegroundRole).isValid());
        QVERIFY(!model.index(requests, 0).data(CompareModel::SignificantRole).toBool());
        QVERIFY(!model.index(requests, CompareModel::WhatColumn).data(Qt::FontRole).isValid());
        QCOMPARE(model.index(requests, CompareModel::RatioColumn).data().toString(),
                 QStringLiteral("1.00\u00d7"));
        // The shared tile's wavefronts: none in A, so no ratio.
        const int wavefronts = rowOf(model, QStringLiteral("shared wavefronts"));
        QCOMPARE(model.index(wavefronts, CompareModel::RatioColumn).data().toString(),
                 QStringLiteral("\u2014"));

        // Only the significant rows.
        const int all = model.rowCount();
        model.setShowOnlySignificant(true);
        QCOMPARE(model.rowCount(), model.significantCount());
        QVERIFY(model.rowCount() < all);
        QCOMPARE(rowOf(model, QStringLiteral("global requests")), -1);
        QVERIFY(rowOf(model, QStringLiteral("global sectors")) >= 0);
        model.setShowOnlySignificant(false);
        QCOMPARE(model.rowCount(), all);

        // No times recorded: no verdict, and the notes say why.
        QVERIFY(!data.comparison.time);
        QVERIFY(data.comparison.verdict.empty());
        QVERIFY(std::find(data.a.missing.begin(), data.a.missing.end(),
                          "measurement: not recorded") != data.a.missing.end());
    }

    void findingsAndLinesOfOneSource()
    {
        const CompareData data =
            buildCompare(recorded("transpose.json"), recorded("transpose_shared.json"));
        QVERIFY(data.linesSkipped.empty());
        // The naive store (line 19) and the tile's column read (line 37) each on one side only.
        bool store = false;
        bool conflict = false;
        for (const FindingDelta &f : data.comparison.findings) {
            store = store || (f.inA && f.line == 19 &&
                              f.message.find("uncoalesced store") != std::string::npos);
            conflict = conflict || (!f.inA && f.line == 37 &&
                                    f.message.find("32-way bank conflict") != std::string::npos);
        }
        QVERIFY(store);
        QVERIFY(conflict);

        ComparePanel panel;
        panel.showComparison(data);
        QVERIFY(panel.findingsText().contains(QStringLiteral("Only in A, line 19")));
        QVERIFY(panel.findingsText().contains(QStringLiteral("Only in B, line 37")));
        CompareLinesModel *lines = panel.linesModel();
        QAbstractItemModelTester tester(lines);
        int row19 = -1;
        for (int row = 0; row < lines->rowCount(); ++row) {
            if (lines->index(row, 0).data(CompareLinesModel::LineRole).toInt() == 19)
                row19 = row;
        }
        QVERIFY(row19 >= 0);
        QCOMPARE(lines->index(row19, CompareLinesModel::InstructionsBColumn).data().toString(),
                 QStringLiteral("\u2014"));
        QVERIFY(lines->index(row19, CompareLinesModel::FindingsColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("A: uncoalesced store")));
        QVERIFY(lines->index(row19, 0).data(CompareLinesModel::SignificantRole).toBool());

        QSignalSpy activated(&panel, &ComparePanel::lineActivated);
        Q_EMIT panel.linesView()->clicked(lines->index(row19, CompareLinesModel::FindingsColumn));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 19);

        // The toggle drives both tables: the lines left are those that differ or have a
        // finding.
        const int allLines = lines->rowCount();
        panel.significantToggle()->setChecked(true);
        QVERIFY(panel.model()->showsOnlySignificant());
        QVERIFY(lines->rowCount() > 0);
        QVERIFY(lines->rowCount() <= allLines);
        for (const LineDelta &l : lines->lines())
            QVERIFY(l.significant || !l.findingsA.empty() || !l.findingsB.empty());
        panel.significantToggle()->setChecked(false);
        QCOMPARE(lines->rowCount(), allLines);
    }

    void timesGiveAVerdict()
    {
        CompareSideInput a;
        a.side.name = "matmul_naive";
        a.side.measurement = measurement(3.13e6, 2000.0);
        CompareSideInput b;
        b.side.name = "matmul_tiled";
        b.side.measurement = measurement(2.106e6, 2000.0);
        const CompareData data = buildCompare(a, b);
        QVERIFY(data.comparison.time && data.comparison.time->significant);
        CompareModel model;
        model.setData(data);
        QCOMPARE(model.index(0, CompareModel::AColumn).data().toString(),
                 QStringLiteral("3.130 ms"));
        // A shorter time in B is marked as better (green), and the verdict says by how much.
        QCOMPARE(model.index(0, CompareModel::BColumn).data(Qt::ForegroundRole).value<QColor>(),
                 QColor(0x06, 0x7d, 0x17));
        ComparePanel panel;
        panel.showComparison(data);
        QVERIFY(
            panel.verdictText().startsWith(QStringLiteral("matmul_tiled is 1.49\u00d7 faster")));

        // Within the noise: no verdict of a winner.
        b.side.measurement = measurement(3.131e6, 40000.0);
        const CompareData same = buildCompare(a, b);
        QVERIFY(!same.comparison.time->significant);
        QVERIFY(same.comparison.verdict.find("no difference beyond the noise") == 0);
    }

    void speedOfLightPerSide()
    {
        CompareSideInput a;
        a.side.name = "naive";
        a.side.metrics = MetricsResult{};
        a.side.metrics->values = {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 40.0},
                                  {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 80.0}};
        CompareSideInput b = a;
        b.side.name = "tiled";
        b.side.metrics->values["sm__throughput.avg.pct_of_peak_sustained_elapsed"] = 80.0;
        b.side.metrics->values["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 78.0;
        const CompareData data = buildCompare(a, b);
        CompareModel model;
        model.setData(data);
        const int compute = rowOf(model, QStringLiteral("compute (SM) %"));
        const int dram = rowOf(model, QStringLiteral("DRAM %"));
        QVERIFY(compute >= 0 && dram >= 0);
        QCOMPARE(model.index(compute, CompareModel::SectionColumn).data().toString(),
                 QStringLiteral("speed of light"));
        QCOMPARE(model.index(compute, CompareModel::BColumn).data().toString(),
                 QStringLiteral("80"));
        QVERIFY(model.index(compute, 0).data(CompareModel::SignificantRole).toBool());
        QVERIFY(!model.index(dram, 0).data(CompareModel::SignificantRole).toBool());
        // The raw metrics are rows too, under the same rule.
        QVERIFY(rowOf(model, QStringLiteral("sm__throughput.avg.pct_of_peak_sustained_elapsed")) >=
                0);
    }

    void theDialogAsksForB()
    {
        CompareDialog dialog(QStringLiteral("transpose_naive (transpose)"),
                             {QStringLiteral("a.cu"), QStringLiteral("b.cu")});
        QPushButton *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(dialog.choosesTab());
        QCOMPARE(dialog.tabIndex(), 0);
        QVERIFY(ok->isEnabled());
        dialog.setProjectPath(QString());
        QVERIFY(!dialog.choosesTab());
        QVERIFY(!ok->isEnabled()); // no file named yet
        dialog.setProjectPath(QStringLiteral("samples/transpose/transpose_shared.cuwb"));
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.projectPath(), QStringLiteral("samples/transpose/transpose_shared.cuwb"));
        QCOMPARE(dialog.tabIndex(), -1);

        CompareDialog noTabs(QStringLiteral("k"), {});
        QVERIFY(!noTabs.choosesTab());
    }

    void aFailedSideSaysWhyAndTheRestCompares()
    {
        CompareSideInput a = recorded("transpose.json");
        a.side.measurement = measurement(1.5e6, 1000.0);
        CompareSideInput b;
        b.side.name = "transpose_shared";
        b.failure = "no-device: no CUDA driver is loaded";
        const CompareData data = buildCompare(a, b);
        ComparePanel panel;
        panel.showComparison(data);
        QVERIFY(panel.sideText(1).contains(QStringLiteral("Not collected: no-device: no CUDA "
                                                          "driver is loaded")));
        QVERIFY(!panel.sideText(0).contains(QStringLiteral("Not collected")));
        QVERIFY(panel.sideText(0).contains(QStringLiteral("median 1.500 ms")));
        QVERIFY(!data.comparison.time);
        QCOMPARE(data.linesSkipped, std::string("Per-line differences need both sides inspected."));
        QCOMPARE(panel.linesNoteText(), toQString(data.linesSkipped));
        QVERIFY(!panel.linesView()->isVisibleTo(&panel));
        QVERIFY(!data.comparison.notes.empty());
    }

    void kernelsOfTwoSourcesSkipTheLines()
    {
        CompareSideInput a = recorded("transpose.json");
        CompareSideInput b = recorded("transpose_shared.json");
        b.sourceFile = "transpose_v2.cu";
        const CompareData data = buildCompare(a, b);
        QVERIFY(data.lines.empty());
        QVERIFY(data.linesSkipped.find("different source files (transpose.cu and "
                                       "transpose_v2.cu)") != std::string::npos);
        // The counters still compare.
        QVERIFY(!data.comparison.counters.empty());
    }

    void aHistoryEntryBecomesSideA()
    {
        const Measurement stored = measurement(2.0e6, 1000.0);
        const HistoryEntry entry = measurementEntry(stored, "Matmul", "/tmp/matmul.cuwb");
        const CompareSideInput side =
            sideFromHistoryEntry({}, "history entry 7", "measurement", entry.json);
        QVERIFY(!side.failed());
        QVERIFY(side.side.measurement);
        QCOMPARE(side.side.measurement->statistics.medianNs, stored.statistics.medianNs);
        QCOMPARE(side.side.name, std::string("matmul_naive"));
        QVERIFY(!side.side.metrics);
        QVERIFY(!side.side.inspection);
        QCOMPARE(side.missing.size(), std::size_t(2));
        QCOMPARE(side.missing[0], std::string("metrics: the history entry keeps none"));
        QCOMPARE(side.missing[1], std::string("inspection: the history entry keeps none"));

        // Metrics stored with the measurement are read, not invented.
        nlohmann::json withMetrics = nlohmann::json::parse(entry.json);
        MetricsResult metrics;
        metrics.values["dram__bytes_read.sum"] = 1.0e9;
        withMetrics["metrics"] = metrics;
        const CompareSideInput full =
            sideFromHistoryEntry({}, "history entry 8", "measurement", withMetrics.dump());
        QVERIFY(full.side.metrics);
        QCOMPARE(full.side.metrics->values.at("dram__bytes_read.sum"), 1.0e9);

        // A sweep is not one variant.
        QVERIFY(sideFromHistoryEntry({}, "history entry 9", "sweep", "{}").failed());
    }

    void historyOffersCompareWithCurrentOnMeasurements()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("history.sqlite")).toStdString();
        qint64 measured = 0;
        qint64 swept = 0;
        {
            HistoryStore store = HistoryStore::open(path);
            measured = store.add(measurementEntry(measurement(2.0e6, 1000.0), "Matmul", ""));
            HistoryEntry sweep = sweepEntry(copySweep(), "Copy", "");
            swept = store.add(sweep);
        }
        HistoryPanel panel;
        QSignalSpy listed(&panel, &HistoryPanel::listUpdated);
        panel.setDatabasePath(QString::fromStdString(path));
        QVERIFY(listed.wait(10000));
        panel.selectId(swept);
        QVERIFY(!panel.compareWithCurrentAction()->isEnabled());
        panel.selectId(measured);
        QVERIFY(panel.compareWithCurrentAction()->isEnabled());
        QSignalSpy requested(&panel, &HistoryPanel::compareWithCurrentRequested);
        panel.compareWithCurrentAction()->trigger();
        QVERIFY(requested.wait(10000));
        QCOMPARE(requested.at(0).at(0).toLongLong(), measured);
        QCOMPARE(requested.at(0).at(2).toString(), QStringLiteral("measurement"));
        const CompareSideInput side = sideFromHistoryEntry(
            {}, "history", "measurement", requested.at(0).at(1).toString().toStdString());
        QVERIFY(side.side.measurement);
    }

    void sweepTableComparesExactlyTwoPoints()
    {
        SweepResult result = copySweep();
        for (std::size_t k = 0; k < result.points.size(); ++k)
            result.points[k].point.index = k;
        SweepResultsView view;
        view.setResult(result);
        auto *action = new SweepCompareAction(&view);
        QTableView *table = view.tableView();
        QVERIFY(table->actions().contains(action));
        QVERIFY(!action->isEnabled());
        const auto select = [table](std::initializer_list<int> rows) {
            table->clearSelection();
            for (int row : rows)
                table->selectionModel()->select(table->model()->index(row, 0),
                                                QItemSelectionModel::Select |
                                                    QItemSelectionModel::Rows);
        };
        select({3});
        QVERIFY(!action->isEnabled());
        QVERIFY(!action->selectedPoints());
        select({1, 7});
        QVERIFY(action->isEnabled());
        QSignalSpy requested(action, &SweepCompareAction::comparePointsRequested);
        action->trigger();
        QCOMPARE(requested.count(), 1);
        const auto points = action->selectedPoints();
        QVERIFY(points);
        QCOMPARE(points->first.point.label(), std::string("block.x=64"));
        QCOMPARE(points->second.point.label(), std::string("block.x=256"));
        const CompareSideInput a = sideFromSweepPoint(points->first);
        QVERIFY(a.side.measurement);
        QCOMPARE(a.side.name, std::string("block.x=64"));
        const CompareData data = buildCompare(a, sideFromSweepPoint(points->second));
        QVERIFY(data.comparison.time);
        QVERIFY(data.mixSkipped.find("sweep point") != std::string::npos);
        select({1, 2, 7});
        QVERIFY(!action->isEnabled());
    }
};

CUWB_TEST_MAIN(TestComparePanel)
} // namespace tst_comparepanel
} // namespace

#include "tst_comparepanel.moc"
