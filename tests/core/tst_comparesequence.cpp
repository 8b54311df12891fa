// CompareSideSequence: the one order in which a side of a comparison is collected, for
// `cuwb compare` and the window's Compare alike — measured, profiled, inspected — with a failed
// measurement ending the side and a refused metrics pass or inspection leaving its reason.
// collectSide on a real worker is in cli/tst_cuwbinspect (and on the H200 in gpu/tst_inspect).
#include "compare/comparesequence.h"
#include "measure/roofline.h"

#include <QtTest>

#include <algorithm>

#include "support/testmain.h"

using namespace cuwb;
using Step = CompareSideSequence::Step;

namespace {
namespace tst_comparesequence {

namespace {

Measurement timed(double medianNs)
{
    Measurement m;
    m.statistics.medianNs = medianNs;
    m.statistics.count = 10;
    return m;
}

} // namespace

class TestCompareSequence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void measuredProfiledInspected()
    {
        CompareSideInput side;
        CompareSideSequence sequence(side);
        QCOMPARE(sequence.stepCount(), 3);
        QCOMPARE(sequence.step(), Step::Measure);
        // An answer to another step than the one in progress changes nothing.
        sequence.inspected(InspectResult{});
        QCOMPARE(sequence.step(), Step::Measure);
        QVERIFY(!side.side.inspection);
        sequence.measured(timed(2000.0));
        QCOMPARE(sequence.step(), Step::Metrics);
        QVERIFY(side.side.measurement);
        MetricsResult metrics;
        metrics.values["dram__bytes_read.sum"] = 1024.0;
        sequence.profiled(metrics);
        QCOMPARE(sequence.step(), Step::Inspect);
        QVERIFY(side.side.metrics);
        sequence.inspected(InspectResult{});
        QCOMPARE(sequence.step(), Step::Done);
        QVERIFY(side.side.inspection);
        QVERIFY(!side.failed());
        QVERIFY(side.missing.empty());
    }

    void aFailedMeasurementEndsTheSide()
    {
        CompareSideInput side;
        CompareSideSequence sequence(side);
        Measurement fault = timed(0.0);
        fault.faultStatus = "fault";
        fault.faultMessage = "the kernel accessed an illegal address";
        sequence.measured(fault);
        QCOMPARE(sequence.step(), Step::Done);
        QCOMPARE(side.failure, std::string("fault: the kernel accessed an illegal address"));
        QVERIFY(!side.side.metrics);
    }

    void refusedPartsAreMissingWithTheirReason()
    {
        CompareSideInput side;
        CompareSideSequence sequence(side);
        sequence.measured(timed(2000.0));
        MetricsResult refused;
        refused.error = "ERR_NVGPUCTRPERM: profiling is not permitted";
        sequence.profiled(refused);
        InspectResult notInspected;
        notInspected.error = "the counters are locked";
        sequence.inspected(notInspected);
        QCOMPARE(sequence.step(), Step::Done);
        QVERIFY(!side.failed());
        QCOMPARE(side.missing,
                 (std::vector<std::string>{"metrics: ERR_NVGPUCTRPERM: profiling is not permitted",
                                           "inspection: the counters are locked"}));
    }

    void inspectionLeftOut()
    {
        CompareSideInput side;
        CompareSideSequence sequence(side, false);
        QCOMPARE(sequence.stepCount(), 2);
        sequence.measured(timed(2000.0));
        sequence.profiled(MetricsResult{});
        QCOMPARE(sequence.step(), Step::Done);
        QVERIFY(!side.side.inspection);
        QVERIFY(side.missing.empty());
    }

    void theMetricsOfSpeedOfLightAndTheRoofline()
    {
        const MetricsRequest request = CompareSideSequence::metricsRequest();
        QVERIFY(!request.metrics.empty());
        for (const std::string &name : rooflineMetrics())
            QVERIFY2(std::find(request.metrics.begin(), request.metrics.end(), name) !=
                         request.metrics.end(),
                     name.c_str());
    }
};

CUWB_TEST_GUILESS_MAIN(TestCompareSequence)
} // namespace tst_comparesequence
} // namespace

#include "tst_comparesequence.moc"
