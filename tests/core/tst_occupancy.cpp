// Occupancy from cuda_occupancy.h against values worked out by hand from the architecture
// limits. The rules used in the arithmetic below:
//  - warps per block = ceil(block / 32); the warp limit is maxWarpsPerSm / warpsPerBlock.
//  - registers are allocated per warp, rounded up to the allocation unit of 256; each of the
//    4 SM sub-partitions holds 16384 registers, so warps per sub-partition =
//    floor(16384 / registersPerWarp) and the SM holds 4 times that many warps.
//  - shared memory per block = static + dynamic + 1024 reserved (sm_80+), rounded up to 128
//    bytes; the SM's whole shared memory (164 KB on sm_80, 228 KB on sm_90) is divided by it.
//  - at most 32 resident blocks per SM on sm_80 and sm_90; 64 warps per SM.
#include "device/archlimits.h"
#include "device/occupancy.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

Q_DECLARE_METATYPE(cuwb::OccupancyLimiter)

namespace {
namespace tst_occupancy {

class TestOccupancy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesHandArithmetic_data();
    void matchesHandArithmetic();
    void rejectsInvalidInput_data();
    void rejectsInvalidInput();
    void reportsEveryResourceLimit();
    void namesLimiters();
    void computesWaves();
};

void TestOccupancy::matchesHandArithmetic_data()
{
    QTest::addColumn<QString>("arch");
    QTest::addColumn<int>("registers");
    QTest::addColumn<int>("staticShared");
    QTest::addColumn<int>("dynamicShared");
    QTest::addColumn<int>("blockSize");
    QTest::addColumn<int>("blocks");
    QTest::addColumn<int>("warps");
    QTest::addColumn<double>("occupancy");
    QTest::addColumn<OccupancyLimiter>("limiter");

    // sm_80, 256 threads, 16 registers: 8 warps/block -> 64/8 = 8 blocks by warps.
    // Registers: 16*32 = 512/warp, 16384/512 = 32 warps per sub-partition, 128 per SM -> 16.
    // Shared: 0+0+1024 = 1024 -> 167936/1024 = 164. Block slots 32. min = 8 (warps), 100%.
    QTest::newRow("sm_80 warps") << "sm_80" << 16 << 0 << 0 << 256 << 8 << 64 << 1.0
                                 << OccupancyLimiter::Warps;
    // sm_80, 100 threads: ceil(100/32) = 4 warps/block -> 64/4 = 16 blocks; 16 registers
    // allow 128/4 = 32; 16 * 4 = 64 warps, 100%, limited by warps.
    QTest::newRow("sm_80 partial warp")
        << "sm_80" << 16 << 0 << 0 << 100 << 16 << 64 << 1.0 << OccupancyLimiter::Warps;
    // sm_80, 256 threads, 64 registers: 64*32 = 2048/warp, 16384/2048 = 8 warps per
    // sub-partition, 32 per SM -> 32/8 = 4 blocks (warps would allow 8). 32 warps = 50%.
    QTest::newRow("sm_80 registers")
        << "sm_80" << 64 << 0 << 0 << 256 << 4 << 32 << 0.5 << OccupancyLimiter::Registers;
    // sm_80, 128 threads, 37 registers: 37*32 = 1184, rounded up to 256 -> 1280/warp;
    // floor(16384/1280) = 12 warps per sub-partition, 48 per SM -> 48/4 = 12 blocks
    // (warps allow 16). 48 warps = 75%.
    QTest::newRow("sm_80 register rounding")
        << "sm_80" << 37 << 0 << 0 << 128 << 12 << 48 << 0.75 << OccupancyLimiter::Registers;
    // sm_80, 128 threads, 48 KB dynamic: 49152 + 1024 = 50176 (a multiple of 128);
    // floor(167936/50176) = 3 blocks (warps allow 16, registers 32). 12 warps = 18.75%.
    QTest::newRow("sm_80 shared") << "sm_80" << 16 << 0 << 49152 << 128 << 3 << 12 << 0.1875
                                  << OccupancyLimiter::SharedMemory;
    // sm_80, 32 threads, 32513 bytes dynamic: 32513 + 1024 = 33537, rounded up to 128 ->
    // 33664; floor(167936/33664) = 4 blocks (without the rounding it would be 5).
    // 4 warps of 64 = 6.25%.
    QTest::newRow("sm_80 shared granularity")
        << "sm_80" << 16 << 0 << 32513 << 32 << 4 << 4 << 0.0625 << OccupancyLimiter::SharedMemory;
    // sm_80, 32 threads, 16 registers: 1 warp/block -> warps allow 64, registers 128,
    // shared 164, but only 32 block slots -> 32 blocks, 32 warps = 50%.
    QTest::newRow("sm_80 block slots")
        << "sm_80" << 16 << 0 << 0 << 32 << 32 << 32 << 0.5 << OccupancyLimiter::BlocksPerSm;
    // sm_80, 128 threads, 166912 bytes dynamic (the 163 KB opt-in maximum): 166912 + 1024 =
    // 167936, exactly the SM's shared memory -> 1 block, 4 warps = 6.25%.
    QTest::newRow("sm_80 opt-in maximum") << "sm_80" << 16 << 0 << 166912 << 128 << 1 << 4 << 0.0625
                                          << OccupancyLimiter::SharedMemory;

    // sm_90, 1024 threads, 64 registers: 2048/warp -> 8 warps per sub-partition, 32 per SM;
    // a block has 32 warps -> 1 block (warps allow 2). 32 warps = 50%.
    QTest::newRow("sm_90 registers")
        << "sm_90" << 64 << 0 << 0 << 1024 << 1 << 32 << 0.5 << OccupancyLimiter::Registers;
    // sm_90, 512 threads, 32 registers, 4 KB static: 16 warps/block -> 4 blocks by warps;
    // registers 1024/warp -> 16 per sub-partition, 64 per SM -> 4; shared 4096 + 1024 =
    // 5120 -> floor(233472/5120) = 45. Warps and registers tie at 4; 100%, reported as warps.
    QTest::newRow("sm_90 warps") << "sm_90" << 32 << 4096 << 0 << 512 << 4 << 64 << 1.0
                                 << OccupancyLimiter::Warps;
    // sm_90, 128 threads, 64 KB dynamic: 65536 + 1024 = 66560 -> floor(233472/66560) = 3
    // blocks (warps allow 16). 12 warps = 18.75%.
    QTest::newRow("sm_90 shared") << "sm_90" << 32 << 0 << 65536 << 128 << 3 << 12 << 0.1875
                                  << OccupancyLimiter::SharedMemory;
    // sm_90, 128 threads, 57600 bytes dynamic: 57600 + 1024 = 58624 (458 * 128) ->
    // floor(233472/58624) = 3 blocks; without the reserved 1 KB it would be 4.
    QTest::newRow("sm_90 reserved shared") << "sm_90" << 32 << 0 << 57600 << 128 << 3 << 12
                                           << 0.1875 << OccupancyLimiter::SharedMemory;
    // sm_90, 128 threads, 200000 bytes dynamic (above sm_80's opt-in limit, within sm_90's
    // 232448): 201024 rounded up to 128 -> 201088; floor(233472/201088) = 1 block, 6.25%.
    QTest::newRow("sm_90 large dynamic") << "sm_90" << 32 << 0 << 200000 << 128 << 1 << 4 << 0.0625
                                         << OccupancyLimiter::SharedMemory;
    // sm_90, 32 threads, 0 registers (no register limit at all): warps allow 64, shared
    // 233472/1024 = 228, block slots 32 -> 32 blocks, 50%.
    QTest::newRow("sm_90 block slots")
        << "sm_90" << 0 << 0 << 0 << 32 << 32 << 32 << 0.5 << OccupancyLimiter::BlocksPerSm;
    // sm_90, 96 threads, 72 registers: 3 warps/block; 72*32 = 2304/warp (a multiple of 256);
    // floor(16384/2304) = 7 warps per sub-partition, 28 per SM -> floor(28/3) = 9 blocks
    // (warps allow 21). 27 warps of 64 = 42.1875%.
    QTest::newRow("sm_90 odd registers")
        << "sm_90" << 72 << 0 << 0 << 96 << 9 << 27 << 0.421875 << OccupancyLimiter::Registers;
}

void TestOccupancy::matchesHandArithmetic()
{
    QFETCH(QString, arch);
    QFETCH(int, registers);
    QFETCH(int, staticShared);
    QFETCH(int, dynamicShared);
    QFETCH(int, blockSize);
    QFETCH(int, blocks);
    QFETCH(int, warps);
    QFETCH(double, occupancy);
    QFETCH(OccupancyLimiter, limiter);

    const ArchLimits limits = archLimits(arch.toStdString()).value();
    OccupancyInput input;
    input.registersPerThread = registers;
    input.staticSharedBytes = std::size_t(staticShared);
    input.dynamicSharedBytes = std::size_t(dynamicShared);
    input.blockSize = blockSize;
    const OccupancyResult result = computeOccupancy(limits, input);

    QVERIFY2(result.valid, result.error.c_str());
    QVERIFY(result.error.empty());
    QCOMPARE(result.activeBlocksPerSm, blocks);
    QCOMPARE(result.activeWarpsPerSm, warps);
    QCOMPARE(result.maxWarpsPerSm, 64);
    QCOMPARE(result.occupancy, occupancy);
    QCOMPARE(result.limiter, limiter);
}

void TestOccupancy::rejectsInvalidInput_data()
{
    QTest::addColumn<QString>("arch");
    QTest::addColumn<int>("registers");
    QTest::addColumn<int>("staticShared");
    QTest::addColumn<int>("dynamicShared");
    QTest::addColumn<int>("blockSize");
    QTest::addColumn<QString>("errorContains");

    QTest::newRow("block 0") << "sm_90" << 32 << 0 << 0 << 0 << "at least 1";
    QTest::newRow("negative block") << "sm_90" << 32 << 0 << 0 << -32 << "at least 1";
    QTest::newRow("block 1025") << "sm_80" << 32 << 0 << 0 << 1025 << "exceeds the maximum of 1024";
    QTest::newRow("block 2048") << "sm_90" << 32 << 0 << 0 << 2048 << "block size 2048";
    QTest::newRow("256 registers") << "sm_90" << 256 << 0 << 0 << 128 << "maximum of 255";
    QTest::newRow("negative registers") << "sm_90" << -1 << 0 << 0 << 128 << "negative";
    QTest::newRow("static over 48 KB") << "sm_90" << 32 << 50000 << 0 << 128 << "dynamic";
    // 166913 = one byte over sm_80's 163 KB opt-in limit.
    QTest::newRow("over opt-in") << "sm_80" << 32 << 0 << 166913 << 128 << "166912";
    // 1024 threads * 65 registers = 66560 > 65536 registers per block.
    QTest::newRow("registers per block") << "sm_90" << 65 << 0 << 0 << 1024 << "65536";
    // 1000 threads * 65 = 65000 fits per thread, but allocation is per warp: 32 warps *
    // 2304 (65*32 = 2080 rounded up to 256) = 73728 > 65536, so not one block fits.
    QTest::newRow("register allocation") << "sm_90" << 65 << 0 << 0 << 1000 << "registers";
}

void TestOccupancy::rejectsInvalidInput()
{
    QFETCH(QString, arch);
    QFETCH(int, registers);
    QFETCH(int, staticShared);
    QFETCH(int, dynamicShared);
    QFETCH(int, blockSize);
    QFETCH(QString, errorContains);

    OccupancyInput input;
    input.registersPerThread = registers;
    input.staticSharedBytes = std::size_t(staticShared);
    input.dynamicSharedBytes = std::size_t(dynamicShared);
    input.blockSize = blockSize;
    const OccupancyResult result = computeOccupancy(archLimits(arch.toStdString()).value(), input);
    QVERIFY(!result.valid);
    QCOMPARE(result.activeBlocksPerSm, 0);
    QCOMPARE(result.occupancy, 0.0);
    QVERIFY2(QString::fromStdString(result.error).contains(errorContains), result.error.c_str());
}

void TestOccupancy::reportsEveryResourceLimit()
{
    // sm_90, 256 threads, 64 registers, 20 KB dynamic:
    // warps 64/8 = 8; registers 2048/warp -> 32 warps/SM -> 4;
    // shared 20480 + 1024 = 21504 -> floor(233472/21504) = 10; block slots 32.
    OccupancyInput input;
    input.registersPerThread = 64;
    input.dynamicSharedBytes = 20480;
    input.blockSize = 256;
    const OccupancyResult result = computeOccupancy(archLimits("sm_90").value(), input);
    QVERIFY(result.valid);
    QCOMPARE(result.blocksLimitedByWarps, 8);
    QCOMPARE(result.blocksLimitedByRegisters, 4);
    QCOMPARE(result.blocksLimitedBySharedMemory, 10);
    QCOMPARE(result.blocksLimitedBySmBlocks, 32);
    QCOMPARE(result.activeBlocksPerSm, 4);
    QCOMPARE(result.limiter, OccupancyLimiter::Registers);

    // No registers at all: the register limit does not apply.
    input.registersPerThread = 0;
    QCOMPARE(computeOccupancy(archLimits("sm_90").value(), input).blocksLimitedByRegisters,
             kUnlimitedBlocks);
}

void TestOccupancy::namesLimiters()
{
    QCOMPARE(QByteArray(limiterName(OccupancyLimiter::None)), QByteArray("none"));
    QCOMPARE(QByteArray(limiterName(OccupancyLimiter::Warps)), QByteArray("warps"));
    QCOMPARE(QByteArray(limiterName(OccupancyLimiter::Registers)), QByteArray("registers"));
    QCOMPARE(QByteArray(limiterName(OccupancyLimiter::SharedMemory)), QByteArray("shared memory"));
    QCOMPARE(QByteArray(limiterName(OccupancyLimiter::BlocksPerSm)), QByteArray("blocks per SM"));
}

void TestOccupancy::computesWaves()
{
    OccupancyInput input;
    input.registersPerThread = 16;
    input.blockSize = 256;
    const OccupancyResult result = computeOccupancy(archLimits("sm_90").value(), input);
    // 8 blocks per SM on 132 SMs = 1056 resident blocks; 2112 blocks are 2 waves.
    QCOMPARE(occupancyWaves(result, 2112, 132), 2.0);
    QCOMPARE(occupancyWaves(result, 528, 132), 0.5);
    QCOMPARE(occupancyWaves(OccupancyResult{}, 100, 132), 0.0);
}

CUWB_TEST_APPLESS_MAIN(TestOccupancy)
} // namespace tst_occupancy
} // namespace

#include "tst_occupancy.moc"
