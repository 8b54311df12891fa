#include "gui/roofline/rooflinechart.h"
#include "gui/sweep/sweepchartbuilder.h"
#include "gui/sweep/sweepheatmap.h"
#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptablemodel.h"

#include "sweeptestdata.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QItemSelectionModel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweepresultsview {

namespace {

NamedSweep named(const QString &name, SweepResult result, bool baseline = false)
{
    return {name, std::move(result), baseline};
}

const SweepChartSeries *seriesNamed(const SweepChartData &data, const QString &name)
{
    for (const SweepChartSeries &s : data.series) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

template <typename T> QList<T *> seriesOfType(QChart *chart)
{
    QList<T *> found;
    const QList<QAbstractSeries *> all = chart->series();
    for (QAbstractSeries *series : all) {
        if (auto *typed = qobject_cast<T *>(series))
            found.append(typed);
    }
    return found;
}

QLineSeries *lineNamed(QChart *chart, const QString &name)
{
    for (QLineSeries *line : seriesOfType<QLineSeries>(chart)) {
        if (line->name() == name)
            return line;
    }
    return nullptr;
}

void showOffscreen(SweepResultsView &view, QSize size = {1280, 640})
{
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCoreApplication::processEvents();
}

// When CUWB_SWEEP_SCREENSHOT_DIR is set, the rendered pages are kept there for a person to look
// at (the tests only check that they exist and have the size asked for).
QString screenshotPath(const QTemporaryDir &tmp, const QString &name)
{
    const QString dir = qEnvironmentVariable("CUWB_SWEEP_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        return QDir(dir).filePath(name);
    }
    return tmp.filePath(name);
}

// With CUWB_SWEEP_SCREENSHOT_DIR set, the whole view (charts and table) as well.
void keepViewScreenshot(SweepResultsView &view, const QString &name)
{
    const QString dir = qEnvironmentVariable("CUWB_SWEEP_SCREENSHOT_DIR");
    if (!dir.isEmpty() && QDir().mkpath(dir))
        view.grab().save(QDir(dir).filePath(name));
}

void checkPng(const QString &path, QSize logicalSize)
{
    QImage image;
    QVERIFY2(image.load(path, "PNG"), qPrintable(path));
    QCOMPARE(image.size(), logicalSize * 2);
}

} // namespace

class TestSweepResultsView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- the builder: what the charts will hold, without rendering ----

    void oneAxisMakesOneSeriesOverBlockSize()
    {
        const SweepResult result = testdata::copySweep();
        const SweepChartData data =
            SweepChartBuilder::build({named(QStringLiteral("current"), result)});
        QCOMPARE(data.xTarget, QStringLiteral("block.x"));
        QCOMPARE(data.xTitle, QStringLiteral("block.x (threads)"));
        QVERIFY(data.logX);
        QCOMPARE(data.series.size(), std::size_t(1));
        const SweepChartSeries &s = data.series.front();
        QCOMPARE(s.name, QStringLiteral("current"));
        QCOMPARE(s.points.size(), std::size_t(32));
        QVERIFY(std::is_sorted(s.points.begin(), s.points.end(),
                               [](const auto &a, const auto &b) { return a.x < b.x; }));
        QCOMPARE(s.points.front().x, 32.0);
        QCOMPARE(s.points.back().x, 1024.0);
        QVERIFY(data.unplotted.empty());
        QVERIFY(!data.heatmap);
        QCOMPARE(data.theoreticalPeakGBps, std::optional<double>(testdata::kPeakGBps));
        QCOMPARE(data.copyCeilingGBps, std::optional<double>(testdata::kCeilingGBps));
        QVERIFY(data.hasBandwidth && data.hasDram && data.hasTheoreticalOccupancy &&
                data.hasAchievedOccupancy && data.hasWaves);

        const std::size_t best = *result.bestPoint();
        const std::vector<std::size_t> tied = result.pointsTiedWithBest();
        QVERIFY(!tied.empty());
        for (const SweepChartPoint &c : s.points) {
            const SweepPointResult &p = result.points[c.point];
            QCOMPARE(c.best, c.point == best);
            QCOMPARE(c.tied, std::find(tied.begin(), tied.end(), c.point) != tied.end());
            QCOMPARE(c.medianNs, p.measurement->statistics.medianNs);
            QCOMPARE(c.minNs, p.measurement->statistics.minNs);
            QCOMPARE(c.maxNs, p.measurement->statistics.maxNs);
            QCOMPARE(c.effectiveGBps, p.measurement->throughput.effectiveGBps);
            const double bytes = p.metrics->values.at("dram__bytes_read.sum") +
                                 p.metrics->values.at("dram__bytes_write.sum");
            QVERIFY(qFuzzyCompare(*c.dramGBps, bytes / p.measurement->statistics.medianNs));
            QVERIFY(qFuzzyCompare(*c.theoreticalOccupancyPercent, *p.theoreticalOccupancy * 100));
            QCOMPARE(c.waves, p.waves);
        }
        // docs/measurement.md's shape: block 32 about 430 GB/s, the best near 256 about 2.5 TB/s.
        QVERIFY(*s.points.front().effectiveGBps < 500);
        QVERIFY(result.points[best].point.values.front().second == "256" ||
                result.points[best].point.values.front().second == "224" ||
                result.points[best].point.values.front().second == "288");
    }

    void aDefineAxisMakesOneSeriesPerValue()
    {
        const SweepChartData data =
            SweepChartBuilder::build({named(QStringLiteral("current"), testdata::defineSweep())});
        QCOMPARE(data.xTarget, QStringLiteral("block.x"));
        QCOMPARE(data.series.size(), std::size_t(3));
        QStringList names;
        std::set<int> colours;
        for (const SweepChartSeries &s : data.series) {
            names << s.name;
            colours.insert(s.colorIndex);
            QCOMPARE(s.points.size(), std::size_t(6)); // 32..1024, powers of two
        }
        QCOMPARE(names, (QStringList{QStringLiteral("TILE=1"), QStringLiteral("TILE=2"),
                                     QStringLiteral("TILE=4")}));
        QCOMPARE(colours.size(), std::size_t(3));
        QVERIFY(!data.heatmap);
        // One best point over the whole sweep.
        int best = 0;
        for (const SweepChartSeries &s : data.series)
            best += int(std::count_if(s.points.begin(), s.points.end(),
                                      [](const SweepChartPoint &c) { return c.best; }));
        QCOMPARE(best, 1);
    }

    void aZippedSweepIsOneSeries()
    {
        SweepResult result = testdata::defineSweep();
        result.spec.combination = AxisCombination::Zip;
        const SweepChartData data =
            SweepChartBuilder::build({named(QStringLiteral("zip"), result)});
        QCOMPARE(data.series.size(), std::size_t(1));
        QCOMPARE(data.series.front().points.size(), result.points.size());
    }

    void aTextAxisIsNotTheXAxis()
    {
        SweepResult result = testdata::copySweep();
        SweepAxis type;
        type.target = "<T>";
        type.values = {"float", "double"};
        result.spec.axes.insert(result.spec.axes.begin(), type);
        for (SweepPointResult &p : result.points)
            p.point.values.insert(p.point.values.begin(), {"<T>", "float"});
        const SweepChartData data = SweepChartBuilder::build({named(QStringLiteral("t"), result)});
        QCOMPARE(data.xTarget, QStringLiteral("block.x"));
        QCOMPARE(data.series.size(), std::size_t(1));
        QCOMPARE(data.series.front().name, QStringLiteral("T=float"));
    }

    void twoBlockAxesMakeAHeatmap()
    {
        const SweepResult result = testdata::heatmapSweep();
        const SweepChartData data =
            SweepChartBuilder::build({named(QStringLiteral("2-D"), result)});
        QVERIFY(data.heatmap);
        const SweepHeatmapData &h = *data.heatmap;
        QCOMPARE(h.xTarget, QStringLiteral("block.x"));
        QCOMPARE(h.yTarget, QStringLiteral("block.y"));
        QCOMPARE(h.xValues, (std::vector<double>{8, 16, 32, 64, 128, 256, 512, 1024}));
        QCOMPARE(h.yValues, (std::vector<double>{1, 2, 4, 8, 16, 32}));
        QCOMPARE(h.cells.size(), result.points.size());
        // 1024 × 2 is over the limit: skipped, with its reason.
        const SweepHeatmapCell *skipped = h.cellAt(7, 1);
        QVERIFY(skipped);
        QCOMPARE(skipped->status, PointStatus::Skipped);
        QVERIFY(skipped->message.contains(QStringLiteral("2048 > 1024")));
        QVERIFY(!skipped->medianNs);
        const SweepHeatmapCell *wrong = h.cellAt(1, 2); // 16 × 4
        QVERIFY(wrong);
        QCOMPARE(wrong->status, PointStatus::Wrong);
        QVERIFY(!wrong->medianNs);
        int best = 0;
        for (const SweepHeatmapCell &cell : h.cells) {
            if (cell.best) {
                ++best;
                QCOMPARE(cell.point, *result.bestPoint());
                QVERIFY(cell.medianNs);
            }
        }
        QCOMPARE(best, 1);
        // The lines are still there (one series per block.y), for the other pages.
        QCOMPARE(data.series.size(), std::size_t(6));
    }

    void skippedFailedAndWrongPointsAreListedNotDrawn()
    {
        SweepResult result = testdata::copySweep();
        result.points[2].status = PointStatus::Skipped;
        result.points[2].message = "uses 300 registers per thread";
        result.points[2].measurement.reset();
        result.points[4].status = PointStatus::Failed;
        result.points[4].message = "the kernel faulted: illegal address";
        result.points[4].measurement.reset();
        // Faster than anything, but its output is wrong: never best, never on a line.
        result.points[6].status = PointStatus::Wrong;
        result.points[6].message = "3 of 268435456 elements differ";
        result.points[6].measurement->statistics.medianNs = 1000.0;
        result.points.push_back(result.points[0]);
        result.points.back().status = PointStatus::Pending;
        result.points.back().measurement.reset();

        const SweepChartData data =
            SweepChartBuilder::build({named(QStringLiteral("current"), result)});
        QCOMPARE(data.series.front().points.size(), std::size_t(29));
        for (const SweepChartPoint &c : data.series.front().points) {
            QVERIFY(c.point != 2 && c.point != 4 && c.point != 6 && c.point != 32);
            QVERIFY(!c.best || c.point == *result.bestPoint());
        }
        QVERIFY(*result.bestPoint() != 6);
        QCOMPARE(data.unplotted.size(), std::size_t(3)); // pending points are not listed
        QCOMPARE(data.unplotted[0].status, PointStatus::Skipped);
        QCOMPARE(data.unplotted[0].label, QStringLiteral("block.x=96"));
        QCOMPARE(data.unplotted[0].message, QStringLiteral("uses 300 registers per thread"));
        QCOMPARE(data.unplotted[1].status, PointStatus::Failed);
        QCOMPARE(data.unplotted[2].status, PointStatus::Wrong);
    }

    void twoRunsMakeTwoSeriesTheBaselineDashed()
    {
        const SweepChartData data =
            SweepChartBuilder::build({named(QStringLiteral("current"), testdata::copySweep()),
                                      named(QStringLiteral("baseline 2026-11-28"),
                                            testdata::copySweep(1 << 28, 1.1), true)});
        QCOMPARE(data.series.size(), std::size_t(2));
        QCOMPARE(data.series[0].name, QStringLiteral("current"));
        QVERIFY(!data.series[0].baseline);
        QCOMPARE(data.series[1].name, QStringLiteral("baseline 2026-11-28"));
        QVERIFY(data.series[1].baseline);
        QCOMPARE(data.series[1].run, std::size_t(1));
        QCOMPARE(data.series[0].colorIndex, data.series[1].colorIndex);
        // Each run has its own best.
        for (const SweepChartSeries &s : data.series)
            QCOMPARE(std::count_if(s.points.begin(), s.points.end(),
                                   [](const SweepChartPoint &c) { return c.best; }),
                     1);

        // Two runs with a define axis: the same define value keeps its colour in both.
        const SweepChartData both = SweepChartBuilder::build(
            {named(QStringLiteral("now"), testdata::defineSweep()),
             named(QStringLiteral("before"), testdata::defineSweep(), true)});
        QCOMPARE(both.series.size(), std::size_t(6));
        const SweepChartSeries *now = seriesNamed(both, QStringLiteral("now TILE=2"));
        const SweepChartSeries *before = seriesNamed(both, QStringLiteral("before TILE=2"));
        QVERIFY(now && before);
        QCOMPARE(now->colorIndex, before->colorIndex);
        QVERIFY(before->baseline);
    }

    void streamingGivesWhatBuildingAtOnceGives()
    {
        const SweepResult full = testdata::defineSweep();
        SweepResult empty = full;
        empty.points.clear();
        SweepChartBuilder builder;
        builder.setRuns({named(QStringLiteral("current"), empty)});
        for (const SweepPointResult &p : full.points)
            builder.appendPoint(p);
        const SweepChartData streamed = builder.data();
        const SweepChartData batch =
            SweepChartBuilder::build({named(QStringLiteral("current"), full)});
        QCOMPARE(streamed.series.size(), batch.series.size());
        for (std::size_t i = 0; i < batch.series.size(); ++i) {
            QCOMPARE(streamed.series[i].name, batch.series[i].name);
            QCOMPARE(streamed.series[i].points.size(), batch.series[i].points.size());
            for (std::size_t k = 0; k < batch.series[i].points.size(); ++k) {
                QCOMPARE(streamed.series[i].points[k].x, batch.series[i].points[k].x);
                QCOMPARE(streamed.series[i].points[k].medianNs, batch.series[i].points[k].medianNs);
                QCOMPARE(streamed.series[i].points[k].best, batch.series[i].points[k].best);
                QCOMPARE(streamed.series[i].points[k].tied, batch.series[i].points[k].tied);
            }
        }
    }

    void axisValuesMayBeExpressions()
    {
        SweepPoint point;
        QCOMPARE(SweepChartBuilder::axisNumber("256", point), std::optional<double>(256));
        QCOMPARE(SweepChartBuilder::axisNumber("1<<20", point), std::optional<double>(1 << 20));
        point.request.launch.variables = {{"N", "1 << 10"}};
        QCOMPARE(SweepChartBuilder::axisNumber("N/4", point), std::optional<double>(256));
        QCOMPARE(SweepChartBuilder::axisNumber("float", point), std::nullopt);
        QCOMPARE(SweepChartBuilder::axisTitle(QStringLiteral("-DTILE")), QStringLiteral("TILE"));
        QCOMPARE(SweepChartBuilder::axisTitle(QStringLiteral("<BLOCK>")), QStringLiteral("BLOCK"));
    }

    void toolTipHasEveryStatistic()
    {
        const SweepResult result = testdata::copySweep();
        const std::size_t best = *result.bestPoint();
        const QString text =
            SweepChartBuilder::toolTip(named(QStringLiteral("current"), result), best);
        const SweepPointResult &p = result.points[best];
        const SampleStatistics &s = p.measurement->statistics;
        for (const QString &expected :
             {QStringLiteral("block.x=256 (current)"), QStringLiteral("status: measured"),
              QStringLiteral("best point"),
              QStringLiteral("median ") + SweepChartBuilder::formatTime(s.medianNs),
              QStringLiteral("mean ") + SweepChartBuilder::formatTime(s.meanNs),
              QStringLiteral("min ") + SweepChartBuilder::formatTime(s.minNs),
              QStringLiteral("max ") + SweepChartBuilder::formatTime(s.maxNs),
              QStringLiteral("stddev ") + SweepChartBuilder::formatTime(s.stddevNs),
              QStringLiteral("noise 0.6%"), QStringLiteral("20 samples"),
              QStringLiteral("GB/s effective"), QStringLiteral("of the peak (4814 GB/s)"),
              QStringLiteral("of the copy ceiling (4209 GB/s)"), QStringLiteral("DRAM "),
              QStringLiteral("theoretical 100.0% (limited by warps)"), QStringLiteral("achieved "),
              QStringLiteral("waves: ")}) {
            QVERIFY2(text.contains(expected),
                     qPrintable(expected + QStringLiteral(" in:\n") + text));
        }
        const std::size_t tied = result.pointsTiedWithBest().front();
        QVERIFY(SweepChartBuilder::toolTip(named(QString(), result), tied)
                    .contains(QStringLiteral("within the measured noise of the best")));

        SweepResult skipped = result;
        skipped.points[1].status = PointStatus::Skipped;
        skipped.points[1].message = "block.x*block.y = 2048 > 1024 threads";
        QVERIFY(SweepChartBuilder::toolTip(named(QString(), skipped), 1)
                    .contains(QStringLiteral("skipped: block.x*block.y = 2048 > 1024 threads")));
    }

    // ---- the view ----

    void rendersChartsAndTableAndExports()
    {
        SweepResultsView view;
        const SweepResult result = testdata::copySweep();
        view.setResult(result);
        showOffscreen(view);
        QCOMPARE(view.page(), SweepResultsView::Page::Time);
        QCOMPARE(view.tableModel()->rowCount(), 32);

        // Time: a band and a median line over a base-2 axis, the best marked.
        QCOMPARE(seriesOfType<QAreaSeries>(view.timeChart()).size(), 1);
        QLineSeries *median = lineNamed(view.timeChart(), QStringLiteral("median"));
        QVERIFY(median);
        QCOMPARE(median->count(), 32);
        const QList<QAbstractAxis *> xAxes = view.timeChart()->axes(Qt::Horizontal);
        QCOMPARE(xAxes.size(), 1);
        auto *log = qobject_cast<QLogValueAxis *>(xAxes.front());
        QVERIFY(log);
        QCOMPARE(log->base(), 2.0);
        QCOMPARE(log->titleText(), QStringLiteral("block.x (threads)"));
        bool bestMarked = false;
        for (QScatterSeries *s : seriesOfType<QScatterSeries>(view.timeChart()))
            bestMarked =
                bestMarked || (s->name().startsWith(QStringLiteral("best")) && s->count() == 1);
        QVERIFY(bestMarked);

        // Bandwidth: effective, DRAM, the two ceilings and occupancy on a second axis.
        QVERIFY(lineNamed(view.bandwidthChart(), QStringLiteral("effective")));
        QVERIFY(lineNamed(view.bandwidthChart(), QStringLiteral("DRAM")));
        QLineSeries *peak = lineNamed(view.bandwidthChart(), QStringLiteral("theoretical peak"));
        QVERIFY(peak);
        QCOMPARE(peak->at(0).y(), testdata::kPeakGBps);
        QVERIFY(lineNamed(view.bandwidthChart(), QStringLiteral("copy ceiling")));
        QLineSeries *achieved = lineNamed(view.bandwidthChart(), QStringLiteral("achieved occ."));
        QVERIFY(achieved);
        QVERIFY(lineNamed(view.bandwidthChart(), QStringLiteral("theoretical occ.")));
        QCOMPARE(view.bandwidthChart()->axes(Qt::Vertical).size(), 2);
        QCOMPARE(achieved->attachedAxes().back()->alignment(), Qt::AlignRight);

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        keepViewScreenshot(view, QStringLiteral("view-time.png"));
        const QString png = screenshotPath(tmp, QStringLiteral("sweep-time.png"));
        QCOMPARE(view.exportPng(png), QString());
        checkPng(png, view.exportSize());
        const QString svg = tmp.filePath(QStringLiteral("sweep-time.svg"));
        QCOMPARE(view.exportSvg(svg), QString());
        QVERIFY(QFileInfo(svg).size() > 1000);
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());

        view.setPage(SweepResultsView::Page::Bandwidth);
        QCoreApplication::processEvents();
        const QString bandwidthPng = screenshotPath(tmp, QStringLiteral("sweep-bandwidth.png"));
        QCOMPARE(view.exportPng(bandwidthPng), QString());
        checkPng(bandwidthPng, view.exportSize());

        QVERIFY(!view.exportPng(tmp.filePath(QStringLiteral("no/such/folder/x.png"))).isEmpty());
    }

    void aStoredSweepOpensAndRenders()
    {
        const QString path = QStringLiteral(CUWB_TEST_DATA_DIR "/sweep-copy-block-size.json");
        SweepResultsView view;
        QCOMPARE(view.openResult(path), QString());
        showOffscreen(view);
        QCOMPARE(view.runs().front().name, QStringLiteral("sweep-copy-block-size"));
        QCOMPARE(view.tableModel()->rowCount(), 32);
        QLineSeries *median = lineNamed(view.timeChart(), QStringLiteral("median"));
        QVERIFY(median);
        QCOMPARE(median->count(), 32);
        QVERIFY(lineNamed(view.bandwidthChart(), QStringLiteral("theoretical peak")));
        QCOMPARE(view.tableModel()->bestRow(), std::optional<std::size_t>(7)); // block.x=256

        // The same file as a baseline: a second, dashed series named by its date.
        QCOMPARE(view.openBaseline(path), QString());
        QCOMPARE(view.runs().size(), std::size_t(2));
        QLineSeries *baseline = lineNamed(view.timeChart(), QStringLiteral("baseline 2026-11-29"));
        QVERIFY(baseline);
        QCOMPARE(baseline->pen().style(), Qt::DashLine);

        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("stored.png"));
        QCOMPARE(view.exportPng(png), QString());
        checkPng(png, view.exportSize());

        QVERIFY(view.openResult(tmp.filePath(QStringLiteral("missing.json")))
                    .contains(QStringLiteral("missing.json")));
        QCOMPARE(view.runs().size(), std::size_t(2)); // a failed open changes nothing
    }

    void hoveringAndClickingAPoint()
    {
        SweepResultsView view;
        const SweepResult result = testdata::copySweep();
        view.setResult(result);
        showOffscreen(view);
        const std::size_t best = *result.bestPoint();
        QVERIFY(view.toolTipFor(0, best).contains(QStringLiteral("median")));

        QSignalSpy activated(&view, &SweepResultsView::pointActivated);
        const std::optional<QPoint> at = view.pointPosition(0, best);
        QVERIFY(at);
        QWidget *viewport =
            static_cast<QChartView *>(view.timeChart()->scene()->views().front())->viewport();
        QTest::mouseClick(viewport, Qt::LeftButton, {}, *at);
        QCOMPARE(activated.count(), 1);
        const auto point = activated.at(0).at(0).value<SweepPoint>();
        QCOMPARE(point.label(), std::string("block.x=256"));
        QCOMPARE(point.request.launch.block[0], std::string("256"));

        // Far from every point: nothing.
        QTest::mouseClick(viewport, Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(activated.count(), 1);

        // A double-click on a row applies its point too.
        const QModelIndex row = view.tableView()->model()->index(0, 0);
        // (QTest::mouseDClick does not make an item view's double-click in Qt 6: the signal.)
        Q_EMIT view.tableView()->doubleClicked(row);
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).value<SweepPoint>().label(), std::string("block.x=32"));
    }

    void copiesSelectedRows()
    {
        SweepResultsView view;
        view.setResult(testdata::copySweep());
        showOffscreen(view);
        QTableView *table = view.tableView();
        table->sortByColumn(view.tableModel()->column(SweepTableModel::MedianColumn),
                            Qt::AscendingOrder);
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        table->selectionModel()->select(table->model()->index(1, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view.copySelectedRows();
        const QStringList lines =
            QGuiApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].contains(QStringLiteral("\tbest\t")));
    }

    void aTwoDimensionalSweepOpensOnItsHeatmap()
    {
        SweepResultsView view;
        const SweepResult result = testdata::heatmapSweep();
        view.setResult(result, QStringLiteral("2-D copy"));
        showOffscreen(view);
        QVERIFY(view.showsHeatmap());
        SweepHeatmap *heatmap = view.heatmap();
        QVERIFY(heatmap->isVisible());

        // The best cell: bright end of the scale; a tooltip with its statistics; a click.
        const std::size_t best = *result.bestPoint();
        const std::optional<QPoint> at = view.pointPosition(0, best);
        QVERIFY(at);
        const auto cell = heatmap->cellAt(*at);
        QVERIFY(cell);
        const SweepHeatmapCell *data = heatmap->data().cellAt(cell->x(), cell->y());
        QVERIFY(data && data->best);
        QCOMPARE(heatmap->cellColor(*data), QColor(253, 231, 37));
        QVERIFY(heatmap->toolTipAt(*at).contains(QStringLiteral("median")));
        QSignalSpy activated(heatmap, &SweepHeatmap::pointActivated);
        QSignalSpy viewActivated(&view, &SweepResultsView::pointActivated);
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, *at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(viewActivated.count(), 1);

        // A skipped cell: its reason in the tooltip, and no configuration to apply.
        const QPointF skipped = heatmap->cellCentre(7, 1);
        QVERIFY(heatmap->toolTipAt(skipped).contains(QStringLiteral("2048 > 1024 threads")));
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, skipped.toPoint());
        QCOMPARE(activated.count(), 1);

        QTemporaryDir tmp;
        keepViewScreenshot(view, QStringLiteral("view-heatmap.png"));
        const QString png = screenshotPath(tmp, QStringLiteral("sweep-heatmap.png"));
        QCOMPARE(view.exportPng(png), QString());
        checkPng(png, view.exportSize());
        const QString svg = tmp.filePath(QStringLiteral("sweep-heatmap.svg"));
        QCOMPARE(view.exportSvg(svg), QString());
        QVERIFY(QSvgRenderer(svg).isValid());

        heatmap->setQuantity(SweepHeatmap::Quantity::Bandwidth);
        QCOMPARE(heatmap->cellColor(*data), QColor(253, 231, 37)); // fastest is also highest GB/s
        const QString bandwidth = screenshotPath(tmp, QStringLiteral("sweep-heatmap-gbps.png"));
        QCOMPARE(view.exportPng(bandwidth), QString());

        // The lines remain available.
        view.setPage(SweepResultsView::Page::Time);
        QCOMPARE(view.page(), SweepResultsView::Page::Time);
    }

    void comparesTwoRuns()
    {
        SweepResultsView view;
        std::vector<NamedSweep> runs;
        // A 4 MiB copy: few enough waves that some block sizes leave the last wave mostly empty.
        runs.push_back(named(QStringLiteral("current"), testdata::copySweep(1 << 20)));
        runs.push_back(
            named(QStringLiteral("baseline 2026-11-28"), testdata::copySweep(1 << 20, 1.12), true));
        view.setRuns(std::move(runs));
        showOffscreen(view);
        QLineSeries *current = lineNamed(view.timeChart(), QStringLiteral("current"));
        QLineSeries *baseline = lineNamed(view.timeChart(), QStringLiteral("baseline 2026-11-28"));
        QVERIFY(current && baseline);
        QCOMPARE(current->pen().style(), Qt::SolidLine);
        QCOMPARE(baseline->pen().style(), Qt::DashLine);
        QCOMPARE(view.tableModel()->rowCount(), 32); // the table shows the current run
        bool partialWaves = false;
        for (QScatterSeries *s : seriesOfType<QScatterSeries>(view.timeChart()))
            partialWaves =
                partialWaves || (s->name().contains(QStringLiteral("wave")) && s->count() > 0);
        QVERIFY(partialWaves);

        QTemporaryDir tmp;
        keepViewScreenshot(view, QStringLiteral("view-compare.png"));
        const QString png = screenshotPath(tmp, QStringLiteral("sweep-compare.png"));
        QCOMPARE(view.exportPng(png), QString());
        checkPng(png, view.exportSize());
        view.setPage(SweepResultsView::Page::Bandwidth);
        QCoreApplication::processEvents();
        const QString bandwidth =
            screenshotPath(tmp, QStringLiteral("sweep-compare-bandwidth.png"));
        QCOMPARE(view.exportPng(bandwidth), QString());

        view.clearBaseline();
        QVERIFY(!lineNamed(view.timeChart(), QStringLiteral("baseline 2026-11-28")));
    }

    void aDefineAxisOnTheCharts()
    {
        SweepResultsView view;
        view.setResult(testdata::defineSweep());
        showOffscreen(view);
        for (const QString &name :
             {QStringLiteral("TILE=1"), QStringLiteral("TILE=2"), QStringLiteral("TILE=4")})
            QVERIFY(lineNamed(view.timeChart(), name));
        QTemporaryDir tmp;
        view.setPage(SweepResultsView::Page::Bandwidth);
        QCoreApplication::processEvents();
        QCOMPARE(view.exportPng(screenshotPath(tmp, QStringLiteral("sweep-define-bandwidth.png"))),
                 QString());
    }

    void everyGroupHasItsLineBeforeItsFirstPoint()
    {
        // A sweep just started: every point pending. The lines of all three TILE values exist
        // already (empty), so the charts are not rebuilt as each group's first point arrives.
        SweepResult started = testdata::defineSweep();
        std::vector<SweepPointResult> measured = started.points;
        for (SweepPointResult &p : started.points) {
            p.status = PointStatus::Pending;
            p.measurement.reset();
        }
        SweepResultsView view;
        view.setResult(started);
        showOffscreen(view);
        QCOMPARE(view.chartData().series.size(), std::size_t(3));
        for (const SweepChartSeries &s : view.chartData().series)
            QVERIFY(s.points.empty());
        // The first measured point says what the points carry (bandwidth, occupancy): the one
        // rebuild. The first point of another group changes nothing but data.
        view.setPoints({measured[0]});
        QCOMPARE(view.chartData().series.size(), std::size_t(3));
        QCOMPARE(view.chartData().series[0].points.size(), std::size_t(1));
        const QChart *chart = view.timeChart();
        const QList<QAbstractSeries *> before = chart->series();
        view.setPoints({measured[1]});
        QCOMPARE(view.chartData().series[1].points.size(), std::size_t(1));
        QCOMPARE(chart->series(), before); // the same series objects: updated, not rebuilt
    }

    void aLargeSweepStreamsInWithoutAntialiasing()
    {
        // 6 × 3 = 18 points: smooth whether streaming or not. 256 points: not smooth while
        // the sweep streams in, smooth again when it ends (what is exported is drawn smooth).
        SweepResultsView view;
        showOffscreen(view);
        const auto smooth = [&] {
            return view.timeChart()->scene()->views().front()->renderHints().testFlag(
                QPainter::Antialiasing);
        };
        view.setStreaming(true);
        view.setResult(testdata::defineSweep());
        QVERIFY(smooth());
        SweepResult large;
        large.spec.axes = {testdata::blockAxis("block.x", AxisValues::Range, 4, 1024, 4)};
        for (int block = 4; block <= 1024; block += 4)
            large.points.push_back(testdata::copyPoint({{"block.x", std::to_string(block)}}, block,
                                                       double(1 << 28), testdata::copyGBps(block)));
        view.setResult(testdata::withHeader(std::move(large)));
        QVERIFY(!smooth());
        view.setStreaming(false);
        QVERIFY(smooth());
    }

    void manyLinesAreDrawnWithoutBands()
    {
        // Three TILE values: a band per line. Twelve: no bands (kMaxBandedSeries), and the
        // title says where the spread went.
        SweepResultsView view;
        view.setResult(testdata::defineSweep());
        showOffscreen(view);
        QCOMPARE(seriesOfType<QAreaSeries>(view.timeChart()).size(), 3);
        QVERIFY(view.timeChart()->title().contains(QStringLiteral("(band)")));

        SweepResult many = testdata::defineSweep();
        many.points.clear();
        many.spec.axes[1].values.clear();
        for (int t = 1; t <= 12; ++t) {
            many.spec.axes[1].values.push_back(std::to_string(t));
            for (int block = 32; block <= 1024; block *= 2)
                many.points.push_back(testdata::copyPoint(
                    {{"block.x", std::to_string(block)}, {"-DTILE", std::to_string(t)}}, block,
                    double(1 << 28), testdata::copyGBps(block)));
        }
        view.setResult(testdata::withHeader(std::move(many)));
        QCOMPARE(seriesOfType<QLineSeries>(view.timeChart()).size() >= 12, true);
        QVERIFY(lineNamed(view.timeChart(), QStringLiteral("TILE=12")));
        QCOMPARE(seriesOfType<QAreaSeries>(view.timeChart()).size(), 0);
        QVERIFY2(view.timeChart()->title().contains(QStringLiteral("up to 8 lines")),
                 qPrintable(view.timeChart()->title()));
    }

    void streamingPointsUpdatesTheSeriesInPlace()
    {
        // 1,000 points of block.x × N: the structure (one series per N) is fixed once every N has
        // been seen, after the first four points, so a new point only replaces the series' data.
        // The time per point is printed, not asserted.
        SweepResult spec;
        SweepAxis n;
        n.target = "N";
        n.values = {"1<<20", "1<<22", "1<<24", "1<<26"};
        spec.spec.axes = {testdata::blockAxis("block.x", AxisValues::Range, 4, 1000, 4), n};
        spec.theoreticalPeakGBps = testdata::kPeakGBps;
        spec.copyCeilingGBps = testdata::kCeilingGBps;
        std::vector<SweepPointResult> points;
        for (int block = 4; block <= 1000; block += 4) {
            for (const std::string &elements : n.values) {
                const double count = SweepChartBuilder::axisNumber(elements, {}).value_or(1);
                points.push_back(
                    testdata::copyPoint({{"block.x", std::to_string(block)}, {"N", elements}},
                                        block, count, testdata::copyGBps(block)));
                points.back().point.index = points.size() - 1;
            }
        }
        QCOMPARE(points.size(), std::size_t(1000));

        SweepResultsView view;
        view.setResult(spec);
        showOffscreen(view);
        for (std::size_t k = 0; k < 8; ++k)
            view.appendPoint(points[k]);
        QCoreApplication::processEvents();
        QLineSeries *first = lineNamed(view.timeChart(), QStringLiteral("N=1<<20"));
        QVERIFY(first);

        QElapsedTimer timer;
        timer.start();
        qint64 lastHundred = 0;
        for (std::size_t k = 8; k < points.size(); ++k) {
            if (k == points.size() - 100)
                lastHundred = timer.nsecsElapsed();
            view.appendPoint(points[k]);
        }
        const qint64 total = timer.nsecsElapsed();
        qInfo("streaming 992 points: %.2f ms in all, %.3f ms a point over the last 100 "
              "(about 1,000 points on the charts)",
              double(total) / 1e6, double(total - lastHundred) / 1e6 / 100.0);

        QCOMPARE(lineNamed(view.timeChart(), QStringLiteral("N=1<<20")), first); // not rebuilt
        QCOMPARE(first->count(), 250);
        QCOMPARE(view.tableModel()->rowCount(), 1000);
        QCOMPARE(view.chartData().series.size(), std::size_t(4));

        // A point measured again in place.
        const double before = first->at(0).y();
        SweepPointResult again = points[0];
        again.measurement->statistics.medianNs *= 2;
        view.setPoint(0, again);
        QVERIFY(qFuzzyCompare(first->at(0).y(), before * 2));
    }

    // The Roofline page: the first run's points with FLOPs counted, the baseline's hollow, and
    // the rest counted with the reason. The FLOP counts are made up (one FMA per element).
    void rooflinePageShowsTheCloudAndTheBaseline()
    {
        SweepResult current = testdata::copySweep();
        current.device = DeviceInfo{};
        current.device->major = 9;
        current.device->smCount = 132;
        current.device->smClockKHz = 1980000;
        current.device->memoryClockKHz = 3201000;
        current.device->memoryBusWidthBits = 6016;
        for (std::size_t i = 0; i < 20; ++i)
            current.points[i]
                .metrics->values["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] =
                double(1 << 28);
        SweepResult baseline = current;
        SweepResultsView view;
        view.resize(900, 500);
        view.setResult(current);
        view.setPage(SweepResultsView::Page::Roofline);
        QCOMPARE(view.page(), SweepResultsView::Page::Roofline);
        const RooflineData &data = view.rooflineChart()->data();
        QCOMPARE(data.points.size(), std::size_t(20));
        QCOMPARE(data.ceilings.size(), std::size_t(3));
        QCOMPARE(data.colourTarget, QStringLiteral("block.x"));
        QCOMPARE(data.missing, current.count(PointStatus::Measured) - 20);
        QVERIFY2(view.rooflineChart()->noteText().contains(
                     QStringLiteral("no floating-point instructions counted")),
                 qPrintable(view.rooflineChart()->noteText()));
        view.setBaseline(baseline, QStringLiteral("baseline"));
        QCOMPARE(view.rooflineChart()->data().baseline.size(), std::size_t(20));
        view.clearBaseline();
        QVERIFY(view.rooflineChart()->data().baseline.empty());
    }
};

CUWB_TEST_MAIN(TestSweepResultsView)
} // namespace tst_sweepresultsview
} // namespace

#include "tst_sweepresultsview.moc"
