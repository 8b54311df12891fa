// KernelCompiler: compiles CUDA source with NVRTC into PTX and CUBIN, parses diagnostics,
// ptxas resources and the PTX line map, and keeps recent results in a cache keyed by
// source + options. Synchronous and thread-safe: callers choose the thread.
#pragma once

#include "compiler/compileresult.h"

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuwb {

class CompileCache;

class KernelCompiler
{
public:
    explicit KernelCompiler(std::size_t cacheCapacity = 32);

    // fileName: the name diagnostics and the line map use for the main source.
    CompileResult compile(std::string_view source, std::string_view fileName,
                          const CompileOptions &options);

    [[nodiscard]] std::size_t cacheHits() const;
    // Puts a result compiled elsewhere (the host's compile of a sweep variant) in the cache, so
    // that compile() of the same source, file name and options returns it.
    void store(std::string_view source, std::string_view fileName, const CompileOptions &options,
               CompileResult result);
    [[nodiscard]] std::size_t cacheSize() const;
    void clearCache();
    // Also keep successful compiles on disk, and look there before compiling (compilecache.h).
    void setDiskCache(std::shared_ptr<const CompileCache> cache);

private:
    mutable std::mutex m_mutex;
    std::size_t m_capacity;
    std::size_t m_hits = 0;
    std::list<std::pair<std::string, CompileResult>> m_cache; // most recent first
    std::shared_ptr<const CompileCache> m_diskCache;
};

// Confines every nvcc this process runs from now on, with everything it starts (util/sandbox.h):
// it may read the system's folders, the toolkit and `readable` (a graded submission's folder),
// write only its own scratch folder, and reach no network, so no spelling of `#include` (a
// digraph, a line splice, a comment between `#` and `include`, a trigraph, a chain of headers)
// opens a file outside. NVRTC runs inside this process and cannot be confined: a compile that
// asks for it runs nvcc, and without nvcc (or without Landlock) a compile fails with the
// reason. Compiles are not looked up in, nor stored to, the disk cache. For graded projects
// (`cuwb run DIR`) and `cuwb compile --confine`; there is no way back.
void confineCompiles(std::vector<std::string> readable);
// Whether confineCompiles() was called.
[[nodiscard]] bool compilesConfined();

} // namespace cuwb
