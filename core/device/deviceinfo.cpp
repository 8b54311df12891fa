#include "device/deviceinfo.h"

#include "cuda/apierror.h"
#include "cuda/driverapi.h"
#include "cuda/driverwrappers.h"

namespace cuwb {

namespace {

DeviceInfo describe(int ordinal)
{
    const Device device(ordinal);
    const auto get = [&device](DeviceAttribute attribute) { return device.attribute(attribute); };
    DeviceInfo info;
    info.ordinal = ordinal;
    info.name = device.name();
    info.major = get(DeviceAttribute::ComputeCapabilityMajor);
    info.minor = get(DeviceAttribute::ComputeCapabilityMinor);
    info.smCount = get(DeviceAttribute::MultiprocessorCount);
    info.totalMemoryBytes = device.totalMemoryBytes();
    info.smClockKHz = get(DeviceAttribute::ClockRateKHz);
    info.memoryClockKHz = get(DeviceAttribute::MemoryClockRateKHz);
    info.memoryBusWidthBits = get(DeviceAttribute::GlobalMemoryBusWidthBits);
    info.l2CacheBytes = get(DeviceAttribute::L2CacheBytes);
    info.maxThreadsPerBlock = get(DeviceAttribute::MaxThreadsPerBlock);
    info.maxThreadsPerSm = get(DeviceAttribute::MaxThreadsPerMultiprocessor);
    info.maxBlocksPerSm = get(DeviceAttribute::MaxBlocksPerMultiprocessor);
    info.registersPerSm = get(DeviceAttribute::MaxRegistersPerMultiprocessor);
    info.registersPerBlock = get(DeviceAttribute::MaxRegistersPerBlock);
    info.sharedPerSmBytes = std::size_t(get(DeviceAttribute::MaxSharedMemoryPerMultiprocessor));
    info.sharedPerBlockBytes = std::size_t(get(DeviceAttribute::MaxSharedMemoryPerBlock));
    info.sharedPerBlockOptinBytes = std::size_t(get(DeviceAttribute::MaxSharedMemoryPerBlockOptin));
    info.reservedSharedPerBlockBytes =
        std::size_t(get(DeviceAttribute::ReservedSharedMemoryPerBlock));
    info.maxBlockDim[0] = get(DeviceAttribute::MaxBlockDimX);
    info.maxBlockDim[1] = get(DeviceAttribute::MaxBlockDimY);
    info.maxBlockDim[2] = get(DeviceAttribute::MaxBlockDimZ);
    info.maxGridDim[0] = get(DeviceAttribute::MaxGridDimX);
    info.maxGridDim[1] = get(DeviceAttribute::MaxGridDimY);
    info.maxGridDim[2] = get(DeviceAttribute::MaxGridDimZ);
    return info;
}

} // namespace

std::string DeviceInfo::arch() const
{
    return "sm_" + std::to_string(major * 10 + minor);
}

ArchLimits DeviceInfo::limits() const
{
    // Start from the table so fields the driver does not report (allocation unit, register
    // cap per thread) keep their architectural values, then trust the device for the rest.
    ArchLimits limits = archLimits(arch()).value_or(ArchLimits{});
    limits.major = major;
    limits.minor = minor;
    const auto take = [](auto &field, auto value) {
        if (value > 0) {
            field = value;
        }
    };
    take(limits.maxThreadsPerBlock, maxThreadsPerBlock);
    take(limits.maxThreadsPerSm, maxThreadsPerSm);
    take(limits.maxBlocksPerSm, maxBlocksPerSm);
    take(limits.registersPerSm, registersPerSm);
    take(limits.registersPerBlock, registersPerBlock);
    take(limits.sharedPerSmBytes, sharedPerSmBytes);
    take(limits.sharedPerBlockBytes, sharedPerBlockBytes);
    take(limits.sharedPerBlockOptinBytes, sharedPerBlockOptinBytes);
    limits.reservedSharedPerBlockBytes = reservedSharedPerBlockBytes;
    for (int i = 0; i < 3; ++i) {
        take(limits.maxBlockDim[i], maxBlockDim[i]);
        take(limits.maxGridDim[i], maxGridDim[i]);
    }
    return limits;
}

DeviceQuery queryDevices()
{
    DeviceQuery query;
    DriverApi &driver = DriverApi::instance();
    if (!driver.available()) {
        query.message = "No CUDA driver (" + driver.unavailableReason() + ") — compile-only mode";
        return query;
    }
    query.driverLoaded = true;
    query.driverVersion = driver.driverVersion();
    try {
        initDriver();
    } catch (const ApiError &error) {
        if (error.status() == "CUDA_ERROR_NO_DEVICE") {
            query.message = "CUDA driver found but no GPU: cuInit returned CUDA_ERROR_NO_DEVICE";
        } else {
            query.message = "CUDA driver found but it could not start: cuInit returned " +
                            error.status() + " — compile-only mode";
        }
        return query;
    }
    try {
        const int count = Device::count();
        for (int ordinal = 0; ordinal < count; ++ordinal) {
            query.devices.push_back(describe(ordinal));
        }
        if (count == 0) {
            query.message = "CUDA driver found but no GPU: cuDeviceGetCount returned 0";
        }
    } catch (const ApiError &error) {
        query.message =
            std::string("CUDA driver found but querying the GPUs failed: ") + error.what();
    }
    return query;
}

} // namespace cuwb
