#include "util/format.h"

#include <cmath>
#include <cstdio>

namespace cuwb {

std::string plural(std::uint64_t count, const char *word)
{
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

std::string formatBytes(std::uint64_t bytes)
{
    char text[64];
    if (bytes >= (1ull << 30)) {
        std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(1ull << 30));
    } else if (bytes >= (1ull << 20)) {
        std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1ull << 20));
    } else {
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    }
    return text;
}

std::string formatDecimalBytes(double bytes)
{
    if (!std::isfinite(bytes)) {
        return "n/a";
    }
    char text[64];
    const double size = std::fabs(bytes);
    if (size >= 1e8) {
        std::snprintf(text, sizeof text, "%.2f GB", bytes * 1e-9);
    } else if (size >= 1e5) {
        std::snprintf(text, sizeof text, "%.2f MB", bytes * 1e-6);
    } else if (size >= 1e3) {
        std::snprintf(text, sizeof text, "%.2f kB", bytes * 1e-3);
    } else {
        std::snprintf(text, sizeof text, "%.0f B", bytes);
    }
    return text;
}

std::string formatDuration(double seconds)
{
    char text[64];
    if (!std::isfinite(seconds) || seconds < 0) {
        return "unknown";
    }
    if (seconds < 1.0) {
        std::snprintf(text, sizeof text, "%.0f ms", seconds * 1e3);
    } else if (seconds < 60.0) {
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    } else if (seconds < 3600.0) {
        const long long whole = std::llround(seconds);
        std::snprintf(text, sizeof text, "%lld min %lld s", whole / 60, whole % 60);
    } else {
        const long long minutes = std::llround(seconds / 60.0);
        std::snprintf(text, sizeof text, "%lld h %lld min", minutes / 60, minutes % 60);
    }
    return text;
}

std::string formatMicroseconds(double nanoseconds)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.3f µs", nanoseconds * 1e-3);
    return text;
}

std::string formatCount(std::uint64_t count)
{
    std::string digits = std::to_string(count);
    for (std::size_t k = digits.size(); k > 3; k -= 3)
        digits.insert(k - 3, ",");
    return digits;
}

std::string formatSeconds(double seconds)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    return text;
}

} // namespace cuwb
