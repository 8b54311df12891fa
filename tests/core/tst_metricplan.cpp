// Metric-pass planning on the host (docs/measurement.md, Metrics pass): CUPTI's host API, with
// libnvperf_host, counts the replay passes of a set of metrics for a chip without a GPU or a
// driver. The default set needs one pass on GH100, sm__throughput alone needs several, and an
// unknown metric is refused with its name. Skips, with the reason, only where libcupti or
// libnvperf_host cannot be loaded.
#include "measure/metrics.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_metricplan {

class TestMetricPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void defaultSetIsOnePassOnGH100();
    void smThroughputNeedsSeveralPasses();
    void unknownMetricIsNamed();
    void unknownChipIsRefused();

private:
    QString m_skipReason;
};

void TestMetricPlan::initTestCase()
{
    const MetricsResult probe = planMetricPasses("GH100", {"gpu__time_duration.sum"});
    if (!probe.ok() && (probe.error.find("could not be loaded") != std::string::npos ||
                        probe.error.find("has no cupti") != std::string::npos)) {
        m_skipReason = QStringLiteral("needs CUPTI from CUDA 13 with libnvperf_host: %1")
                           .arg(QString::fromStdString(probe.error));
    }
}

void TestMetricPlan::defaultSetIsOnePassOnGH100()
{
    if (!m_skipReason.isEmpty()) {
        QSKIP(qPrintable(m_skipReason));
    }
    const MetricsResult plan = planMetricPasses("GH100", MetricsRequest().metrics);
    QVERIFY2(plan.ok(), plan.error.c_str());
    QCOMPARE(plan.passes, std::size_t(1));
    QCOMPARE(plan.chip, std::string("GH100"));
}

void TestMetricPlan::smThroughputNeedsSeveralPasses()
{
    if (!m_skipReason.isEmpty()) {
        QSKIP(qPrintable(m_skipReason));
    }
    const MetricsResult plan =
        planMetricPasses("GH100", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"});
    QVERIFY2(plan.ok(), plan.error.c_str());
    qInfo("sm__throughput.avg.pct_of_peak_sustained_elapsed: %zu passes on GH100", plan.passes);
    QVERIFY(plan.passes > 1);
    QCOMPARE(plan.passes, std::size_t(8)); // as measured on the H200 (docs/measurement.md)
}

void TestMetricPlan::unknownMetricIsNamed()
{
    if (!m_skipReason.isEmpty()) {
        QSKIP(qPrintable(m_skipReason));
    }
    const MetricsResult plan =
        planMetricPasses("GH100", {"dram__bytes_read.sum", "dram__no_such_counter.sum"});
    QVERIFY(!plan.ok());
    QCOMPARE(plan.passes, std::size_t(0));
    QVERIFY2(plan.error.find("unknown metric `dram__no_such_counter.sum`") != std::string::npos,
             plan.error.c_str());
    QVERIFY2(plan.error.find("GH100") != std::string::npos, plan.error.c_str());
}

void TestMetricPlan::unknownChipIsRefused()
{
    if (!m_skipReason.isEmpty()) {
        QSKIP(qPrintable(m_skipReason));
    }
    const MetricsResult plan = planMetricPasses("NOSUCHCHIP", MetricsRequest().metrics);
    QVERIFY(!plan.ok());
    QVERIFY2(plan.error.find("NOSUCHCHIP") != std::string::npos, plan.error.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestMetricPlan)
} // namespace tst_metricplan
} // namespace

#include "tst_metricplan.moc"
