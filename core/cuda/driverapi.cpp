#include "cuda/driverapi.h"

#include "cuda/driverfunctions.h"

#include <dlfcn.h>

namespace cuwb {

namespace {

constexpr const char *kLibraryName = "libcuda.so.1";

// Resolves one entry point with the CUDA version whose ABI the member's type describes.
bool resolve(PFN_cuGetProcAddress_v12000 getProcAddress, const char *symbol, void **function,
             int cudaVersion, std::string &reason)
{
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    const CUresult status =
        getProcAddress(symbol, function, cudaVersion, CU_GET_PROC_ADDRESS_DEFAULT, &found);
    if (status == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && *function) {
        return true;
    }
    *function = nullptr;
    reason = std::string("the CUDA driver in ") + kLibraryName + " has no " + symbol +
             " for CUDA " + formatCudaVersion(cudaVersion) +
             (found == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? " (version too old)" : "");
    return false;
}

} // namespace

DriverApi &DriverApi::instance()
{
    static DriverApi driver;
    return driver;
}

DriverApi::DriverApi()
    : m_functions(new DriverFunctions)
{
    // RTLD_LOCAL: nothing else in the process should bind to the driver's symbols by accident;
    // every call goes through the resolved table.
    m_library = dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
    if (!m_library) {
        // When the library is simply absent (CI, a laptop without a GPU) the loader's text
        // adds nothing; when it exists but cannot load, its text is the diagnosis.
        const char *loaderError = dlerror();
        const std::string error = loaderError ? loaderError : "";
        if (error.empty() || error.find("No such file") != std::string::npos) {
            m_reason = std::string(kLibraryName) + " not found";
        } else {
            m_reason = std::string(kLibraryName) + " could not be loaded: " + error;
        }
        return;
    }
    // cuGetProcAddress_v2 (CUDA 12.0+) is the one symbol looked up by name: it hands out
    // every other entry point in the version this code was written against.
    auto *getProcAddress =
        reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(m_library, "cuGetProcAddress_v2"));
    if (!getProcAddress) {
        m_reason = std::string(kLibraryName) +
                   " has no cuGetProcAddress_v2: the CUDA driver is older than CUDA 12.0";
        return;
    }
    DriverFunctions &f = *m_functions;
    f.cuGetProcAddress = getProcAddress;

#define CUWB_RESOLVE(symbol, version)                                                              \
    if (!resolve(getProcAddress, #symbol, reinterpret_cast<void **>(&f.symbol), version,           \
                 m_reason)) {                                                                      \
        return;                                                                                    \
    }
    CUWB_RESOLVE(cuInit, 2000)
    CUWB_RESOLVE(cuDriverGetVersion, 2020)
    CUWB_RESOLVE(cuGetErrorName, 6000)
    CUWB_RESOLVE(cuGetErrorString, 6000)
    CUWB_RESOLVE(cuDeviceGetCount, 2000)
    CUWB_RESOLVE(cuDeviceGet, 2000)
    CUWB_RESOLVE(cuDeviceGetName, 2000)
    CUWB_RESOLVE(cuDeviceGetPCIBusId, 4010)
    CUWB_RESOLVE(cuDeviceGetAttribute, 2000)
    CUWB_RESOLVE(cuDeviceTotalMem, 3020)
    CUWB_RESOLVE(cuDevicePrimaryCtxRetain, 7000)
    CUWB_RESOLVE(cuDevicePrimaryCtxRelease, 11000)
    CUWB_RESOLVE(cuCtxSetCurrent, 4000)
    CUWB_RESOLVE(cuModuleLoadData, 2000)
    CUWB_RESOLVE(cuModuleUnload, 2000)
    CUWB_RESOLVE(cuModuleGetFunction, 2000)
    CUWB_RESOLVE(cuModuleGetGlobal, 3020)
    CUWB_RESOLVE(cuFuncGetAttribute, 2020)
    CUWB_RESOLVE(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050)
    CUWB_RESOLVE(cuMemAlloc, 3020)
    CUWB_RESOLVE(cuMemFree, 3020)
    CUWB_RESOLVE(cuMemGetInfo, 3020)
    CUWB_RESOLVE(cuMemsetD8Async, 3020)
    CUWB_RESOLVE(cuMemsetD32Async, 3020)
    CUWB_RESOLVE(cuMemcpyDtoHAsync, 3020)
    CUWB_RESOLVE(cuMemcpyHtoDAsync, 3020)
    CUWB_RESOLVE(cuMemcpyDtoDAsync, 3020)
    CUWB_RESOLVE(cuMemHostAlloc, 2020)
    CUWB_RESOLVE(cuMemFreeHost, 2000)
    CUWB_RESOLVE(cuMemHostGetDevicePointer, 3020)
    CUWB_RESOLVE(cuLaunchKernel, 4000)
    CUWB_RESOLVE(cuFuncSetAttribute, 9000)
    CUWB_RESOLVE(cuStreamCreate, 2000)
    CUWB_RESOLVE(cuStreamDestroy, 4000)
    CUWB_RESOLVE(cuStreamQuery, 2000)
    CUWB_RESOLVE(cuStreamSynchronize, 2000)
    CUWB_RESOLVE(cuEventCreate, 2000)
    CUWB_RESOLVE(cuEventDestroy, 4000)
    CUWB_RESOLVE(cuEventRecord, 2000)
    CUWB_RESOLVE(cuEventQuery, 2000)
    CUWB_RESOLVE(cuEventElapsedTime, 2000)
    CUWB_RESOLVE(cuCtxSynchronize, 2000)
    CUWB_RESOLVE(cuCtxGetCurrent, 4000)
#undef CUWB_RESOLVE

    int version = 0;
    if (f.cuDriverGetVersion(&version) != CUDA_SUCCESS) {
        m_reason = "cuDriverGetVersion failed: the CUDA driver is not usable";
        return;
    }
    m_driverVersion = version;
    m_available = true;
}

// The library is deliberately never dlclose()d: the driver keeps threads and atexit handlers
// that must not outlive its code, and the process is ending anyway.
DriverApi::~DriverApi()
{
    delete m_functions;
}

std::string formatCudaVersion(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

namespace detail {

const DriverFunctions &driverFunctions()
{
    DriverApi &driver = DriverApi::instance();
    if (!driver.available()) {
        throw ApiError("CUDA driver", "dlopen(\"libcuda.so.1\")", driver.unavailableReason(),
                       __FILE__, __LINE__);
    }
    return driver.functions();
}

std::string driverStatusName(CUresult status)
{
    DriverApi &driver = DriverApi::instance();
    const char *name = nullptr;
    if (driver.available() && driver.functions().cuGetErrorName(status, &name) == CUDA_SUCCESS &&
        name) {
        return name;
    }
    return "CUresult " + std::to_string(int(status));
}

void throwDriverError(CUresult status, const char *call, const char *file, int line)
{
    throw ApiError("CUDA driver", call, driverStatusName(status), file, line);
}

} // namespace detail

} // namespace cuwb
