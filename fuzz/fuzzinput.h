// FuzzInput: the bytes libFuzzer hands a target, as text, and split into fields where a
// target needs several inputs at once. Fields are separated by NUL bytes, so a seed is
// readable ("name\0source\0ptx") and every field can hold any other byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cuwb::fuzz {

inline std::string_view asText(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// The first `count` fields (missing ones empty); the last one takes the rest, NULs included.
inline std::vector<std::string_view> splitFields(std::string_view text, std::size_t count)
{
    std::vector<std::string_view> fields;
    while (fields.size() + 1 < count) {
        const std::size_t nul = text.find('\0');
        if (nul == std::string_view::npos)
            break;
        fields.push_back(text.substr(0, nul));
        text.remove_prefix(nul + 1);
    }
    fields.push_back(text);
    fields.resize(count);
    return fields;
}

// Every field.
inline std::vector<std::string_view> splitAll(std::string_view text)
{
    std::vector<std::string_view> fields;
    for (;;) {
        const std::size_t nul = text.find('\0');
        fields.push_back(text.substr(0, nul));
        if (nul == std::string_view::npos)
            return fields;
        text.remove_prefix(nul + 1);
    }
}

} // namespace cuwb::fuzz
