#include "compiler/nvcc.h"

#include "compiler/compileresult.h"
#include "cuda/nvrtcinfo.h"
#include "util/toolprocess.h"

#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <vector>

namespace cuwb {

namespace fs = std::filesystem;

namespace {

bool isExecutable(const fs::path &path)
{
    std::error_code error;
    const auto status = fs::status(path, error);
    return !error && fs::is_regular_file(status) &&
           (status.permissions() & fs::perms::owner_exec) != fs::perms::none;
}

// "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88".
std::string versionFrom(std::string_view text)
{
    const std::size_t at = text.find(", V");
    if (at == std::string_view::npos)
        return {};
    std::size_t end = at + 3;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
        ++end;
    return std::string(text.substr(at + 3, end - at - 3));
}

// nvcc preprocesses with the host compiler it finds on the PATH (gcc on Linux); without one
// it cannot compile anything.
std::string hostCompilerProblem()
{
    if (const char *path = std::getenv("PATH"); path && *path) {
        std::string_view list(path);
        while (!list.empty()) {
            const std::size_t colon = list.find(':');
            const std::string_view dir = list.substr(0, colon);
            if (!dir.empty() && isExecutable(fs::path(dir) / "gcc"))
                return {};
            list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
        }
    }
    return "nvcc needs a host compiler, and there is no gcc on the PATH (Debian: apt install g++)";
}

NvccInstallation locate()
{
    NvccInstallation installation;
    std::vector<fs::path> candidates;
    if (const char *pinned = std::getenv("CUWB_NVCC"); pinned && *pinned) {
        if (std::string_view(pinned) == "off") {
            installation.problem = "nvcc is switched off (CUWB_NVCC=off)";
            installation.searched = "CUWB_NVCC";
            return installation;
        }
        candidates.emplace_back(pinned);
    }
    for (const char *variable : {"CUDA_PATH", "CUDA_HOME"}) {
        if (const char *root = std::getenv(variable); root && *root)
            candidates.push_back(fs::path(root) / "bin" / "nvcc");
    }
    // The toolkit whose headers NVRTC is given: include/ or targets/<triple>/include/.
    const fs::path include = cudaIncludeDir();
    candidates.push_back(include.parent_path() / "bin" / "nvcc");
    candidates.push_back(include.parent_path().parent_path().parent_path() / "bin" / "nvcc");
    candidates.emplace_back("/usr/local/cuda/bin/nvcc");
    if (const char *path = std::getenv("PATH"); path && *path) {
        std::string_view list(path);
        while (!list.empty()) {
            const std::size_t colon = list.find(':');
            const std::string_view dir = list.substr(0, colon);
            if (!dir.empty())
                candidates.push_back(fs::path(dir) / "nvcc");
            list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
        }
    }
    for (const fs::path &candidate : candidates) {
        if (!installation.searched.empty())
            installation.searched += ", ";
        installation.searched += candidate.string();
        if (!isExecutable(candidate))
            continue;
        std::error_code error;
        const fs::path absolute = fs::absolute(candidate, error);
        ToolLimits limits;
        limits.timeoutMs = 20000;
        limits.maxOutputBytes = 1 << 16;
        const ToolRun run = runTool({absolute.string(), "--version"}, limits);
        if (!run.succeeded()) {
            installation.problem = run.failure(absolute.string() + " --version");
            continue;
        }
        installation.version = versionFrom(run.out);
        if (installation.version.empty()) {
            installation.problem = absolute.string() + " --version printed no version";
            continue;
        }
        if (std::string problem = hostCompilerProblem(); !problem.empty()) {
            installation.problem = absolute.string() + ": " + problem;
            return installation;
        }
        installation.path = absolute.string();
        installation.problem.clear();
        return installation;
    }
    if (installation.problem.empty())
        installation.problem = "nvcc was not found (looked at " + installation.searched + ")";
    return installation;
}

} // namespace

const NvccInstallation &nvccInstallation()
{
    static const NvccInstallation installation = locate();
    return installation;
}

std::string resolvedCompiler(const CompileOptions &options)
{
    if (options.compiler == "nvrtc")
        return "nvrtc";
    if (options.compiler == "nvcc")
        return "nvcc";
    return nvccInstallation().found() ? "nvcc" : "nvrtc";
}

std::string compilerFingerprint(const CompileOptions &options)
{
    if (resolvedCompiler(options) == "nvrtc")
        return "nvrtc " + nvrtcVersion();
    const NvccInstallation &nvcc = nvccInstallation();
    return "nvcc " + nvcc.version + " " + nvcc.path;
}

std::string CompilerIdentity::label() const
{
    if (name.empty())
        return {};
    return (name == "nvrtc" ? std::string("NVRTC") : name) +
           (version.empty() ? std::string() : " " + version);
}

} // namespace cuwb
