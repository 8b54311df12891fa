#include "cuda/nvml.h"

#include <dlfcn.h>

namespace cuwb {

namespace {

// The few NVML declarations used here, by their documented ABI (nvml.h is not part of the
// CUDA toolkit packages this builds with): results are ints, 0 is NVML_SUCCESS, a device is
// an opaque pointer, and NVML_CLOCK_SM is 1.
using NvmlReturn = int;
using NvmlDevice = void *;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

using InitFunction = NvmlReturn (*)();
using ShutdownFunction = NvmlReturn (*)();
using ErrorStringFunction = const char *(*)(NvmlReturn);
using HandleByPciFunction = NvmlReturn (*)(const char *, NvmlDevice *);
using ClockInfoFunction = NvmlReturn (*)(NvmlDevice, int, unsigned *);

struct LoadedNvml
{
    void *library = nullptr;
    InitFunction init = nullptr;
    ShutdownFunction shutdown = nullptr;
    ErrorStringFunction errorString = nullptr;
    HandleByPciFunction handleByPci = nullptr;
    ClockInfoFunction clockInfo = nullptr;
    std::string failure;
};

template <typename F> F symbol(void *library, const char *name)
{
    return reinterpret_cast<F>(dlsym(library, name));
}

// Loaded once and never unloaded, like the driver.
const LoadedNvml &loadedNvml()
{
    static const LoadedNvml nvml = [] {
        LoadedNvml n;
        n.library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!n.library) {
            const char *error = dlerror();
            n.failure = std::string("NVML (libnvidia-ml.so.1) could not be loaded: ") +
                        (error ? error : "unknown error");
            return n;
        }
        n.init = symbol<InitFunction>(n.library, "nvmlInit_v2");
        n.shutdown = symbol<ShutdownFunction>(n.library, "nvmlShutdown");
        n.errorString = symbol<ErrorStringFunction>(n.library, "nvmlErrorString");
        n.handleByPci = symbol<HandleByPciFunction>(n.library, "nvmlDeviceGetHandleByPciBusId_v2");
        n.clockInfo = symbol<ClockInfoFunction>(n.library, "nvmlDeviceGetClockInfo");
        if (!n.init || !n.shutdown || !n.handleByPci || !n.clockInfo) {
            n.failure = "NVML (libnvidia-ml.so.1) lacks nvmlInit_v2, "
                        "nvmlDeviceGetHandleByPciBusId_v2 or nvmlDeviceGetClockInfo";
            n.library = nullptr;
        }
        return n;
    }();
    return nvml;
}

std::string describe(const LoadedNvml &nvml, NvmlReturn status)
{
    const char *text = nvml.errorString ? nvml.errorString(status) : nullptr;
    return text ? std::string(text) : "NVML status " + std::to_string(status);
}

} // namespace

SmClockReader::SmClockReader(const std::string &pciBusId)
{
    const LoadedNvml &nvml = loadedNvml();
    if (!nvml.library) {
        m_reason = nvml.failure;
        return;
    }
    NvmlReturn status = nvml.init();
    if (status != kNvmlSuccess) {
        m_reason = "nvmlInit_v2 failed: " + describe(nvml, status);
        return;
    }
    m_initialised = true; // NVML counts initialisations; each is paired with a shutdown
    NvmlDevice device = nullptr;
    status = nvml.handleByPci(pciBusId.c_str(), &device);
    if (status != kNvmlSuccess || !device) {
        m_reason =
            "NVML does not know the GPU at PCI bus id " + pciBusId + ": " + describe(nvml, status);
        return;
    }
    m_device = device;
}

SmClockReader::~SmClockReader()
{
    if (m_initialised) {
        (void)loadedNvml().shutdown();
    }
}

std::optional<unsigned> SmClockReader::smClockMHz() const
{
    if (!m_device) {
        return std::nullopt;
    }
    unsigned mhz = 0;
    if (loadedNvml().clockInfo(m_device, kNvmlClockSm, &mhz) != kNvmlSuccess) {
        return std::nullopt;
    }
    return mhz;
}

} // namespace cuwb
