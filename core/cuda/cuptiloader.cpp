#include "cuda/cuptiloader.h"

#include <cupti.h>
#include <cupti_pcsampling.h> // cuptiGetSassToSourceCorrelation
#include <cupti_profiler_target.h>

#include <cstdlib>

#include <dlfcn.h>
#include <link.h>

namespace cuwb {

namespace {

struct LoadedCupti
{
    void *library = nullptr;
    std::string folder;
    std::string failure;
};

const LoadedCupti &loadedCupti()
{
    static const LoadedCupti cupti = [] {
        LoadedCupti c;
        const char *const names[] = {
            "libcupti.so.13",
            "libcupti.so",
            "/usr/local/cuda/lib64/libcupti.so.13",
            "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
            "/usr/local/cuda/lib64/libcupti.so",
            "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
        };
        std::string errors;
        for (const char *name : names) {
            c.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
            if (c.library) {
                break;
            }
            const char *error = dlerror();
            if (errors.empty() && error) {
                errors = error;
            }
        }
        if (!c.library) {
            c.failure = "CUPTI (libcupti.so.13) could not be loaded: " + errors;
            return c;
        }
        const link_map *map = nullptr;
        if (dlinfo(c.library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) {
            const std::string path = map->l_name;
            const std::size_t slash = path.rfind('/');
            if (slash != std::string::npos) {
                c.folder = path.substr(0, slash);
            }
        }
        // Failures are left for CUPTI to report: timing needs neither library.
        for (const char *name : {"libnvperf_host.so", "libnvperf_target.so"}) {
            void *nvperf = nullptr;
            if (!c.folder.empty()) {
                nvperf = dlopen((c.folder + "/" + name).c_str(), RTLD_NOW | RTLD_GLOBAL);
            }
            if (!nvperf) {
                (void)dlopen(name, RTLD_NOW | RTLD_GLOBAL);
            }
        }
        return c;
    }();
    return cupti;
}

} // namespace

void *cuptiLibrary(std::string &reason)
{
    const LoadedCupti &c = loadedCupti();
    reason = c.failure;
    return c.library;
}

std::string cuptiLibraryFolder()
{
    return loadedCupti().folder;
}

void *cuptiSymbol(const char *name)
{
    void *library = loadedCupti().library;
    return library ? dlsym(library, name) : nullptr;
}

std::string cuptiResultText(int result)
{
    using GetResultString = CUptiResult (*)(CUptiResult, const char **);
    static const auto getResultString =
        reinterpret_cast<GetResultString>(cuptiSymbol("cuptiGetResultString"));
    const char *text = nullptr;
    if (getResultString && getResultString(CUptiResult(result), &text) == CUPTI_SUCCESS && text) {
        return text;
    }
    return "CUptiResult " + std::to_string(result);
}

CuptiProfilerScope::CuptiProfilerScope()
{
    const auto initialize = reinterpret_cast<decltype(&cuptiProfilerInitialize)>(
        cuptiSymbol("cuptiProfilerInitialize"));
    if (initialize) {
        CUpti_Profiler_Initialize_Params params{};
        params.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
        m_status = int(initialize(&params));
    }
}

CuptiProfilerScope::~CuptiProfilerScope()
{
    if (m_status != 0) {
        return;
    }
    const auto deinitialize = reinterpret_cast<decltype(&cuptiProfilerDeInitialize)>(
        cuptiSymbol("cuptiProfilerDeInitialize"));
    if (deinitialize) {
        CUpti_Profiler_DeInitialize_Params params{};
        params.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
        (void)deinitialize(&params);
    }
}

CuptiSourceLine cuptiSourceLine(const std::string &cubin, const std::string &function,
                                std::uint64_t pcOffset)
{
    static const auto correlate = reinterpret_cast<decltype(&cuptiGetSassToSourceCorrelation)>(
        cuptiSymbol("cuptiGetSassToSourceCorrelation"));
    CuptiSourceLine where;
    if (!correlate || cubin.empty()) {
        return where;
    }
    CUpti_GetSassToSourceCorrelationParams p{};
    p.size = CUpti_GetSassToSourceCorrelationParamsSize;
    p.cubin = cubin.data();
    p.cubinSize = cubin.size();
    p.functionName = function.c_str();
    p.pcOffset = pcOffset;
    if (correlate(&p) == CUPTI_SUCCESS) {
        where.line = p.lineNumber;
        where.file = p.fileName ? p.fileName : "";
    }
    // CUPTI allocates the names with malloc and leaves them to the caller.
    std::free(p.fileName);
    std::free(p.dirName);
    return where;
}

} // namespace cuwb
