// The live count of a sweep's points (core/sweep/sweepcount.h) without a GPU: exact below the
// limit (skips by the architecture's limits counted, the first one named), the product of the
// axis groups above it (zipped within a group, multiplied across), and the errors of a spec
// that cannot be expanded.
#include "device/archlimits.h"
#include "sweep/sweepcount.h"

#include "../support/sweeptesthelpers.h"

#include <QtTest>

using namespace cuwb;
using namespace cuwb::sweeptest;

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
        // 1000 × 1000 points: counted as a product, and a typo in a target still found.
        std::vector<std::string> thousand;
        for (int i = 1; i <= 1000; ++i)
            thousand.push_back(std::to_string(i));
        SweepCount count =
            countSweep(specOf({listAxis("N", thousand), listAxis("block.x", thousand)}),
                       addOneRequest(), nullptr);
        QVERIFY2(count.error.empty(), count.error.c_str());
        QVERIFY(!count.exact);
        QCOMPARE(count.points, std::size_t(1000000));

        count = countSweep(specOf({listAxis("N", thousand), listAxis("no_such_name", thousand)}),
                           addOneRequest(), nullptr);
        QVERIFY2(!count.error.empty(), "an unknown target in a large sweep");

        // Past the most points a sweep may have: the expansion's own error.
        count = countSweep(specOf({listAxis("N", thousand), listAxis("block.x", thousand),
                                   listAxis("block.y", {"1", "2"})}),
                           addOneRequest(), nullptr);
        QVERIFY2(count.error.find("more than 1000000 points") != std::string::npos,
                 count.error.c_str());
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

QTEST_GUILESS_MAIN(TestSweepCount)
#include "tst_sweepcount.moc"
