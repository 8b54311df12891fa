// The CUPTI library, loaded once per process at run time (dlopen) and shared by the activity
// timer (cuptiactivity.cpp) and the Range Profiler (cuptiprofiler.cpp), so the program starts
// without it. The profiler half of CUPTI loads libnvperf_host.so and libnvperf_target.so by
// name; they sit beside libcupti, which need not be on the library path, so they are loaded
// first from libcupti's own folder with RTLD_GLOBAL, and CUPTI then finds them already loaded.
#pragma once

#include <string>

namespace cuwb {

// The dlopen handle of libcupti, or nullptr with the reason ("CUPTI (libcupti.so.13) could not
// be loaded: ..."). Never unloaded: CUPTI keeps threads and driver hooks.
void *cuptiLibrary(std::string &reason);

// The folder libcupti was loaded from ("/usr/local/cuda/lib64"), empty when it was not.
std::string cuptiLibraryFolder();

// Symbol `name` of libcupti, or nullptr.
void *cuptiSymbol(const char *name);

} // namespace cuwb
