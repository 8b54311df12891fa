// DriverApi: the CUDA driver, loaded at run time with dlopen("libcuda.so.1") and
// cuGetProcAddress, so that every program starts on a machine without a driver and can say so.
// This folder is the only place that calls cu* functions.
#pragma once

#include <string>

namespace cuwb {

struct DriverFunctions; // resolved entry points, defined in driverapi.cpp

class DriverApi
{
public:
    // The process-wide driver; loads it on first use. Never throws.
    static DriverApi &instance();

    [[nodiscard]] bool available() const { return m_available; }
    // Why the driver is not usable ("libcuda.so.1 not found: ..."), empty when available.
    [[nodiscard]] const std::string &unavailableReason() const { return m_reason; }
    // CUDA version the driver supports, e.g. 13000; 0 when unavailable.
    [[nodiscard]] int driverVersion() const { return m_driverVersion; }

    [[nodiscard]] const DriverFunctions &functions() const { return *m_functions; }

    DriverApi(const DriverApi &) = delete;
    DriverApi &operator=(const DriverApi &) = delete;

private:
    DriverApi();
    ~DriverApi();

    void *m_library = nullptr;
    bool m_available = false;
    std::string m_reason;
    int m_driverVersion = 0;
    DriverFunctions *m_functions = nullptr;
};

// Formats a driver version 13000 as "13.0".
std::string formatCudaVersion(int version);

} // namespace cuwb
