// Device attributes as names of the launch's expressions: from a device, from the catalogue's
// device of an architecture, from the limits alone; what an expression that names one that is
// not known is told; and a grid sized from the SM count, as a program sizes it from
// cudaGetDeviceProperties.
#include "device/devicecatalogue.h"
#include "kernel/kernelsignature.h"
#include "launch/devicenames.h"
#include "launch/launchenvironment.h"
#include "launch/launchspec.h"

#include "../support/devicefixtures.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_devicenames {

class TestDeviceNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fromTheDevice();
    void fromTheCatalogue();
    void fromTheLimitsAlone();
    void everyNameIsListed();
    void gridFromTheSmCount();
    void unknownNamesAreExplained();
    void projectNamesWin();
    void bindUsesTheDevice();
};

void TestDeviceNames::fromTheDevice()
{
    DeviceInfo device = testing::h200();
    device.maxThreadsPerSm = 2048;
    device.sharedPerSmBytes = 233472;
    device.totalMemoryBytes = 150109880320ULL;
    const DeviceNames names = deviceNamesOf(device);
    QCOMPARE(names.values.at("device.smCount"), 132.0);
    QCOMPARE(names.values.at("device.l2Bytes"), double(60 * 1024 * 1024));
    QCOMPARE(names.values.at("device.clockKHz"), 1980000.0);
    QCOMPARE(names.values.at("device.maxThreadsPerSM"), 2048.0);
    QCOMPARE(names.values.at("device.sharedPerSM"), 233472.0);
    QCOMPARE(names.values.at("device.warpSize"), 32.0);
    QCOMPARE(names.values.at("device.memoryBytes"), 150109880320.0);
    QCOMPARE(names.values.at("device.computeCapability"), 90.0);
    QCOMPARE(names.values.at("device.minor"), 0.0);
    QCOMPARE(names.source, std::string("NVIDIA H200 (the device)"));
    QCOMPARE(names.arch, std::string("sm_90"));
}

void TestDeviceNames::fromTheCatalogue()
{
    const std::optional<DeviceInfo> h200 = catalogueDevice("sm_90a");
    QVERIFY(h200);
    QCOMPARE(h200->smCount, 132);
    const DeviceNames names = deviceNamesForArch("sm_90");
    QCOMPARE(names.values.at("device.smCount"), 132.0);
    QCOMPARE(names.values.at("device.maxSharedPerBlockOptin"), double(227 * 1024));
    QVERIFY2(names.source.find("catalogue entry for sm_90") != std::string::npos,
             names.source.c_str());
    // An A100 is not an H200: each architecture has its own.
    QCOMPARE(deviceNamesForArch("sm_80").values.at("device.smCount"), 108.0);
    QCOMPARE(deviceNamesForArch("sm_75").values.at("device.maxThreadsPerSM"), 1024.0);
    // Figures the catalogue does not give are absent, not zero.
    QVERIFY(names.values.count("device.memoryClockKHz") == 0);
}

void TestDeviceNames::fromTheLimitsAlone()
{
    QVERIFY(!catalogueDevice("sm_100"));
    const DeviceNames names = deviceNamesForArch("sm_100");
    QVERIFY(names.values.count("device.smCount") == 0);
    QCOMPARE(names.values.at("device.maxThreadsPerSM"), 2048.0);
    QCOMPARE(names.values.at("device.computeCapability"), 100.0);
    QVERIFY2(names.source.find("sm_100 limits") != std::string::npos, names.source.c_str());
    QVERIFY(deviceNamesForArch("sm_13").source.empty()); // an architecture not known here
}

void TestDeviceNames::everyNameIsListed()
{
    // Every name a device gives is documented, and a device with every figure gives every name.
    DeviceInfo device = testing::h200();
    device.totalMemoryBytes = 1;
    const DeviceNames names = deviceNamesOf(device);
    for (const auto &entry : names.values) {
        const std::string &name = entry.first;
        const auto &list = deviceNameList();
        QVERIFY2(std::any_of(list.begin(), list.end(),
                             [&](const DeviceNameInfo &info) { return name == info.name; }),
                 name.c_str());
    }
    QCOMPARE(names.values.size(), deviceNameList().size());
}

void TestDeviceNames::gridFromTheSmCount()
{
    LaunchSpec spec;
    spec.variables = {{"BLOCKS_PER_SM", "4"}};
    spec.block = {"device.maxThreadsPerSM / 8", "1", "1"};
    spec.grid = {"device.smCount * BLOCKS_PER_SM", "1", "1"};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec, {}, deviceNamesForArch("sm_90"));
    QVERIFY(env.ok());
    QCOMPARE(env.values.at("grid.x"), 528.0);
    QCOMPARE(env.values.at("block.x"), 256.0);
    // On an A100 the same project launches 108 * 4 blocks.
    const LaunchEnvironment a100 = evaluateLaunchEnvironment(spec, {}, deviceNamesForArch("sm_80"));
    QCOMPARE(a100.values.at("grid.x"), 432.0);
}

void TestDeviceNames::unknownNamesAreExplained()
{
    LaunchSpec spec;
    spec.grid = {"device.smCount * 2", "1", "1"};
    const LaunchEnvironment noCatalogue =
        evaluateLaunchEnvironment(spec, {}, deviceNamesForArch("sm_100"));
    QCOMPARE(noCatalogue.issues.size(), std::size_t(1));
    QCOMPARE(noCatalogue.issues[0].field, std::string("grid.x"));
    QVERIFY2(noCatalogue.issues[0].message.find("not known without a GPU for sm_100") !=
                 std::string::npos,
             noCatalogue.issues[0].message.c_str());

    spec.grid = {"device.smcount", "1", "1"}; // a typo: the names are listed
    const LaunchEnvironment typo = evaluateLaunchEnvironment(spec, {}, deviceNamesForArch("sm_90"));
    QCOMPARE(typo.issues.size(), std::size_t(1));
    QVERIFY2(typo.issues[0].message.find("unknown device attribute 'device.smcount'") !=
                     std::string::npos &&
                 typo.issues[0].message.find("device.smCount") != std::string::npos,
             typo.issues[0].message.c_str());

    spec.grid = {"device.smCount", "1", "1"};
    const LaunchEnvironment none = evaluateLaunchEnvironment(spec);
    QVERIFY2(none.issues[0].message.find("no device and no architecture") != std::string::npos,
             none.issues[0].message.c_str());

    // resolveLaunch explains them in the fields it evaluates itself too (a count).
    KernelSignature signature;
    KernelParameter out;
    out.name = "out";
    out.isPointer = true;
    out.elementType = *parseElementType("float");
    signature.parameters = {out};
    LaunchSpec launch;
    launch.grid = {"1", "1", "1"};
    ArgumentSpec argument;
    argument.parameter = "out";
    argument.count = "device.l2Bytes / 4";
    argument.role = BufferRole::Out;
    launch.arguments = {argument};
    const ResolvedLaunch resolved =
        resolveLaunch(launch, signature, {}, deviceNamesForArch("sm_110"));
    QCOMPARE(resolved.issues.size(), std::size_t(1));
    QVERIFY2(resolved.issues[0].message.find("device.l2Bytes is not known without a GPU") !=
                 std::string::npos,
             resolved.issues[0].message.c_str());
    QCOMPARE(resolveLaunch(launch, signature, {}, deviceNamesForArch("sm_90")).buffers[0].count,
             std::uint64_t(60 * 1024 * 1024 / 4));
}

void TestDeviceNames::projectNamesWin()
{
    LaunchSpec spec;
    spec.variables = {{"device.smCount", "7"}};
    spec.grid = {"device.smCount", "1", "1"};
    const LaunchEnvironment env = evaluateLaunchEnvironment(spec, {}, deviceNamesForArch("sm_90"));
    QVERIFY(env.ok());
    QCOMPARE(env.values.at("grid.x"), 7.0);
}

void TestDeviceNames::bindUsesTheDevice()
{
    // A define computed from the device becomes its -D value for that device.
    LaunchSpec launch;
    launch.variables = {{"N", "1024"}};
    launch.defines = {{"WAVES", "device.smCount * 2"}};
    CompileOptions options;
    QVERIFY(bindLaunchDefines(launch, options, {}, deviceNamesForArch("sm_80")).empty());
    QVERIFY(std::find(options.defines.begin(), options.defines.end(), "WAVES=216") !=
            options.defines.end());
    LaunchSpec unknown;
    unknown.variables = {{"N", "1024"}};
    unknown.defines = {{"WAVES", "device.smCount * 2"}};
    CompileOptions other;
    const std::vector<LaunchIssue> issues = bindLaunchDefines(unknown, other, {});
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("defines: WAVES"));
}

CUWB_TEST_GUILESS_MAIN(TestDeviceNames)
} // namespace tst_devicenames
} // namespace

#include "tst_devicenames.moc"
