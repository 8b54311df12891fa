// The GUI reads `cuwb devices --json` back into a DeviceQuery, so every field must survive the
// trip through text exactly; derived keys are written for readers and ignored on reading.
#include "device/devicejson.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_devicejson {

namespace {

DeviceInfo sampleDevice(int ordinal)
{
    // Every field distinct and non-default, so a key that is dropped or swapped shows up.
    DeviceInfo info;
    info.ordinal = ordinal;
    info.name = "NVIDIA H200 \"test\" ünïcode";
    info.major = 9;
    info.minor = 0;
    info.smCount = 132;
    info.totalMemoryBytes = 150109880320ULL;
    info.smClockKHz = 1980000;
    info.memoryClockKHz = 3201000;
    info.memoryBusWidthBits = 6016;
    info.l2CacheBytes = 62914560;
    info.maxThreadsPerBlock = 1024;
    info.maxThreadsPerSm = 2048;
    info.maxBlocksPerSm = 32;
    info.registersPerSm = 65536;
    info.registersPerBlock = 65535;
    info.sharedPerSmBytes = 233472;
    info.sharedPerBlockBytes = 49152;
    info.sharedPerBlockOptinBytes = 232448;
    info.reservedSharedPerBlockBytes = 1024;
    info.maxBlockDim[0] = 1024;
    info.maxBlockDim[1] = 1023;
    info.maxBlockDim[2] = 64;
    info.maxGridDim[0] = 2147483647;
    info.maxGridDim[1] = 65535;
    info.maxGridDim[2] = 65534;
    return info;
}

} // namespace

class TestDeviceJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTripsQueryWithDevices();
    void roundTripsQueryWithoutDriver();
    void writesDerivedKeys();
    void rejectsMalformedDocuments();
    void writesOccupancy();
};

void TestDeviceJson::roundTripsQueryWithDevices()
{
    DeviceQuery query;
    query.driverLoaded = true;
    query.driverVersion = 13000;
    query.devices = {sampleDevice(0), sampleDevice(1)};
    const std::string text = nlohmann::json(query).dump(2);
    const DeviceQuery back = nlohmann::json::parse(text).get<DeviceQuery>();
    QVERIFY(back == query);
}

void TestDeviceJson::roundTripsQueryWithoutDriver()
{
    DeviceQuery query;
    query.message = "No CUDA driver (libcuda.so.1 not found) — compile-only mode";
    const DeviceQuery back = nlohmann::json::parse(nlohmann::json(query).dump()).get<DeviceQuery>();
    QVERIFY(back == query);
    QCOMPARE(back.message, query.message);
}

void TestDeviceJson::writesDerivedKeys()
{
    DeviceQuery query;
    query.driverLoaded = true;
    query.driverVersion = 12080;
    query.devices = {sampleDevice(0)};
    const nlohmann::json json = query;
    QCOMPARE(json.at("driverVersionText").get<std::string>(), std::string("12.8"));
    QCOMPARE(json.at("devices").at(0).at("arch").get<std::string>(), std::string("sm_90"));
    QCOMPARE(json.at("devices").at(0).at("maxGridDim").size(), std::size_t(3));
}

void TestDeviceJson::rejectsMalformedDocuments()
{
    nlohmann::json json = sampleDevice(0);
    json.erase("smCount");
    QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, json.get<DeviceInfo>());

    json = sampleDevice(0);
    json["maxBlockDim"] = {1024, 1024};
    QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, json.get<DeviceInfo>());

    json = sampleDevice(0);
    json["name"] = 42;
    QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, json.get<DeviceInfo>());
}

void TestDeviceJson::writesOccupancy()
{
    OccupancyResult result;
    result.valid = true;
    result.activeBlocksPerSm = 4;
    result.activeWarpsPerSm = 32;
    result.maxWarpsPerSm = 64;
    result.occupancy = 0.5;
    result.limiter = OccupancyLimiter::Registers;
    result.blocksLimitedByWarps = 8;
    result.blocksLimitedByRegisters = 4;
    result.blocksLimitedBySharedMemory = kUnlimitedBlocks;
    result.blocksLimitedBySmBlocks = 32;
    const nlohmann::json json = result;
    QCOMPARE(json.at("limiter").get<std::string>(), std::string("registers"));
    QCOMPARE(json.at("occupancy").get<double>(), 0.5);
    QVERIFY(json.at("blocksLimitedBySharedMemory").is_null());
    QCOMPARE(json.at("blocksLimitedByRegisters").get<int>(), 4);
}

CUWB_TEST_APPLESS_MAIN(TestDeviceJson)
} // namespace tst_devicejson
} // namespace

#include "tst_devicejson.moc"
