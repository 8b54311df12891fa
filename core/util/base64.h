// Base64 (RFC 4648, with padding) for binary payloads in JSON: the compiled image a sweep hands
// the worker and the compile cache's cubins.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace cuwb {

inline constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

inline std::string toBase64(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    const auto byte = [&](std::size_t k) { return unsigned(static_cast<unsigned char>(bytes[k])); };
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        for (int shift = 18; shift >= 0; shift -= 6)
            out += kBase64Alphabet[(v >> shift) & 63];
    }
    if (i < bytes.size()) {
        const bool two = i + 1 < bytes.size();
        const unsigned v = byte(i) << 16 | (two ? byte(i + 1) << 8 : 0u);
        out += kBase64Alphabet[(v >> 18) & 63];
        out += kBase64Alphabet[(v >> 12) & 63];
        out += two ? kBase64Alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// False when `text` holds a character outside the alphabet (padding ends it).
inline bool fromBase64(std::string_view text, std::string &out)
{
    out.clear();
    out.reserve(text.size() / 4 * 3);
    unsigned value = 0;
    int bits = 0;
    for (const char c : text) {
        if (c == '=')
            break;
        const char *at = c == '\0' ? nullptr : std::strchr(kBase64Alphabet, c);
        if (!at)
            return false;
        value = value << 6 | unsigned(at - kBase64Alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((value >> bits) & 0xff);
        }
    }
    return true;
}

} // namespace cuwb
