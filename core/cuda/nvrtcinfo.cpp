#include "cuda/nvrtcinfo.h"

#include "cuda/nvrtcprogram.h"

#include <cstdlib>
#include <filesystem>

namespace cuwb {

std::string nvrtcVersion()
{
    int major = 0;
    int minor = 0;
    CUWB_NVRTC_CHECK(::nvrtcVersion(&major, &minor));
    return std::to_string(major) + "." + std::to_string(minor);
}

const std::vector<std::string> &nvrtcSupportedArchs()
{
    // Asked once: the answer depends only on the library loaded into this process.
    static const std::vector<std::string> archs = [] {
        int count = 0;
        CUWB_NVRTC_CHECK(nvrtcGetNumSupportedArchs(&count));
        std::vector<int> numbers(static_cast<std::size_t>(count));
        if (count > 0)
            CUWB_NVRTC_CHECK(nvrtcGetSupportedArchs(numbers.data()));
        std::vector<std::string> names;
        names.reserve(numbers.size());
        for (int number : numbers)
            names.push_back("sm_" + std::to_string(number));
        return names;
    }();
    return archs;
}

std::string cudaIncludeDir()
{
    static const std::string dir = [] {
        // CMake may hand over a list ("a;b"); the first entry is the toolkit's own folder.
        std::string configured = CUWB_CUDA_INCLUDE_DIR;
        if (const auto separator = configured.find(';'); separator != std::string::npos)
            configured.resize(separator);
        std::error_code error;
        if (!configured.empty() && std::filesystem::is_directory(configured, error))
            return configured;
        // The build machine's toolkit may live elsewhere than the one running the program.
        for (const char *variable : {"CUDA_PATH", "CUDA_HOME"}) {
            if (const char *root = std::getenv(variable); root && *root) {
                const std::string candidate = std::string(root) + "/include";
                if (std::filesystem::is_directory(candidate, error))
                    return candidate;
            }
        }
        return std::string("/usr/local/cuda/include");
    }();
    return dir;
}

} // namespace cuwb
