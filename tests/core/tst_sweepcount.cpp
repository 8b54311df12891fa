// The live count of a sweep's points (core/sweep/sweepcount.h) without a GPU: exact below the
// limit (skips by the architecture's limits counted, the first one named), the product of the
// axis groups above it (zipped within a group, multiplied across), and the errors of a spec
// that cannot be expanded.
#include "device/archlimits.h"
#include "sweep/sweepcount.h"

#include "../support/sweeptesthelpers.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sweepcount {

namespace {

SweepSpec specOf(std::vector<SweepAxis> axes)
{
    SweepSpec spec;
    spec.axes = std::move(axes);
    return spec;
}

SweepAxis grouped(SweepAxis axis, const char *group)
{
    axis.group = group;
    return axis;
}

} // namespace

class TestSweepCount : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exactCountNamesTheFirstSkip()
    {
        const ArchLimits limits = archLimits("sm_90").value();
        const SweepCount count =
            countSweep(specOf({listAxis("block.x", {"256", "1024", "2048", "4096"})}),
                       addOneRequest(), &limits);
        QVERIFY2(count.error.empty(), count.error.c_str());
        QVERIFY(count.exact);
        QCOMPARE(count.points, std::size_t(4));
        QCOMPARE(count.runnable, std::size_t(2));
        QVERIFY2(count.firstSkip.rfind("block.x=2048: ", 0) == 0, count.firstSkip.c_str());

        // Without an architecture nothing is skipped for a device limit.
        const SweepCount unknown =
            countSweep(specOf({listAxis("block.x", {"256", "1024", "2048", "4096"})}),
                       addOneRequest(), nullptr);
        QCOMPARE(unknown.runnable, std::size_t(4));
    }

    void groupsAreZippedThenMultiplied()
    {
        // block.x and N zipped (4 values), block.y on its own (3): 12 points, exact or not.
        const SweepSpec spec =
            specOf({grouped(listAxis("block.x", {"32", "64", "128", "256"}), "shape"),
                    grouped(listAxis("N", {"1024", "2048", "4096", "8192"}), "shape"),
                    listAxis("block.y", {"1", "2", "4"})});
        const SweepCount exact = countSweep(spec, addOneRequest(), nullptr);
        QVERIFY2(exact.error.empty(), exact.error.c_str());
        QCOMPARE(exact.points, std::size_t(12));
        QVERIFY(exact.exact);

        const SweepCount estimated = countSweep(spec, addOneRequest(), nullptr, 10);
        QVERIFY2(estimated.error.empty(), estimated.error.c_str());
        QVERIFY(!estimated.exact);
        QCOMPARE(estimated.points, std::size_t(12));
        QCOMPARE(estimated.runnable, std::size_t(12));
    }

    void largeSweepsAreCheckedOnAProbe()
    {
        // 100 × 100 points above the exact limit asked for: counted as a product, and a typo
        // in a target still found.
        std::vector<std::string> hundred;
        for (int i = 1; i <= 100; ++i)
            hundred.push_back(std::to_string(i));
        SweepCount count =
            countSweep(specOf({listAxis("N", hundred), listAxis("block.x", hundred)}),
                       addOneRequest(), nullptr, 1000);
        QVERIFY2(count.error.empty(), count.error.c_str());
        QVERIFY(!count.exact);
        QCOMPARE(count.points, kMaxSweepPoints);

        count = countSweep(specOf({listAxis("N", hundred), listAxis("no_such_name", hundred)}),
                           addOneRequest(), nullptr, 1000);
        QVERIFY2(!count.error.empty(), "an unknown target in a large sweep");

        // Past the most points a sweep may have: the expansion's own error, with the count.
        count = countSweep(specOf({listAxis("N", hundred), listAxis("block.x", hundred),
                                   listAxis("block.y", {"1", "2"})}),
                           addOneRequest(), nullptr);
        QCOMPARE(count.error, std::string("the sweep has 20,000 points (100 × 100 × 2); the limit "
                                          "is 10,000 points: narrow an axis, or split the study "
                                          "into several sweeps"));
    }

    void unequalGroupIsAnError()
    {
        const SweepCount count =
            countSweep(specOf({grouped(listAxis("block.x", {"32", "64"}), "g"),
                               grouped(listAxis("N", {"1024", "2048", "4096"}), "g")}),
                       addOneRequest(), nullptr, 1);
        QVERIFY2(count.error.find("group `g`") != std::string::npos, count.error.c_str());
    }
};

CUWB_TEST_GUILESS_MAIN(TestSweepCount)
} // namespace tst_sweepcount
} // namespace

#include "tst_sweepcount.moc"
