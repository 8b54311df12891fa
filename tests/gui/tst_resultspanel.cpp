#include "gui/run/bufferpagemodel.h"
#include "gui/run/buffersummarymodel.h"
#include "gui/run/mismatchesmodel.h"
#include "gui/run/resultspanel.h"
#include "run/verification.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_resultspanel {

namespace {

RunResult wrongRun()
{
    RunResult result;
    result.status = RunStatus::Succeeded;
    result.kernelTimeMs = 0.125;
    result.device = "NVIDIA H200 (sm_90)";

    BufferReport a;
    a.parameter = "a";
    a.count = 1024;
    a.bytes = 4096;
    a.handle = "run1/a";
    a.stats = {true, 0.0, 1.0, 0.5, 0, 0};

    BufferReport c;
    c.parameter = "c";
    c.count = 1024;
    c.bytes = 4096;
    c.handle = "run1/c";
    GuardViolation violation;
    violation.elements = 24;
    violation.firstIndex = 1024;
    violation.message = "wrote 24 elements past the end of `c`, first at index 1024";
    c.guardViolations.push_back(violation);
    c.unwritten = 3;
    c.firstUnwritten = 5;
    c.stats = {true, 0.0, 2.0, 1.0, 3, 0};
    result.buffers = {a, c};
    BufferReport filter;
    filter.parameter = "d_filter";
    filter.count = 9;
    filter.bytes = 36;
    filter.stats = {true, 0.0, 1.0, 1.0 / 9, 0, 0};
    result.globals = {filter};

    result.verification.ran = true;
    result.verification.passed = false;
    result.verification.message = "12 of 1024 elements differ (rel > 1e-05)";
    result.verification.checked = 1024;
    result.verification.mismatches = 12;
    result.verification.maxError = 0.5;
    result.verification.maxErrorIndex = 700;
    Mismatch mismatch;
    mismatch.index = 700;
    mismatch.actual = 1.5;
    mismatch.expected = 1.0;
    mismatch.error = 0.5;
    mismatch.block[0] = 2;
    mismatch.thread[0] = 188;
    result.verification.firstMismatches = {mismatch};
    return result;
}

} // namespace

class TestResultsPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rendersProblemsOfARun()
    {
        ResultsPanel panel;
        QAbstractItemModelTester summaryTester(
            panel.summaryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester mismatchTester(
            panel.mismatchesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.showResult(wrongRun(), {{QStringLiteral("c"), QStringLiteral("float")}});

        // Both checks failed: the writes outside the buffer first, then the wrong output.
        const QString status = panel.statusText();
        QVERIFY2(status.startsWith(QStringLiteral("\u2718 FAILED: out-of-bounds writes: wrote 24 "
                                                  "elements past the end of `c`")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("\nand verification failed: ")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("The kernel ran; verification FAILED; "
                                                "out-of-bounds writes FOUND (24 elements in the "
                                                "guard bands of `c`); 3 output elements never "
                                                "written.")),
                 qPrintable(status));
        QVERIFY(!status.contains(QStringLiteral("succeeded")));
        QVERIFY2(panel.verificationText().startsWith(QStringLiteral("FAIL")),
                 qPrintable(panel.verificationText()));
        QVERIFY(panel.verificationText().contains(QStringLiteral("12 of 1024 elements differ")));
        QVERIFY(panel.verificationText().contains(QStringLiteral("at index 700")));

        const QString findings = panel.findingsText();
        QVERIFY2(findings.contains(
                     QStringLiteral("wrote 24 elements past the end of `c`, first at index 1024")),
                 qPrintable(findings));
        QVERIFY2(findings.contains(QStringLiteral("3 element(s) of `c` were never written, "
                                                  "first at index 5")),
                 qPrintable(findings));

        BufferSummaryModel *summary = panel.summaryModel();
        QCOMPARE(summary->rowCount(), 3);
        // The module variable the launch set follows the buffers, without guard bands.
        QVERIFY(summary->isGlobal(2));
        QCOMPARE(summary->index(2, BufferSummaryModel::BufferColumn).data().toString(),
                 QStringLiteral("d_filter (global)"));
        QCOMPARE(summary->index(2, BufferSummaryModel::GuardColumn).data().toString(),
                 QStringLiteral("\u2014"));
        QCOMPARE(summary->index(2, BufferSummaryModel::MaxColumn).data().toString(),
                 QStringLiteral("1"));
        QCOMPARE(summary->index(0, BufferSummaryModel::GuardColumn).data().toString(),
                 QStringLiteral("intact"));
        const QModelIndex guard = summary->index(1, BufferSummaryModel::GuardColumn);
        QVERIFY(guard.data(BufferSummaryModel::ProblemRole).toBool());
        QVERIFY(guard.data(Qt::ToolTipRole).toString().contains(QStringLiteral("past the end")));
        QCOMPARE(summary->index(1, BufferSummaryModel::UnwrittenColumn).data().toString(),
                 QStringLiteral("3"));
        QCOMPARE(summary->index(1, BufferSummaryModel::NanColumn).data().toString(),
                 QStringLiteral("3"));
        QCOMPARE(summary->index(1, BufferSummaryModel::MaxColumn).data().toString(),
                 QStringLiteral("2"));

        MismatchesModel *mismatches = panel.mismatchesModel();
        QCOMPARE(mismatches->rowCount(), 1);
        QCOMPARE(mismatches->index(0, MismatchesModel::IndexColumn).data().toString(),
                 QStringLiteral("700"));
        QCOMPARE(mismatches->index(0, MismatchesModel::BlockColumn).data().toString(),
                 QStringLiteral("2"));
        QCOMPARE(mismatches->index(0, MismatchesModel::ThreadColumn).data().toString(),
                 QStringLiteral("188"));
        QCOMPARE(mismatches->index(0, MismatchesModel::ExpectedColumn).data().toString(),
                 QStringLiteral("1"));

        // The buffer with a problem is the one whose values are shown.
        QCOMPARE(panel.selectedBuffer(), 1);
    }

    void showsAFaultPlainly()
    {
        ResultsPanel panel;
        RunResult result;
        result.status = RunStatus::Fault;
        result.message = "The kernel accessed an illegal address.";
        result.deviceError = "CUDA_ERROR_ILLEGAL_ADDRESS";
        panel.showResult(result);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral(
                     "\u2718 FAILED: the kernel faulted [CUDA_ERROR_ILLEGAL_ADDRESS]: "
                     "The kernel accessed an illegal address.")),
                 qPrintable(panel.statusText()));
        QVERIFY(panel.statusText().endsWith(QStringLiteral("nothing was checked.")));
        QVERIFY(panel.findingsText().isEmpty());
        QCOMPARE(panel.summaryModel()->rowCount(), 0);

        result.status = RunStatus::Timeout;
        result.message = "The run did not finish within 10 s.";
        result.deviceError.clear();
        panel.showResult(result);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral(
                     "\u2718 FAILED: the kernel timed out: The run did not finish within 10 s.")),
                 qPrintable(panel.statusText()));
    }

    void outOfBoundsAloneFails()
    {
        // The kernel completed and its output verified, but it wrote past the end of `c`.
        ResultsPanel panel;
        RunResult result = wrongRun();
        result.buffers[1].unwritten = 0;
        result.verification.passed = true;
        result.verification.mismatches = 0;
        result.verification.firstMismatches.clear();
        panel.showResult(result);
        QCOMPARE(panel.statusText(),
                 QStringLiteral("\u2718 FAILED: out-of-bounds writes: wrote 24 elements past the "
                                "end of `c`, first at index 1024\nThe kernel ran; verification "
                                "passed; out-of-bounds writes FOUND (24 elements in the guard "
                                "bands of `c`); every output element written."));
    }

    void passesWithAVerifiedRun()
    {
        ResultsPanel panel;
        RunResult result = wrongRun();
        result.buffers[1].guardViolations.clear();
        result.buffers[1].unwritten = 0;
        result.verification.passed = true;
        result.verification.mismatches = 0;
        result.verification.maxError = 0;
        result.verification.firstMismatches.clear();
        panel.showResult(result);
        QCOMPARE(panel.statusText(),
                 QStringLiteral("\u2714 PASSED\nThe kernel ran; verification passed; no "
                                "out-of-bounds writes; every output element written."));
        QVERIFY(panel.verificationText().startsWith(QStringLiteral("PASS")));
        // The worker's sentence says what was compared, e.g. only what a mask selected.
        result.verification.message = "all 512 elements selected by the mask (of 1024) of `c` "
                                      "match (abs ≤ 0; largest error 0)";
        panel.showResult(result);
        QVERIFY2(
            panel.verificationText().contains(QStringLiteral("selected by the mask (of 1024)")),
            qPrintable(panel.verificationText()));
        QCOMPARE(ResultsPanel::formatForPath(QStringLiteral("/tmp/x.csv")), ExportFormat::Csv);
        QCOMPARE(ResultsPanel::formatForPath(QStringLiteral("/tmp/x.bin")), ExportFormat::Bin);
        QCOMPARE(ResultsPanel::formatForPath(QStringLiteral("/tmp/x.npy")), ExportFormat::Npy);
    }

    void showsEveryCheckAndEachKernel()
    {
        ResultsPanel panel;
        RunResult result = wrongRun();
        result.buffers[1].guardViolations.clear();
        result.buffers[1].unwritten = 0;
        VerificationResult c = result.verification;
        c.output = "c";
        c.label = "`c` (expression)";
        c.message = "12 of 1024 elements of `c` differ (rel > 1e-05)";
        c.maxAbsError = 0.5;
        c.maxAbsErrorIndex = 700;
        c.maxRelError = 0.5;
        c.maxRelErrorIndex = 700;
        VerificationResult total;
        total.ran = total.passed = true;
        total.output = "total";
        total.label = "`total` (sum against the sum of `a`)";
        total.message = "the sum of `total` is 512, as expected 512 (rel error 0 ≤ 1e-05)";
        total.maxAbsError = 0.0;
        total.maxRelError = 0.0;
        total.aggregateActual = total.aggregateExpected = 512.0;
        result.checks = {total, c};
        result.verification = combineChecks(result.checks);
        result.kernelTimes = {{"scale", 0.1}, {"finish", 0.025}};
        panel.showResult(result);
        const QString status = panel.statusText();
        QVERIFY2(status.startsWith(QStringLiteral("\u2718 FAILED: verification failed: 12 of "
                                                  "1024 elements of `c` differ")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("verification FAILED (1 of 2 checks failed)")),
                 qPrintable(status));
        const QStringList lines = panel.verificationText().split(QLatin1Char('\n'));
        QCOMPARE(lines[0], QStringLiteral("FAIL \u2014 1 of 2 checks passed"));
        QVERIFY2(lines[1].startsWith(QStringLiteral("`total` (sum against the sum of `a`): PASS")),
                 qPrintable(lines[1]));
        QCOMPARE(lines[2], QStringLiteral("largest |out - ref|: abs 0, rel 0"));
        QVERIFY2(lines[3].startsWith(QStringLiteral("`c` (expression): FAIL")),
                 qPrintable(lines[3]));
        QCOMPARE(lines[4], QStringLiteral("largest |out - ref|: abs 0.5 at c[700], rel 0.5 at "
                                          "c[700]"));
        // The mismatches shown are the failed check's.
        QCOMPARE(panel.mismatchesModel()->rowCount(), 1);
        QVERIFY2(panel.detailsText().contains(QStringLiteral(" \u00b7 scale ")) &&
                     panel.detailsText().contains(QStringLiteral(" \u00b7 finish ")),
                 qPrintable(panel.detailsText()));
    }

    void saysWhyValuesAreUnavailable()
    {
        // A sweep on the shared worker released the run's buffers: the page the view asks for
        // is refused, and the panel says so under the values, not only in a tooltip.
        ResultsPanel panel;
        panel.showResult(wrongRun());
        BufferPageModel *pages = panel.pageModel();
        QCOMPARE(pages->handle(), QStringLiteral("run1/c"));
        pages->index(0, BufferPageModel::ValueColumn).data(); // the view asks for the first page
        pages->flushRequests();
        const QString why = QStringLiteral(
            "the worker released this run's buffers when a sweep ran (it keeps only the last "
            "request's buffers); run again to get them back");
        pages->pageFailed(QStringLiteral("run1/c"), 0, why);
        QCOMPARE(pages->index(0, BufferPageModel::ValueColumn).data().toString(),
                 QStringLiteral("(unavailable)"));
        QCOMPARE(panel.valuesStatusText(), QStringLiteral("Values unavailable: %1.").arg(why));
        // Another buffer starts afresh.
        panel.selectBuffer(0);
        QVERIFY(panel.valuesStatusText().isEmpty());
    }
};

CUWB_TEST_MAIN(TestResultsPanel)
} // namespace tst_resultspanel
} // namespace

#include "tst_resultspanel.moc"
