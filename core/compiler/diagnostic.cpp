#include "compiler/diagnostic.h"

namespace cuwb {

const char *severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Remark:
        return "remark";
    case Severity::Note:
        return "note";
    }
    return "error";
}

DiagnosticCounts countDiagnostics(const std::vector<Diagnostic> &diagnostics)
{
    // Notes explain another diagnostic; counting them would inflate "2 errors" in the status bar.
    DiagnosticCounts counts;
    for (const Diagnostic &diagnostic : diagnostics) {
        switch (diagnostic.severity) {
        case Severity::Error:
            ++counts.errors;
            break;
        case Severity::Warning:
            ++counts.warnings;
            break;
        case Severity::Remark:
            ++counts.remarks;
            break;
        case Severity::Note:
            break;
        }
    }
    return counts;
}

} // namespace cuwb
