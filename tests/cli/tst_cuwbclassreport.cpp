// `cuwb run DIR --measure --report R`: a class graded against a stand-in worker with a GPU
// (support/fakeworker.cpp, "measure-ok", whose measurement is scaled by the source's
// FAKE_TIME_SCALE) is measured where it passed and reported as class.json (the --summary
// document), class.csv, class.html and a text and JSON report per student, ranked with ties
// within the noise, a time faster than the device's DRAM allows flagged and not ranked; a report
// folder that cannot be written is exit status 5, with the grading itself still printed.
#include "cuwbprocess.h"
#include "util/sandbox.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

namespace {
namespace tst_cuwbclassreport {

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A submission of the add_one lab whose kernel measures `scale` times the stand-in's time;
// `wrong` makes its verification fail.
void addSubmission(const QDir &root, const QString &student, const char *scale, bool wrong = false)
{
    QVERIFY(root.mkpath(student));
    QByteArray project = readAll(dataFile("add_one.cuwb"));
    project.replace("extern \\\"C\\\"",
                    QByteArray("// FAKE_TIME_SCALE=") + scale + "\\nextern \\\"C\\\"");
    if (wrong)
        project.replace("\"a[i] + 1.0f\"", "\"a[i] + 1.0f + wrong[i]\"");
    QFile file(root.filePath(student + QStringLiteral("/lab.cuwb")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(project);
}

} // namespace

class TestCuwbClassReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aClassIsMeasuredRankedAndReported();
    void anUnwritableReportIsExitFive();
};

void TestCuwbClassReport::aClassIsMeasuredRankedAndReported()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QDir root(dir.filePath(QStringLiteral("class")));
    addSubmission(root, QStringLiteral("alice"), "1.0");
    addSubmission(root, QStringLiteral("bob"), "1.002"); // 0.2 % slower: no difference
    addSubmission(root, QStringLiteral("carol"), "0.8");
    addSubmission(root, QStringLiteral("dave"), "0.1", true);
    // 512 MiB in 20 µs: faster than the device's DRAM allows (the stand-in's peak: 4,814 GB/s).
    addSubmission(root, QStringLiteral("mallory"), "0.1");
    const QString report = dir.filePath(QStringLiteral("report"));
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("run"), root.path(), QStringLiteral("--measure"),
         QStringLiteral("--report"), report, QStringLiteral("--worker"),
         QStringLiteral(CUWB_FAKE_WORKER_PATH " measure-ok"), QStringLiteral("--summary")});
    QVERIFY2(run.exitCode == 1, qPrintable(run.out + run.err)); // dave failed
    QVERIFY2(run.out.contains(QStringLiteral("summary: 5 projects, 4 passed, 1 failed")),
             qPrintable(run.out));

    const nlohmann::json summary =
        nlohmann::json::parse(readAll(report + QStringLiteral("/class.json")).toStdString());
    QCOMPARE(summary["projects"], 5);
    QCOMPARE(summary["passed"], 4);
    QVERIFY(summary["results"][0].contains("measurement"));
    QVERIFY(!summary["results"][3].contains("measurement")); // a failed run is not measured
    // Measured as the grader decides, not as the submission asks: guarded, the graded cap.
    const nlohmann::json &settings = summary["results"][0]["measurement"]["settings"];
    QCOMPARE(settings.value("guarded", false), true);
    QCOMPARE(settings.value("timeCapSeconds", 0.0), 5.0);

    const QStringList csv = QString::fromUtf8(readAll(report + QStringLiteral("/class.csv")))
                                .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(csv.size(), 6);
    QVERIFY2(csv[1].startsWith(QStringLiteral("alice,")) &&
                 csv[1].contains(QStringLiteral(",yes,2,bob,")),
             qPrintable(csv[1]));
    QVERIFY2(csv[2].startsWith(QStringLiteral("bob,")) &&
                 csv[2].contains(QStringLiteral(",yes,2,alice,")),
             qPrintable(csv[2]));
    QVERIFY2(csv[3].startsWith(QStringLiteral("carol,")) &&
                 csv[3].contains(QStringLiteral(",yes,1,,")),
             qPrintable(csv[3]));
    QVERIFY2(csv[4].startsWith(QStringLiteral("dave,")) && csv[4].contains(QStringLiteral(",no,,")),
             qPrintable(csv[4]));

    QVERIFY2(csv[5].startsWith(QStringLiteral("mallory,")) &&
                 csv[5].contains(QStringLiteral(",yes,,,")) &&
                 csv[5].contains(QStringLiteral(",\"faster than the physical floor")),
             qPrintable(csv[5]));
    const QString page = QString::fromUtf8(readAll(report + QStringLiteral("/class.html")));
    QVERIFY2(page.contains(QStringLiteral("5 submissions, 4 passed, 1 failed.")), qPrintable(page));
    QVERIFY(page.contains(QStringLiteral("<td>=2</td><td>alice</td>")));

    const QString bob = QString::fromUtf8(readAll(report + QStringLiteral("/students/02-bob.txt")));
    QVERIFY2(bob.contains(QStringLiteral("PASSED")) &&
                 bob.contains(QStringLiteral("place: 2 of 3, tied with alice")),
             qPrintable(bob));
    const QString dave =
        QString::fromUtf8(readAll(report + QStringLiteral("/students/04-dave.txt")));
    QVERIFY2(dave.contains(QStringLiteral("FAILED")) && dave.contains(QStringLiteral("reason: ")),
             qPrintable(dave));
    const nlohmann::json carol = nlohmann::json::parse(
        readAll(report + QStringLiteral("/students/03-carol.json")).toStdString());
    QCOMPARE(carol["rank"], 1);
}

void TestCuwbClassReport::anUnwritableReportIsExitFive()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QDir root(dir.filePath(QStringLiteral("class")));
    addSubmission(root, QStringLiteral("alice"), "1.0");
    // The report folder's place is taken by a file.
    QFile blocker(dir.filePath(QStringLiteral("report")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const CuwbRun run = runCuwbProcess(
        {QStringLiteral("run"), root.path(), QStringLiteral("--report"), blocker.fileName(),
         QStringLiteral("--worker"), QStringLiteral(CUWB_FAKE_WORKER_PATH " measure-ok"),
         QStringLiteral("--json"), QStringLiteral("--summary")});
    QCOMPARE(run.exitCode, 5);
    QVERIFY2(
        run.err.contains(QStringLiteral("cuwb run: the report: cannot create the report folder")),
        qPrintable(run.err));
    // The grading itself is printed all the same.
    QCOMPARE(nlohmann::json::parse(run.out.toStdString())["passed"], 1);
}

CUWB_TEST_GUILESS_MAIN(TestCuwbClassReport)
} // namespace tst_cuwbclassreport
} // namespace

#include "tst_cuwbclassreport.moc"
