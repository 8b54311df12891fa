// The host check of sweep points without a GPU, with real NVRTC compiles: every variant is
// compiled once (in parallel for a plan), what ptxas rejects is a skip with its words and its
// kind, skips group by reason with compile failures first, the compile time belongs to the
// first point of each variant, and a second plan finds every variant in the compile cache on
// disk, a failing one included, while a compile that could not run is compiled again.
#include "sweep/sweephostcheck.h"

#include "compiler/kernelcompiler.h"

#include "../support/sweeptesthelpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sweephostcheck {

class TestSweepHostCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("CUWB_CACHE_DIR", "off"); }
    void planCompilesEachVariantOnce();
    void precompiledVariantsCountAsTheirFirstPoints();
    void skipsGroupWithCompileFailuresFirst();
    void secondPlanFindsEveryVariantInTheCache();
    void compilesThatCouldNotRunAreCompiledAgain();
};

namespace {

// add_one with a shared tile sized by TILE: TILE=16384 floats is 64 KB, which ptxas refuses.
const char *const kTiledSource =
    R"(__global__ void add_one(const float *a, float *c, int n)
{
    __shared__ float tile[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x % TILE] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n)
        c[i] = tile[threadIdx.x % TILE] + 1.0f;
}
)";

SweepSpec tiledSpec()
{
    SweepSpec spec;
    spec.axes = {listAxis("block.x", {"128", "256"}), listAxis("-DTILE", {"256", "1024", "16384"})};
    return spec;
}

} // namespace

void TestSweepHostCheck::planCompilesEachVariantOnce()
{
    const SweepPlan plan = planSweep(tiledSpec(), addOneRequest(kTiledSource), "sm_90");
    QVERIFY2(plan.result.error.empty(), plan.result.error.c_str());
    QCOMPARE(plan.result.points.size(), std::size_t(6));
    QCOMPARE(plan.variants, std::size_t(3)); // TILE's three values; block.x is no define
    QCOMPARE(plan.compiles, std::size_t(3));
    QCOMPARE(plan.runnable(), std::size_t(4));
    for (const SweepPointResult &r : plan.result.points) {
        const bool tooLarge = r.point.label().find("TILE=16384") != std::string::npos;
        QCOMPARE(r.status, tooLarge ? PointStatus::Skipped : PointStatus::Pending);
        if (tooLarge) {
            QVERIFY(r.compileFailed);
            QVERIFY2(r.message.find("uses too much shared data") != std::string::npos,
                     r.message.c_str());
        } else {
            QVERIFY(r.theoreticalOccupancy.has_value());
            QCOMPARE(r.staticSharedBytes,
                     r.point.label().find("TILE=256") != std::string::npos ? 1024 : 4096);
        }
    }
}

void TestSweepHostCheck::precompiledVariantsCountAsTheirFirstPoints()
{
    const ArchLimits limits = archLimits("sm_90").value();
    const SweepExpansion expansion = expandSweep(tiledSpec(), addOneRequest(kTiledSource), &limits);
    QVERIFY(expansion.ok());
    ValidationContext validation;
    validation.limits = limits;
    validation.limitsName = "sm_90";
    SweepHostCheck host("sm_90", validation);
    std::vector<const RunRequest *> requests;
    for (const SweepPoint &point : expansion.points)
        requests.push_back(&point.request);
    host.precompile(requests, 3);
    QCOMPARE(host.compiles(), std::size_t(3));
    // In expansion order block.x varies slowest: TILE=256 first at point 0, again at point 3.
    const HostPointCheck first = host.check(expansion.points[0].request);
    const HostPointCheck again = host.check(expansion.points[3].request);
    QVERIFY(first.firstCompile);
    QVERIFY(first.compileMs > 0.0);
    QVERIFY(!again.firstCompile);
    QCOMPARE(again.compileMs, 0.0);
    QCOMPARE(first.compiled.get(), again.compiled.get());
    QCOMPARE(host.compiles(), std::size_t(3)); // nothing compiled twice
}

void TestSweepHostCheck::skipsGroupWithCompileFailuresFirst()
{
    // A constraint excludes four points before the one ptxas rejects: the groups put the
    // compile failure first, named with ptxas' words, then the exclusions, counted.
    SweepSpec spec;
    spec.axes = {listAxis("-DTILE", {"256", "16384"}),
                 listAxis("block.x", {"32", "64", "128", "256"})};
    spec.constraints = {"block.x >= 256 || TILE == 16384"};
    const SweepPlan plan = planSweep(spec, addOneRequest(kTiledSource), "sm_90");
    QVERIFY2(plan.result.error.empty(), plan.result.error.c_str());
    QCOMPARE(plan.result.points.size(), std::size_t(8));
    const std::vector<SkipGroup> groups = groupSkips(plan.result.points);
    QCOMPARE(groups.size(), std::size_t(2));
    QCOMPARE(groups[0].kind, SkipKind::Compile);
    QCOMPARE(groups[0].points.size(), std::size_t(4)); // TILE=16384 at every block.x
    QVERIFY2(groups[0].reason.find("uses too much shared data") != std::string::npos,
             groups[0].reason.c_str());
    QCOMPARE(groups[1].kind, SkipKind::Constraint);
    QCOMPARE(groups[1].points, (std::vector<std::size_t>{0, 1, 2}));
    QCOMPARE(groups[1].reason,
             std::string("excluded by the constraint `block.x >= 256 || TILE == 16384`"));
    // Every skipped point carries its reason and kind in the point itself (the JSON's
    // skipReason), the compile-time ones included.
    for (const SweepPointResult &r : plan.result.points) {
        if (r.status != PointStatus::Skipped)
            continue;
        QCOMPARE(r.point.skipReason, r.message);
        QVERIFY(r.point.skipKind != SkipKind::None);
        QCOMPARE(r.compileFailed, r.point.skipKind == SkipKind::Compile);
    }
    QVERIFY(namesEachPoint(SkipKind::Compile));
    QVERIFY(!namesEachPoint(SkipKind::Constraint));
}

void TestSweepHostCheck::secondPlanFindsEveryVariantInTheCache()
{
    QTemporaryDir cache;
    qputenv("CUWB_CACHE_DIR", cache.path().toUtf8());
    const SweepPlan first = planSweep(tiledSpec(), addOneRequest(kTiledSource), "sm_90");
    const SweepPlan second = planSweep(tiledSpec(), addOneRequest(kTiledSource), "sm_90");
    qputenv("CUWB_CACHE_DIR", "off");
    QCOMPARE(first.variants, std::size_t(3));
    QCOMPARE(first.compiles, std::size_t(3));
    // The variant ptxas rejects is not compiled again either.
    QCOMPARE(second.variants, std::size_t(3));
    QCOMPARE(second.compiles, std::size_t(0));
    QCOMPARE(second.result.points.size(), first.result.points.size());
    for (std::size_t k = 0; k < first.result.points.size(); ++k) {
        QCOMPARE(second.result.points[k].status, first.result.points[k].status);
        QCOMPARE(second.result.points[k].message, first.result.points[k].message);
        QCOMPARE(second.result.points[k].compileFailed, first.result.points[k].compileFailed);
        QCOMPARE(second.result.points[k].registersPerThread,
                 first.result.points[k].registersPerThread);
    }
}

void TestSweepHostCheck::compilesThatCouldNotRunAreCompiledAgain()
{
    // Through a compile function (the window's compile server): TILE=1024 "crashes" the server
    // the first time. The crash is a skip with its words, never a cached result.
    QTemporaryDir cache;
    qputenv("CUWB_CACHE_DIR", cache.path().toUtf8());
    KernelCompiler compiler(0);
    std::atomic<int> calls{0};
    std::atomic<bool> crash{true};
    const CompileFunction server = [&](std::string_view source, std::string_view fileName,
                                       const CompileOptions &options) {
        ++calls;
        const bool big = std::find(options.defines.begin(), options.defines.end(), "TILE=1024") !=
                         options.defines.end();
        if (big && crash.load()) {
            CompileResult crashed;
            crashed.fileName = std::string(fileName);
            crashed.options = options;
            crashed.failureMessage = "the compiler process crashed (SIGSEGV)";
            return crashed;
        }
        return compiler.compile(source, fileName, options);
    };
    const ArchLimits limits = archLimits("sm_90").value();
    ValidationContext validation;
    validation.limits = limits;
    validation.limitsName = "sm_90";
    const SweepExpansion expansion = expandSweep(tiledSpec(), addOneRequest(kTiledSource), &limits);
    QVERIFY(expansion.ok());
    {
        SweepHostCheck host("sm_90", validation, 0, server);
        for (const SweepPoint &point : expansion.points) {
            const HostPointCheck checked = host.check(point.request);
            if (point.label().find("TILE=1024") != std::string::npos) {
                QVERIFY(!checked.runnable);
                QCOMPARE(checked.skipKind, SkipKind::Compile);
                QVERIFY2(checked.message.find("crashed") != std::string::npos,
                         checked.message.c_str());
            }
        }
        QCOMPARE(calls.load(), 3);
    }
    crash = false;
    calls = 0;
    {
        SweepHostCheck host("sm_90", validation, 0, server);
        for (const SweepPoint &point : expansion.points) {
            const HostPointCheck checked = host.check(point.request);
            if (point.label().find("TILE=1024") != std::string::npos)
                QVERIFY2(checked.runnable, checked.message.c_str());
        }
        // Only the variant whose compile crashed ran again; the other two (one of them a
        // ptxas failure) came from the cache.
        QCOMPARE(calls.load(), 1);
        QCOMPARE(host.compiles(), std::size_t(1));
    }
    qputenv("CUWB_CACHE_DIR", "off");
}

CUWB_TEST_GUILESS_MAIN(TestSweepHostCheck)
} // namespace tst_sweephostcheck
} // namespace

#include "tst_sweephostcheck.moc"
