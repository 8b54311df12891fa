// The CUPTI library, loaded once per process at run time (dlopen) and shared by the activity
// timer (cuptiactivity.cpp) and the Range Profiler (cuptiprofiler.cpp), so the program starts
// without it. The profiler half of CUPTI loads libnvperf_host.so and libnvperf_target.so by
// name; they sit beside libcupti, which need not be on the library path, so they are loaded
// first from libcupti's own folder with RTLD_GLOBAL, and CUPTI then finds them already loaded.
#pragma once

#include <cstdint>
#include <string>

namespace cuwb {

// The dlopen handle of libcupti, or nullptr with the reason ("CUPTI (libcupti.so.13) could not
// be loaded: ..."). Never unloaded: CUPTI keeps threads and driver hooks.
void *cuptiLibrary(std::string &reason);

// The folder libcupti was loaded from ("/usr/local/cuda/lib64"), empty when it was not.
std::string cuptiLibraryFolder();

// Symbol `name` of libcupti, or nullptr.
void *cuptiSymbol(const char *name);

// Looks `symbol` up into `slot`, a pointer of the toolkit header's own type. The first symbol
// missing makes `complete` false and `failure` say "this CUPTI has no SYMBOL" and `needs`.
template <typename Function>
void resolveCupti(Function &slot, const char *symbol, bool &complete, std::string &failure,
                  const char *needs)
{
    slot = reinterpret_cast<Function>(cuptiSymbol(symbol));
    if (!slot && complete) {
        complete = false;
        failure = std::string("this CUPTI has no ") + symbol + needs;
    }
}

// CUPTI's words for a result code (cuptiGetResultString), or "CUptiResult N".
std::string cuptiResultText(int result);

// The profiler interface (cuptiProfilerInitialize) held for a scope and released at its end
// (cuptiProfilerDeInitialize): CUPTI counts the initialisations, so each user releases its
// own. The Range Profiler holds it while it profiles; the SASS metrics hold it as long as
// their configuration, for the rest of the process (cuptisassmetrics.cpp).
class CuptiProfilerScope
{
public:
    CuptiProfilerScope();
    ~CuptiProfilerScope();
    CuptiProfilerScope(const CuptiProfilerScope &) = delete;
    CuptiProfilerScope &operator=(const CuptiProfilerScope &) = delete;

    // cuptiProfilerInitialize's result (a CUptiResult; 0 is success), or -1 when this CUPTI has
    // no profiler.
    [[nodiscard]] int status() const { return m_status; }
    [[nodiscard]] bool ok() const { return m_status == 0; }

private:
    int m_status = -1;
};

// Where instruction `pcOffset` of `function` in `cubin` comes from, by the image's line table
// (cuptiGetSassToSourceCorrelation, from -lineinfo): line 0 and no file when it has none.
struct CuptiSourceLine
{
    std::string file;
    std::uint32_t line = 0;
};
CuptiSourceLine cuptiSourceLine(const std::string &cubin, const std::string &function,
                                std::uint64_t pcOffset);

} // namespace cuwb
