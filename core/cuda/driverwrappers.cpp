#include "cuda/driverwrappers.h"

#include "cuda/devicememory.h"
#include "cuda/driverfunctions.h"

#include <utility>
#include <vector>

namespace cuwb {

namespace {

CUdevice_attribute toCu(DeviceAttribute attribute)
{
    switch (attribute) {
    case DeviceAttribute::ComputeCapabilityMajor:
        return CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
    case DeviceAttribute::ComputeCapabilityMinor:
        return CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;
    case DeviceAttribute::MultiprocessorCount:
        return CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT;
    case DeviceAttribute::ClockRateKHz:
        return CU_DEVICE_ATTRIBUTE_CLOCK_RATE;
    case DeviceAttribute::MemoryClockRateKHz:
        return CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE;
    case DeviceAttribute::GlobalMemoryBusWidthBits:
        return CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH;
    case DeviceAttribute::L2CacheBytes:
        return CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE;
    case DeviceAttribute::WarpSize:
        return CU_DEVICE_ATTRIBUTE_WARP_SIZE;
    case DeviceAttribute::MaxThreadsPerBlock:
        return CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
    case DeviceAttribute::MaxThreadsPerMultiprocessor:
        return CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR;
    case DeviceAttribute::MaxBlocksPerMultiprocessor:
        return CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR;
    case DeviceAttribute::MaxRegistersPerMultiprocessor:
        return CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR;
    case DeviceAttribute::MaxRegistersPerBlock:
        return CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK;
    case DeviceAttribute::MaxSharedMemoryPerMultiprocessor:
        return CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR;
    case DeviceAttribute::MaxSharedMemoryPerBlock:
        return CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK;
    case DeviceAttribute::MaxSharedMemoryPerBlockOptin:
        return CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
    case DeviceAttribute::ReservedSharedMemoryPerBlock:
        return CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK;
    case DeviceAttribute::MaxBlockDimX:
        return CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X;
    case DeviceAttribute::MaxBlockDimY:
        return CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y;
    case DeviceAttribute::MaxBlockDimZ:
        return CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z;
    case DeviceAttribute::MaxGridDimX:
        return CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X;
    case DeviceAttribute::MaxGridDimY:
        return CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y;
    case DeviceAttribute::MaxGridDimZ:
        return CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z;
    }
    return CU_DEVICE_ATTRIBUTE_MAX;
}

CUfunction_attribute toCu(FunctionAttribute attribute)
{
    switch (attribute) {
    case FunctionAttribute::MaxThreadsPerBlock:
        return CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
    case FunctionAttribute::StaticSharedBytes:
        return CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
    case FunctionAttribute::ConstantBytes:
        return CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES;
    case FunctionAttribute::LocalBytes:
        return CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES;
    case FunctionAttribute::Registers:
        return CU_FUNC_ATTRIBUTE_NUM_REGS;
    case FunctionAttribute::PtxVersion:
        return CU_FUNC_ATTRIBUTE_PTX_VERSION;
    case FunctionAttribute::BinaryVersion:
        return CU_FUNC_ATTRIBUTE_BINARY_VERSION;
    case FunctionAttribute::MaxDynamicSharedBytes:
        return CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
    }
    return CU_FUNC_ATTRIBUTE_MAX;
}

} // namespace

void initDriver()
{
    CUWB_CU_CHECK(cuInit, 0);
}

int Device::count()
{
    int count = 0;
    CUWB_CU_CHECK(cuDeviceGetCount, &count);
    return count;
}

Device::Device(int ordinal)
    : m_ordinal(ordinal)
{
    CUdevice device = 0;
    CUWB_CU_CHECK(cuDeviceGet, &device, ordinal);
    m_handle = device;
}

std::string Device::name() const
{
    std::vector<char> buffer(256, '\0');
    CUWB_CU_CHECK(cuDeviceGetName, buffer.data(), int(buffer.size()) - 1, m_handle);
    return buffer.data();
}

std::string Device::pciBusId() const
{
    std::vector<char> buffer(64, '\0');
    CUWB_CU_CHECK(cuDeviceGetPCIBusId, buffer.data(), int(buffer.size()) - 1, m_handle);
    return buffer.data();
}

int Device::attribute(DeviceAttribute attribute) const
{
    int value = 0;
    CUWB_CU_CHECK(cuDeviceGetAttribute, &value, toCu(attribute), m_handle);
    return value;
}

std::size_t Device::totalMemoryBytes() const
{
    std::size_t bytes = 0;
    CUWB_CU_CHECK(cuDeviceTotalMem, &bytes, m_handle);
    return bytes;
}

PrimaryContext::PrimaryContext(const Device &device)
{
    CUcontext context = nullptr;
    CUWB_CU_CHECK(cuDevicePrimaryCtxRetain, &context, device.handle());
    m_device = device.handle();
    m_context = context;
    makeCurrent();
}

PrimaryContext::~PrimaryContext()
{
    release();
}

PrimaryContext::PrimaryContext(PrimaryContext &&other) noexcept
    : m_device(std::exchange(other.m_device, -1))
    , m_context(std::exchange(other.m_context, nullptr))
{}

PrimaryContext &PrimaryContext::operator=(PrimaryContext &&other) noexcept
{
    if (this != &other) {
        release();
        m_device = std::exchange(other.m_device, -1);
        m_context = std::exchange(other.m_context, nullptr);
    }
    return *this;
}

void PrimaryContext::makeCurrent() const
{
    CUWB_CU_CHECK(cuCtxSetCurrent, static_cast<CUcontext>(m_context));
}

void PrimaryContext::release() noexcept
{
    if (m_device < 0) {
        return;
    }
    // A destructor must not throw; a failed release leaves nothing the caller could fix.
    (void)detail::driverFunctions().cuDevicePrimaryCtxRelease(m_device);
    m_device = -1;
    m_context = nullptr;
}

int Function::attribute(FunctionAttribute attribute) const
{
    int value = 0;
    CUWB_CU_CHECK(cuFuncGetAttribute, &value, toCu(attribute), m_handle);
    return value;
}

int Function::maxActiveBlocksPerSm(int blockSize, std::size_t dynamicSharedBytes) const
{
    int blocks = 0;
    CUWB_CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, m_handle, blockSize,
                  dynamicSharedBytes);
    return blocks;
}

void Function::setMaxDynamicSharedBytes(int bytes) const
{
    CUWB_CU_CHECK(cuFuncSetAttribute, m_handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  bytes);
}

void Function::launch(const std::array<unsigned, 3> &grid, const std::array<unsigned, 3> &block,
                      unsigned dynamicSharedBytes, const Stream &stream, void **parameters) const
{
    CUWB_CU_CHECK(cuLaunchKernel, m_handle, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                  dynamicSharedBytes, static_cast<CUstream>(stream.handle()), parameters, nullptr);
}

Module::Module(const std::string &image)
{
    CUmodule module = nullptr;
    // cuModuleLoadData reads PTX up to its terminating NUL; std::string guarantees one.
    CUWB_CU_CHECK(cuModuleLoadData, &module, image.c_str());
    m_module = module;
}

Module::~Module()
{
    unload();
}

Module::Module(Module &&other) noexcept
    : m_module(std::exchange(other.m_module, nullptr))
{}

Module &Module::operator=(Module &&other) noexcept
{
    if (this != &other) {
        unload();
        m_module = std::exchange(other.m_module, nullptr);
    }
    return *this;
}

Function Module::function(const std::string &loweredName) const
{
    CUfunction function = nullptr;
    CUWB_CU_CHECK(cuModuleGetFunction, &function, m_module, loweredName.c_str());
    return Function(function);
}

std::optional<Module::Global> Module::global(const std::string &name) const
{
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
    const CUresult status =
        detail::driverFunctions().cuModuleGetGlobal(&address, &bytes, m_module, name.c_str());
    if (status == CUDA_ERROR_NOT_FOUND)
        return std::nullopt;
    CUWB_CU_CHECK(cuModuleGetGlobal, &address, &bytes, m_module, name.c_str());
    return Global{std::uint64_t(address), bytes};
}

void Module::unload() noexcept
{
    if (!m_module) {
        return;
    }
    (void)detail::driverFunctions().cuModuleUnload(m_module);
    m_module = nullptr;
}

} // namespace cuwb
