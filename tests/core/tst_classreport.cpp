// The class report (grading/classreport.h): entries read from a grading's summary document,
// ranked by measured median with ties where times do not differ beyond the noise (1, 1, 3);
// a tie group is anchored at its fastest member, so three submissions 0.8 % apart in a row
// are not all one tie; failed and unmeasured submissions are not ranked; CSV quotes and
// defuses formulas; HTML escapes every text; file names stay in their folder.
#include "grading/classreport.h"
#include "measure/measurejson.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_classreport {

namespace {

// A passed submission measured at `medianUs` with `noise` (relative).
nlohmann::json measured(const std::string &project, double medianUs, double noise = 0.001)
{
    SampleStatistics statistics;
    statistics.count = 50;
    statistics.medianNs = medianUs * 1000.0;
    statistics.meanNs = statistics.medianNs;
    statistics.relativeNoise = noise;
    return {{"project", project},
            {"passed", true},
            {"result", {{"kernelTimeMs", medianUs / 1000.0}}},
            {"measurement", {{"statistics", statistics}}}};
}

nlohmann::json document(std::vector<nlohmann::json> results,
                        nlohmann::json failed = nlohmann::json::array())
{
    return {{"projects", results.size()}, {"passed", 0}, {"failed", failed}, {"results", results}};
}

} // namespace

class TestClassReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tiesShareARank();
    void aTieIsAnchoredAtItsFastest();
    void failedAndUnmeasuredAreNotRanked();
    void csvQuotesAndDefusesFormulas();
    void fasterThanThePhysicalFloorIsFlagged();
    void htmlEscapesEverything();
    void studentFilesStayInTheirFolder();
};

void TestClassReport::tiesShareARank()
{
    const std::vector<ClassEntry> entries =
        classEntries(document({measured("c/carol/p.cuwb", 150.0), measured("c/alice/p.cuwb", 100.0),
                               measured("c/bob/p.cuwb", 100.5), measured("c/dave/p.cuwb", 90.0)}));
    QCOMPARE(entries.size(), std::size_t(4));
    QCOMPARE(entries[0].student, std::string("carol"));
    QCOMPARE(entries[0].rank, std::size_t(4));
    QCOMPARE(entries[3].rank, std::size_t(1)); // dave, 10 % faster than alice
    QCOMPARE(entries[1].rank, std::size_t(2)); // alice and bob: 0.5 %, under the 1 % floor
    QCOMPARE(entries[2].rank, std::size_t(2));
    QCOMPARE(entries[1].tiedWith, std::vector<std::string>{"bob"});
    QCOMPARE(entries[2].tiedWith, std::vector<std::string>{"alice"});
    QVERIFY(entries[3].tiedWith.empty());
    const std::string report = studentReport(entries[2], 4);
    QVERIFY2(report.find("place: 2 of 4, tied with alice") != std::string::npos, report.c_str());

    // Noisy timings tie further apart: 5 % noise makes 10 % no difference.
    const std::vector<ClassEntry> noisy = classEntries(
        document({measured("a/p.cuwb", 100.0, 0.05), measured("b/p.cuwb", 110.0, 0.05)}));
    QCOMPARE(noisy[0].rank, std::size_t(1));
    QCOMPARE(noisy[1].rank, std::size_t(1));
}

void TestClassReport::aTieIsAnchoredAtItsFastest()
{
    // 100, 100.8, 101.6: each 0.8 % from the next, the last 1.6 % from the first.
    const std::vector<ClassEntry> entries = classEntries(document(
        {measured("a/p.cuwb", 100.0), measured("b/p.cuwb", 100.8), measured("c/p.cuwb", 101.6)}));
    QCOMPARE(entries[0].rank, std::size_t(1));
    QCOMPARE(entries[1].rank, std::size_t(1));
    QCOMPARE(entries[2].rank, std::size_t(3));
}

void TestClassReport::failedAndUnmeasuredAreNotRanked()
{
    nlohmann::json failed = nlohmann::json::array();
    failed.push_back({{"project", "x/eve/p.cuwb"}, {"reason", "refused: the source names ..."}});
    nlohmann::json eve = {{"project", "x/eve/p.cuwb"}, {"passed", false}, {"refused", "..."}};
    nlohmann::json frank = {
        {"project", "x/frank/p.cuwb"}, {"passed", true}, {"result", {{"kernelTimeMs", 0.2}}}};
    // A failed run's measurement (there is none, but were there one) does not rank it.
    nlohmann::json grace = measured("x/grace/p.cuwb", 10.0);
    grace["passed"] = false;
    const std::vector<ClassEntry> entries = classEntries(document(
        {eve, frank, grace, measured("x/heidi/p.cuwb", 50.0), nlohmann::json("junk")}, failed));
    QCOMPARE(entries.size(), std::size_t(5));
    QCOMPARE(entries[0].reason, std::string("refused: the source names ..."));
    QCOMPARE(entries[0].rank, std::size_t(0));
    QCOMPARE(entries[1].rank, std::size_t(0));
    QVERIFY(entries[1].kernelTimeMs.has_value());
    QCOMPARE(entries[2].rank, std::size_t(0));
    QCOMPARE(entries[2].reason, std::string("failed"));
    QCOMPARE(entries[3].rank, std::size_t(1));
    QCOMPARE(entries[4].reason, std::string("no result"));
}

void TestClassReport::csvQuotesAndDefusesFormulas()
{
    nlohmann::json failed = nlohmann::json::array();
    failed.push_back({{"project", "c/=HYPERLINK(1)/p.cuwb"}, {"reason", "a, \"quoted\"\nreason"}});
    const std::vector<ClassEntry> entries =
        classEntries(document({measured("c/alice/p.cuwb", 100.0),
                               {{"project", "c/=HYPERLINK(1)/p.cuwb"}, {"passed", false}}},
                              failed));
    const std::string csv = classCsv(entries);
    const QStringList lines = QString::fromStdString(csv).split(QLatin1Char('\n'));
    QCOMPARE(lines[0], QStringLiteral("student,project,passed,rank,tied_with,median_us,"
                                      "noise_percent,samples,run_kernel_ms,reason,flag"));
    QCOMPARE(lines[1], QStringLiteral("alice,c/alice/p.cuwb,yes,1,,100.000,0.100,50,0.100000,,"));
    QVERIFY2(
        csv.find(
            "'=HYPERLINK(1),c/=HYPERLINK(1)/p.cuwb,no,,,,,,,\"a, \"\"quoted\"\"\nreason\",\n") !=
            std::string::npos,
        csv.c_str());
}

// 512 MiB declared in 100 µs is 5,369 GB/s, above a 4,800 GB/s peak: with the L2 flushed
// before every sample that cannot be what the launches did. Hot samples may come from L2.
void TestClassReport::fasterThanThePhysicalFloorIsFlagged()
{
    const auto withThroughput = [](nlohmann::json entry, const char *mode, double effective) {
        entry["measurement"]["settings"] = {{"mode", mode}};
        entry["measurement"]["throughput"] = {
            {"bytes", 536870912.0}, {"effectiveGBps", effective}, {"theoreticalPeakGBps", 4800.0}};
        return entry;
    };
    const std::vector<ClassEntry> entries =
        classEntries(document({withThroughput(measured("c/mallory/p.cuwb", 100.0), "cold", 5368.7),
                               withThroughput(measured("c/trent/p.cuwb", 100.0), "hot", 5368.7),
                               withThroughput(measured("c/alice/p.cuwb", 200.0), "cold", 2684.4)}));
    QVERIFY2(entries[0].flag.find("faster than the physical floor: 0.54 GB in the median time "
                                  "is 5369 GB/s, above the device's DRAM peak of 4800 GB/s") == 0,
             entries[0].flag.c_str());
    QCOMPARE(entries[0].rank, std::size_t(0));
    QVERIFY(entries[1].flag.empty());
    QCOMPARE(entries[1].rank, std::size_t(1));
    QVERIFY(entries[2].flag.empty());
    QCOMPARE(entries[2].rank, std::size_t(2));
    QVERIFY(studentReport(entries[0], 2).find("FLAGGED, not ranked: faster than") !=
            std::string::npos);
    QVERIFY(classCsv(entries).find(",\"faster than the physical floor") != std::string::npos);
    QVERIFY(classHtml(entries, "t").find("<td>FLAGGED</td>") != std::string::npos);
}

void TestClassReport::htmlEscapesEverything()
{
    const std::vector<ClassEntry> entries =
        classEntries(document({measured("c/<script>alert(1)</script>/p.cuwb", 100.0),
                               measured("c/o'brien & co/p.cuwb", 100.2)}));
    const std::string page = classHtml(entries, "Lab <1>");
    QVERIFY(page.find("<script>") == std::string::npos);
    QVERIFY(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    QVERIFY(page.find("o&#39;brien &amp; co") != std::string::npos);
    QVERIFY(page.find("<title>Lab &lt;1&gt;</title>") != std::string::npos);
    QVERIFY2(page.find("<td>=1</td>") != std::string::npos, page.c_str()); // a tie, marked =
}

void TestClassReport::studentFilesStayInTheirFolder()
{
    QCOMPARE(studentFileName(3, "alice"), std::string("03-alice"));
    QCOMPARE(studentFileName(12, "../../etc/x"), std::string("12-.._.._etc_x"));
    QCOMPARE(studentFileName(1, ".."), std::string("01-.."));
    QCOMPARE(studentFileName(1, "a b/c"), std::string("01-a_b_c"));
}

CUWB_TEST_GUILESS_MAIN(TestClassReport)
} // namespace tst_classreport
} // namespace

#include "tst_classreport.moc"
