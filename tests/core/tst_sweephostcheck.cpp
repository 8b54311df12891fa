// The host check of sweep points without a GPU, with real NVRTC compiles: every variant is
// compiled once (in parallel for a plan), what ptxas rejects is a skip with its words, and
// the compile time belongs to the first point of each variant.
#include "sweep/sweephostcheck.h"

#include "../support/sweeptesthelpers.h"

#include <QtTest>

using namespace cuwb;
using namespace cuwb::sweeptest;

class TestSweepHostCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("CUWB_CACHE_DIR", "off"); }
    void planCompilesEachVariantOnce();
    void precompiledVariantsCountAsTheirFirstPoints();
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

QTEST_GUILESS_MAIN(TestSweepHostCheck)
#include "tst_sweephostcheck.moc"
