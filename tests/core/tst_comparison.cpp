// The A/B comparison of two variants: when a time or a counter difference counts, the verdict
// in words, and the findings only one side has.
#include "measure/comparison.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_comparison {

namespace {

ComparisonSide side(const char *name, double medianNs, double noise)
{
    ComparisonSide s;
    s.name = name;
    Measurement m;
    m.statistics.count = 20;
    m.statistics.medianNs = medianNs;
    m.statistics.relativeNoise = noise;
    s.measurement = m;
    return s;
}

InspectSummary inspected(std::uint64_t sectors, const char *finding)
{
    InspectSummary summary;
    summary.totals.globalRequests = 1000;
    summary.totals.globalSectors = sectors;
    LineCounters line;
    line.line = 19;
    if (finding)
        line.findings.push_back({FindingKind::Uncoalesced, finding});
    summary.lines.push_back(line);
    return summary;
}

} // namespace

class TestComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fasterBeyondTheNoise();
    void withinTheNoise();
    void countersAndFindings();
    void missingPartsAreNoted();
};

void TestComparison::fasterBeyondTheNoise()
{
    const Comparison c =
        compareSides(side("matmul_naive", 6.53e6, 0.004), side("matmul_tiled", 1.71e6, 0.003));
    QVERIFY(c.time && c.time->significant);
    QCOMPARE(c.verdict, std::string("matmul_tiled is 3.82× faster than matmul_naive (median "
                                    "1.71 ms against 6.53 ms)"));
    const Comparison slower = compareSides(side("a", 100e3, 0.002), side("b", 150e3, 0.002));
    QVERIFY(slower.verdict.find("b is 1.50× slower than a") == 0);
}

void TestComparison::withinTheNoise()
{
    // 2 % apart with 1 % noise: within three times the noise.
    const Comparison c = compareSides(side("a", 100e3, 0.01), side("b", 102e3, 0.005));
    QVERIFY(c.time && !c.time->significant);
    QVERIFY(c.verdict.find("no difference beyond the noise") == 0);
    // 0.5 % apart with no noise at all: under the 1 % floor.
    QVERIFY(!compareSides(side("a", 100e3, 0.0), side("b", 100.5e3, 0.0)).time->significant);
}

void TestComparison::countersAndFindings()
{
    ComparisonSide a = side("naive", 1e6, 0.01);
    ComparisonSide b = side("shared", 0.5e6, 0.01);
    a.inspection = inspected(18000, "uncoalesced store: 32.0 sectors per request, 4.0 ideal");
    b.inspection = inspected(4000, nullptr);
    MetricsResult ma;
    ma.values = {{"dram__bytes_read.sum", 100.0}, {"only_in_a", 1.0}};
    MetricsResult mb;
    mb.values = {{"dram__bytes_read.sum", 105.0}};
    a.metrics = ma;
    b.metrics = mb;
    const Comparison c = compareSides(a, b);
    QCOMPARE(c.metrics.size(), std::size_t(1)); // only what both collected
    QVERIFY(!c.metrics.front().significant);    // 5 %: under the 10 % mark
    const auto sectors = std::find_if(c.counters.begin(), c.counters.end(),
                                      [](const Delta &d) { return d.what == "global sectors"; });
    QVERIFY(sectors != c.counters.end() && sectors->significant);
    QCOMPARE(sectors->ratio().value(), 4000.0 / 18000.0);
    QCOMPARE(c.findings.size(), std::size_t(1));
    QVERIFY(c.findings.front().inA);
    QCOMPARE(c.findings.front().line, 19);
}

void TestComparison::missingPartsAreNoted()
{
    ComparisonSide a = side("a", 1e6, 0.01);
    ComparisonSide b;
    b.name = "b";
    a.inspection = inspected(1, nullptr);
    const Comparison c = compareSides(a, b);
    QVERIFY(!c.time);
    QVERIFY(c.verdict.empty());
    QCOMPARE(c.notes.size(), std::size_t(2));
    QCOMPARE(c.notes[0], std::string("no time to compare: b was not measured"));
}

CUWB_TEST_GUILESS_MAIN(TestComparison)
} // namespace tst_comparison
} // namespace

#include "tst_comparison.moc"
