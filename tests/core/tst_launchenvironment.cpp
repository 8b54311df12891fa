// The launch environment: variables, expression-valued defines, tuner defines, block and
// grid evaluated together in dependency order, cycles named, and binding a launch's defines
// into compile options and plain variables.
#include "launch/launchenvironment.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchenvironment {

class TestLaunchEnvironment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anyOrder();
    void tunerDefines();
    void numericCompileDefinesAreVisible();
    void cycleIsNamed();
    void failureIsReportedOnce();
    void duplicateNames();
    void tunerDefineAgainstVariable();
    void bindMovesDefinesIntoOptions();
    void bindIsIdempotent();
};

namespace {

LaunchSpec tiledLaunch()
{
    LaunchSpec spec;
    spec.variables = {{"N", "4096"}, {"TILES", "N / tile_size_x"}};
    spec.defines = {{"tile_size_x", "4"}};
    spec.block = {"64", "1", "1"};
    spec.grid = {"ceil(N / (block.x * tile_size_x))", "1", "1"};
    return spec;
}

} // namespace

void TestLaunchEnvironment::anyOrder()
{
    const LaunchEnvironment env = evaluateLaunchEnvironment(tiledLaunch());
    QVERIFY(env.ok());
    QCOMPARE(env.values.at("TILES"), 1024.0);
    QCOMPARE(env.values.at("grid.x"), 16.0);
    QCOMPARE(env.defines.size(), std::size_t(1));
    QCOMPARE(env.defines[0], (std::pair<std::string, std::string>{"tile_size_x", "4"}));
}

void TestLaunchEnvironment::tunerDefines()
{
    LaunchSpec spec = tiledLaunch();
    spec.tunerDefines = true;
    spec.block = {"32", "8", "1"};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec);
    QVERIFY(env.ok());
    std::map<std::string, std::string> defines(env.defines.begin(), env.defines.end());
    QCOMPARE(defines.at("block_size_x"), std::string("32"));
    QCOMPARE(defines.at("block_size_y"), std::string("8"));
    QCOMPARE(defines.at("block_size_z"), std::string("1"));
    QCOMPARE(defines.at("grid_size_x"), std::string("32"));
    QCOMPARE(defines.at("grid_size_y"), std::string("1"));
    QCOMPARE(defines.at("kernel_tuner"), std::string("1")); // as Kernel Tuner defines it
    // A define of the user's own with a tuner name wins over the convention.
    spec.defines.emplace_back("block_size_y", "block.y * 2");
    const LaunchEnvironment own = evaluateLaunchEnvironment(spec);
    std::map<std::string, std::string> ownDefines(own.defines.begin(), own.defines.end());
    QCOMPARE(ownDefines.at("block_size_y"), std::string("16"));
}

void TestLaunchEnvironment::numericCompileDefinesAreVisible()
{
    LaunchSpec spec;
    spec.variables = {{"N", "1 << 20"}};
    spec.grid = {"N / (block.x * TILE)", "1", "1"};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec, {"TILE=4", "TYPE=float", "FAST"});
    QVERIFY(env.ok());
    QCOMPARE(env.values.at("grid.x"), 1024.0);
    QVERIFY(!env.values.count("TYPE"));
    QVERIFY(env.defines.empty()); // compile defines are the options' own, not added again
}

void TestLaunchEnvironment::cycleIsNamed()
{
    LaunchSpec spec;
    spec.variables = {{"N", "1024"}};
    spec.defines = {{"TILE", "block.x / 8"}};
    spec.block = {"TILE * 8", "1", "1"};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec);
    QCOMPARE(env.issues.size(), std::size_t(1));
    QCOMPARE(env.issues[0].field, std::string("defines: TILE"));
    QCOMPARE(env.issues[0].message, std::string("depends on itself: TILE → block.x → TILE"));
}

void TestLaunchEnvironment::failureIsReportedOnce()
{
    LaunchSpec spec;
    spec.variables = {{"N", "M * 2"}, {"HALF", "N / 2"}};
    spec.grid = {"HALF / block.x", "1", "1"};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec);
    QCOMPARE(env.issues.size(), std::size_t(1));
    QCOMPARE(env.issues[0].field, std::string("variables: N"));
    QCOMPARE(env.issues[0].message, std::string("unknown variable 'M'"));
    QVERIFY(!env.values.count("grid.x"));
}

void TestLaunchEnvironment::duplicateNames()
{
    LaunchSpec spec;
    spec.variables = {{"N", "8"}, {"N", "9"}};
    spec.defines = {{"N", "10"}};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec);
    QCOMPARE(env.issues.size(), std::size_t(2));
    QCOMPARE(env.issues[0].message, std::string("is defined twice"));
    QCOMPARE(env.issues[1].field, std::string("defines: N"));
}

void TestLaunchEnvironment::tunerDefineAgainstVariable()
{
    LaunchSpec spec;
    spec.variables = {{"N", "8"}, {"block_size_x", "128"}};
    spec.tunerDefines = true;
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec);
    QCOMPARE(env.issues.size(), std::size_t(1));
    QCOMPARE(env.issues[0].field, std::string("variables: block_size_x"));
}

void TestLaunchEnvironment::bindMovesDefinesIntoOptions()
{
    LaunchSpec launch = tiledLaunch();
    launch.tunerDefines = true;
    CompileOptions options;
    options.defines = {"tile_size_x=2", "USE_SHARED"};
    QVERIFY(bindLaunchDefines(launch, options, {"matmul"}).empty());
    // The launch define replaces the options' definition of the same name.
    QCOMPARE(options.defines,
             (std::vector<std::string>{"USE_SHARED", "tile_size_x=4", "block_size_x=64",
                                       "block_size_y=1", "block_size_z=1", "grid_size_x=16",
                                       "grid_size_y=1", "grid_size_z=1", "kernel_tuner=1"}));
    QVERIFY(launch.defines.empty());
    QVERIFY(!launch.tunerDefines);
    QCOMPARE(launch.variables.front(), (std::pair<std::string, std::string>{"tile_size_x", "4"}));
    // The bound launch evaluates to the same numbers.
    const LaunchEnvironment env = evaluateLaunchEnvironment(launch, options.defines);
    QVERIFY(env.ok());
    QCOMPARE(env.values.at("grid.x"), 16.0);
}

void TestLaunchEnvironment::bindIsIdempotent()
{
    LaunchSpec launch = tiledLaunch();
    CompileOptions options;
    QVERIFY(bindLaunchDefines(launch, options, {}).empty());
    const LaunchSpec once = launch;
    const CompileOptions onceOptions = options;
    QVERIFY(bindLaunchDefines(launch, options, {}).empty());
    QCOMPARE(launch, once);
    QCOMPARE(options, onceOptions);
    // A launch whose defines do not evaluate is left as it was.
    LaunchSpec broken;
    broken.defines = {{"T", "nope"}};
    CompileOptions untouched;
    QVERIFY(!bindLaunchDefines(broken, untouched, {}).empty());
    QCOMPARE(broken.defines.size(), std::size_t(1));
    QVERIFY(untouched.defines.empty());
}

CUWB_TEST_GUILESS_MAIN(TestLaunchEnvironment)
} // namespace tst_launchenvironment
} // namespace

#include "tst_launchenvironment.moc"
