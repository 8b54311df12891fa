// DriverFunctions: the CUDA driver entry points this program uses, resolved at run time by
// DriverApi through cuGetProcAddress. Each member has the signature of the ABI version named
// in its type (cudaTypedefs.h), and is resolved with that version, so a newer driver hands
// back the entry point this code was written against. Only core/cuda/ includes this header:
// it pulls in <cuda.h>, which the rest of the program never needs.
#pragma once

#include "cuda/apierror.h"
#include "cuda/driverapi.h"

#include <cuda.h>
#include <cudaTypedefs.h>

namespace cuwb {

struct DriverFunctions
{
    PFN_cuGetProcAddress_v12000 cuGetProcAddress = nullptr;
    PFN_cuInit_v2000 cuInit = nullptr;
    PFN_cuDriverGetVersion_v2020 cuDriverGetVersion = nullptr;
    PFN_cuGetErrorName_v6000 cuGetErrorName = nullptr;
    PFN_cuGetErrorString_v6000 cuGetErrorString = nullptr;
    PFN_cuDeviceGetCount_v2000 cuDeviceGetCount = nullptr;
    PFN_cuDeviceGet_v2000 cuDeviceGet = nullptr;
    PFN_cuDeviceGetName_v2000 cuDeviceGetName = nullptr;
    PFN_cuDeviceGetPCIBusId_v4010 cuDeviceGetPCIBusId = nullptr;
    PFN_cuDeviceGetAttribute_v2000 cuDeviceGetAttribute = nullptr;
    PFN_cuDeviceTotalMem_v3020 cuDeviceTotalMem = nullptr;
    PFN_cuDevicePrimaryCtxRetain_v7000 cuDevicePrimaryCtxRetain = nullptr;
    PFN_cuDevicePrimaryCtxRelease_v11000 cuDevicePrimaryCtxRelease = nullptr;
    PFN_cuCtxSetCurrent_v4000 cuCtxSetCurrent = nullptr;
    PFN_cuModuleLoadData_v2000 cuModuleLoadData = nullptr;
    PFN_cuModuleUnload_v2000 cuModuleUnload = nullptr;
    PFN_cuModuleGetFunction_v2000 cuModuleGetFunction = nullptr;
    PFN_cuModuleGetGlobal_v3020 cuModuleGetGlobal = nullptr;
    PFN_cuFuncGetAttribute_v2020 cuFuncGetAttribute = nullptr;
    PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050
        cuOccupancyMaxActiveBlocksPerMultiprocessor = nullptr;
    // Running kernels (core/run): memory, streams, events, launches.
    PFN_cuMemAlloc_v3020 cuMemAlloc = nullptr;
    PFN_cuMemFree_v3020 cuMemFree = nullptr;
    PFN_cuMemGetInfo_v3020 cuMemGetInfo = nullptr;
    PFN_cuMemsetD8Async_v3020 cuMemsetD8Async = nullptr;
    PFN_cuMemsetD32Async_v3020 cuMemsetD32Async = nullptr;
    PFN_cuMemcpyDtoHAsync_v3020 cuMemcpyDtoHAsync = nullptr;
    PFN_cuMemcpyHtoDAsync_v3020 cuMemcpyHtoDAsync = nullptr;
    PFN_cuMemcpyDtoDAsync_v3020 cuMemcpyDtoDAsync = nullptr;
    PFN_cuMemHostAlloc_v2020 cuMemHostAlloc = nullptr;
    PFN_cuMemFreeHost_v2000 cuMemFreeHost = nullptr;
    PFN_cuMemHostGetDevicePointer_v3020 cuMemHostGetDevicePointer = nullptr;
    PFN_cuLaunchKernel_v4000 cuLaunchKernel = nullptr;
    PFN_cuFuncSetAttribute_v9000 cuFuncSetAttribute = nullptr;
    PFN_cuStreamCreate_v2000 cuStreamCreate = nullptr;
    PFN_cuStreamDestroy_v4000 cuStreamDestroy = nullptr;
    PFN_cuStreamQuery_v2000 cuStreamQuery = nullptr;
    PFN_cuStreamSynchronize_v2000 cuStreamSynchronize = nullptr;
    PFN_cuEventCreate_v2000 cuEventCreate = nullptr;
    PFN_cuEventDestroy_v4000 cuEventDestroy = nullptr;
    PFN_cuEventRecord_v2000 cuEventRecord = nullptr;
    PFN_cuEventQuery_v2000 cuEventQuery = nullptr;
    PFN_cuEventElapsedTime_v2000 cuEventElapsedTime = nullptr;
    PFN_cuCtxSynchronize_v2000 cuCtxSynchronize = nullptr;
    // The CUPTI Range Profiler (cuptiprofiler.cpp) needs the context it profiles.
    PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent = nullptr;
};

namespace detail {

// The resolved functions of the process-wide driver; throws ApiError when it is not loaded,
// so that a caller that forgot to check DriverApi::available() gets a message, not a crash.
const DriverFunctions &driverFunctions();

// "CUDA_ERROR_NO_DEVICE", or "CUresult 100" when the driver cannot name it.
std::string driverStatusName(CUresult status);

[[noreturn]] void throwDriverError(CUresult status, const char *call, const char *file, int line);

inline void checkDriver(CUresult status, const char *call, const char *file, int line)
{
    if (status != CUDA_SUCCESS) {
        throwDriverError(status, call, file, line);
    }
}

} // namespace detail
} // namespace cuwb

// Calls a driver entry point and throws cuwb::ApiError with the call text, file, line and
// status name when it fails: CUWB_CU_CHECK(cuDeviceGet, &device, ordinal).
#define CUWB_CU_CHECK(function, ...)                                                               \
    ::cuwb::detail::checkDriver(::cuwb::detail::driverFunctions().function(__VA_ARGS__),           \
                                #function "(" #__VA_ARGS__ ")", __FILE__, __LINE__)
