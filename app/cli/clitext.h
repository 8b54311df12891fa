// Small text helpers the cuwb commands share.
#pragma once

#include "util/boundedfile.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace cuwb::cli {

// "a, b, c".
inline std::string joinedWithCommas(const std::vector<std::string> &items)
{
    std::string text;
    for (const std::string &item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

// One number in a printf pattern ("%.1f µs").
inline std::string formatNumber(const char *pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// A source file, read within the source size limit; the error, or nullopt with `contents` set.
inline std::optional<std::string> readSourceFile(const std::string &path, std::string &contents)
{
    BoundedRead read = readBoundedFile(path, kMaxSourceFileBytes, "source");
    if (!read.ok())
        return read.error;
    contents = std::move(read.text);
    return std::nullopt;
}

} // namespace cuwb::cli
