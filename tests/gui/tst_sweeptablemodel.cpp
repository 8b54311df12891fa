#include "gui/sweep/sweeptablemodel.h"

#include "sweeptestdata.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweeptablemodel {

namespace {

QString cell(const QAbstractItemModel &model, int row, int column)
{
    return model.index(row, column).data().toString();
}

} // namespace

class TestSweepTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passesTheModelTesterWhileRowsStreamIn()
    {
        SweepTableModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SweepTableModel::SortRole);
        proxy.sort(model.axisCount() + SweepTableModel::MedianColumn);
        SweepTableProxy sweepProxy;
        sweepProxy.setSourceModel(&model);
        sweepProxy.sort(model.axisCount() + SweepTableModel::BandwidthColumn, Qt::DescendingOrder);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester sweepProxyTester(
            &sweepProxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        const SweepResult full = testdata::copySweep();
        SweepResult empty = full;
        empty.points.clear();
        model.setResult(empty);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 1 + int(SweepTableModel::ColumnCount));

        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        for (const SweepPointResult &point : full.points)
            model.appendPoint(point);
        QCOMPARE(inserted.count(), int(full.points.size()));
        QCOMPARE(model.rowCount(), 32);
        QCOMPARE(proxy.rowCount(), 32);
        QCOMPARE(model.bestRow(), full.bestPoint());

        // A point measured again in place, then a reset and a clear.
        SweepPointResult failed = full.points[3];
        failed.status = PointStatus::Failed;
        failed.message = "the kernel faulted";
        failed.measurement.reset();
        model.setPoint(3, failed);
        QCOMPARE(cell(model, 3, model.column(SweepTableModel::StatusColumn)),
                 QStringLiteral("failed"));
        QVERIFY(cell(model, 3, model.column(SweepTableModel::MedianColumn)).isEmpty());
        model.setResult(testdata::defineSweep());
        QCOMPARE(model.axisCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void showsAxisValuesStatisticsAndUnits()
    {
        SweepTableModel model;
        model.setResult(testdata::copySweep());
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("block.x"));
        QCOMPARE(model.headerData(model.column(SweepTableModel::MedianColumn), Qt::Horizontal)
                     .toString(),
                 QStringLiteral("Median (\u00b5s)"));
        // block 256 of a 1 GiB copy: 2^31 bytes at about 2.5 TB/s is about 850 µs.
        const int row = 7; // block.x = 256
        QCOMPARE(cell(model, row, 0), QStringLiteral("256"));
        const double medianUs =
            cell(model, row, model.column(SweepTableModel::MedianColumn)).toDouble();
        QVERIFY2(medianUs > 700 && medianUs < 1000, qPrintable(QString::number(medianUs)));
        QCOMPARE(cell(model, row, model.column(SweepTableModel::SamplesColumn)),
                 QStringLiteral("20"));
        QCOMPARE(cell(model, row, model.column(SweepTableModel::TheoreticalOccupancyColumn)),
                 QStringLiteral("100.0"));
        QVERIFY(!cell(model, row, model.column(SweepTableModel::DramColumn)).isEmpty());
        QVERIFY(
            !cell(model, row, model.column(SweepTableModel::AchievedOccupancyColumn)).isEmpty());
        QVERIFY(!cell(model, row, model.column(SweepTableModel::WavesColumn)).isEmpty());
        const double percent =
            cell(model, row, model.column(SweepTableModel::PercentOfPeakColumn)).toDouble();
        const double gbps =
            cell(model, row, model.column(SweepTableModel::BandwidthColumn)).toDouble();
        QVERIFY(qAbs(percent - gbps / testdata::kPeakGBps * 100.0) < 0.1);
    }

    void showsTheLargestErrorsOfVerifiedPoints()
    {
        SweepResult result = testdata::copySweep();
        VerificationResult passed;
        passed.ran = passed.passed = true;
        passed.output = "dst";
        passed.maxAbsError = 2.5e-7;
        passed.maxAbsErrorIndex = 12;
        passed.maxRelError = 1e-7;
        passed.maxRelErrorIndex = 40;
        VerificationResult failed = passed;
        failed.passed = false;
        failed.output = "out";
        failed.maxAbsError = 0.5;
        failed.maxAbsErrorIndex = 3;
        failed.maxRelError = 0.25;
        result.points[7].checks = {passed, failed}; // the failed check is the one shown
        result.points[6].checks = {passed};
        SweepTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(result);
        const int absColumn = model.column(SweepTableModel::MaxAbsErrorColumn);
        const int relColumn = model.column(SweepTableModel::MaxRelErrorColumn);
        QCOMPARE(model.headerData(absColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Max abs error"));
        QCOMPARE(cell(model, 7, absColumn), QStringLiteral("0.5 at out[3]"));
        QCOMPARE(cell(model, 7, relColumn), QStringLiteral("0.25 at out[40]"));
        QCOMPARE(cell(model, 6, absColumn), QStringLiteral("2.5e-07 at dst[12]"));
        QCOMPARE(cell(model, 0, absColumn), QString()); // not verified
        // Sorted by the error itself.
        QCOMPARE(model.index(7, absColumn).data(SweepTableModel::SortRole).toDouble(), 0.5);
        QVERIFY(!model.index(0, absColumn).data(SweepTableModel::SortRole).isValid());
    }

    void sortsNumbersAsNumbersAndMissingValuesLast()
    {
        SweepResult result = testdata::copySweep();
        result.points[5].status = PointStatus::Skipped;
        result.points[5].message = "too many registers";
        result.points[5].measurement.reset();
        result.points[5].metrics.reset();
        SweepTableModel model;
        model.setResult(result);
        SweepTableProxy proxy;
        proxy.setSourceModel(&model);

        // As text "1024" would come before "128" and "32".
        proxy.sort(0, Qt::AscendingOrder);
        double previous = 0;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const double value = proxy.index(row, 0).data().toDouble();
            QVERIFY(value > previous);
            previous = value;
        }
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("32"));
        QCOMPARE(proxy.index(31, 0).data().toString(), QStringLiteral("1024"));

        const int median = model.column(SweepTableModel::MedianColumn);
        proxy.sort(median, Qt::AscendingOrder);
        previous = 0;
        for (int row = 0; row < proxy.rowCount() - 1; ++row) {
            const double value =
                proxy.index(row, median).data(SweepTableModel::SortRole).toDouble();
            QVERIFY(value >= previous);
            previous = value;
        }
        // The skipped point has no time: after every number.
        QCOMPARE(proxy.index(proxy.rowCount() - 1, model.column(SweepTableModel::StatusColumn))
                     .data()
                     .toString(),
                 QStringLiteral("skipped"));
        // The fastest is the best.
        QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), int(*result.bestPoint()));

        const int gbps = model.column(SweepTableModel::BandwidthColumn);
        proxy.sort(gbps, Qt::DescendingOrder);
        QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), int(*result.bestPoint()));
        QCOMPARE(proxy.mapToSource(proxy.index(proxy.rowCount() - 1, 0)).row(), 5);
        proxy.sort(median, Qt::DescendingOrder);
        QCOMPARE(proxy.mapToSource(proxy.index(proxy.rowCount() - 1, 0)).row(), 5);
    }

    void marksTheBestRowAndTheTiedOnes()
    {
        const SweepResult result = testdata::copySweep();
        SweepTableModel model;
        model.setResult(result);
        const std::size_t best = *result.bestPoint();
        const std::vector<std::size_t> tied = result.pointsTiedWithBest();
        QVERIFY(!tied.empty());
        const int bestColumn = model.column(SweepTableModel::BestColumn);
        QCOMPARE(cell(model, int(best), bestColumn), QStringLiteral("best"));
        QVERIFY(model.index(int(best), 3).data(Qt::FontRole).value<QFont>().bold());
        for (std::size_t k : tied) {
            QCOMPARE(cell(model, int(k), bestColumn), QStringLiteral("tied"));
            QVERIFY(model.isTied(int(k)));
            QVERIFY(!model.index(int(k), 3).data(Qt::FontRole).value<QFont>().bold());
        }
        int marked = 0;
        for (int row = 0; row < model.rowCount(); ++row)
            marked += cell(model, row, bestColumn).isEmpty() ? 0 : 1;
        QCOMPARE(marked, int(tied.size()) + 1);
    }

    void aFasterPointStreamingInMovesTheBestMark()
    {
        SweepResult result = testdata::copySweep();
        SweepTableModel model;
        model.setResult(result);
        const int oldBest = int(*model.bestRow());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        SweepPointResult faster = result.points[oldBest];
        faster.point.values = {{"block.x", "1056"}};
        faster.measurement->statistics.medianNs *= 0.5;
        model.appendPoint(faster);
        QCOMPARE(model.bestRow(), std::optional<std::size_t>(32));
        QVERIFY(model.index(32, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(oldBest, 0).data(Qt::FontRole).value<QFont>().bold());
        bool oldRowRepainted = false;
        for (const QList<QVariant> &args : changed)
            oldRowRepainted = oldRowRepainted || args.at(0).toModelIndex().row() == oldBest;
        QVERIFY(oldRowRepainted);
    }

    void wrongPointsAreNeverBest()
    {
        SweepResult result = testdata::copySweep();
        result.points[0].status = PointStatus::Wrong;
        result.points[0].measurement->statistics.medianNs = 1.0; // fastest, but wrong
        SweepTableModel model;
        model.setResult(result);
        QVERIFY(model.bestRow() != std::optional<std::size_t>(0));
        QCOMPARE(cell(model, 0, model.column(SweepTableModel::StatusColumn)),
                 QStringLiteral("wrong"));
        QVERIFY(cell(model, 0, model.column(SweepTableModel::BestColumn)).isEmpty());
    }

    void copiesRowsAsTabSeparatedText()
    {
        SweepTableModel model;
        model.setResult(testdata::copySweep());
        const QString tsv = model.toTsv({7, 0});
        const QStringList lines = tsv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        // Every column but the GPU's, which a one-GPU sweep leaves out as the view hides it.
        QCOMPARE(lines[0].split(QLatin1Char('\t')).size(), model.columnCount() - 1);
        QVERIFY(lines[0].startsWith(QStringLiteral("block.x\tBest\tStatus\tMedian (\u00b5s)")));
        QVERIFY(lines[1].startsWith(QLatin1String("256\t")));
        QVERIFY(lines[2].startsWith(QLatin1String("32\t")));
        QCOMPARE(lines[1].split(QLatin1Char('\t')).size(), model.columnCount() - 1);
    }

    // GFLOP/s beside GB/s: from the project's declared FLOPs, else from the FLOPs a Roofline
    // metrics pass counted; empty without either. The FLOP figures are made up for the test.
    void gflopsFromDeclaredOrCountedFlops()
    {
        SweepResult result = testdata::copySweep();
        result.points[0].measurement->throughput.flops = 1.718e10;
        result.points[0].measurement->throughput.gflops = 8156.29;
        result.points[1].metrics->values["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] =
            5.0e8; // 1e9 FLOPs
        const double ns = result.points[1].metrics->values.at("gpu__time_duration.sum");
        SweepTableModel model;
        model.setResult(result);
        const int column = model.column(SweepTableModel::GflopsColumn);
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), QStringLiteral("GFLOP/s"));
        QCOMPARE(cell(model, 0, column), QStringLiteral("8156.3"));
        QCOMPARE(model.index(1, column).data(SweepTableModel::SortRole).toDouble(), 1e9 / ns);
        QVERIFY(cell(model, 2, column).isEmpty());
        QCOMPARE(SweepTableModel::gflops(result.points[2]), std::optional<double>());
    }
};

CUWB_TEST_MAIN(TestSweepTableModel)
} // namespace tst_sweeptablemodel
} // namespace

#include "tst_sweeptablemodel.moc"
