#include "run/runtext.h"

#include <cstdio>

namespace cuwb {

std::string shortNumber(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
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

std::string plural(std::uint64_t count, const char *word)
{
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

std::string firstErrors(const CompileResult &compiled, int most)
{
    if (!compiled.failureMessage.empty()) {
        return compiled.failureMessage;
    }
    std::string text;
    int shown = 0;
    for (const Diagnostic &d : compiled.diagnostics) {
        if (d.severity != Severity::Error) {
            continue;
        }
        if (shown == most) {
            text += "; …";
            break;
        }
        if (shown > 0) {
            text += "; ";
        }
        text += d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
                d.message;
        ++shown;
    }
    if (text.empty()) {
        text = compiled.log;
    }
    return text;
}

} // namespace cuwb
