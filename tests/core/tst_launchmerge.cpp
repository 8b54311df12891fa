// A launch kept across a change of its kernel's signature (core/launch/launchmerge.h): the
// arguments whose parameter stays the same kind keep what the user set up, a renamed or
// retyped one gets its default, and the variables the defaults need are added once.
#include "launch/launchmerge.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchmerge {

namespace {

KernelParameter pointer(const char *name, const char *type)
{
    KernelParameter p;
    p.name = name;
    p.isPointer = true;
    p.elementType = parseElementType(type).value();
    p.sizeBytes = 8;
    return p;
}

KernelParameter scalar(const char *name, const char *type)
{
    KernelParameter p;
    p.name = name;
    p.elementType = parseElementType(type).value();
    p.sizeBytes = p.elementType.sizeBytes();
    return p;
}

KernelSignature signature(std::vector<KernelParameter> parameters)
{
    KernelSignature s;
    s.kernelName = "scale";
    s.parameters = std::move(parameters);
    return s;
}

} // namespace

class TestLaunchMerge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keepsWhatStillMatchesAndDefaultsTheRest()
    {
        LaunchSpec previous = defaultLaunchSpec(
            signature({pointer("in", "float"), pointer("out", "float"), scalar("n", "int")}));
        previous.arguments[2].value = "N - 1"; // the user's
        previous.block = {"128", "1", "1"};
        previous.variables = {{"N", "1 << 20"}};

        // `out` renamed to `result`, `in` retyped to double: only `n` keeps the user's value.
        const LaunchSpec merged = mergeLaunch(
            previous,
            signature({pointer("in", "double"), pointer("result", "float"), scalar("n", "int")}));
        QCOMPARE(merged.kernel, std::string("scale"));
        QCOMPARE(merged.arguments.size(), std::size_t(3));
        QCOMPARE(merged.arguments[0].elementType.name(), std::string("double"));
        QCOMPARE(merged.arguments[1].parameter, std::string("result"));
        QCOMPARE(merged.arguments[2].value, std::string("N - 1"));
        QCOMPARE(merged.block, previous.block);
        // N is already a variable: it is not added twice.
        QCOMPARE(std::count_if(merged.variables.begin(), merged.variables.end(),
                               [](const auto &v) { return v.first == "N"; }),
                 1);
        QCOMPARE(merged.variables.front().second, std::string("1 << 20"));
    }

    void unchangedSignatureKeepsEverything()
    {
        const KernelSignature same =
            signature({pointer("in", "float"), pointer("out", "float"), scalar("n", "int")});
        LaunchSpec previous = defaultLaunchSpec(same);
        previous.arguments[0].count = "2 * N";
        previous.grid = {"64", "1", "1"};
        QCOMPARE(mergeLaunch(previous, same), previous);
    }
};

CUWB_TEST_GUILESS_MAIN(TestLaunchMerge)
} // namespace tst_launchmerge
} // namespace

#include "tst_launchmerge.moc"
