// CompileCache: compiles kept on disk between runs, so a sweep run again (or a project checked
// again, or listed with `cuwb sweep --list` after `cuwb check`) does not wait for NVRTC and
// ptxas on variants it compiled before — as CuPy's and the auto-tuners' kernel caches do. One
// file per result, named by a hash of everything that decides what NVRTC produces: the source,
// its file name, the options, the NVRTC and CUDA Workbench versions, and the size and
// modification time of every file in the user's include folders (an edited header is a
// different key). Folders with more files than kMaxFingerprintFiles are not fingerprinted and
// their compiles are not cached.
//
// A compile that failed is kept too (its diagnostics are what the source compiles to: a
// variant ptxas rejects is rejected again without a compile), but only when it failed on the
// source: a result with a failureMessage (options refused, NVRTC's internal error, a compiler
// process that crashed, ran out of memory or time, or was stopped) says the compile could not
// run, and is never stored.
#pragma once

#include "compiler/compileresult.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuwb {

class CompileCache
{
public:
    static constexpr std::size_t kMaxFingerprintFiles = 2000;
    // Beyond either bound, the least recently written entries go.
    static constexpr std::size_t kMaxEntries = 4096;
    static constexpr std::uintmax_t kMaxBytes = std::uintmax_t(1) << 30;

    explicit CompileCache(std::string folder, std::size_t maxEntries = kMaxEntries,
                          std::uintmax_t maxBytes = kMaxBytes);

    // The folder CUDA Workbench uses: $CUWB_CACHE_DIR, else $XDG_CACHE_HOME/cuda-workbench/
    // kernels, else ~/.cache/cuda-workbench/kernels; nullopt when CUWB_CACHE_DIR is "off" or
    // no folder can be named.
    static std::optional<std::string> defaultFolder();

    // The key of a compile, or nullopt when it cannot be cached (too many include files).
    [[nodiscard]] std::optional<std::string> key(std::string_view source, std::string_view fileName,
                                                 const CompileOptions &options) const;
    // A stored result (fromCache set), or nullopt: none, unreadable, or of another format.
    [[nodiscard]] std::optional<CompileResult> load(const std::string &key, std::string_view source,
                                                    std::string_view fileName) const;
    // Stores a result that storable() accepts; failures to write are ignored (the cache is an
    // optimisation).
    void store(const std::string &key, const CompileResult &result) const;
    // Whether `result` is what its source and options compile to, and so may be kept: a success,
    // or a failure with diagnostics and no failureMessage.
    [[nodiscard]] static bool storable(const CompileResult &result);

    [[nodiscard]] const std::string &folder() const { return m_folder; }

private:
    std::string m_folder;
    std::size_t m_maxEntries;
    std::uintmax_t m_maxBytes;
};

} // namespace cuwb
