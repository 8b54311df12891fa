// Diagnostic: one message from NVRTC, parsed into fields the editor and the CLI can show.
#pragma once

#include <string>
#include <vector>

namespace cuwb {

enum class Severity { Error, Warning, Remark, Note };

const char *severityName(Severity severity); // "error", "warning", "remark", "note"

struct Diagnostic
{
    std::string file; // as NVRTC names it (the program name for the main source)
    int line = 0;     // 1-based; 0 when the message has no location
    int column = 0;   // 1-based; 0 when unknown
    Severity severity = Severity::Error;
    bool catastrophic = false; // "catastrophic error": compilation stopped here
    std::string code;          // e.g. "177-D", empty when NVRTC gives none
    std::string message;
    std::vector<Diagnostic> notes; // linked notes, e.g. "detected during instantiation of ..."

    bool operator==(const Diagnostic &) const = default;
};

struct DiagnosticCounts
{
    int errors = 0;
    int warnings = 0;
    int remarks = 0;
};

DiagnosticCounts countDiagnostics(const std::vector<Diagnostic> &diagnostics);

} // namespace cuwb
