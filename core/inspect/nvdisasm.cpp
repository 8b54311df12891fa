#include "inspect/nvdisasm.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace cuwb {

namespace {

namespace fs = std::filesystem;

std::string environment(const char *name)
{
    const char *value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

bool isExecutableFile(const fs::path &path)
{
    std::error_code error;
    return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

// The package's layout: nvidia/cu13/bin/nvdisasm (the newest cuNN first, if several).
std::string findInToolFolder(const fs::path &folder)
{
    std::error_code error;
    const fs::path nvidia = folder / "nvidia";
    if (!fs::is_directory(nvidia, error))
        return {};
    std::vector<fs::path> candidates;
    for (const fs::directory_entry &entry : fs::directory_iterator(nvidia, error)) {
        const fs::path binary = entry.path() / "bin" / "nvdisasm";
        if (isExecutableFile(binary))
            candidates.push_back(binary);
    }
    std::sort(candidates.begin(), candidates.end());
    return candidates.empty() ? std::string() : candidates.back().string();
}

fs::path executableFolder()
{
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::path() : self.parent_path();
}

} // namespace

NvdisasmSearch NvdisasmSearch::fromEnvironment()
{
    NvdisasmSearch search;
    search.overridePath = environment("CUWB_NVDISASM");
    search.overrideSet = !search.overridePath.empty();
    search.cudaHome = environment("CUDA_HOME");
    if (search.cudaHome.empty())
        search.cudaHome = "/usr/local/cuda";
    search.pathVariable = environment("PATH");
    if (const fs::path folder = executableFolder(); !folder.empty())
        search.toolFolders.push_back((folder.parent_path() / "tools" / "nvdisasm").string());
#ifdef CUWB_BUILD_TOOLS_DIR
    const std::string configured = std::string(CUWB_BUILD_TOOLS_DIR) + "/nvdisasm";
    if (std::find(search.toolFolders.begin(), search.toolFolders.end(), configured) ==
        search.toolFolders.end())
        search.toolFolders.push_back(configured);
#endif
    return search;
}

NvdisasmTool findNvdisasm(const NvdisasmSearch &search)
{
    NvdisasmTool tool;
    if (search.overrideSet) {
        if (isExecutableFile(search.overridePath)) {
            tool.path = search.overridePath;
            tool.origin = "CUWB_NVDISASM";
        } else {
            tool.problem = "nvdisasm is not available: CUWB_NVDISASM names '" +
                           search.overridePath + "', which is not an executable file.";
        }
        return tool;
    }
    if (!search.cudaHome.empty()) {
        if (const fs::path binary = fs::path(search.cudaHome) / "bin" / "nvdisasm";
            isExecutableFile(binary)) {
            tool.path = binary.string();
            tool.origin = "CUDA_HOME";
            return tool;
        }
    }
    std::size_t start = 0;
    while (start <= search.pathVariable.size()) {
        std::size_t end = search.pathVariable.find(':', start);
        if (end == std::string::npos)
            end = search.pathVariable.size();
        const std::string folder = search.pathVariable.substr(start, end - start);
        if (!folder.empty()) {
            if (const fs::path binary = fs::path(folder) / "nvdisasm"; isExecutableFile(binary)) {
                tool.path = binary.string();
                tool.origin = "PATH";
                return tool;
            }
        }
        start = end + 1;
    }
    for (const std::string &folder : search.toolFolders) {
        if (std::string binary = findInToolFolder(folder); !binary.empty()) {
            tool.path = std::move(binary);
            tool.origin = "build folder";
            return tool;
        }
    }
    tool.problem = "nvdisasm is not available: it is not in " +
                   (search.cudaHome.empty() ? std::string("CUDA_HOME") : search.cudaHome + "/bin") +
                   ", on the PATH or in the build folder. `./workbench build` installs it "
                   "(from PyPI: pip install nvidia-cuda-nvdisasm), or set CUWB_NVDISASM to "
                   "its path.";
    return tool;
}

std::string nvdisasmVersion(const std::string &path, const ToolLimits &limits)
{
    const ToolRun run = runTool({path, "--version"}, limits);
    if (!run.succeeded())
        return {};
    // "Cuda compilation tools, release 13.5, V13.5.37"
    const std::size_t at = run.out.rfind(", V");
    if (at == std::string::npos)
        return {};
    std::size_t end = at + 3;
    while (end < run.out.size() &&
           (std::isdigit(static_cast<unsigned char>(run.out[end])) || run.out[end] == '.'))
        ++end;
    return run.out.substr(at + 3, end - at - 3);
}

SassDisassembly disassembleCubin(const std::string &cubin, const NvdisasmTool &tool,
                                 const ToolLimits &limits)
{
    SassDisassembly result;
    if (!tool.found()) {
        result.status = SassStatus::NoTool;
        result.message = tool.problem.empty() ? "nvdisasm is not available." : tool.problem;
        return result;
    }
    result.toolPath = tool.path;
    if (cubin.empty()) {
        result.status = SassStatus::NoCubin;
        result.message = "there is no machine code to disassemble";
        return result;
    }
    result.toolVersion = nvdisasmVersion(tool.path);

    std::error_code error;
    const fs::path folder = fs::temp_directory_path(error);
    std::string pattern = ((error ? fs::path("/tmp") : folder) / "cuwb-sass-XXXXXX.cubin").string();
    const int fd = ::mkstemps(pattern.data(), 6);
    if (fd < 0) {
        result.status = SassStatus::ToolFailed;
        result.message = "cannot write the CUBIN to a temporary file in " + folder.string();
        return result;
    }
    bool written = true;
    for (std::size_t done = 0; done < cubin.size();) {
        const ssize_t n = ::write(fd, cubin.data() + done, cubin.size() - done);
        if (n <= 0) {
            written = false;
            break;
        }
        done += std::size_t(n);
    }
    ::close(fd);
    ToolRun run;
    if (written)
        run = runTool({tool.path, "--print-code", "--print-line-info-inline", pattern}, limits);
    fs::remove(pattern, error);
    if (!written) {
        result.status = SassStatus::ToolFailed;
        result.message = "cannot write the CUBIN to a temporary file in " + folder.string();
        return result;
    }
    if (!run.succeeded()) {
        result.status = SassStatus::ToolFailed;
        result.message = run.failure("nvdisasm");
        if (run.timedOut)
            result.message += " (after " + std::to_string(limits.timeoutMs / 1000) + " s)";
        return result;
    }
    result.text = std::move(run.out);
    result.listing = parseNvdisasm(result.text);
    if (result.listing.functions.empty()) {
        result.status = SassStatus::ToolFailed;
        result.message = "nvdisasm printed no code";
        return result;
    }
    result.status = SassStatus::Ok;
    return result;
}

SassDisassembly disassemble(const CompileResult &compiled, const NvdisasmTool &tool,
                            const ToolLimits &limits)
{
    if (tool.found() && compiled.cubin.empty()) {
        SassDisassembly result;
        result.status = SassStatus::NoCubin;
        result.toolPath = tool.path;
        if (!compiled.success)
            result.message = "the source did not compile, so there is no machine code";
        else
            result.message = "no machine code was built for " + compiled.options.arch +
                             " (a virtual architecture gives PTX only; choose a real one, "
                             "such as sm_90)";
        return result;
    }
    return disassembleCubin(compiled.cubin, tool, limits);
}

} // namespace cuwb
