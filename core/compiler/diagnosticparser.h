// DiagnosticParser: turns a compiler's messages (NVRTC's program log, nvcc's output) into
// Diagnostic values. The CUDA front end prints "file(line): severity #code-D: message", then
// an indented copy of the source line and a caret under the exact column; "detected during
// ..." lines become notes of the diagnostic they follow. Under nvcc the host preprocessor
// (gcc) reports "file:line:column: severity: message" with its own excerpt, and nvcc itself
// "nvcc fatal   : message".
#pragma once

#include "compiler/diagnostic.h"

#include <string_view>
#include <vector>

namespace cuwb {

// mainFile and lastSourceLine place "At end of source: error: ..." (a missing brace, say),
// which NVRTC prints without a location, on the main source's last line.
// source: the main file's text. Under nvcc the front end copies the *preprocessed* line
// (`__global__` reads `__attribute__((global))`), so a caret's offset is not the column of the
// user's line; given the source, the column is found again by the token under the caret, and
// left unknown (0) when that token is not on the user's line.
std::vector<Diagnostic> parseNvrtcLog(std::string_view log, std::string_view mainFile = {},
                                      int lastSourceLine = 0, std::string_view source = {});

} // namespace cuwb
