// The "sweep" section of project files: absent until set, written only then, round trips,
// keeps fields this version does not know, and names the line and column of bad content.
#include "project/project.h"
#include "sweep/sweepjson.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweepproject {
// moc reads raw strings with unbalanced braces as code: the helpers are not its business.
#ifndef Q_MOC_RUN

namespace {

const char *const kProject = R"({
    "schemaVersion": 1,
    "name": "copy",
    "source": {"inline": "extern \"C\" __global__ void k(float *a) {}"},
    "sweep": {
        "axes": [
            {"target": "block.x", "kind": "range", "from": 32, "to": 1024, "step": 32},
            {"target": "-DTILE", "values": [8, 16]}
        ],
        "constraints": ["block.x <= 512"],
        "verify": true,
        "future": {"kept": true}
    }
})";

std::string withSweep(const std::string &sweep)
{
    return "{\n  \"schemaVersion\": 1,\n  \"source\": {\"inline\": \"\"},\n  \"sweep\": " + sweep +
           "\n}\n";
}

} // namespace

#endif // Q_MOC_RUN

class TestSweepProject : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void absentUntilSet();
    void readsTheSection();
    void roundTripsAndKeepsUnknownFields();
    void removingTheSweepDropsWhatItKept();
    void badContentNamesLineAndColumn_data();
    void badContentNamesLineAndColumn();
    void rooflineIsReadAndWrittenOnlyWhenOn();
};

void TestSweepProject::absentUntilSet()
{
    const ProjectLoad load = parseProject(R"({"schemaVersion": 1, "source": {"inline": ""}})");
    QVERIFY2(load.project.has_value(), load.error.c_str());
    QVERIFY(!load.project->sweep.has_value());
    const nlohmann::json written = nlohmann::json::parse(serializeProject(*load.project));
    QVERIFY(!written.contains("sweep"));
}

void TestSweepProject::readsTheSection()
{
    const ProjectLoad load = parseProject(kProject);
    QVERIFY2(load.project.has_value(), load.error.c_str());
    QVERIFY(load.project->sweep.has_value());
    const SweepSpec &spec = *load.project->sweep;
    QCOMPARE(spec.axes.size(), std::size_t(2));
    QCOMPARE(spec.axes[0].kind, AxisValues::Range);
    QCOMPARE(spec.axes[0].step, 32.0);
    QCOMPARE(spec.axes[1].values, (std::vector<std::string>{"8", "16"}));
    QCOMPARE(spec.constraints, std::vector<std::string>{"block.x <= 512"});
    QVERIFY(spec.verify);
    QCOMPARE(spec.settings, SweepSpec::defaultSweepSettings());
}

void TestSweepProject::roundTripsAndKeepsUnknownFields()
{
    const ProjectLoad load = parseProject(kProject);
    QVERIFY2(load.project.has_value(), load.error.c_str());
    const std::string text = serializeProject(*load.project);
    const nlohmann::json written = nlohmann::json::parse(text);
    QCOMPARE(written["sweep"]["future"], (nlohmann::json{{"kept", true}}));
    QCOMPARE(written["sweep"]["axes"][1]["kind"], nlohmann::json("list"));
    const ProjectLoad again = parseProject(text);
    QVERIFY2(again.project.has_value(), again.error.c_str());
    QCOMPARE(again.project->sweep, load.project->sweep);
    QCOMPARE(serializeProject(*again.project), text);
}

void TestSweepProject::removingTheSweepDropsWhatItKept()
{
    ProjectLoad load = parseProject(kProject);
    QVERIFY2(load.project.has_value(), load.error.c_str());
    load.project->sweep.reset();
    const nlohmann::json written = nlohmann::json::parse(serializeProject(*load.project));
    QVERIFY(!written.contains("sweep"));
}

void TestSweepProject::badContentNamesLineAndColumn_data()
{
    QTest::addColumn<QString>("sweep");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    QTest::newRow("kind")
        << "{\n    \"axes\": [\n      {\"target\": \"block.x\",\n       \"kind\": "
           "\"ranges\", \"from\": 1, \"to\": 2}\n    ]\n  }"
        << 7 << 16
        << "sweep.axes[0].kind: expected one of list, range, powersOfTwo, found "
           "'ranges'";
    QTest::newRow("second axis") << "{\"axes\": [{\"values\": [1]},\n  {\"target\": 5, "
                                    "\"values\": [1]}]}"
                                 << 5 << 14
                                 << "sweep.axes[1].target: expected a string, found "
                                    "number";
    QTest::newRow("settings")
        << "{\"settings\": {\"minSamples\": 1}}" << 4 << 25
        << "sweep.settings: minSamples must be at least 2 (noise needs two samples), found 1";
    QTest::newRow("roofline not a flag") << "{\"roofline\": \"yes\"}" << 4 << 25
                                         << "sweep.roofline: expected true or false, found string";
    QTest::newRow("not an object")
        << "[1, 2]" << 4 << 12 << "sweep: expected an object, found array";
    QTest::newRow("missing step")
        << "{\"axes\": [{\"target\": \"N\", \"kind\": \"range\", \"from\": 1, \"to\": 2}]}" << 4
        << 22 << "sweep.axes[0].step: missing; a range needs a step";
}

void TestSweepProject::badContentNamesLineAndColumn()
{
    QFETCH(QString, sweep);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const ProjectLoad load = parseProject(withSweep(sweep.toStdString()));
    QVERIFY(!load.project);
    QCOMPARE(load.line, line);
    QCOMPARE(load.column, column);
    QCOMPARE(QString::fromStdString(load.error),
             QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(message));
}

// "roofline": true asks each point's metrics pass for the roofline's metrics; a project that
// does not say it is written back without the key, as before the key existed.
void TestSweepProject::rooflineIsReadAndWrittenOnlyWhenOn()
{
    const ProjectLoad off = parseProject(kProject);
    QVERIFY2(off.project.has_value(), off.error.c_str());
    QVERIFY(!off.project->sweep->roofline);
    QVERIFY(!nlohmann::json::parse(serializeProject(*off.project))["sweep"].contains("roofline"));

    const ProjectLoad on = parseProject(withSweep(R"({"axes": [], "roofline": true})"));
    QVERIFY2(on.project.has_value(), on.error.c_str());
    QVERIFY(on.project->sweep->roofline);
    QVERIFY(!on.project->sweep->metrics);       // the runner's pass follows from roofline alone
    QVERIFY(on.project->unknownFields.empty()); // a known key, not kept as unknown
    const nlohmann::json written = nlohmann::json::parse(serializeProject(*on.project));
    QCOMPARE(written["sweep"]["roofline"], nlohmann::json(true));
}

CUWB_TEST_GUILESS_MAIN(TestSweepProject)
} // namespace tst_sweepproject
} // namespace

#include "tst_sweepproject.moc"
