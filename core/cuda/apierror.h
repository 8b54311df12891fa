// ApiError: an infrastructure fault — a CUDA driver, NVRTC or CUPTI call that should not
// fail did. It keeps the call text, file, line and status so the message says exactly what
// failed. Failures of the user's work (compile errors, bad launches) are never ApiErrors:
// they come back as data.
#pragma once

#include <stdexcept>
#include <string>

namespace cuwb {

class ApiError : public std::runtime_error
{
public:
    ApiError(std::string api, std::string call, std::string status, std::string file, int line)
        : std::runtime_error(api + " call failed: " + call + " returned " + status + " (" + file +
                             ":" + std::to_string(line) + ")")
        , m_api(std::move(api))
        , m_call(std::move(call))
        , m_status(std::move(status))
        , m_file(std::move(file))
        , m_line(line)
    {}

    [[nodiscard]] const std::string &api() const { return m_api; }
    [[nodiscard]] const std::string &call() const { return m_call; }
    [[nodiscard]] const std::string &status() const { return m_status; }
    [[nodiscard]] const std::string &file() const { return m_file; }
    [[nodiscard]] int line() const { return m_line; }

private:
    std::string m_api;
    std::string m_call;
    std::string m_status;
    std::string m_file;
    int m_line;
};

} // namespace cuwb
