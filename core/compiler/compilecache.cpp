#include "compiler/compilecache.h"

#include "compiler/compilejson.h"
#include "compiler/nvcc.h"
#include "compiler/sourcescan.h"
#include "cuda/nvrtcinfo.h"
#include "util/base64.h"
#include "util/boundedfile.h"
#include "util/jsondepth.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace cuwb {

namespace {

namespace fs = std::filesystem;

// The format of a cache file; a file of another format is a miss. 2: the compiler (nvcc or
// NVRTC), its notes and diagnostics; 3: failed compiles are kept too.
constexpr int kCacheFormat = 3;
// An entry holds a module's PTX and CUBIN: a 16 MiB source makes far less than this. Its JSON
// nests four deep.
constexpr std::uint64_t kMaxEntryBytes = 1ull << 30;
constexpr std::size_t kMaxEntryDepth = 16;

struct Hash
{
    std::uint64_t value = 14695981039346656037ull;
    void add(std::string_view part)
    {
        const std::string length = std::to_string(part.size()) + ":";
        for (const char c : length)
            value = (value ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        for (const char c : part)
            value = (value ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    [[nodiscard]] std::string hex() const
    {
        static const char digits[] = "0123456789abcdef";
        std::string text(16, '0');
        std::uint64_t v = value;
        for (int i = 15; i >= 0; --i, v >>= 4)
            text[std::size_t(i)] = digits[v & 0xf];
        return text;
    }
};

} // namespace

CompileCache::CompileCache(std::string folder, std::size_t maxEntries, std::uintmax_t maxBytes)
    : m_folder(std::move(folder))
    , m_maxEntries(maxEntries)
    , m_maxBytes(maxBytes)
{}

std::optional<std::string> CompileCache::defaultFolder()
{
    if (const char *dir = std::getenv("CUWB_CACHE_DIR"); dir && *dir) {
        if (std::string_view(dir) == "off")
            return std::nullopt;
        return std::string(dir);
    }
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "cuda-workbench" / "kernels").string();
    if (const char *home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".cache" / "cuda-workbench" / "kernels").string();
    return std::nullopt;
}

std::optional<std::string> CompileCache::key(std::string_view source, std::string_view fileName,
                                             const CompileOptions &options) const
{
    Hash hash;
    hash.add(CUWB_VERSION);
    hash.add(nvrtcVersion());
    hash.add(compilerFingerprint(options));
    hash.add(fileName);
    hash.add(source);
    hash.add(options.canonicalText());
    // Whatever the source can include from the user's folders: their files' sizes and times.
    std::size_t files = 0;
    for (const std::string &dir : options.includeDirs) {
        std::error_code error;
        fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied,
                                            error);
        if (error)
            continue;
        std::vector<std::string> entries;
        for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
            if (error)
                return std::nullopt;
            if (!it->is_regular_file(error))
                continue;
            if (++files > kMaxFingerprintFiles)
                return std::nullopt;
            const auto size = it->file_size(error);
            const auto time = it->last_write_time(error).time_since_epoch().count();
            entries.push_back(it->path().string() + "|" + std::to_string(size) + "|" +
                              std::to_string(time));
        }
        std::sort(entries.begin(), entries.end());
        for (const std::string &entry : entries)
            hash.add(entry);
    }
    return hash.hex();
}

std::optional<CompileResult> CompileCache::load(const std::string &key, std::string_view source,
                                                std::string_view fileName) const
{
    // Only a regular file is read (a FIFO put in its place would block the compile forever),
    // and one that does not nest like an entry is a miss before it is parsed.
    const BoundedRead read =
        readBoundedFile((fs::path(m_folder) / (key + ".json")).string(), kMaxEntryBytes, "entry");
    if (!read.ok() || findJsonDeeperThan(read.text, kMaxEntryDepth))
        return std::nullopt;
    try {
        const nlohmann::json j = nlohmann::json::parse(read.text);
        if (j.value("format", 0) != kCacheFormat)
            return std::nullopt;
        CompileResult result;
        result.success = j.at("success").get<bool>();
        result.fromCache = true;
        result.fileName = std::string(fileName);
        j.at("options").get_to(result.options);
        j.at("log").get_to(result.log);
        result.compileTimeMs = j.value("compileTimeMs", 0.0);
        j.at("diagnostics").get_to(result.diagnostics);
        j.at("compiledBy").get_to(result.compiledBy);
        j.at("notes").get_to(result.notes);
        // Derived from what is stored, as the compile derived them.
        result.templates = kernelTemplates(source);
        if (!result.success)
            return result; // what the compiler said is the whole result
        j.at("ptx").get_to(result.ptx);
        if (!fromBase64(j.at("cubin").get<std::string>(), result.cubin))
            return std::nullopt;
        j.at("kernels").get_to(result.kernels);
        result.lineMap = PtxLineMap::build(result.ptx, fileName);
        return result;
    } catch (const std::exception &) {
        return std::nullopt; // a damaged file is a miss; the next store replaces it
    }
}

bool CompileCache::storable(const CompileResult &result)
{
    return result.failureMessage.empty() && (result.success || !result.diagnostics.empty());
}

void CompileCache::store(const std::string &key, const CompileResult &result) const
{
    if (!storable(result))
        return;
    std::error_code error;
    fs::create_directories(m_folder, error);
    if (error)
        return;
    nlohmann::json j{{"format", kCacheFormat},
                     {"success", result.success},
                     {"options", result.options},
                     {"log", result.log},
                     {"compileTimeMs", result.compileTimeMs},
                     {"diagnostics", result.diagnostics},
                     {"compiledBy", result.compiledBy},
                     {"notes", result.notes}};
    if (result.success) {
        j["ptx"] = result.ptx;
        j["cubin"] = toBase64(result.cubin);
        j["kernels"] = result.kernels;
    }
    // Written aside and renamed, so a reader never sees half a file.
    const fs::path target = fs::path(m_folder) / (key + ".json");
    const fs::path temporary =
        fs::path(m_folder) / (key + ".json." + std::to_string(::getpid()) + ".tmp");
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            return;
        out << j.dump();
        if (!out)
            return;
    }
    fs::rename(temporary, target, error);
    if (error) {
        fs::remove(temporary, error);
        return;
    }
    // Bounded in entries and bytes: the least recently written go first.
    struct Entry
    {
        fs::file_time_type time;
        std::uintmax_t bytes = 0;
        fs::path path;
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    for (const fs::directory_entry &entry : fs::directory_iterator(m_folder, error)) {
        if (entry.path().extension() != ".json")
            continue;
        Entry e{entry.last_write_time(error), entry.file_size(error), entry.path()};
        total += e.bytes;
        entries.push_back(std::move(e));
    }
    if (entries.size() <= m_maxEntries && total <= m_maxBytes)
        return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) { return a.time < b.time; });
    std::size_t left = entries.size();
    for (const Entry &entry : entries) {
        if (left <= m_maxEntries && total <= m_maxBytes)
            break;
        if (entry.path == target)
            continue; // what was just stored stays
        fs::remove(entry.path, error);
        total -= entry.bytes;
        --left;
    }
}

} // namespace cuwb
