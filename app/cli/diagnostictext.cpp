#include "diagnostictext.h"

#include <ostream>

namespace cuwb::cli {

std::string formatDiagnostic(const Diagnostic &diagnostic, const std::string &mainFile,
                             const std::string &shownFile)
{
    std::string text =
        diagnostic.file.empty() || diagnostic.file == mainFile ? shownFile : diagnostic.file;
    if (diagnostic.line > 0) {
        text += ":" + std::to_string(diagnostic.line);
        if (diagnostic.column > 0)
            text += ":" + std::to_string(diagnostic.column);
    }
    text += std::string(": ") + severityName(diagnostic.severity) + ": ";
    if (!diagnostic.code.empty())
        text += (diagnostic.code.front() == '#' ? "" : "#") + diagnostic.code + ": ";
    return text + diagnostic.message;
}

void printDiagnostics(std::ostream &out, const std::vector<Diagnostic> &diagnostics,
                      const std::string &mainFile, const std::string &shownFile, int depth)
{
    for (const Diagnostic &diagnostic : diagnostics) {
        out << std::string(std::size_t(depth) * 2, ' ')
            << formatDiagnostic(diagnostic, mainFile, shownFile) << "\n";
        printDiagnostics(out, diagnostic.notes, mainFile, shownFile, depth + 1);
    }
}

} // namespace cuwb::cli
