// cuwb sass: the machine code (SASS) of a project's compiled variant, or of a .cu file, beside
// its source, or its instruction mix per kernel and per source line. It compiles with NVRTC as
// `cuwb check` does and disassembles the CUBIN with the toolkit's nvdisasm (core/inspect); no
// GPU is involved. Without nvdisasm it says what to install and exits with its own status.
#include "argumentparser.h"
#include "clitext.h"
#include "commands.h"
#include "diagnostictext.h"

#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "cuda/nvrtcinfo.h"
#include "inspect/instructionmix.h"
#include "inspect/nvdisasm.h"
#include "inspect/sassjson.h"
#include "inspect/sasstext.h"
#include "launch/launchenvironment.h"
#include "project/project.h"
#include "util/boundedfile.h"
#include "util/format.h"
#include "util/text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace cuwb::cli {

namespace {

const char *const kSassCommand = "sass";

// What to compile: the source, the name NVRTC compiles it under, the options, and how the user
// named the main file (for what is printed).
struct Target
{
    std::string source;
    std::string fileName;  // NVRTC's name of the main source, as the line table has it
    std::string shownFile; // as the user knows it
    CompileOptions options;
    std::string kernel; // the kernel to show; empty: every kernel
};

// The lines of the main source and of headers the line table names (read once each).
class SourceLines
{
public:
    explicit SourceLines(const Target &target)
        : m_mainFile(target.fileName)
        , m_main(splitLines(target.source))
    {}

    std::string line(const std::string &file, int line)
    {
        if (isMainSourceFile(file, m_mainFile))
            return lineOf(m_main, line);
        auto it = m_files.find(file);
        if (it == m_files.end()) {
            std::vector<std::string> lines;
            if (const BoundedRead read = readBoundedFile(file, kMaxSourceFileBytes, "source");
                read.ok())
                lines = splitLines(read.text);
            it = m_files.emplace(file, std::move(lines)).first;
        }
        return lineOf(it->second, line);
    }

private:
    static std::string lineOf(const std::vector<std::string> &lines, int line)
    {
        if (line <= 0 || std::size_t(line) > lines.size())
            return {};
        return lines[std::size_t(line) - 1];
    }

    std::string m_mainFile;
    std::vector<std::string> m_main;
    std::map<std::string, std::vector<std::string>> m_files;
};

// A project: its source and options as `cuwb check` compiles them, launch defines bound.
std::optional<int> loadProjectTarget(const std::string &projectPath, Target &target)
{
    const ProjectLoad load = loadProject(projectPath);
    if (!load.project) {
        std::cerr << projectLoadError(projectPath, load) << '\n';
        return ExitUsage;
    }
    Project project = *load.project;
    resolveProjectPaths(project, projectPath);
    std::string error;
    if (!readProjectSource(project, projectPath, target.source, error)) {
        std::cerr << projectPath << ": " << error << "\n";
        return ExitUsage;
    }
    const RunRequest request = projectRunRequest(project, target.source);
    target.fileName = request.fileName;
    target.options = request.options;
    const std::filesystem::path folder = std::filesystem::path(projectPath).parent_path();
    target.shownFile = project.sourcePath.empty()
                           ? projectPath
                           : (std::filesystem::path(project.sourcePath).is_relative()
                                  ? (folder / project.sourcePath).string()
                                  : project.sourcePath);
    LaunchSpec launch = project.launch;
    const std::vector<LaunchIssue> issues = bindLaunchDefines(
        launch, target.options, {launch.kernel}, deviceNamesForArch(target.options.arch));
    for (const LaunchIssue &issue : issues)
        std::cerr << projectPath << ": " << issue.field << ": " << issue.message << "\n";
    if (!issues.empty())
        return ExitFailure;
    target.kernel = launch.kernel;
    return std::nullopt;
}

std::string padRight(std::string text, std::size_t width)
{
    if (text.size() < width)
        text.resize(width, ' ');
    return text;
}

std::string padLeft(const std::string &text, std::size_t width)
{
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string localSummary(const InstructionMix &mix)
{
    if (!mix.usesLocalMemory())
        return "none";
    std::string text = plural(std::uint64_t(mix.localLoads), "load") + " (" +
                       std::to_string(mix.localLoadBytes) + " bytes), " +
                       plural(std::uint64_t(mix.localStores), "store") + " (" +
                       std::to_string(mix.localStoreBytes) + " bytes) per thread";
    if (mix.spills())
        text += "; of these, register spills: " + plural(std::uint64_t(mix.spillStores), "store") +
                " (" + std::to_string(mix.spillStoreBytes) + " bytes), " +
                plural(std::uint64_t(mix.spillLoads), "refill") + " (" +
                std::to_string(mix.spillLoadBytes) + " bytes)";
    else
        text += " (local arrays or stack, no register spills)";
    return text;
}

void printMix(std::ostream &out, const SassFunction &function, const FunctionMix &mix,
              const Target &target, SourceLines &sources)
{
    const InstructionMix &total = mix.total;
    out << "kernel " << function.readableName << ": " << plural(total.instructions, "instruction")
        << " (" << total.predicated << " predicated)\n";
    for (int g = 0; g < kSassGroupCount; ++g) {
        const SassGroup group = SassGroup(g);
        out << "  " << padRight(sassGroupName(group), 11)
            << padLeft(std::to_string(total.groupCount(group)), 5);
        std::string parts;
        for (int c = 0; c < kSassClassCount; ++c) {
            if (sassGroup(SassClass(c)) != group || total.counts[std::size_t(c)] == 0 ||
                sassClassName(SassClass(c)) == std::string(sassGroupName(group)))
                continue;
            parts += (parts.empty() ? "" : ", ") + std::string(sassClassName(SassClass(c))) + " " +
                     std::to_string(total.counts[std::size_t(c)]);
        }
        out << (parts.empty() ? "" : "  (" + parts + ")") << "\n";
    }
    out << "  local memory: " << localSummary(total) << "\n";

    // Per line: a column for each class this kernel uses.
    std::vector<SassClass> columns;
    for (int c = 0; c < kSassClassCount; ++c) {
        if (total.counts[std::size_t(c)] > 0)
            columns.push_back(SassClass(c));
    }
    const auto label = [&](const SourceLocation &source) {
        return isMainSourceFile(source.file, target.fileName)
                   ? std::to_string(source.line)
                   : std::filesystem::path(source.file).filename().string() + ":" +
                         std::to_string(source.line);
    };
    // The main file's lines first, in order; then the headers' (inlined code).
    std::vector<const LineMix *> rows;
    for (const LineMix &line : mix.lines) {
        if (isMainSourceFile(line.source.file, target.fileName))
            rows.push_back(&line);
    }
    for (const LineMix &line : mix.lines) {
        if (!isMainSourceFile(line.source.file, target.fileName))
            rows.push_back(&line);
    }
    std::size_t labelWidth = 4;
    for (const LineMix *row : rows)
        labelWidth = std::max(labelWidth, label(row->source).size());
    out << "\n  " << padLeft("line", labelWidth) << padLeft("total", 7);
    std::vector<std::size_t> widths;
    for (const SassClass klass : columns) {
        const std::string name = sassClassName(klass);
        widths.push_back(std::max<std::size_t>(name.size(), 3) + 2);
        out << padLeft(name, widths.back());
    }
    out << "   source\n";
    const auto printRow = [&](const std::string &rowLabel, const InstructionMix &lineMix,
                              const std::string &text) {
        out << "  " << padLeft(rowLabel, labelWidth)
            << padLeft(std::to_string(lineMix.instructions), 7);
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const int count = lineMix.count(columns[i]);
            out << padLeft(count == 0 ? "-" : std::to_string(count), widths[i]);
        }
        std::string shown = text;
        if (lineMix.spills())
            shown = "[spills] " + shown;
        else if (lineMix.usesLocalMemory())
            shown = "[local] " + shown;
        constexpr std::size_t kSourceWidth = 60;
        if (shown.size() > kSourceWidth)
            shown = shown.substr(0, kSourceWidth - 3) + "...";
        out << (shown.empty() ? "" : "   " + shown) << "\n";
    };
    for (const LineMix *row : rows) {
        const std::string text(trimmed(sources.line(row->source.file, row->source.line)));
        printRow(label(row->source), row->mix, text);
    }
    if (mix.noLine.instructions > 0)
        printRow("-", mix.noLine,
                 "(no source line: code of the toolkit's library, or no -lineinfo)");
    out << "\n";
}

} // namespace

void printSassHelp(std::ostream &out)
{
    out << "Usage: cuwb sass [OPTIONS] PROJECT.cuwb|FILE.cu\n"
           "\n"
           "Shows the machine code (SASS) NVRTC built for a project's compiled variant (its\n"
           "options and launch defines, as cuwb check compiles it) or for a .cu file, with the\n"
           "source line each run of instructions came from, read from the CUBIN's line table\n"
           "(-lineinfo is always on here; it does not change the code). Local-memory loads and\n"
           "stores are marked, register spills apart. With --mix, the instruction mix instead:\n"
           "per kernel and per source line, how many instructions of each class (memory by\n"
           "space, arithmetic by precision, conversions, control, moves) the line compiled to.\n"
           "These are counts of the code, not of executed instructions. No GPU is used.\n"
           "\n"
           "The disassembler is the toolkit's nvdisasm: $CUWB_NVDISASM, $CUDA_HOME/bin,\n"
           "the PATH, or the copy ./workbench build installs into the build folder\n"
           "(pip install nvidia-cuda-nvdisasm).\n"
           "\n"
           "  --kernel NAME              only this kernel (default: the project's kernel; for\n"
           "                             a .cu file every kernel)\n"
           "  --mix                      the instruction mix per kernel and per line\n"
           "  --json                     one JSON document: the listing with every instruction\n"
           "                             (offset, predicate, opcode, operands, class, file,\n"
           "                             line, inlining) and the mix; with --mix the mix only\n"
           "  --raw                      print nvdisasm's own output\n"
           "  --arch sm_XX               compile for this architecture instead\n"
           "For a .cu file, also: -D NAME[=VALUE], -I DIR, -O0..-O3, --maxrregcount N,\n"
           "--use_fast_math, -std=c++17, --name-expression EXPR (as cuwb compile).\n"
           "\n"
           "Exit status: 0 shown, 1 compile errors or the project's kernel is not in the\n"
           "module, 2 usage or I/O error, 3 nvdisasm failed, 4 nvdisasm is not installed.\n";
}

namespace {

// A .cu file given alone, with the command line's compile options; an exit status when it
// cannot be read or an option is wrong.
std::optional<int> fileTarget(const ArgumentParser &parser, const std::string &path, Target &target)
{
    if (const auto problem = readSourceFile(path, target.source)) {
        std::cerr << "cuwb " << kSassCommand << ": " << *problem << "\n";
        return int(ExitUsage);
    }
    target.fileName = std::filesystem::path(path).filename().string();
    target.shownFile = path;
    CompileOptions &options = target.options;
    if (const auto level = parser.value("-O")) {
        if (level->size() != 1 || (*level)[0] < '0' || (*level)[0] > '3')
            return usageError(kSassCommand, "optimisation level must be -O0, -O1, -O2 or -O3, "
                                            "not -O" +
                                                *level);
        options.optLevel = (*level)[0] - '0';
    }
    if (const auto registers = parser.value("--maxrregcount")) {
        const auto count = parseCount(*registers);
        if (!count || *count > 255)
            return usageError(kSassCommand, "--maxrregcount needs a number from 0 to 255, not '" +
                                                *registers + "'");
        options.maxRegisters = int(*count);
    }
    options.fastMath = parser.isSet("--use_fast_math");
    if (const auto standard = parser.value("-std"))
        options.cppStandard = *standard;
    options.defines = parser.values("-D");
    options.includeDirs = parser.values("-I");
    options.nameExpressions = parser.values("--name-expression");
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    options.includeDirs.push_back(folder.empty() ? std::string(".") : folder.string());
    return std::nullopt;
}

// The command line's --arch and --kernel on the target, the line table on (it links SASS to
// the source and does not change the code), the options validated; an exit status when not.
std::optional<int> finishTargetOptions(const ArgumentParser &parser, Target &target)
{
    if (const auto arch = parser.value("--arch"))
        target.options.arch = *arch;
    if (const auto kernel = parser.value("--kernel")) {
        target.kernel = *kernel;
        target.options = withKernelNameExpressions(target.options, {*kernel});
    }
    if (!target.options.deviceDebug)
        target.options.lineInfo = true;
    if (const std::vector<std::string> problems = target.options.validate(); !problems.empty()) {
        for (std::size_t i = 0; i + 1 < problems.size(); ++i)
            std::cerr << "cuwb " << kSassCommand << ": " << problems[i] << "\n";
        return usageError(kSassCommand, problems.back());
    }
    return std::nullopt;
}

// The functions to list: the kernels in `wanted` (lowered names), or every entry when it is
// empty.
std::vector<const SassFunction *> shownFunctions(const SassDisassembly &sass,
                                                 const std::set<std::string> &wanted)
{
    std::vector<const SassFunction *> functions;
    for (const SassFunction &function : sass.listing.functions) {
        if (wanted.empty() ? function.entry : wanted.count(function.name) != 0)
            functions.push_back(&function);
    }
    return functions;
}

// Why the target did not compile, on stderr (and as JSON); the exit status.
int reportCompileFailure(const Target &target, const CompileResult &compiled, bool asJson)
{
    printDiagnostics(std::cerr, compiled.diagnostics, target.fileName, target.shownFile);
    if (!compiled.failureMessage.empty())
        std::cerr << "cuwb " << kSassCommand << ": " << compiled.failureMessage << "\n";
    const std::string message = target.shownFile + " does not compile for " + target.options.arch;
    std::cerr << "cuwb " << kSassCommand << ": " << message << "\n";
    if (asJson)
        std::cout << nlohmann::json{{"ok", false},
                                    {"error", message},
                                    {"diagnostics", compiled.diagnostics}}
                         .dump(2)
                  << "\n";
    return compiled.counts().errors == 0 && !compiled.failureMessage.empty() ? ExitUsage
                                                                             : ExitFailure;
}

void printSassJson(const ArgumentParser &parser, const Target &target, const SassDisassembly &sass,
                   const NvdisasmTool &tool, const std::vector<const SassFunction *> &functions)
{
    // Each instruction's file as it is on disk: the line table names the main file as the
    // compiler saw it (a scratch copy); headers keep the paths they were found at.
    std::error_code error;
    const std::string mainPath =
        std::filesystem::absolute(target.shownFile, error).lexically_normal().string();
    const auto realFile = [&](SourceLocation &location) {
        if (!location.file.empty() && isMainSourceFile(location.file, target.fileName))
            location.file = mainPath;
    };
    nlohmann::json kernels = nlohmann::json::array();
    for (const SassFunction *listed : functions) {
        SassFunction copy = *listed;
        for (SassInstruction &instruction : copy.instructions) {
            realFile(instruction.source);
            for (SourceLocation &location : instruction.inlinedAt)
                realFile(location);
        }
        const SassFunction *function = &copy;
        nlohmann::json entry;
        if (parser.isSet("--mix"))
            entry = {{"name", function->name}, {"readableName", function->readableName}};
        else
            entry = *function;
        entry["mix"] = instructionMix(*function);
        kernels.push_back(std::move(entry));
    }
    const nlohmann::json document{
        {"ok", true},
        {"file", target.shownFile},
        {"sourceName", target.fileName},
        {"arch", target.options.arch},
        {"nvdisasm",
         {{"path", sass.toolPath}, {"version", sass.toolVersion}, {"origin", tool.origin}}},
        {"kernels", std::move(kernels)},
    };
    std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void printSassText(const Target &target, const SassDisassembly &sass, SourceLines &sources,
                   const std::vector<const SassFunction *> &functions)
{
    SassTextOptions options;
    options.sourceText = [&](const std::string &file, int line) {
        return sources.line(file, line);
    };
    options.displayFile = [&](const std::string &file) {
        return isMainSourceFile(file, target.fileName)
                   ? target.shownFile
                   : std::filesystem::path(file).filename().string();
    };
    for (const SassFunction *function : functions) {
        const FunctionMix mix = instructionMix(*function);
        std::cout << "// " << function->readableName;
        if (function->readableName != function->name)
            std::cout << " [" << function->name << "]";
        std::cout << ": " << sass.listing.arch << ", "
                  << plural(mix.total.instructions, "instruction") << ", " << function->sizeBytes
                  << " bytes of code; local memory: " << localSummary(mix.total) << "\n";
        std::cout << formatSassFunction(*function, options).text << "\n";
    }
    std::cout << "// disassembled by nvdisasm"
              << (sass.toolVersion.empty() ? "" : " " + sass.toolVersion) << " (" << sass.toolPath
              << ")\n";
}

} // namespace

int runSass(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--kernel"});
    parser.addFlag({"--mix"});
    parser.addFlag({"--json"});
    parser.addFlag({"--raw"});
    parser.addOption({"--arch", "-arch", "--gpu-architecture"});
    parser.addOption({"-D", "--define-macro"});
    parser.addOption({"-I", "--include-path"});
    parser.addOption({"-O"});
    parser.addOption({"--maxrregcount", "-maxrregcount"});
    parser.addFlag({"--use_fast_math", "--use-fast-math"});
    parser.addOption({"-std", "--std"});
    parser.addOption({"--name-expression"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments))
        return usageError(kSassCommand, parser.error());
    if (parser.isSet("--help")) {
        printSassHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1)
        return usageError(kSassCommand, parser.positionals().empty()
                                            ? "no project or source file"
                                            : "one project or source file at a time");
    const std::string path = parser.positionals().front();
    const bool isProject = path.ends_with(".cuwb");
    const bool asJson = parser.isSet("--json");

    Target target;
    if (isProject) {
        for (const char *option :
             {"-D", "-I", "-O", "--maxrregcount", "--use_fast_math", "-std", "--name-expression"}) {
            if (parser.isSet(option))
                return usageError(kSassCommand, std::string(option) +
                                                    " applies to a .cu file; a project has its own "
                                                    "compile options");
        }
        if (const auto status = loadProjectTarget(path, target))
            return *status;
    } else if (const std::optional<int> status = fileTarget(parser, path, target)) {
        return *status;
    }
    if (const std::optional<int> status = finishTargetOptions(parser, target)) {
        return *status;
    }
    // nvdisasm first: without it, compiling would only lead to the same message.
    const NvdisasmTool tool = findNvdisasm();
    if (!tool.found()) {
        if (asJson)
            std::cout << nlohmann::json{{"ok", false},
                                        {"toolMissing", true},
                                        {"error", tool.problem}}
                             .dump(2)
                      << "\n";
        std::cerr << "cuwb " << kSassCommand << ": " << tool.problem << "\n";
        return ExitToolMissing;
    }

    KernelCompiler compiler;
    const CompileResult compiled = compiler.compile(target.source, target.fileName, target.options);
    if (!compiled.success) {
        return reportCompileFailure(target, compiled, asJson);
    }
    std::set<std::string> wanted; // lowered names; empty: all kernels
    if (!target.kernel.empty()) {
        const KernelLookup lookup = findKernel(compiled, target.kernel);
        if (!lookup.found()) {
            if (parser.value("--kernel"))
                return usageError(kSassCommand, lookup.error);
            std::cerr << path << ": launch: kernel: " << lookup.error << "\n";
            return ExitFailure;
        }
        wanted.insert(lookup.kernel->loweredName);
    }

    const SassDisassembly sass = disassemble(compiled, tool);
    if (!sass.ok()) {
        std::cerr << "cuwb " << kSassCommand << ": " << sass.message << "\n";
        if (asJson)
            std::cout << nlohmann::json{{"ok", false}, {"error", sass.message}}.dump(2) << "\n";
        return sass.status == SassStatus::NoCubin ? ExitUsage : ExitInternal;
    }
    if (parser.isSet("--raw")) {
        std::cout << sass.text;
        return ExitSuccess;
    }
    const std::vector<const SassFunction *> functions = shownFunctions(sass, wanted);

    SourceLines sources(target);
    if (asJson) {
        printSassJson(parser, target, sass, tool, functions);
    } else if (parser.isSet("--mix")) {
        for (const SassFunction *function : functions)
            printMix(std::cout, *function, instructionMix(*function), target, sources);
    } else {
        printSassText(target, sass, sources, functions);
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
