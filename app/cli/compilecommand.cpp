#include "argumentparser.h"
#include "clitext.h"
#include "commands.h"
#include "diagnostictext.h"

#include "util/boundedfile.h"
#include "util/format.h"

#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "compiler/sourcescan.h"
#include "cuda/nvrtcinfo.h"
#include "device/archlimits.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"
#include "launch/launchjson.h"
#include "launch/launchsequence.h"
#include "project/project.h"
#include "util/sandbox.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace cuwb::cli {

namespace {

const char *const kCompileCommand = "compile";

struct SourceFile
{
    std::string path;     // as given on the command line: what diagnostics are printed with
    std::string baseName; // what the compiler names it
};

// NVRTC names the main source by the name it was compiled under (the base name); a user who
// typed src/kernel.cu expects to click on src/kernel.cu in their terminal or editor.
void renameMainFile(std::vector<Diagnostic> &diagnostics, const SourceFile &source)
{
    for (Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.file.empty() || diagnostic.file == source.baseName ||
            diagnostic.file == source.path) {
            diagnostic.file = source.path;
        }
        renameMainFile(diagnostic.notes, source);
    }
}

std::string formatDiagnostic(const Diagnostic &diagnostic)
{
    std::string text = diagnostic.file;
    if (diagnostic.line > 0) {
        text += ":" + std::to_string(diagnostic.line);
        if (diagnostic.column > 0) {
            text += ":" + std::to_string(diagnostic.column);
        }
    }
    text += ": ";
    text += severityName(diagnostic.severity);
    text += ": ";
    if (!diagnostic.code.empty()) {
        text += (diagnostic.code.front() == '#' ? "" : "#") + diagnostic.code + ": ";
    }
    text += diagnostic.message;
    if (diagnostic.catastrophic) {
        text += " (compilation stopped here)";
    }
    return text;
}

void printDiagnostic(std::ostream &out, const Diagnostic &diagnostic, int depth)
{
    out << std::string(std::size_t(depth) * 2, ' ') << formatDiagnostic(diagnostic) << "\n";
    for (const Diagnostic &note : diagnostic.notes) {
        printDiagnostic(out, note, depth + 1);
    }
}

std::string kernelName(const KernelInfo &kernel)
{
    if (!kernel.readableName.empty()) {
        return kernel.readableName;
    }
    return kernel.loweredName;
}

void printKernel(std::ostream &out, const KernelInfo &kernel)
{
    out << "kernel " << kernelName(kernel);
    if (!kernel.externC && kernel.loweredName != kernelName(kernel)) {
        out << " [" << kernel.loweredName << "]";
    }
    const KernelResources &r = kernel.resources;
    if (!r.reported) {
        out << ": no resource report from ptxas\n";
        return;
    }
    out << ": " << r.registers << " registers, " << r.staticSharedBytes << " bytes shared, "
        << r.stackFrameBytes << " bytes stack, ";
    if (kernel.spills()) {
        out << "SPILLS " << r.spillStoreBytes << " bytes stored / " << r.spillLoadBytes
            << " bytes loaded, ";
    } else {
        out << "no spills, ";
    }
    out << r.barriers << (r.barriers == 1 ? " barrier" : " barriers") << "\n";
}

// NVRTC's own message for an unknown --gpu-architecture is cryptic; check first and list
// what this NVRTC can do. "sm_90a"/"sm_100f"/"compute_90" are variants of a supported base.
std::optional<std::string> checkArch(const std::string &arch)
{
    const auto version = parseArch(arch);
    const std::vector<std::string> &supported = nvrtcSupportedArchs();
    const bool wellFormed = version && (arch.starts_with("sm_") || arch.starts_with("compute_"));
    if (wellFormed) {
        const std::string base = "sm_" + std::to_string(version->first * 10 + version->second);
        if (std::find(supported.begin(), supported.end(), base) != supported.end()) {
            return std::nullopt;
        }
    }
    return "unsupported architecture '" + arch + "'; NVRTC " + nvrtcVersion() + " supports " +
           joinedWithCommas(supported);
}

// The kernels of the module that instantiate `kernel`, in display form.
std::vector<std::string> instantiationsOf(const std::vector<KernelInfo> &kernels,
                                          const KernelTemplate &kernel)
{
    std::vector<std::string> names;
    for (const KernelInfo &compiled : kernels) {
        const std::string display = displayName(compiled);
        const std::string qualified = display.substr(0, display.find('<'));
        if (!compiled.externC && display.find('<') != std::string::npos &&
            (qualified == kernel.name || qualified.ends_with("::" + kernel.name)))
            names.push_back(display);
    }
    return names;
}

} // namespace

void printCompileHelp(std::ostream &out)
{
    out << "Usage: cuwb compile [OPTIONS] FILE.cu|PROJECT.cuwb\n"
           "\n"
           "Compiles FILE.cu as nvcc builds it (nvcc -cubin, or NVRTC where the toolkit has no\n"
           "nvcc; no GPU needed), or the source of PROJECT.cuwb with the project's compile\n"
           "options, launch defines and kernel instantiations, and prints one line per "
           "diagnostic,\n"
           "  FILE:LINE:COLUMN: SEVERITY: [#CODE: ]MESSAGE\n"
           "with SEVERITY error, warning or remark and FILE as given here; notes (such as\n"
           "\"detected during instantiation of ...\") follow, indented by two spaces. Then one\n"
           "line per kernel with its registers, shared memory, stack, spills and barriers,\n"
           "the module's variables declared in the file, the compiler and its command line,\n"
           "what the compile set aside (host code) and a summary line. All of this goes to\n"
           "standard output; with --ptx it goes to standard error and standard output carries\n"
           "the PTX alone.\n"
           "\n"
           "  --arch sm_XX               target architecture (default sm_90)\n"
           "  -D NAME[=VALUE]            define a macro (repeatable)\n"
           "  -I DIR                     add an include folder (repeatable); the file's own\n"
           "                             folder and the CUDA toolkit's are always searched\n"
           "  -O0 .. -O3                 ptxas optimisation level (default -O3)\n"
           "  -G                         device debug information\n"
           "  --no-lineinfo              leave out -lineinfo (on by default)\n"
           "  --use_fast_math            fast, less precise math\n"
           "  -std=c++17                 C++ dialect ("
        << joinedWithCommas(supportedCppStandards())
        << ")\n"
           "  --maxrregcount N           cap the registers per thread\n"
           "  --name-expression EXPR     instantiate a template kernel, e.g. 'scale<float>'\n"
           "                             (repeatable)\n"
           "  --compiler auto|nvcc|nvrtc which compiler (default auto: nvcc where the toolkit\n"
           "                             has it, else NVRTC)\n"
           "  --flag OPTION              a further compiler option as nvcc or NVRTC takes it,\n"
           "                             e.g. --flag=-ftz=true (repeatable; docs/projects.md)\n"
           "  --all-variables            also list the __constant__/__device__ variables that\n"
           "                             come from included headers (left out by default)\n"
           "  --cubin FILE               write the compiled module (the CUBIN) to FILE\n"
           "  --confine                  compile as a graded project is compiled: nvcc in a\n"
           "                             sandbox that may read only the file's folder, the\n"
           "                             toolkit and the system (Landlock; no network)\n"
           "  --json                     print one JSON document: success, compile time,\n"
           "                             diagnostics, kernels with resources (and the PTX\n"
           "                             with --ptx)\n"
           "  --ptx                      print the PTX\n"
           "\n"
           "Exit status: 0 compiled (warnings allowed), 1 compile errors, 2 usage or I/O\n"
           "error (missing or unreadable file, unknown option, unsupported architecture).\n";
}

namespace {

// A project's source as its runs compile it: its options, the launch's defines bound, the
// instantiations its kernel names need. False when the project cannot be read (said).
bool sourceFromProject(const std::string &input, CompileOptions &options, SourceFile &file,
                       std::string &source)
{
    // The project's source as its runs compile it: its options, the launch's defines
    // bound, the instantiations its kernel names need.
    const ProjectLoad load = loadProject(input);
    if (!load.project) {
        std::cerr << projectLoadError(input, load) << "\n";
        return false;
    }
    Project project = *load.project;
    resolveProjectPaths(project, input);
    std::string error;
    if (!readProjectSource(project, input, source, error)) {
        std::cerr << input << ": " << error << "\n";
        return false;
    }
    RunRequest request = projectRunRequest(project, source);
    const std::vector<LaunchIssue> issues = bindLaunchDefines(
        request.launch, request.options, launchKernelNames(request.launch, request.verification),
        deviceNamesForArch(request.options.arch));
    for (const LaunchIssue &issue : issues)
        std::cerr << input << ": launch: " << issue.field << ": " << issue.message << "\n";
    options = request.options;
    file.baseName = request.fileName;
    file.path = project.sourcePath.empty()
                    ? input
                    : (std::filesystem::path(project.sourcePath).is_relative()
                           ? std::filesystem::path(input).parent_path() / project.sourcePath
                           : std::filesystem::path(project.sourcePath))
                          .string();
    return true;
}

// The command line's options on top of a project's (for a file, they are all there is); an
// exit status when one is wrong.
std::optional<int> applyCompileFlags(const ArgumentParser &parser, CompileOptions &options)
{
    if (const auto arch = parser.value("--arch")) {
        options.arch = *arch;
    }
    if (const auto problem = checkArch(options.arch)) {
        return usageError(kCompileCommand, *problem);
    }
    if (const auto level = parser.value("-O")) {
        if (level->size() != 1 || (*level)[0] < '0' || (*level)[0] > '3') {
            return usageError(kCompileCommand,
                              "optimisation level must be -O0, -O1, -O2 or -O3, not -O" + *level);
        }
        options.optLevel = (*level)[0] - '0';
    }
    // Flags add to a project's options; given for a file, they are all there is.
    if (parser.isSet("-G"))
        options.deviceDebug = true;
    if (parser.isSet("--no-lineinfo"))
        options.lineInfo = false;
    if (parser.isSet("--use_fast_math"))
        options.fastMath = true;
    if (const auto standard = parser.value("-std")) {
        options.cppStandard = *standard;
    }
    if (const auto registers = parser.value("--maxrregcount")) {
        const auto count = parseCount(*registers);
        if (!count || *count > 255) {
            return usageError(kCompileCommand,
                              "--maxrregcount needs a number from 0 to 255, not '" + *registers +
                                  "'");
        }
        options.maxRegisters = int(*count);
    }
    for (const std::string &define : parser.values("-D"))
        options.defines.push_back(define);
    for (const std::string &dir : parser.values("-I"))
        options.includeDirs.push_back(dir);
    for (const std::string &expression : parser.values("--name-expression"))
        options.nameExpressions.push_back(expression);
    if (const auto compiler = parser.value("--compiler"))
        options.compiler = *compiler;
    for (const std::string &flag : parser.values("--flag"))
        options.flags.push_back(flag);
    return std::nullopt;
}

// A source file given alone: quoted includes beside it work as they do with nvcc. False when
// it cannot be read (said).
bool sourceFromFile(const std::string &input, CompileOptions &options, SourceFile &file,
                    std::string &source)
{
    file.path = input;
    const std::filesystem::path path(file.path);
    file.baseName = path.filename().string();
    // Quoted includes beside the file should work as they do with nvcc.
    const std::string folder = path.parent_path().empty() ? "." : path.parent_path().string();
    if (std::find(options.includeDirs.begin(), options.includeDirs.end(), folder) ==
        options.includeDirs.end()) {
        options.includeDirs.push_back(folder);
    }
    if (const auto problem = readSourceFile(file.path, source)) {
        std::cerr << "cuwb " << kCompileCommand << ": " << *problem << "\n";
        return false;
    }
    return true;
}

void printCompileJson(const ArgumentParser &parser, CompileResult &result,
                      const std::string &source, const SourceFile &file)
{
    result.fileName = file.path;
    nlohmann::json json = compileResultToJson(result, parser.isSet("--ptx"));
    // Each kernel's parameters as the launch panel sees them, read from the source.
    for (std::size_t i = 0; i < result.kernels.size(); ++i) {
        const KernelSignature signature =
            parseKernelSignature(source, result.ptx, result.kernels[i]);
        json["kernels"][i]["parameters"] = signature.parameters;
        if (!signature.error.empty())
            json["kernels"][i]["parametersError"] = signature.error;
    }
    for (std::size_t i = 0; i < result.templates.size(); ++i)
        json["templates"][i]["instantiated"] =
            instantiationsOf(result.kernels, result.templates[i]);
    // The module's variables a project can initialise (launch.globals).
    json["variables"] = nlohmann::json::array();
    for (const ModuleVariable &variable : moduleVariables(result.ptx, source)) {
        if (variable.type.empty() && !parser.isSet("--all-variables"))
            continue;
        json["variables"].push_back({{"name", variable.name},
                                     {"space", variable.constant ? "constant" : "device"},
                                     {"type", variable.type},
                                     {"bytes", variable.bytes}});
    }
    std::cout << json.dump(2) << "\n";
}

void printCompileText(const ArgumentParser &parser, const CompileResult &result,
                      const std::string &source, const SourceFile &file,
                      const CompileOptions &options)
{
    const DiagnosticCounts counts = result.counts();
    std::ostream &report = parser.isSet("--ptx") ? std::cerr : std::cout;
    for (const Diagnostic &diagnostic : result.diagnostics) {
        printDiagnostic(report, diagnostic, 0);
    }
    if (!result.failureMessage.empty() && result.diagnostics.empty()) {
        std::cerr << "cuwb " << kCompileCommand << ": " << result.failureMessage << "\n";
    }
    for (const KernelInfo &kernel : result.kernels) {
        printKernel(report, kernel);
    }
    // A template kernel is in the module only once instantiated: say how to name one.
    for (const KernelTemplate &kernel : result.templates) {
        if (!instantiationsOf(result.kernels, kernel).empty())
            continue;
        std::string head;
        for (const std::string &parameter : kernel.templateParameters)
            head += (head.empty() ? "" : ", ") + parameter;
        report << "template kernel " << kernel.name << "<" << head << ">(" << kernel.parameters
               << "), line " << kernel.line << ": not instantiated; name it as "
               << kernel.placeholder() << " with arguments (--name-expression, or the launch's "
               << "kernel)\n";
    }
    // The file's own variables; those of included headers (cooperative groups declares
    // hundreds) only on request.
    std::size_t fromHeaders = 0;
    for (const ModuleVariable &variable : moduleVariables(result.ptx, source)) {
        if (variable.type.empty() && !parser.isSet("--all-variables")) {
            ++fromHeaders;
            continue;
        }
        report << "variable " << variable.name << " ("
               << (variable.constant ? "__constant__" : "__device__")
               << (variable.type.empty() ? "" : " " + variable.type) << "): " << variable.bytes
               << " bytes\n";
    }
    if (fromHeaders > 0)
        report << plural(fromHeaders, "variable") << " of included headers not listed "
               << "(--all-variables lists them)\n";
    for (const std::string &note : result.notes)
        report << "note: " << note << "\n";
    if (!result.compiledBy.empty())
        report << "built by " << result.compiledBy.label() << ": " << result.compiledBy.command
               << "\n";
    const std::string tally =
        plural(counts.errors, "error") + ", " + plural(counts.warnings, "warning");
    char time[32];
    std::snprintf(time, sizeof time, "%.0f ms", result.compileTimeMs);
    if (result.success) {
        report << "compiled " << file.path << " for " << options.arch << " in " << time << ": "
               << tally << ", " << plural(result.kernels.size(), "kernel") << "\n";
        if (parser.isSet("--ptx")) {
            std::cout << result.ptx;
        }
    } else {
        report << "failed to compile " << file.path << " for " << options.arch << ": " << tally
               << "\n";
    }
}

} // namespace

int runCompile(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--arch", "-arch", "--gpu-architecture"});
    parser.addOption({"-D", "--define-macro"});
    parser.addOption({"-I", "--include-path"});
    parser.addOption({"-O"});
    parser.addFlag({"-G", "--device-debug"});
    parser.addFlag({"--no-lineinfo"});
    parser.addFlag({"--use_fast_math", "--use-fast-math"});
    parser.addOption({"-std", "--std"});
    parser.addOption({"--maxrregcount", "-maxrregcount"});
    parser.addOption({"--name-expression"});
    parser.addOption({"--compiler"});
    parser.addOption({"--flag"});
    parser.addFlag({"--all-variables"});
    parser.addFlag({"--confine"});
    parser.addOption({"--cubin"});
    parser.addFlag({"--json"});
    parser.addFlag({"--ptx"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError(kCompileCommand, parser.error());
    }
    if (parser.isSet("--help")) {
        printCompileHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().empty()) {
        return usageError(kCompileCommand, "no input file");
    }
    if (parser.positionals().size() > 1) {
        return usageError(kCompileCommand, "one input file at a time (got '" +
                                               parser.positionals()[0] + "' and '" +
                                               parser.positionals()[1] + "')");
    }

    const std::string input = parser.positionals().front();
    const bool isProject = std::filesystem::path(input).extension() == ".cuwb";
    CompileOptions options;
    SourceFile file;
    std::string source;
    if (isProject && !sourceFromProject(input, options, file, source)) {
        return ExitUsage;
    }
    if (const std::optional<int> status = applyCompileFlags(parser, options)) {
        return *status;
    }
    if (!isProject && !sourceFromFile(input, options, file, source)) {
        return ExitUsage;
    }
    const std::vector<std::string> problems = options.validate();
    if (!problems.empty()) {
        for (std::size_t i = 0; i + 1 < problems.size(); ++i) {
            std::cerr << "cuwb " << kCompileCommand << ": " << problems[i] << "\n";
        }
        return usageError(kCompileCommand, problems.back());
    }

    if (parser.isSet("--confine")) {
        if (const std::string why = sandboxUnavailableReason(); !why.empty()) {
            std::cerr << "cuwb compile: --confine: " << why << "\n";
            return ExitToolMissing;
        }
        std::error_code code;
        const std::filesystem::path folder =
            std::filesystem::absolute(std::filesystem::path(file.path).parent_path(), code);
        confineCompiles({folder.lexically_normal().string()});
    }
    KernelCompiler compiler;
    CompileResult result = compiler.compile(source, file.baseName, options);
    renameMainFile(result.diagnostics, file);
    const DiagnosticCounts counts = result.counts();

    int status = ExitSuccess;
    if (!result.success) {
        status = (counts.errors == 0 && !result.failureMessage.empty()) ? ExitUsage : ExitFailure;
    }
    if (const auto cubinPath = parser.value("--cubin"); cubinPath && result.success) {
        std::ofstream out(*cubinPath, std::ios::binary | std::ios::trunc);
        out.write(result.cubin.data(), std::streamsize(result.cubin.size()));
        if (!out) {
            std::cerr << "cuwb " << kCompileCommand << ": cannot write " << *cubinPath << ": "
                      << std::strerror(errno) << "\n";
            return ExitUsage;
        }
    }

    if (parser.isSet("--json")) {
        printCompileJson(parser, result, source, file);
    } else {
        printCompileText(parser, result, source, file, options);
    }
    return status;
}

} // namespace cuwb::cli
