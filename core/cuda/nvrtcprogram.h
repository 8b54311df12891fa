// NvrtcProgram: the one owner of an nvrtcProgram handle, and with nvrtcinfo.cpp the only code
// that calls NVRTC directly. Misuse and infrastructure faults (out of memory, a handle NVRTC
// rejects) throw ApiError with the call text; a compilation that ran and failed is an
// ordinary outcome with its log, because failing is what user code under edit usually does.
#pragma once

#include "cuda/apierror.h"

#include <nvrtc.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuwb {

namespace detail {
[[noreturn]] void throwNvrtcError(nvrtcResult result, const char *call, const char *file, int line);
}

// Keeps the call text, file and line of a failing NVRTC call in the ApiError.
#define CUWB_NVRTC_CHECK(call)                                                                     \
    do {                                                                                           \
        const nvrtcResult cuwbNvrtcResult_ = (call);                                               \
        if (cuwbNvrtcResult_ != NVRTC_SUCCESS)                                                     \
            ::cuwb::detail::throwNvrtcError(cuwbNvrtcResult_, #call, __FILE__, __LINE__);          \
    } while (false)

struct NvrtcCompileOutcome
{
    nvrtcResult result = NVRTC_SUCCESS;
    std::string statusText; // nvrtcGetErrorString(result), e.g. "NVRTC_ERROR_COMPILATION"
    std::string log;        // program log, NUL bytes turned into line breaks; may be empty

    [[nodiscard]] bool succeeded() const { return result == NVRTC_SUCCESS; }
};

class NvrtcProgram
{
public:
    // name: what NVRTC calls the source in diagnostics and .file directives.
    NvrtcProgram(std::string_view source, std::string_view name);
    // headers: (name, content) pairs NVRTC reads for an #include of that name.
    NvrtcProgram(std::string_view source, std::string_view name,
                 const std::vector<std::pair<std::string, std::string>> &headers);
    ~NvrtcProgram();

    NvrtcProgram(const NvrtcProgram &) = delete;
    NvrtcProgram &operator=(const NvrtcProgram &) = delete;
    NvrtcProgram(NvrtcProgram &&other) noexcept;
    NvrtcProgram &operator=(NvrtcProgram &&other) noexcept;

    // Must be called before compile(); e.g. "scale<float>" makes NVRTC instantiate it.
    void addNameExpression(const std::string &expression);

    // Returns the status instead of throwing for the statuses user input causes
    // (compilation errors, options NVRTC rejects, internal compiler errors).
    NvrtcCompileOutcome compile(const std::vector<std::string> &arguments);

    [[nodiscard]] std::string ptx() const;
    // Empty when no CUBIN was produced (a compute_XX target gives PTX only).
    [[nodiscard]] std::string cubin() const;
    // Only valid after a successful compile, for an expression added before it.
    [[nodiscard]] std::string loweredName(const std::string &expression) const;
    [[nodiscard]] std::string log() const;

    [[nodiscard]] nvrtcProgram handle() const { return m_program; }

private:
    nvrtcProgram m_program = nullptr;
};

} // namespace cuwb
