// Small string_view helpers shared by the parsers of NVRTC's and ptxas' text output.
#pragma once

#include <string_view>

namespace cuwb {

// Without leading and trailing spaces, tabs and line ends.
inline std::string_view trimmed(std::string_view text)
{
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
    };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

inline bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.starts_with(prefix);
}

} // namespace cuwb
