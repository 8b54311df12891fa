#include "diagnostictext.h"

#include <iostream>
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

bool checkCompileOptions(std::ostream &err, const std::string &path, const CompileOptions &options)
{
    const std::vector<std::string> problems = options.validate();
    for (const std::string &problem : problems)
        err << path << ": compileOptions: " << problem << '\n';
    return problems.empty();
}

std::optional<OpenedProject> openProject(const char *command, const std::string &path)
{
    const ProjectLoad load = loadProject(path);
    if (!load.project) {
        std::cerr << projectLoadError(path, load) << '\n';
        return std::nullopt;
    }
    OpenedProject opened{*load.project, {}};
    std::string error;
    if (!readProjectSource(opened.project, path, opened.source, error)) {
        std::cerr << "cuwb " << command << ": " << path << ": " << error << '\n';
        return std::nullopt;
    }
    resolveProjectPaths(opened.project, path);
    if (!checkCompileOptions(std::cerr, path, opened.project.options))
        return std::nullopt;
    return opened;
}

std::string projectLoadError(const std::string &path, const ProjectLoad &load)
{
    if (load.line <= 0)
        return path + ": " + load.error;
    std::string message = load.error; // "line 4, column 12: expected ..."
    if (const auto colon = message.find(": ");
        message.starts_with("line ") && colon != std::string::npos)
        message.erase(0, colon + 2);
    return path + ":" + std::to_string(load.line) + ":" + std::to_string(load.column) +
           ": error: " + message;
}

} // namespace cuwb::cli
