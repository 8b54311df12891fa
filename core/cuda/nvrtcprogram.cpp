#include "cuda/nvrtcprogram.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>

#include <dlfcn.h>

namespace cuwb {

namespace {

// NVRTC loads its builtins (libnvrtc-builtins.so.MAJOR.MINOR) with dlopen by name, which
// searches LD_LIBRARY_PATH and ld.so's cache but not the programs' run path. On a fresh
// Debian 12 whose /usr/local/cuda is not in ld.so.conf, every compile of the installed package
// failed with "failed to open libnvrtc-builtins.so.13.0". Loaded first from libnvrtc's own
// folder, the library is found already loaded. Nothing happens when it is not there: NVRTC
// then says what it misses, as before.
void loadNvrtcBuiltins()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // The function itself, not a stub in this program: dladdr then names libnvrtc's file.
        void *const symbol = dlsym(RTLD_DEFAULT, "nvrtcVersion");
        Dl_info where{};
        int major = 0;
        int minor = 0;
        if (!symbol || !dladdr(symbol, &where) || !where.dli_fname ||
            ::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
            return;
        }
        const std::filesystem::path builtins =
            std::filesystem::path(where.dli_fname).parent_path() /
            ("libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor));
        std::error_code error;
        if (std::filesystem::exists(builtins, error)) {
            (void)dlopen(builtins.c_str(), RTLD_NOW | RTLD_GLOBAL); // never closed
        }
    });
}

} // namespace

namespace detail {
void throwNvrtcError(nvrtcResult result, const char *call, const char *file, int line)
{
    throw ApiError("NVRTC", call, nvrtcGetErrorString(result), file, line);
}
} // namespace detail

NvrtcProgram::NvrtcProgram(std::string_view source, std::string_view name)
{
    // NVRTC wants NUL-terminated strings; string_view gives no such promise.
    const std::string sourceText(source);
    const std::string nameText(name);
    CUWB_NVRTC_CHECK(
        nvrtcCreateProgram(&m_program, sourceText.c_str(), nameText.c_str(), 0, nullptr, nullptr));
}

NvrtcProgram::NvrtcProgram(std::string_view source, std::string_view name,
                           const std::vector<std::pair<std::string, std::string>> &headers)
{
    const std::string sourceText(source);
    const std::string nameText(name);
    std::vector<const char *> contents;
    std::vector<const char *> names;
    for (const auto &[headerName, content] : headers) {
        names.push_back(headerName.c_str());
        contents.push_back(content.c_str());
    }
    CUWB_NVRTC_CHECK(nvrtcCreateProgram(&m_program, sourceText.c_str(), nameText.c_str(),
                                        int(headers.size()), contents.data(), names.data()));
}

NvrtcProgram::~NvrtcProgram()
{
    if (m_program)
        nvrtcDestroyProgram(&m_program); // nothing useful to do with a failure in a destructor
}

NvrtcProgram::NvrtcProgram(NvrtcProgram &&other) noexcept
    : m_program(std::exchange(other.m_program, nullptr))
{}

NvrtcProgram &NvrtcProgram::operator=(NvrtcProgram &&other) noexcept
{
    if (this != &other) {
        if (m_program)
            nvrtcDestroyProgram(&m_program);
        m_program = std::exchange(other.m_program, nullptr);
    }
    return *this;
}

void NvrtcProgram::addNameExpression(const std::string &expression)
{
    CUWB_NVRTC_CHECK(nvrtcAddNameExpression(m_program, expression.c_str()));
}

NvrtcCompileOutcome NvrtcProgram::compile(const std::vector<std::string> &arguments)
{
    std::vector<const char *> argv;
    argv.reserve(arguments.size());
    for (const std::string &argument : arguments)
        argv.push_back(argument.c_str());

    loadNvrtcBuiltins();
    NvrtcCompileOutcome outcome;
    outcome.result = nvrtcCompileProgram(m_program, static_cast<int>(argv.size()), argv.data());
    switch (outcome.result) {
    case NVRTC_ERROR_OUT_OF_MEMORY:
    case NVRTC_ERROR_INVALID_INPUT:
    case NVRTC_ERROR_INVALID_PROGRAM:
        detail::throwNvrtcError(outcome.result, "nvrtcCompileProgram(m_program, ...)", __FILE__,
                                __LINE__);
    default:
        break;
    }
    outcome.statusText = nvrtcGetErrorString(outcome.result);
    outcome.log = log();
    return outcome;
}

std::string NvrtcProgram::log() const
{
    std::size_t size = 0;
    CUWB_NVRTC_CHECK(nvrtcGetProgramLogSize(m_program, &size));
    std::string text(size, '\0');
    if (size > 0)
        CUWB_NVRTC_CHECK(nvrtcGetProgramLog(m_program, text.data()));
    // The size counts the terminator, and when ptxas ran NVRTC joins the front end's log and
    // ptxas' with an extra NUL; as text they are line breaks, not terminators.
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    std::replace(text.begin(), text.end(), '\0', '\n');
    return text;
}

std::string NvrtcProgram::ptx() const
{
    std::size_t size = 0;
    CUWB_NVRTC_CHECK(nvrtcGetPTXSize(m_program, &size));
    std::string text(size, '\0');
    if (size > 0)
        CUWB_NVRTC_CHECK(nvrtcGetPTX(m_program, text.data()));
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

std::string NvrtcProgram::cubin() const
{
    std::size_t size = 0;
    // A PTX-only target is not a fault: NVRTC reports it as invalid input here.
    if (nvrtcGetCUBINSize(m_program, &size) != NVRTC_SUCCESS || size == 0)
        return {};
    std::string bytes(size, '\0');
    CUWB_NVRTC_CHECK(nvrtcGetCUBIN(m_program, bytes.data()));
    return bytes;
}

std::string NvrtcProgram::loweredName(const std::string &expression) const
{
    const char *lowered = nullptr;
    CUWB_NVRTC_CHECK(nvrtcGetLoweredName(m_program, expression.c_str(), &lowered));
    return lowered ? std::string(lowered) : std::string();
}

} // namespace cuwb
