// Driver wrappers: small RAII owners and views over the CUDA driver, so that the rest of the
// program never handles a raw CUcontext or CUmodule and never needs <cuda.h>. Owners
// (PrimaryContext, Module) are move-only; Device and Function are non-owning views. Every
// failed call throws ApiError with the call text, file, line and status name; check
// DriverApi::available() first to tell "no driver" apart from a fault.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

struct CUmod_st;  // CUmodule, as <cuda.h> declares it
struct CUfunc_st; // CUfunction

namespace cuwb {

class Stream; // devicememory.h

// cuInit(0). Throws ApiError (status "CUDA_ERROR_NO_DEVICE" where there is no GPU, ...).
void initDriver();

// The device attributes the workbench reads; mapped to CUdevice_attribute in the .cpp.
enum class DeviceAttribute {
    ComputeCapabilityMajor,
    ComputeCapabilityMinor,
    MultiprocessorCount,
    ClockRateKHz,
    MemoryClockRateKHz,
    GlobalMemoryBusWidthBits,
    L2CacheBytes,
    WarpSize,
    MaxThreadsPerBlock,
    MaxThreadsPerMultiprocessor,
    MaxBlocksPerMultiprocessor,
    MaxRegistersPerMultiprocessor,
    MaxRegistersPerBlock,
    MaxSharedMemoryPerMultiprocessor,
    MaxSharedMemoryPerBlock,
    MaxSharedMemoryPerBlockOptin,
    ReservedSharedMemoryPerBlock,
    MaxBlockDimX,
    MaxBlockDimY,
    MaxBlockDimZ,
    MaxGridDimX,
    MaxGridDimY,
    MaxGridDimZ,
};

class Device
{
public:
    static int count(); // needs initDriver()
    explicit Device(int ordinal);

    [[nodiscard]] int ordinal() const { return m_ordinal; }
    [[nodiscard]] std::string name() const;
    [[nodiscard]] std::string pciBusId() const; // "0000:19:00.0", as NVML names it
    [[nodiscard]] int attribute(DeviceAttribute attribute) const;
    [[nodiscard]] std::size_t totalMemoryBytes() const;
    [[nodiscard]] int handle() const { return m_handle; } // the CUdevice

private:
    int m_ordinal = 0;
    int m_handle = 0;
};

// Retains the device's primary context and makes it current on the calling thread; releases
// it when destroyed.
class PrimaryContext
{
public:
    explicit PrimaryContext(const Device &device);
    ~PrimaryContext();
    PrimaryContext(PrimaryContext &&other) noexcept;
    PrimaryContext &operator=(PrimaryContext &&other) noexcept;
    PrimaryContext(const PrimaryContext &) = delete;
    PrimaryContext &operator=(const PrimaryContext &) = delete;

    void makeCurrent() const;

private:
    void release() noexcept;

    int m_device = -1; // -1 when moved from
    void *m_context = nullptr;
};

enum class FunctionAttribute {
    MaxThreadsPerBlock,
    StaticSharedBytes,
    ConstantBytes,
    LocalBytes,
    Registers,
    PtxVersion,
    BinaryVersion,
    MaxDynamicSharedBytes,
};

// A kernel of a loaded Module; valid as long as the module is.
class Function
{
public:
    [[nodiscard]] int attribute(FunctionAttribute attribute) const;
    // cuOccupancyMaxActiveBlocksPerMultiprocessor: the driver's own occupancy answer.
    [[nodiscard]] int maxActiveBlocksPerSm(int blockSize, std::size_t dynamicSharedBytes) const;
    // Opts in to more than 48 KB of dynamic shared memory (cuFuncSetAttribute).
    void setMaxDynamicSharedBytes(int bytes) const;
    // cuLaunchKernel on `stream`; `parameters` holds one pointer per kernel parameter.
    void launch(const std::array<unsigned, 3> &grid, const std::array<unsigned, 3> &block,
                unsigned dynamicSharedBytes, const Stream &stream, void **parameters) const;

private:
    friend class Module;
    explicit Function(CUfunc_st *handle)
        : m_handle(handle)
    {}
    CUfunc_st *m_handle = nullptr;
};

// A module loaded into the current context from a CUBIN or PTX image.
class Module
{
public:
    explicit Module(const std::string &image); // needs a current context
    ~Module();
    Module(Module &&other) noexcept;
    Module &operator=(Module &&other) noexcept;
    Module(const Module &) = delete;
    Module &operator=(const Module &) = delete;

    [[nodiscard]] Function function(const std::string &loweredName) const;

    // A __constant__ or __device__ variable of the module: its address and size in bytes;
    // nullopt when the module has no variable of that (lowered) name.
    struct Global
    {
        std::uint64_t address = 0; // a CUdeviceptr
        std::size_t bytes = 0;
    };
    [[nodiscard]] std::optional<Global> global(const std::string &name) const;

private:
    void unload() noexcept;

    CUmod_st *m_module = nullptr;
};

} // namespace cuwb
