// On a real GPU: the device catalogue has sane values that agree with the architecture table,
// and the occupancy computed without a GPU (cuda_occupancy.h) equals the driver's own
// cuOccupancyMaxActiveBlocksPerMultiprocessor for compiled kernels across block sizes and
// dynamic shared-memory sizes. Skips, saying why, where there is no driver or no GPU.
#include "compiler/kernelcompiler.h"
#include "cuda/driverapi.h"
#include "cuda/driverwrappers.h"
#include "cuda/nvrtcinfo.h"
#include "device/devicejson.h"
#include "device/occupancy.h"

#include <QtTest>

#include <algorithm>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_devices {

namespace {

// Three kernels that stress different resources: few registers, static shared memory with a
// barrier, and many registers.
const char *const kSource = R"(
extern "C" __global__ void light(float *data, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

extern "C" __global__ void tiled(const float *in, float *out, int n)
{
    __shared__ float tile[3000];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < 3000; k += blockDim.x) tile[k] = in[(i + k) % n];
    __syncthreads();
    if (i < n) out[i] = tile[(threadIdx.x * 7) % 3000] + tile[threadIdx.x % 3000];
}

extern "C" __global__ void heavy(const float *in, float *out, int n)
{
    float acc[48];
#pragma unroll
    for (int k = 0; k < 48; ++k) acc[k] = in[(threadIdx.x + k * 131) % n];
    for (int round = 0; round < n; ++round) {
#pragma unroll
        for (int k = 0; k < 48; ++k) acc[k] = acc[k] * acc[(k + 1) % 48] + in[(round + k) % n];
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 48; ++k) sum += acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)";

} // namespace

class TestDevices : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void devicesHaveSaneAttributes();
    void tableAgreesWithDevice();
    void queryRoundTripsThroughJson();
    void occupancyMatchesDriver();

private:
    DeviceQuery m_query;
};

void TestDevices::initTestCase()
{
    const DriverApi &driver = DriverApi::instance();
    if (!driver.available()) {
        QSKIP(qPrintable(QStringLiteral("needs a GPU: no CUDA driver (%1)")
                             .arg(QString::fromStdString(driver.unavailableReason()))));
    }
    m_query = queryDevices();
    if (m_query.devices.empty()) {
        QSKIP(qPrintable(
            QStringLiteral("needs a GPU: %1").arg(QString::fromStdString(m_query.message))));
    }
}

void TestDevices::devicesHaveSaneAttributes()
{
    QVERIFY(m_query.driverLoaded);
    QVERIFY(m_query.driverVersion >= 12000);
    QVERIFY(m_query.message.empty());
    for (const DeviceInfo &device : m_query.devices) {
        QVERIFY(!device.name.empty());
        QVERIFY(device.major >= 7);
        QVERIFY(device.smCount > 0);
        QVERIFY(device.totalMemoryBytes >= (std::size_t(1) << 30));
        QVERIFY(device.memoryBusWidthBits > 0);
        QVERIFY(device.l2CacheBytes > 0);
        QCOMPARE(device.maxThreadsPerBlock, 1024);
        QVERIFY(device.maxThreadsPerSm >= 1024);
        QVERIFY(device.maxBlocksPerSm >= 16);
        QCOMPARE(device.registersPerSm, 65536);
        QVERIFY(device.sharedPerBlockOptinBytes >= device.sharedPerBlockBytes);
        QCOMPARE(device.maxBlockDim[0], 1024);
        QVERIFY(device.maxGridDim[0] > 65535);
        QCOMPARE(device.reservedSharedPerBlockBytes, std::size_t(device.major >= 8 ? 1024 : 0));
    }
}

void TestDevices::tableAgreesWithDevice()
{
    for (const DeviceInfo &device : m_query.devices) {
        const auto table = archLimits(device.arch());
        if (!table) {
            QSKIP(qPrintable(QStringLiteral("%1 is not in the architecture table")
                                 .arg(QString::fromStdString(device.arch()))));
        }
        QCOMPARE(table->maxThreadsPerSm, device.maxThreadsPerSm);
        QCOMPARE(table->maxBlocksPerSm, device.maxBlocksPerSm);
        QCOMPARE(table->registersPerSm, device.registersPerSm);
        QCOMPARE(table->registersPerBlock, device.registersPerBlock);
        QCOMPARE(table->sharedPerSmBytes, device.sharedPerSmBytes);
        QCOMPARE(table->sharedPerBlockBytes, device.sharedPerBlockBytes);
        QCOMPARE(table->sharedPerBlockOptinBytes, device.sharedPerBlockOptinBytes);
        QCOMPARE(table->reservedSharedPerBlockBytes, device.reservedSharedPerBlockBytes);
    }
}

void TestDevices::queryRoundTripsThroughJson()
{
    const nlohmann::json json = m_query;
    const DeviceQuery back = nlohmann::json::parse(json.dump()).get<DeviceQuery>();
    QVERIFY(back == m_query);
    QCOMPARE(json.at("devices").at(0).at("arch").get<std::string>(),
             m_query.devices.front().arch());
}

void TestDevices::occupancyMatchesDriver()
{
    const DeviceInfo &info = m_query.devices.front();
    const std::vector<std::string> &archs = nvrtcSupportedArchs();
    if (std::find(archs.begin(), archs.end(), info.arch()) == archs.end()) {
        QSKIP(qPrintable(QStringLiteral("NVRTC cannot compile for %1")
                             .arg(QString::fromStdString(info.arch()))));
    }

    CompileOptions options;
    options.arch = info.arch();
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(kSource, "occupancy.cu", options);
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(result.kernels.size(), std::size_t(3));

    const Device device(info.ordinal);
    const PrimaryContext context(device);
    const Module module(result.cubin);
    const ArchLimits limits = info.limits();

    int compared = 0;
    for (const KernelInfo &kernel : result.kernels) {
        const Function function = module.function(kernel.loweredName);
        const int registers = function.attribute(FunctionAttribute::Registers);
        const int staticShared = function.attribute(FunctionAttribute::StaticSharedBytes);
        const int maxThreads = function.attribute(FunctionAttribute::MaxThreadsPerBlock);
        const int maxDynamic = function.attribute(FunctionAttribute::MaxDynamicSharedBytes);
        // What ptxas reported without a GPU is what the driver loaded.
        QCOMPARE(kernel.resources.registers, registers);
        QCOMPARE(kernel.resources.staticSharedBytes, staticShared);

        for (int block : {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024}) {
            if (block > maxThreads) {
                continue;
            }
            for (int dynamic : {0, 1000, 4096, 12000, 20000, 40000}) {
                if (dynamic > maxDynamic) {
                    continue; // would need cuFuncSetAttribute first
                }
                OccupancyInput input;
                input.registersPerThread = registers;
                input.staticSharedBytes = std::size_t(staticShared);
                input.dynamicSharedBytes = std::size_t(dynamic);
                input.blockSize = block;
                const OccupancyResult ours = computeOccupancy(limits, input);
                const int driver = function.maxActiveBlocksPerSm(block, std::size_t(dynamic));
                const QByteArray where = QStringLiteral("%1, block %2, dynamic %3: ours %4 (%5), "
                                                        "driver %6")
                                             .arg(QString::fromStdString(kernel.loweredName))
                                             .arg(block)
                                             .arg(dynamic)
                                             .arg(ours.activeBlocksPerSm)
                                             .arg(QString::fromStdString(ours.error))
                                             .arg(driver)
                                             .toUtf8();
                QVERIFY2(ours.activeBlocksPerSm == driver, where.constData());
                ++compared;
            }
        }
    }
    QVERIFY(compared >= 50);
}

CUWB_TEST_GUILESS_MAIN(TestDevices)
} // namespace tst_devices
} // namespace

#include "tst_devices.moc"
