// Sweep expansion without a GPU: axis values (lists, ranges, powers of two, bad bounds),
// targets, cartesian order and zipping, constraints, skip reasons from the architecture's
// limits, and how each kind of axis changes the point's request (block, variables, grid,
// defines, template arguments, -maxrregcount, --use_fast_math).
#include "sweep/sweep.h"

#include "../support/sweeptesthelpers.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sweepexpand {

namespace {

RunRequest baseRequest()
{
    RunRequest request;
    request.source = "extern \"C\" __global__ void k(float *a, int n) {}\n";
    request.launch.kernel = "k";
    request.launch.variables = {{"N", "1 << 20"}, {"HALF", "N / 2"}};
    request.launch.grid = {"ceil(N / block.x)", "1", "1"};
    request.launch.block = {"256", "1", "1"};
    return request;
}

SweepSpec specOf(std::vector<SweepAxis> axes,
                 AxisCombination combination = AxisCombination::Cartesian)
{
    SweepSpec spec;
    spec.axes = std::move(axes);
    spec.combination = combination;
    return spec;
}

std::vector<std::string> labels(const SweepExpansion &expansion)
{
    std::vector<std::string> out;
    for (const SweepPoint &point : expansion.points) {
        out.push_back(point.label());
    }
    return out;
}

const ArchLimits &sm90()
{
    static const ArchLimits limits = archLimits("sm_90").value();
    return limits;
}

} // namespace

class TestSweepExpand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listKeepsValuesAsWritten();
    void rangeIncludesItsEnd();
    void rangeStopsBeforeOvershooting();
    void rangeCountsDown();
    void powersOfTwoBetweenBounds();
    void badAxes_data();
    void badAxes();
    void parsesTargets_data();
    void parsesTargets();
    void cartesianVariesLastAxisFastest();
    void zipPairsValues();
    void zipOfUnequalLengthsIsAnError();
    void groupsCombineAsProduct();
    void groupOfUnequalLengthsIsAnError();
    void numericDefineAxisIsVisibleToExpressions();
    void textDefineAxisIsPassedAsWritten();
    void tunerDefinesFollowEachPoint();
    void skipsSayWhatKindTheyAre();
    void dynamicSharedMemoryOfEachPoint();
    void emptySweepIsAnError();
    void tooManyPointsIsAnError();
    void constraintsSkipPoints();
    void constraintWithATypoIsAnError();
    void skipReasonsFromLimits_data();
    void skipReasonsFromLimits();
    void noLimitsNoLimitSkips();
    void variableAxisMustExist();
    void variableAxisChangesLaterVariablesAndGrid();
    void gridFollowsBlock();
    void blockExpressionThatFailsIsASkip();
    void substitutesTemplateArguments();
    void kernelFollowsTheOneInstantiation();
    void templateAxisWithNothingToReplaceIsAnError();
    void appliesDefines();
    void appliesCompileFlags();
    void presetsExpand();
    void labelsNameEachAxis();
};

void TestSweepExpand::listKeepsValuesAsWritten()
{
    const AxisValueList list = axisValues(listAxis("N", {" 1 << 20 ", "4096", "N * 2"}));
    QVERIFY(list.error.empty());
    QCOMPARE(list.values, (std::vector<std::string>{"1 << 20", "4096", "N * 2"}));
}

void TestSweepExpand::rangeIncludesItsEnd()
{
    const AxisValueList range = axisValues(rangeAxis("block.x", 32, 1024, 32));
    QVERIFY(range.error.empty());
    QCOMPARE(range.values.size(), std::size_t(32));
    QCOMPARE(range.values.front(), std::string("32"));
    QCOMPARE(range.values[1], std::string("64"));
    QCOMPARE(range.values.back(), std::string("1024"));
    // Steps that are not exact in binary still land on `to`.
    const AxisValueList tenths = axisValues(rangeAxis("A", 0, 1, 0.1));
    QCOMPARE(tenths.values.size(), std::size_t(11));
    QCOMPARE(tenths.values[3], std::string("0.3"));
    QCOMPARE(tenths.values.back(), std::string("1"));
}

void TestSweepExpand::rangeStopsBeforeOvershooting()
{
    const AxisValueList range = axisValues(rangeAxis("block.x", 32, 100, 32));
    QCOMPARE(range.values, (std::vector<std::string>{"32", "64", "96"}));
}

void TestSweepExpand::rangeCountsDown()
{
    const AxisValueList range = axisValues(rangeAxis("block.x", 1024, 256, -256));
    QCOMPARE(range.values, (std::vector<std::string>{"1024", "768", "512", "256"}));
}

void TestSweepExpand::powersOfTwoBetweenBounds()
{
    QCOMPARE(axisValues(powersAxis("block.x", 32, 1024)).values,
             (std::vector<std::string>{"32", "64", "128", "256", "512", "1024"}));
    QCOMPARE(axisValues(powersAxis("block.x", 33, 1000)).values,
             (std::vector<std::string>{"64", "128", "256", "512"}));
    QCOMPARE(axisValues(powersAxis("block.y", 1, 1)).values, std::vector<std::string>{"1"});
}

void TestSweepExpand::badAxes_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty list") << 0 << QStringLiteral("the list of values is empty");
    QTest::newRow("blank value") << 1 << QStringLiteral("value 2 of the list is empty");
    QTest::newRow("step 0") << 2
                            << QStringLiteral("the range from 32 to 1024 has step 0, so it never "
                                              "ends");
    QTest::newRow("wrong sign") << 3
                                << QStringLiteral("the range from 1024 to 32 needs a negative "
                                                  "step, found 32");
    QTest::newRow("no power") << 4 << QStringLiteral("there is no power of two between 33 and 63");
    QTest::newRow("from above to") << 5
                                   << QStringLiteral("powers of two from 1024 to 32: from is "
                                                     "above to");
    QTest::newRow("zero bound") << 6
                                << QStringLiteral("powers of two need bounds above 0, found 0 "
                                                  "and 32");
    QTest::newRow("huge range")
        << 7 << QStringLiteral("has 1,000,000,000 values; the limit is 10,000 points a sweep");
}

void TestSweepExpand::badAxes()
{
    QFETCH(int, which);
    QFETCH(QString, message);
    const SweepAxis axes[] = {
        listAxis("N", {}),
        listAxis("N", {"1", " "}),
        rangeAxis("block.x", 32, 1024, 0),
        rangeAxis("block.x", 1024, 32, 32),
        powersAxis("block.x", 33, 63),
        powersAxis("block.x", 1024, 32),
        powersAxis("block.x", 0, 32),
        rangeAxis("N", 1, 1e9, 1),
    };
    const AxisValueList list = axisValues(axes[which]);
    QVERIFY2(list.error.find(message.toStdString()) != std::string::npos, list.error.c_str());
    QVERIFY(list.values.empty());
    // expandSweep says which axis.
    const SweepExpansion expansion = expandSweep(specOf({axes[which]}), baseRequest());
    QVERIFY(!expansion.ok());
    QVERIFY2(expansion.error.starts_with("axis 1 ("), expansion.error.c_str());
    QVERIFY(expansion.points.empty());
}

void TestSweepExpand::parsesTargets_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<int>("kind"); // -1: not a target
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("shown");
    QTest::newRow("block.x") << "block.x" << int(AxisTarget::Block) << "x"
                             << "block.x";
    QTest::newRow("block.z") << " block.z " << int(AxisTarget::Block) << "z"
                             << "block.z";
    QTest::newRow("variable") << "N" << int(AxisTarget::Variable) << "N"
                              << "N";
    QTest::newRow("define") << "-DTILE" << int(AxisTarget::Define) << "TILE"
                            << "TILE";
    QTest::newRow("define, spaced") << "-D TILE" << int(AxisTarget::Define) << "TILE"
                                    << "TILE";
    QTest::newRow("template") << "<TILE>" << int(AxisTarget::Template) << "TILE"
                              << "TILE";
    QTest::newRow("maxrregcount") << "-maxrregcount" << int(AxisTarget::MaxRegisters)
                                  << "maxrregcount"
                                  << "maxrregcount";
    QTest::newRow("--maxrregcount")
        << "--maxrregcount" << int(AxisTarget::MaxRegisters) << "maxrregcount"
        << "maxrregcount";
    QTest::newRow("fast math") << "--use_fast_math" << int(AxisTarget::FastMath) << "use_fast_math"
                               << "use_fast_math";
    QTest::newRow("block.w") << "block.w" << -1 << ""
                             << "block.w";
    QTest::newRow("-O3") << "-O3" << -1 << ""
                         << "-O3";
    QTest::newRow("bad define") << "-D1X" << -1 << ""
                                << "-D1X";
    QTest::newRow("expression") << "N * 2" << -1 << ""
                                << "N * 2";
}

void TestSweepExpand::parsesTargets()
{
    QFETCH(QString, target);
    QFETCH(int, kind);
    QFETCH(QString, name);
    QFETCH(QString, shown);
    const std::optional<AxisTargetInfo> info = parseAxisTarget(target.toStdString());
    QCOMPARE(info.has_value(), kind >= 0);
    if (info) {
        QCOMPARE(int(info->kind), kind);
        QCOMPARE(QString::fromStdString(info->name), name);
    }
    QCOMPARE(QString::fromStdString(axisName(target.trimmed().toStdString())), shown);
}

void TestSweepExpand::cartesianVariesLastAxisFastest()
{
    const SweepExpansion expansion = expandSweep(
        specOf({listAxis("block.x", {"32", "64"}), listAxis("block.y", {"1", "2", "4"})}),
        baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(labels(expansion),
             (std::vector<std::string>{"block.x=32 block.y=1", "block.x=32 block.y=2",
                                       "block.x=32 block.y=4", "block.x=64 block.y=1",
                                       "block.x=64 block.y=2", "block.x=64 block.y=4"}));
    for (std::size_t i = 0; i < expansion.points.size(); ++i) {
        QCOMPARE(expansion.points[i].index, i);
    }
    QCOMPARE(expansion.points[5].request.launch.block,
             (std::array<std::string, 3>{"64", "4", "1"}));
    QCOMPARE(expansion.points[5].block, (std::array<std::uint64_t, 3>{64, 4, 1}));
}

void TestSweepExpand::zipPairsValues()
{
    const SweepExpansion expansion = expandSweep(
        specOf({listAxis("block.x", {"32", "64", "128"}), listAxis("N", {"1024", "2048", "4096"})},
               AxisCombination::Zip),
        baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(labels(expansion), (std::vector<std::string>{"block.x=32 N=1024", "block.x=64 N=2048",
                                                          "block.x=128 N=4096"}));
}

void TestSweepExpand::zipOfUnequalLengthsIsAnError()
{
    const SweepExpansion expansion = expandSweep(
        specOf({rangeAxis("block.x", 32, 1024, 32), listAxis("N", {"1024", "2048", "4096"})},
               AxisCombination::Zip),
        baseRequest());
    QVERIFY(!expansion.ok());
    QCOMPARE(expansion.error,
             std::string("zipped axes need the same number of values: axis 1 (block.x) has 32, "
                         "axis 2 (N) has 3"));
}

void TestSweepExpand::emptySweepIsAnError()
{
    const SweepExpansion expansion = expandSweep(SweepSpec{}, baseRequest());
    QVERIFY(!expansion.ok());
    QVERIFY2(expansion.error.starts_with("the sweep has no axes"), expansion.error.c_str());
}

void TestSweepExpand::tooManyPointsIsAnError()
{
    const SweepExpansion expansion =
        expandSweep(specOf({rangeAxis("block.x", 1, 1001, 1), rangeAxis("block.y", 1, 1001, 1)}),
                    baseRequest());
    QVERIFY(!expansion.ok());
    QCOMPARE(expansion.error,
             std::string("the sweep has 1,002,001 points (1001 × 1001); the limit is 10,000 "
                         "points: narrow an axis, or split the study into several sweeps"));
    // 10,000 points are fine for expansion; the CLI asks for --yes.
    const SweepExpansion many = expandSweep(
        specOf({rangeAxis("block.x", 1, 100, 1), rangeAxis("block.y", 1, 100, 1)}), baseRequest());
    QVERIFY2(many.ok(), many.error.c_str());
    QCOMPARE(many.points.size(), std::size_t(10000));
}

void TestSweepExpand::constraintsSkipPoints()
{
    SweepSpec spec = specOf({powersAxis("block.x", 32, 1024), powersAxis("block.y", 1, 32)});
    spec.constraints = {"block.x*block.y <= 1024", "grid.x >= 1"};
    const SweepExpansion expansion = expandSweep(spec, baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points.size(), std::size_t(36));
    QCOMPARE(expansion.runnableCount(), std::size_t(21));
    for (const SweepPoint &point : expansion.points) {
        const bool fits = point.block[0] * point.block[1] <= 1024;
        QCOMPARE(point.runnable(), fits);
        if (!fits) {
            QCOMPARE(point.skipReason,
                     std::string("excluded by the constraint `block.x*block.y <= 1024`"));
        }
    }
}

void TestSweepExpand::constraintWithATypoIsAnError()
{
    SweepSpec spec = specOf({powersAxis("block.x", 32, 1024)});
    spec.constraints = {"blockx <= 512"};
    const SweepExpansion expansion = expandSweep(spec, baseRequest());
    QCOMPARE(expansion.error,
             std::string("constraint 1 (`blockx <= 512`): unknown variable 'blockx'"));
    spec.constraints = {" "};
    QCOMPARE(expandSweep(spec, baseRequest()).error, std::string("constraint 1 is empty"));
}

void TestSweepExpand::skipReasonsFromLimits_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("reason");
    QTest::newRow("threads") << "block.x"
                             << "2048"
                             << "block.x is 2048; sm_90 allows 1024; block has 2048 threads; "
                                "sm_90 allows 1024";
    QTest::newRow("block.z") << "block.z"
                             << "128"
                             << "block.z is 128; sm_90 allows 64";
    QTest::newRow("threads of x × y") << "block.y"
                                      << "8"
                                      << "block has 2048 threads; sm_90 allows 1024";
    QTest::newRow("grid.y") << "N"
                            << "1"
                            << ""; // runnable: grid.x = ceil(1 / 256) = 1
    QTest::newRow("too much shared") << "S"
                                     << "300000"
                                     << "shared memory: 0 static + 300000 dynamic = 300000 bytes; "
                                        "sm_90 allows 49152 without opt-in and 232448 with it";
}

void TestSweepExpand::skipReasonsFromLimits()
{
    QFETCH(QString, target);
    QFETCH(QString, value);
    QFETCH(QString, reason);
    RunRequest request = baseRequest();
    request.launch.variables.emplace_back("S", "0");
    request.launch.dynamicSharedBytes = "S";
    SweepSpec spec = specOf({listAxis(target.toStdString(), {value.toStdString()})});
    if (target == QStringLiteral("block.y")) {
        spec.axes.insert(spec.axes.begin(), listAxis("block.x", {"256"}));
    } else if (target == QStringLiteral("block.z")) {
        spec.axes.insert(spec.axes.begin(), listAxis("block.x", {"4"})); // 512 threads
    }
    const SweepExpansion expansion = expandSweep(spec, request, &sm90());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(expansion.points[0].skipReason), reason);
}

void TestSweepExpand::noLimitsNoLimitSkips()
{
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("block.x", {"2048"})}), baseRequest());
    QVERIFY(expansion.points[0].runnable());
}

void TestSweepExpand::variableAxisMustExist()
{
    const SweepExpansion expansion = expandSweep(
        specOf({listAxis("block.x", {"32"}), listAxis("M", {"1", "2"})}), baseRequest());
    QCOMPARE(expansion.error,
             std::string("axis 2 (M): `M` is not a variable of the project (it has N, HALF)"));
    const SweepExpansion duplicate = expandSweep(
        specOf({listAxis("block.x", {"32"}), rangeAxis("block.x", 64, 128, 64)}), baseRequest());
    QCOMPARE(duplicate.error,
             std::string("axis 2 (block.x): axis 1 already varies the same thing"));
    const SweepExpansion unknown = expandSweep(specOf({listAxis("-O3", {"1"})}), baseRequest());
    QVERIFY2(unknown.error.starts_with("axis 1 (-O3): `-O3` is not something a sweep can vary"),
             unknown.error.c_str());
}

void TestSweepExpand::variableAxisChangesLaterVariablesAndGrid()
{
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("N", {"1024", "1 << 12"})}), baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    const SweepPoint &second = expansion.points[1];
    QCOMPARE(second.request.launch.variables, (std::vector<std::pair<std::string, std::string>>{
                                                  {"N", "1 << 12"}, {"HALF", "N / 2"}}));
    QCOMPARE(second.grid[0], std::uint64_t(16)); // ceil(4096 / 256)
    QCOMPARE(expansion.points[0].grid[0], std::uint64_t(4));
}

void TestSweepExpand::gridFollowsBlock()
{
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("block.x", {"128", "1000"})}), baseRequest());
    QCOMPARE(expansion.points[0].grid, (std::array<std::uint64_t, 3>{8192, 1, 1}));
    QCOMPARE(expansion.points[1].grid, (std::array<std::uint64_t, 3>{1049, 1, 1}));
    // The grid expression itself is left to be evaluated with each point's block.
    QCOMPARE(expansion.points[1].request.launch.grid[0], std::string("ceil(N / block.x)"));
}

void TestSweepExpand::blockExpressionThatFailsIsASkip()
{
    const SweepExpansion expansion = expandSweep(
        specOf({listAxis("block.x", {"HALF / 0", "0", "32.5", "HALF"})}), baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points[0].skipReason,
             std::string("block.x = HALF / 0: the result is infinite (division by zero?)"));
    QCOMPARE(expansion.points[1].skipReason, std::string("block.x is 0; it must be at least 1"));
    QCOMPARE(expansion.points[2].skipReason,
             std::string("block.x is 32.5; it must be a whole number"));
    QVERIFY(expansion.points[3].runnable()); // HALF = 524288: no limits given
    QCOMPARE(expansion.points[3].block[0], std::uint64_t(524288));
}

void TestSweepExpand::substitutesTemplateArguments()
{
    RunRequest request = baseRequest();
    request.options.nameExpressions = {"tile<float, TILE>", "other<TILES, TILE>"};
    request.launch.kernel = "tile<float, TILE>";
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("<TILE>", {"8", "16"})}), request);
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    const RunRequest &second = expansion.points[1].request;
    QCOMPARE(second.options.nameExpressions,
             (std::vector<std::string>{"tile<float, 16>", "other<TILES, 16>"}));
    QCOMPARE(second.launch.kernel, std::string("tile<float, 16>"));
    QCOMPARE(expansion.points[1].label(), std::string("TILE=16"));
}

void TestSweepExpand::kernelFollowsTheOneInstantiation()
{
    // The project names its kernel by the lowered name of one instantiation.
    RunRequest request = baseRequest();
    request.options.nameExpressions = {"scale<float, B>"};
    request.launch.kernel = "_Z5scaleIfLi8EEvPfi";
    const SweepExpansion expansion = expandSweep(specOf({listAxis("<B>", {"32"})}), request);
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points[0].request.launch.kernel, std::string("scale<float, 32>"));
}

void TestSweepExpand::templateAxisWithNothingToReplaceIsAnError()
{
    RunRequest request = baseRequest();
    request.options.nameExpressions = {"tile<float, TILES>"};
    const SweepExpansion expansion = expandSweep(specOf({listAxis("<TILE>", {"8"})}), request);
    QCOMPARE(expansion.error,
             std::string("axis 1 (<TILE>): <TILE> appears in no name expression of the project "
                         "(compile options), so it has nothing to replace"));
}

void TestSweepExpand::appliesDefines()
{
    RunRequest request = baseRequest();
    request.options.defines = {"TILE=4", "OTHER", "TILE"};
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("-DTILE", {"8", "16"}), listAxis("-D FLAG", {"1"})}), request);
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points[1].request.options.defines,
             (std::vector<std::string>{"OTHER", "TILE=16", "FLAG=1"}));
    QCOMPARE(expansion.points[1].label(), std::string("TILE=16 FLAG=1"));
}

void TestSweepExpand::appliesCompileFlags()
{
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("-maxrregcount", {"0", "32", "8"}),
                            listAxis("--use_fast_math", {"0", "on"})}),
                    baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points.size(), std::size_t(6));
    QCOMPARE(expansion.points[0].request.options.maxRegisters, 0);
    QVERIFY(!expansion.points[0].request.options.fastMath);
    QCOMPARE(expansion.points[3].request.options.maxRegisters, 32);
    QVERIFY(expansion.points[3].request.options.fastMath);
    QVERIFY(expansion.points[3].runnable());
    QCOMPARE(expansion.points[4].skipReason,
             std::string("maxrregcount 8 is out of range; use 0 (no limit) or 16 to 255"));
    QCOMPARE(expansion.points[3].label(), std::string("maxrregcount=32 use_fast_math=on"));

    const SweepExpansion notANumber =
        expandSweep(specOf({listAxis("-maxrregcount", {"lots"})}), baseRequest());
    QCOMPARE(notANumber.error,
             std::string("axis 1 (-maxrregcount): `lots` is not a whole number of registers"));
    const SweepExpansion notASwitch =
        expandSweep(specOf({listAxis("--use_fast_math", {"maybe"})}), baseRequest());
    QCOMPARE(notASwitch.error,
             std::string("axis 1 (--use_fast_math): `maybe` is not 1 or 0 (on or off)"));
}

void TestSweepExpand::presetsExpand()
{
    const auto &presets = sweepPresets();
    QCOMPARE(presets.size(), std::size_t(2));
    const SweepExpansion step32 = expandSweep(presets[0].spec, baseRequest(), &sm90());
    QCOMPARE(step32.points.size(), std::size_t(32));
    QCOMPARE(step32.runnableCount(), std::size_t(32));
    QCOMPARE(step32.points.back().label(), std::string("block.x=1024"));
    const SweepExpansion pow2 = expandSweep(presets[1].spec, baseRequest(), &sm90());
    QCOMPARE(labels(pow2),
             (std::vector<std::string>{"block.x=32", "block.x=64", "block.x=128", "block.x=256",
                                       "block.x=512", "block.x=1024"}));
    QCOMPARE(presets[1].spec.settings.fixedSamples, 20);
    QCOMPARE(presets[1].spec.settings.mode, SampleMode::Hot);
}

void TestSweepExpand::labelsNameEachAxis()
{
    SweepPoint point;
    point.values = {{"block.x", "32"}, {"block.y", "8"}, {"-DTILE", "16"}, {"N", "1<<20"}};
    QCOMPARE(point.label(), std::string("block.x=32 block.y=8 TILE=16 N=1<<20"));
}

void TestSweepExpand::groupsCombineAsProduct()
{
    SweepAxis bx = listAxis("block.x", {"16", "32"});
    SweepAxis by = listAxis("block.y", {"16", "8"});
    bx.group = by.group = "block";
    SweepAxis tile = listAxis("-DTILE", {"1", "2", "4"});
    const SweepExpansion expansion = expandSweep(specOf({bx, tile, by}), baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(labels(expansion), (std::vector<std::string>{
                                    "block.x=16 TILE=1 block.y=16", "block.x=16 TILE=2 block.y=16",
                                    "block.x=16 TILE=4 block.y=16", "block.x=32 TILE=1 block.y=8",
                                    "block.x=32 TILE=2 block.y=8", "block.x=32 TILE=4 block.y=8"}));
}

void TestSweepExpand::groupOfUnequalLengthsIsAnError()
{
    SweepAxis bx = listAxis("block.x", {"16", "32"});
    SweepAxis by = listAxis("block.y", {"16"});
    bx.group = by.group = "shape";
    const SweepExpansion expansion = expandSweep(specOf({bx, by}), baseRequest());
    QCOMPARE(expansion.error,
             std::string("the axes of group `shape` need the same number of "
                         "values: axis 1 (block.x) has 2, axis 2 (block.y) has 1"));
}

void TestSweepExpand::numericDefineAxisIsVisibleToExpressions()
{
    // The auto-tuners' tiled kernel: the grid divides by block.x × the tile define.
    RunRequest base = baseRequest();
    base.launch.grid = {"ceil(N / (block.x * tile_size_x))", "1", "1"};
    SweepSpec spec = specOf({listAxis("block.x", {"128", "256"}),
                             listAxis("-Dtile_size_x", {"1", "2", "block.x / 64"})});
    spec.constraints = {"block.x * tile_size_x <= 512"};
    const SweepExpansion expansion = expandSweep(spec, base, &sm90());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points.size(), std::size_t(6));
    const SweepPoint &first = expansion.points[0]; // block 128, tile 1
    QVERIFY(first.runnable());
    QCOMPARE(first.grid[0], std::uint64_t(8192));
    QVERIFY(std::find(first.request.options.defines.begin(), first.request.options.defines.end(),
                      "tile_size_x=1") != first.request.options.defines.end());
    const SweepPoint &third = expansion.points[2]; // block 128, tile 128/64 = 2
    QCOMPARE(third.grid[0], std::uint64_t(4096));
    QVERIFY(std::find(third.request.options.defines.begin(), third.request.options.defines.end(),
                      "tile_size_x=2") != third.request.options.defines.end());
    QVERIFY(expansion.points[4].runnable());       // block 256, tile 2: 512 threads' worth of tiles
    const SweepPoint &sixth = expansion.points[5]; // block 256, tile 256/64 = 4: excluded
    QCOMPARE(sixth.skipReason,
             std::string("excluded by the constraint `block.x * tile_size_x <= 512`"));
}

void TestSweepExpand::textDefineAxisIsPassedAsWritten()
{
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("-DREAL", {"float", "double"})}), baseRequest());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points[1].request.options.defines, std::vector<std::string>{"REAL=double"});
    QVERIFY(expansion.points[1].request.launch.defines.empty());
}

void TestSweepExpand::tunerDefinesFollowEachPoint()
{
    RunRequest base = baseRequest();
    base.launch.tunerDefines = true;
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("block.x", {"64", "128"})}), base);
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    const auto &defines = expansion.points[1].request.options.defines;
    QVERIFY(std::find(defines.begin(), defines.end(), "block_size_x=128") != defines.end());
    QVERIFY(std::find(defines.begin(), defines.end(), "grid_size_x=8192") != defines.end());
    // Bound: the worker gets plain numbers, not the convention again.
    QVERIFY(!expansion.points[1].request.launch.tunerDefines);
    QVERIFY(std::find(defines.begin(), defines.end(), "kernel_tuner=1") != defines.end());
}

void TestSweepExpand::skipsSayWhatKindTheyAre()
{
    // A block over the limits, a variable that divides by zero at one point, a constraint,
    // and a -maxrregcount ptxas would refuse: each skip says which it is, for grouping and T4.
    RunRequest base = baseRequest();
    base.launch.variables = {{"N", "1 << 20"}, {"HALF", "N / (block.x - 512)"}};
    SweepSpec spec = specOf(
        {listAxis("block.x", {"256", "512", "2048"}), listAxis("-maxrregcount", {"0", "8"})});
    spec.constraints = {"block.x != 256"};
    const SweepExpansion expansion = expandSweep(spec, base, &sm90());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points.size(), std::size_t(6));
    const std::vector<SkipKind> kinds = {SkipKind::Constraint, SkipKind::Constraint,
                                         SkipKind::Expression, SkipKind::Expression,
                                         SkipKind::Limits,     SkipKind::Compile};
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        QVERIFY2(!expansion.points[k].runnable(), expansion.points[k].label().c_str());
        QCOMPARE(expansion.points[k].skipKind, kinds[k]);
    }
    QVERIFY2(expansion.points[2].skipReason.find("HALF") != std::string::npos,
             expansion.points[2].skipReason.c_str());
    QVERIFY2(expansion.points[5].skipReason.find("maxrregcount 8") != std::string::npos,
             expansion.points[5].skipReason.c_str());
    // A runnable point has no kind.
    const SweepExpansion fine = expandSweep(specOf({listAxis("block.x", {"128"})}), baseRequest());
    QCOMPARE(fine.points[0].skipKind, SkipKind::None);
    QCOMPARE(skipKindName(SkipKind::Resources), std::string("resources"));
    QCOMPARE(skipKindFromName("constraint"), std::optional<SkipKind>(SkipKind::Constraint));
    QVERIFY(!skipKindFromName("bogus"));
}

void TestSweepExpand::dynamicSharedMemoryOfEachPoint()
{
    RunRequest base = baseRequest();
    base.launch.dynamicSharedBytes = "block.x * 4 * 2";
    const SweepExpansion expansion =
        expandSweep(specOf({listAxis("block.x", {"64", "512"})}), base, &sm90());
    QVERIFY2(expansion.ok(), expansion.error.c_str());
    QCOMPARE(expansion.points[0].dynamicSharedBytes, std::uint64_t(512));
    QCOMPARE(expansion.points[1].dynamicSharedBytes, std::uint64_t(4096));
    QCOMPARE(expansion.points[1].block, (std::array<std::uint64_t, 3>{512, 1, 1}));
    QCOMPARE(expansion.points[1].grid, (std::array<std::uint64_t, 3>{2048, 1, 1}));
}

CUWB_TEST_GUILESS_MAIN(TestSweepExpand)
} // namespace tst_sweepexpand
} // namespace

#include "tst_sweepexpand.moc"
