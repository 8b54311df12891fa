// The CSV and T4 writers against files written by hand (data/sweep_result.csv and
// data/sweep_result_t4.json) for a result with a point of every kind (sweepfixture.h).
#include "sweep/sweepexport.h"

#include "../support/sweepfixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sweepexport {

namespace {

std::string readData(const char *name)
{
    QFile file(QStringLiteral(CUWB_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll().toStdString();
}

// Equal JSON, numbers within a relative 1e-9 (times in ms are sums of doubles); the first
// difference goes to `where`.
bool near(const nlohmann::json &a, const nlohmann::json &b, const std::string &path,
          std::string &where)
{
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>();
        const double y = b.get<double>();
        if (std::fabs(x - y) <= 1e-9 * std::max({1.0, std::fabs(x), std::fabs(y)})) {
            return true;
        }
    } else if (a.is_object() && b.is_object() && a.size() == b.size()) {
        for (const auto &[key, value] : a.items()) {
            if (!b.contains(key)) {
                where = path + "." + key + " is missing";
                return false;
            }
            if (!near(value, b.at(key), path + "." + key, where)) {
                return false;
            }
        }
        return true;
    } else if (a.is_array() && b.is_array() && a.size() == b.size()) {
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!near(a[i], b[i], path + "[" + std::to_string(i) + "]", where)) {
                return false;
            }
        }
        return true;
    } else if (a == b) {
        return true;
    }
    where = path + ": " + a.dump() + " != " + b.dump();
    return false;
}

} // namespace

class TestSweepExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void csvMatchesTheHandWrittenFile();
    void csvQuotesOnlyWhatNeedsIt();
    void t4MatchesTheHandWrittenFile();
    void t4FollowsTheSchema();
    void t4InvalidityOfEachStatus();
    void t4HasKernelTunersLayout();
    void t4NamesParametersAsKernelTuner();
    void writesFiles();
};

void TestSweepExport::csvMatchesTheHandWrittenFile()
{
    const std::string expected = readData("sweep_result.csv");
    QVERIFY(!expected.empty());
    const std::string csv = sweepResultToCsv(sweepfixture::result());
    QCOMPARE(QString::fromStdString(csv), QString::fromStdString(expected));
}

void TestSweepExport::csvQuotesOnlyWhatNeedsIt()
{
    SweepResult result = sweepfixture::result();
    result.points.resize(1);
    result.points[0].status = PointStatus::Failed;
    result.points[0].message = "line one\nline \"two\", with a comma";
    const std::string csv = sweepResultToCsv(result);
    QVERIFY2(csv.find(",failed,\"line one\nline \"\"two\"\", with a comma\",") != std::string::npos,
             csv.c_str());
}

void TestSweepExport::t4MatchesTheHandWrittenFile()
{
    const nlohmann::json expected = nlohmann::json::parse(readData("sweep_result_t4.json"));
    const nlohmann::json t4 = sweepResultToT4(sweepfixture::result());
    std::string where;
    QVERIFY2(near(t4, expected, "t4", where), where.c_str());
}

void TestSweepExport::t4FollowsTheSchema()
{
    // What the T4 results schema 1.0.0 requires of every result, and its enum of invalidity.
    const nlohmann::json t4 = sweepResultToT4(sweepfixture::result());
    QVERIFY(t4["schema_version"].is_string());
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9]+\\.[0-9]+\\.[0-9]+$"))
                .match(QString::fromStdString(t4["schema_version"].get<std::string>()))
                .hasMatch());
    const QStringList invalidity{QStringLiteral("timeout"),     QStringLiteral("compile"),
                                 QStringLiteral("runtime"),     QStringLiteral("correctness"),
                                 QStringLiteral("constraints"), QStringLiteral("correct")};
    for (const nlohmann::json &result : t4["results"]) {
        for (const char *key : {"configuration", "times", "invalidity", "correctness"}) {
            QVERIFY2(result.contains(key), key);
        }
        QVERIFY(result["configuration"].is_object());
        QVERIFY(result["times"].is_object());
        QVERIFY(result["times"]["runtimes"].is_array());
        QVERIFY(result["times"]["compilation_time"].is_number());
        QVERIFY(result["correctness"].is_number());
        QVERIFY(result["objectives"].is_array());
        QVERIFY(
            invalidity.contains(QString::fromStdString(result["invalidity"].get<std::string>())));
        for (const nlohmann::json &measurement : result["measurements"]) {
            QVERIFY(measurement["name"].is_string());
            QVERIFY(measurement["value"].is_number());
            QVERIFY(measurement["unit"].is_string());
        }
    }
}

void TestSweepExport::t4InvalidityOfEachStatus()
{
    const SweepResult result = sweepfixture::result();
    QCOMPARE(t4Invalidity(result.points[0]), std::string("correct"));
    QCOMPARE(t4Invalidity(result.points[3]), std::string("correctness"));
    QCOMPARE(t4Invalidity(result.points[4]), std::string("constraints"));
    QCOMPARE(t4Invalidity(result.points[5]), std::string("compile"));
    QCOMPARE(t4Invalidity(result.points[6]), std::string("timeout"));
    QCOMPARE(t4Invalidity(result.points[7]), std::string()); // pending: left out
    SweepPointResult crashed = result.points[6];
    crashed.measurement.reset();
    crashed.message = "the worker crashed";
    QCOMPARE(t4Invalidity(crashed), std::string("runtime"));
    // Skips as Kernel Tuner classifies them: what ptxas refuses is a compile failure, a launch
    // the kernel's registers or shared memory refuse fails at run time, the rest are
    // constraints (a block over the device's threads is Kernel Tuner's InvalidConfig).
    SweepPointResult skipped = result.points[4];
    const std::pair<SkipKind, const char *> kinds[] = {{SkipKind::Compile, "compile"},
                                                       {SkipKind::Resources, "runtime"},
                                                       {SkipKind::Limits, "constraints"},
                                                       {SkipKind::Expression, "constraints"},
                                                       {SkipKind::Constraint, "constraints"}};
    for (const auto &[kind, invalidity] : kinds) {
        skipped.skip(kind, "a reason");
        QCOMPARE(t4Invalidity(skipped), std::string(invalidity));
    }
}

void TestSweepExport::t4HasKernelTunersLayout()
{
    // What Kernel Tuner's store_output_file writes for each result (kernel_tuner/file_utils.py):
    // timestamp, configuration, times with compilation, benchmark, framework, search_algorithm,
    // validation and runtimes, invalidity, correctness, measurements of name, value and unit,
    // and objectives; and at the top results and schema_version. A file that Kernel Tuner's
    // readers take has all of these.
    const nlohmann::json t4 = sweepResultToT4(sweepfixture::result());
    QCOMPARE(t4.size(), std::size_t(2));
    QVERIFY(t4.contains("results") && t4.contains("schema_version"));
    QCOMPARE(t4["schema_version"], nlohmann::json("1.0.0"));
    QCOMPARE(t4["results"].size(), std::size_t(7)); // every point but the pending one
    for (const nlohmann::json &result : t4["results"]) {
        for (const char *key : {"timestamp", "configuration", "times", "invalidity", "correctness",
                                "measurements", "objectives"})
            QVERIFY2(result.contains(key), key);
        for (const char *key : {"compilation", "benchmark", "framework", "search_algorithm",
                                "validation", "runtimes"})
            QVERIFY2(result["times"].contains(key), key);
        QCOMPARE(result["times"]["compilation"], result["times"]["compilation_time"]);
        QCOMPARE(result["objectives"], nlohmann::json::array({"time"}));
        QVERIFY(result["timestamp"].is_string());
        for (const nlohmann::json &measurement : result["measurements"])
            QCOMPARE(measurement.size(), std::size_t(3));
    }
}

void TestSweepExport::t4NamesParametersAsKernelTuner()
{
    // block.x, .y, .z are Kernel Tuner's block_size_x, _y, _z; every other axis keeps the
    // project's name: a define or template argument by its name, a variable by its own.
    SweepResult result = sweepfixture::result();
    result.points.resize(1);
    result.spec.axes.clear();
    result.spec.combination = AxisCombination::Cartesian;
    const std::vector<std::pair<std::string, std::string>> values = {
        {"block.x", "128"},      {"block.y", "2"},         {"block.z", "1"},
        {"-DTILE", "8"},         {"<T>", "float"},         {"N", "4096"},
        {"-maxrregcount", "64"}, {"--use_fast_math", "1"}, {"-Dloop_unroll_factor_0", "0"}};
    for (const auto &[target, value] : values) {
        SweepAxis axis;
        axis.target = target;
        axis.values = {value};
        result.spec.axes.push_back(axis);
    }
    result.points[0].point.values = values;
    const nlohmann::json configuration = sweepResultToT4(result)["results"][0]["configuration"];
    const nlohmann::json expected = {
        {"block_size_x", 128}, {"block_size_y", 2},  {"block_size_z", 1},
        {"TILE", 8},           {"T", "float"},       {"N", 4096},
        {"maxrregcount", 64},  {"use_fast_math", 1}, {"loop_unroll_factor_0", 0}};
    QCOMPARE(configuration, expected);

    // A define that takes Kernel Tuner's name itself does not overwrite the block's value.
    result.spec.axes.resize(1);
    SweepAxis clash;
    clash.target = "-Dblock_size_x";
    clash.values = {"64"};
    result.spec.axes.push_back(clash);
    result.points[0].point.values = {{"block.x", "128"}, {"-Dblock_size_x", "64"}};
    const nlohmann::json both = sweepResultToT4(result)["results"][0]["configuration"];
    QCOMPARE(both, (nlohmann::json{{"block_size_x", 128}, {"-Dblock_size_x", 64}}));
}

void TestSweepExport::writesFiles()
{
    const QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("out.csv")).toStdString();
    QCOMPARE(writeTextFile(path, "a,b\n"), std::string());
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("a,b\n"));
    const std::string error = writeTextFile("/no/such/folder/out.csv", "x");
    QVERIFY2(error.starts_with("cannot write '/no/such/folder/out.csv': "), error.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestSweepExport)
} // namespace tst_sweepexport
} // namespace

#include "tst_sweepexport.moc"
