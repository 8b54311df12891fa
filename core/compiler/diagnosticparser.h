// DiagnosticParser: turns NVRTC's program log into Diagnostic values.
// NVRTC prints "file(line): severity #code-D: message", then an indented copy of the source
// line and a caret under the exact column; "detected during ..." lines become notes of the
// diagnostic they follow.
#pragma once

#include "compiler/diagnostic.h"

#include <string_view>
#include <vector>

namespace cuwb {

// mainFile and lastSourceLine place "At end of source: error: ..." (a missing brace, say),
// which NVRTC prints without a location, on the main source's last line.
std::vector<Diagnostic> parseNvrtcLog(std::string_view log, std::string_view mainFile = {},
                                      int lastSourceLine = 0);

} // namespace cuwb
