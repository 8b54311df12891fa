// Throughput arithmetic worked out by hand for vector_add-like launches on an H200:
// theoretical peak 2 x 3201000 kHz x 6016 bit / 8 = 4814.304 GB/s, copy ceiling 4209 GB/s.
#include "device/deviceinfo.h"
#include "launch/launchspec.h"
#include "measure/throughput.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_throughput {

namespace {

DeviceInfo h200()
{
    DeviceInfo device;
    device.name = "NVIDIA H200";
    device.memoryClockKHz = 3201000;
    device.memoryBusWidthBits = 6016;
    return device;
}

ResolvedBuffer buffer(const char *name, std::uint64_t bytes, BufferRole role)
{
    ResolvedBuffer b;
    b.parameter = name;
    b.count = bytes / 4;
    b.bytes = bytes;
    b.role = role;
    return b;
}

constexpr std::uint64_t GiB = 1ULL << 30;

// vector_add over N = 2^28 floats: a and b read (1 GiB each), c written (1 GiB).
ResolvedLaunch vectorAdd()
{
    ResolvedLaunch launch;
    launch.variables = {{"N", 268435456.0}, {"block.x", 256.0}};
    launch.buffers = {buffer("a", GiB, BufferRole::In), buffer("b", GiB, BufferRole::In),
                      buffer("c", GiB, BufferRole::Out)};
    return launch;
}

bool near(double value, double expected)
{
    return std::abs(value - expected) <= 1e-9 * std::abs(expected);
}

} // namespace

class TestThroughput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theoreticalPeak();
    void defaultBytesFromRoles();
    void vectorAddFigures();
    void bytesExpressionOverrides();
    void flops();
    void exceedingPeakIsAWarning();
    void expressionErrorsAreReported();
    void unknownPeakAndCeiling();
    void noMedian();
};

void TestThroughput::theoreticalPeak()
{
    QVERIFY(near(*theoreticalPeakGBps(h200()), 4814.304));
    QVERIFY(!theoreticalPeakGBps(DeviceInfo{}));
}

void TestThroughput::defaultBytesFromRoles()
{
    QCOMPARE(defaultBytesMoved(vectorAdd()), 3 * GiB);
    ResolvedLaunch saxpy; // y = a * x + y: x read, y read and written
    saxpy.buffers = {buffer("x", GiB, BufferRole::In), buffer("y", GiB, BufferRole::InOut)};
    QCOMPARE(defaultBytesMoved(saxpy), 3 * GiB);
    QCOMPARE(defaultBytesMoved(ResolvedLaunch{}), std::uint64_t(0));
}

void TestThroughput::vectorAddFigures()
{
    // 3 GiB = 3221225472 bytes in a median of 800 us: 3221225472 / 800000 = 4026.53184 GB/s,
    // 83.637% of 4814.304 GB/s and 95.665% of the 4209 GB/s copy ceiling.
    ThroughputOptions options;
    options.copyCeilingGBps = 4209.0;
    const Throughput t = computeThroughput(vectorAdd(), 800000.0, h200(), options);
    QCOMPARE(*t.bytes, 3221225472.0);
    QVERIFY(t.bytesExpression.empty());
    QVERIFY(near(*t.effectiveGBps, 4026.53184));
    QVERIFY(near(*t.theoreticalPeakGBps, 4814.304));
    QVERIFY(near(*t.percentOfPeak, 4026.53184 / 4814.304 * 100.0));
    QVERIFY(std::abs(*t.percentOfPeak - 83.637) < 0.001);
    QVERIFY(near(*t.copyCeilingGBps, 4209.0));
    QVERIFY(std::abs(*t.percentOfCeiling - 95.665) < 0.001);
    QVERIFY(!t.exceedsPeak);
    QVERIFY(t.warnings.empty());
    QVERIFY(t.errors.empty());
    QVERIFY(!t.flops && !t.gflops);
}

void TestThroughput::bytesExpressionOverrides()
{
    // A copy declared as 2 * 4 * N bytes: 2147483648 bytes in 550 us = 3904.51572 GB/s.
    ThroughputOptions options;
    options.bytesExpression = "2 * 4 * N";
    const Throughput t = computeThroughput(vectorAdd(), 550000.0, h200(), options);
    QCOMPARE(*t.bytes, 2147483648.0);
    QCOMPARE(t.bytesExpression, std::string("2 * 4 * N"));
    QVERIFY(near(*t.effectiveGBps, 2147483648.0 / 550000.0));
    QVERIFY(!t.copyCeilingGBps && !t.percentOfCeiling);
}

void TestThroughput::flops()
{
    // 2 * M * N * K with M = N = K = 1024 is 2^31 FLOP; in 1 ms: 2147.483648 GFLOP/s.
    ResolvedLaunch gemm;
    gemm.variables = {{"M", 1024.0}, {"N", 1024.0}, {"K", 1024.0}};
    gemm.buffers = {buffer("A", 4 << 20, BufferRole::In), buffer("B", 4 << 20, BufferRole::In),
                    buffer("C", 4 << 20, BufferRole::Out)};
    ThroughputOptions options;
    options.flopsExpression = "2*M*N*K";
    const Throughput t = computeThroughput(gemm, 1e6, h200(), options);
    QCOMPARE(*t.flops, 2147483648.0);
    QVERIFY(near(*t.gflops, 2147.483648));
    QVERIFY(near(*t.effectiveGBps, 3.0 * (4 << 20) / 1e6));
}

void TestThroughput::exceedingPeakIsAWarning()
{
    // 3 GiB in 600 us would be 5368.7 GB/s, above 4814.3: reported, flagged, not hidden.
    const Throughput t = computeThroughput(vectorAdd(), 600000.0, h200(), {});
    QVERIFY(t.exceedsPeak);
    QVERIFY(near(*t.effectiveGBps, 3221225472.0 / 600000.0));
    QVERIFY(*t.percentOfPeak > 100.0);
    QCOMPARE(t.warnings.size(), std::size_t(1));
    QVERIFY2(t.warnings.front().find("exceeds the theoretical peak 4814.3 GB/s") !=
                 std::string::npos,
             t.warnings.front().c_str());
}

void TestThroughput::expressionErrorsAreReported()
{
    ThroughputOptions options;
    options.bytesExpression = "4 * M";
    options.flopsExpression = "N - 2 * N";
    const Throughput t = computeThroughput(vectorAdd(), 800000.0, h200(), options);
    QVERIFY(!t.bytes && !t.effectiveGBps && !t.percentOfPeak);
    QVERIFY(!t.flops && !t.gflops);
    QCOMPARE(t.errors.size(), std::size_t(2));
    QVERIFY2(t.errors[0].find("bytes expression '4 * M'") == 0, t.errors[0].c_str());
    QVERIFY2(t.errors[1].find("0 or more") != std::string::npos, t.errors[1].c_str());
}

void TestThroughput::unknownPeakAndCeiling()
{
    const Throughput t = computeThroughput(vectorAdd(), 800000.0, DeviceInfo{}, {});
    QVERIFY(t.effectiveGBps);
    QVERIFY(!t.theoreticalPeakGBps && !t.percentOfPeak && !t.percentOfCeiling);
    QVERIFY(!t.exceedsPeak);
    QCOMPARE(t.warnings.size(), std::size_t(1));
}

void TestThroughput::noMedian()
{
    const Throughput t = computeThroughput(vectorAdd(), 0.0, h200(), {});
    QCOMPARE(*t.bytes, 3221225472.0);
    QVERIFY(!t.effectiveGBps);
    QCOMPARE(t.errors.size(), std::size_t(1));
}

CUWB_TEST_GUILESS_MAIN(TestThroughput)
} // namespace tst_throughput
} // namespace

#include "tst_throughput.moc"
