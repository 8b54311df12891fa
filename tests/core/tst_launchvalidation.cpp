// Launch validation: every message, each naming the field and the limit it broke.
#include "compilertesthelpers.h"

#include "compiler/kernelinfo.h"
#include "launch/launchvalidation.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchvalidation {

namespace {

ValidationContext sm90()
{
    const auto limits = archLimits("sm_90");
    if (!limits)
        qFatal("sm_90 unknown");
    return ValidationContext{*limits, "sm_90", std::nullopt};
}

ResolvedLaunch launch(std::array<std::uint64_t, 3> grid, std::array<std::uint64_t, 3> block)
{
    ResolvedLaunch resolved;
    resolved.grid = grid;
    resolved.block = block;
    return resolved;
}

std::vector<std::string> check(const ResolvedLaunch &resolved,
                               const KernelResources &resources = {},
                               const ValidationContext &context = sm90())
{
    std::vector<std::string> result;
    for (const LaunchIssue &issue : validateLaunch(resolved, resources, context))
        result.push_back(issue.field + ": " + issue.message);
    return result;
}

} // namespace

class TestLaunchValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validLaunchHasNoIssues();
    void resolveIssuesComeFirst();
    void threadsPerBlock();
    void launchBounds();
    void blockDimensions();
    void gridDimensions();
    void threadCountOverflow();
    void sharedMemory();
    void sharedMemoryOptIn();
    void sharedMemoryWithoutOptIn();
    void registers();
    void freeMemory();
    void bufferOverflow();
    void deviceNameInMessages();
};

void TestLaunchValidation::validLaunchHasNoIssues()
{
    ResolvedLaunch resolved = launch({4096, 1, 1}, {256, 1, 1});
    resolved.buffers.resize(3);
    for (ResolvedBuffer &buffer : resolved.buffers)
        buffer.bytes = 4 << 20;
    KernelResources resources;
    resources.reported = true;
    resources.registers = 16;
    QCOMPARE(check(resolved, resources), std::vector<std::string>{});
}

void TestLaunchValidation::resolveIssuesComeFirst()
{
    ResolvedLaunch resolved = launch({1, 1, 1}, {2048, 1, 1});
    resolved.issues.push_back({"variables: N", "unknown variable 'M'", 4});
    const std::vector<LaunchIssue> issues = validateLaunch(resolved, {}, sm90());
    QCOMPARE(issues.size(), std::size_t(3));
    QCOMPARE(issues[0].field, std::string("variables: N"));
    QCOMPARE(issues[0].position, 4);
}

void TestLaunchValidation::threadsPerBlock()
{
    QCOMPARE(check(launch({1, 1, 1}, {64, 32, 1})),
             std::vector<std::string>{"block: block has 2048 threads; sm_90 allows 1024"});
}

void TestLaunchValidation::launchBounds()
{
    // __launch_bounds__(128): a larger block would fail in cuLaunchKernel with a bare
    // CUDA_ERROR_INVALID_VALUE; it is named here instead.
    KernelResources resources;
    resources.maxThreadsPerBlock = 128;
    QCOMPARE(check(launch({16, 1, 1}, {128, 1, 1}), resources), std::vector<std::string>{});
    QCOMPARE(check(launch({16, 1, 1}, {64, 4, 1}), resources),
             std::vector<std::string>{
                 "block: block has 256 threads; the kernel's __launch_bounds__ allows 128"});
}

void TestLaunchValidation::blockDimensions()
{
    const std::vector<std::string> expected{
        "block.x: block.x is 2048; sm_90 allows 1024",
        "block.z: block.z is 128; sm_90 allows 64",
        "block: block has 262144 threads; sm_90 allows 1024",
    };
    QCOMPARE(check(launch({1, 1, 1}, {2048, 1, 128})), expected);
    QCOMPARE(check(launch({1, 1, 1}, {1, 1025, 1})),
             (std::vector<std::string>{"block.y: block.y is 1025; sm_90 allows 1024",
                                       "block: block has 1025 threads; sm_90 allows 1024"}));
}

void TestLaunchValidation::gridDimensions()
{
    const std::vector<std::string> expected{
        "grid.x: grid.x is 2147483648; sm_90 allows 2147483647",
        "grid.y: grid.y is 70000; sm_90 allows 65535",
        "grid.z: grid.z is 65536; sm_90 allows 65535",
    };
    QCOMPARE(check(launch({2147483648ull, 70000, 65536}, {1, 1, 1})), expected);
}

void TestLaunchValidation::threadCountOverflow()
{
    const std::uint64_t huge = std::uint64_t(1) << 40;
    const std::vector<std::string> issues = check(launch({huge, huge, 1}, {1, 1, 1}));
    QVERIFY(std::find(issues.begin(), issues.end(),
                      "grid: grid × block is more than 2^64 threads, which no index can count") !=
            issues.end());
    QCOMPARE(check(launch({1, 1, 1}, {huge, huge, 1})).back(),
             std::string("block: block has more than 2^64 threads; sm_90 allows 1024"));
}

void TestLaunchValidation::sharedMemory()
{
    ResolvedLaunch resolved = launch({1, 1, 1}, {256, 1, 1});
    KernelResources resources;
    resources.staticSharedBytes = 1024;
    resolved.dynamicSharedBytes = 232448;
    QCOMPARE(check(resolved, resources),
             std::vector<std::string>{"shared memory: 1024 static + 232448 dynamic = 233472 bytes; "
                                      "sm_90 allows 49152 without opt-in and 232448 with it"});
}

void TestLaunchValidation::sharedMemoryOptIn()
{
    // Above 48 KB but within the opt-in limit: valid, and the worker must opt in.
    ResolvedLaunch resolved = launch({1, 1, 1}, {256, 1, 1});
    KernelResources resources;
    resources.staticSharedBytes = 1024;
    resolved.dynamicSharedBytes = 65536;
    QCOMPARE(check(resolved, resources), std::vector<std::string>{});
    QCOMPARE(sharedMemoryBytes(resolved, resources), std::uint64_t(66560));
    QVERIFY(needsSharedMemoryOptIn(resolved, resources, sm90().limits));
    resolved.dynamicSharedBytes = 1024;
    QVERIFY(!needsSharedMemoryOptIn(resolved, resources, sm90().limits));
}

void TestLaunchValidation::sharedMemoryWithoutOptIn()
{
    ValidationContext context = sm90();
    context.limits.sharedPerBlockOptinBytes = 0;
    context.limitsName = "an old GPU";
    ResolvedLaunch resolved = launch({1, 1, 1}, {32, 1, 1});
    resolved.dynamicSharedBytes = 65536;
    QCOMPARE(check(resolved, {}, context),
             std::vector<std::string>{
                 "shared memory: 0 static + 65536 dynamic = 65536 bytes; an old GPU allows 49152"});
}

void TestLaunchValidation::registers()
{
    KernelResources resources;
    resources.reported = true;
    resources.registers = 128;
    QCOMPARE(check(launch({1, 1, 1}, {1024, 1, 1}), resources),
             std::vector<std::string>{"registers: 128 per thread × 1024 threads = 131072; sm_90 "
                                      "allows 65536 per block"});
    QCOMPARE(check(launch({1, 1, 1}, {512, 1, 1}), resources), std::vector<std::string>{});
    resources.reported = false; // nothing known: nothing claimed
    QCOMPARE(check(launch({1, 1, 1}, {1024, 1, 1}), resources), std::vector<std::string>{});
}

void TestLaunchValidation::freeMemory()
{
    ResolvedLaunch resolved = launch({1, 1, 1}, {32, 1, 1});
    resolved.buffers.resize(3);
    for (ResolvedBuffer &buffer : resolved.buffers)
        buffer.bytes = std::uint64_t(50) << 30;
    ValidationContext context = sm90();
    context.limitsName = "NVIDIA H200";
    context.freeMemoryBytes = std::uint64_t(139) << 30;
    QCOMPARE(check(resolved, {}, context),
             std::vector<std::string>{
                 "buffers: buffers need 150.00 GiB; NVIDIA H200 has 139.00 GiB free"});
    context.freeMemoryBytes.reset(); // without a device nothing is known
    QCOMPARE(check(resolved, {}, context), std::vector<std::string>{});
}

void TestLaunchValidation::bufferOverflow()
{
    ResolvedLaunch resolved = launch({1, 1, 1}, {32, 1, 1});
    resolved.buffers.resize(2);
    resolved.buffers[0].bytes = std::numeric_limits<std::uint64_t>::max() - 10;
    resolved.buffers[1].bytes = 100;
    QCOMPARE(check(resolved),
             std::vector<std::string>{"buffers: the buffers together need more than 2^64 bytes"});
}

void TestLaunchValidation::deviceNameInMessages()
{
    ValidationContext context = sm90();
    context.limitsName = "NVIDIA H200";
    QCOMPARE(check(launch({1, 1, 1}, {2048, 1, 1}), {}, context).back(),
             std::string("block: block has 2048 threads; NVIDIA H200 allows 1024"));
}

CUWB_TEST_GUILESS_MAIN(TestLaunchValidation)
} // namespace tst_launchvalidation
} // namespace

#include "tst_launchvalidation.moc"
