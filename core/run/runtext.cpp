#include "run/runtext.h"

#include <cstdio>

namespace cuwb {

std::string shortNumber(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
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
