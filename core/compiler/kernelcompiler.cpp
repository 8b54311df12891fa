#include "compiler/kernelcompiler.h"

#include "compiler/compilecache.h"

#include "compiler/diagnosticparser.h"
#include "compiler/kernellookup.h"
#include "compiler/nvcc.h"
#include "compiler/ptxasreport.h"
#include "compiler/sourcescan.h"
#include "compiler/standins.h"
#include "compiler/tunerconventions.h"
#include "cuda/nvrtcinfo.h"
#include "cuda/nvrtcprogram.h"
#include "util/sandbox.h"
#include "util/text.h"
#include "util/toolprocess.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace cuwb {

namespace fs = std::filesystem;

namespace {

int compileTimeLimitSeconds(); // below, with nvcc's other limits

// confineCompiles(): the folders a confined nvcc may read besides the system's; nullopt when
// compiles are not confined.
std::mutex g_confinementMutex;
std::optional<std::vector<std::string>> g_confinedReadable;

std::optional<std::vector<std::string>> confinedReadable()
{
    const std::lock_guard lock(g_confinementMutex);
    return g_confinedReadable;
}

// The sandbox of a confined nvcc whose scratch folder is `scratch`; null when compiles are not
// confined. `error` says why one could not be made (the compile must then not run).
std::unique_ptr<Sandbox> compileSandbox(const fs::path &scratch, const std::string &nvccPath,
                                        std::string &error)
{
    const std::optional<std::vector<std::string>> readable = confinedReadable();
    if (!readable)
        return nullptr;
    std::error_code code;
    const fs::path toolkit = fs::weakly_canonical(nvccPath, code).parent_path().parent_path();
    SandboxPolicy policy = compilerSandboxPolicy(toolkit.string());
    policy.readable.insert(policy.readable.end(), readable->begin(), readable->end());
    policy.writable.push_back(scratch.string());
    // CPU time as the compile's own limit (the wall-clock one is runTool's), and no file
    // larger than what a module's CUBIN and PTX could need.
    policy.cpuSeconds = std::uint64_t(compileTimeLimitSeconds());
    policy.maxFileBytes = std::uint64_t(1) << 30;
    // Each process of the compile as much as the window's compile server has for all of it.
    policy.maxAddressBytes = std::uint64_t(4) << 30;
    // nvcc runs its phases one after another (cudafe++, cicc, ptxas, fatbinary, the host
    // preprocessor), a few at a time; a fork bomb among them stops at 64 more.
    policy.moreProcesses = 64;
    try {
        return std::make_unique<Sandbox>(policy);
    } catch (const std::exception &failure) {
        error = std::string("cannot confine the compile: ") + failure.what();
        return nullptr;
    }
}

// Runs nvcc (argv[0]) in `folder`, under the compile's time limit, and in a sandbox when
// compiles are confined; then its temporary files go to `folder`, the only one it may write.
// nullopt, with `error`, when the sandbox cannot be made (nvcc must then not run).
std::optional<ToolRun> runNvcc(const std::vector<std::string> &argv, const fs::path &folder,
                               std::string &error)
{
    ToolLimits limits;
    limits.timeoutMs = compileTimeLimitSeconds() * 1000;
    limits.workingDirectory = folder.string();
    const std::unique_ptr<Sandbox> sandbox = compileSandbox(folder, argv.front(), error);
    if (!error.empty())
        return std::nullopt;
    if (sandbox) {
        limits.sandbox = sandbox.get();
        limits.environment = {"TMPDIR=" + folder.string()};
    }
    return runTool(argv, limits);
}

// FNV-1a over length-prefixed parts: the cache key need not keep whole sources alive.
std::string cacheKey(std::string_view source, std::string_view fileName,
                     const CompileOptions &options)
{
    std::uint64_t hash = 14695981039346656037ull;
    const auto mix = [&hash](std::string_view part) {
        const std::string length = std::to_string(part.size()) + ":";
        for (char c : length)
            hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        for (char c : part)
            hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    };
    mix(fileName);
    mix(source);
    mix(options.canonicalText());
    mix(compilerFingerprint(options));
    static const char digits[] = "0123456789abcdef";
    std::string key(16, '0');
    for (int i = 15; i >= 0; --i, hash >>= 4)
        key[static_cast<std::size_t>(i)] = digits[hash & 0xf];
    return key;
}

std::string demangle(const std::string &lowered)
{
    if (lowered.rfind("_Z", 0) != 0)
        return lowered;
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> readable(
        abi::__cxa_demangle(lowered.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && readable ? std::string(readable.get()) : lowered;
}

// "ns::scale<float>(float*, int)" -> "scale"
std::string plainIdentifier(const std::string &readableName)
{
    std::string name = readableName.substr(0, readableName.find('('));
    if (!name.empty() && name.back() == '>') {
        int depth = 0;
        for (std::size_t i = name.size(); i-- > 0;) {
            if (name[i] == '>')
                ++depth;
            else if (name[i] == '<' && --depth == 0) {
                name.resize(i);
                break;
            }
        }
    }
    if (const std::size_t scope = name.rfind("::"); scope != std::string::npos)
        name = name.substr(scope + 2);
    // "void scale" for demanglers that print the return type of a template
    if (const std::size_t space = name.rfind(' '); space != std::string::npos)
        name = name.substr(space + 1);
    return name;
}

// The parameter types of a demangled name, reduced to their words: "(double*, int const*)"
// -> {"double", "int const"}.
std::vector<std::string> parameterTypeWords(const std::string &readableName)
{
    std::vector<std::string> types;
    const std::size_t open = readableName.find('(');
    if (open == std::string::npos)
        return types;
    std::string current;
    int depth = 0;
    for (std::size_t i = open + 1; i < readableName.size(); ++i) {
        const char c = readableName[i];
        if (c == '<' || c == '(')
            ++depth;
        if ((c == '>' || c == ')') && depth-- == 0) {
            break;
        }
        if (c == ',' && depth == 0) {
            types.push_back(current);
            current.clear();
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' ||
                   c == ' ') {
            current += c;
        }
    }
    if (!current.empty())
        types.push_back(current);
    for (std::string &type : types) {
        const std::size_t first = type.find_first_not_of(' ');
        type = first == std::string::npos
                   ? std::string()
                   : type.substr(first, type.find_last_not_of(' ') - first + 1);
    }
    return types;
}

// How well a declaration's parameter list (from its '(') fits the demangled parameter types:
// the number of parameters whose text contains every word of the type, in order.
int parameterFit(const std::string &code, std::size_t open, const std::vector<std::string> &types)
{
    std::vector<std::string> parameters;
    std::string current;
    int depth = 0;
    for (std::size_t i = open + 1; i < code.size(); ++i) {
        const char c = code[i];
        if (c == '(' || c == '<' || c == '[')
            ++depth;
        if ((c == ')' || c == '>' || c == ']') && depth-- == 0)
            break;
        if (c == ',' && depth == 0) {
            parameters.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty())
        parameters.push_back(current);
    if (parameters.size() != types.size() && !(types.size() == 1 && types[0] == "void"))
        return -1;
    int fit = 0;
    for (std::size_t i = 0; i < parameters.size() && i < types.size(); ++i) {
        bool all = true;
        const std::string &type = types[i];
        for (std::size_t start = 0; start < type.size();) {
            std::size_t end = type.find(' ', start);
            if (end == std::string::npos)
                end = type.size();
            const std::string word = type.substr(start, end - start);
            start = end + 1;
            if (!word.empty() && word != "const")
                all = all && parameters[i].find(word) != std::string::npos;
        }
        fit += all ? 1 : 0;
    }
    return fit;
}

// 1-based line of the "__global__ ... identifier(" in the code whose parameters fit the
// demangled name's best (overloads), the first on a tie; 0 if none.
int declarationLine(const std::string &code, const std::string &identifier,
                    const std::string &readableName)
{
    if (identifier.empty())
        return 0;
    const std::vector<std::string> types = parameterTypeWords(readableName);
    int bestLine = 0;
    int bestFit = -2;
    for (std::size_t pos = code.find(identifier); pos != std::string::npos;
         pos = code.find(identifier, pos + 1)) {
        const std::size_t end = pos + identifier.size();
        if ((pos > 0 && isIdentifierChar(code[pos - 1])) ||
            (end < code.size() && isIdentifierChar(code[end])))
            continue;
        std::size_t after = end;
        while (after < code.size() && std::isspace(static_cast<unsigned char>(code[after])))
            ++after;
        if (after >= code.size() || code[after] != '(')
            continue;
        // The declaration starts after the previous statement or block boundary.
        const std::size_t boundary = code.find_last_of(";{}", pos);
        const std::size_t start = boundary == std::string::npos ? 0 : boundary + 1;
        const std::string_view declaration = std::string_view(code).substr(start, pos - start);
        const std::size_t global = declaration.find("__global__");
        if (global == std::string_view::npos)
            continue;
        const int fit = parameterFit(code, after, types);
        if (fit > bestFit) {
            bestFit = fit;
            bestLine = static_cast<int>(
                           std::count(code.begin(), code.begin() + static_cast<long>(pos), '\n')) +
                       1;
        }
    }
    return bestLine;
}

// Every ".entry name(" of the module, in PTX order.
std::vector<std::string> entryNames(std::string_view ptx)
{
    std::vector<std::string> names;
    std::size_t pos = 0;
    while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
        std::size_t begin = pos + 6;
        pos = begin;
        if (begin >= ptx.size() || (ptx[begin] != ' ' && ptx[begin] != '\t'))
            continue;
        while (begin < ptx.size() && (ptx[begin] == ' ' || ptx[begin] == '\t'))
            ++begin;
        std::size_t end = begin;
        while (end < ptx.size() && ptx[end] != '(' &&
               !std::isspace(static_cast<unsigned char>(ptx[end])))
            ++end;
        if (end > begin)
            names.emplace_back(ptx.substr(begin, end - begin));
        pos = end;
    }
    return names;
}

// Per `.entry`, the thread bound its directives set (.maxntid x, y, z or .reqntid): x*y*z.
std::map<std::string, int> entryThreadBounds(std::string_view ptx)
{
    std::map<std::string, int> bounds;
    const std::vector<std::string> names = entryNames(ptx);
    std::size_t pos = 0;
    for (const std::string &name : names) {
        pos = ptx.find(".entry " + name, pos);
        if (pos == std::string_view::npos)
            break;
        const std::size_t body = ptx.find('{', pos);
        const std::string_view head =
            ptx.substr(pos, body == std::string_view::npos ? std::string_view::npos : body - pos);
        for (const char *directive : {".maxntid", ".reqntid"}) {
            const std::size_t at = head.find(directive);
            if (at == std::string_view::npos)
                continue;
            long long threads = 1;
            std::size_t i = at + std::strlen(directive);
            for (int dims = 0; dims < 3 && i < head.size(); ++dims) {
                while (i < head.size() && (head[i] == ' ' || head[i] == ','))
                    ++i;
                char *end = nullptr;
                const long long value =
                    std::strtoll(std::string(head.substr(i, 16)).c_str(), &end, 10);
                if (value <= 0)
                    break;
                threads *= value;
                while (i < head.size() && std::isdigit(static_cast<unsigned char>(head[i])))
                    ++i;
            }
            bounds[name] = int(std::min<long long>(threads, 1 << 30));
        }
        pos = body == std::string_view::npos ? ptx.size() : body;
    }
    return bounds;
}

int lastLineOf(std::string_view source)
{
    if (source.empty())
        return 1;
    const auto newlines = static_cast<int>(std::count(source.begin(), source.end(), '\n'));
    return source.back() == '\n' ? newlines : newlines + 1;
}

std::string joined(const std::vector<std::string> &parts, std::string_view separator)
{
    std::string text;
    for (const std::string &part : parts) {
        if (!text.empty())
            text += separator;
        text += part;
    }
    return text;
}

// NVRTC reads the source as a C string, and its reader takes a 0xFF byte for end-of-file: in
// both cases everything after that byte is silently not compiled, kernels vanish and the
// compile "succeeds". So such a byte is reported as an error where it stands.
std::optional<Diagnostic> checkSourceBytes(std::string_view source, std::string_view fileName)
{
    const std::size_t pos = source.find_first_of(std::string_view("\0\xff", 2));
    if (pos == std::string_view::npos)
        return std::nullopt;
    Diagnostic diagnostic;
    diagnostic.file = std::string(fileName);
    diagnostic.line = static_cast<int>(std::count(source.begin(),
                                                  source.begin() + static_cast<long>(pos), '\n')) +
                      1;
    const std::size_t lineStart = source.rfind('\n', pos == 0 ? 0 : pos - 1);
    diagnostic.column =
        static_cast<int>(pos -
                         (lineStart == std::string_view::npos || pos == 0 ? 0 : lineStart + 1)) +
        1;
    diagnostic.severity = Severity::Error;
    diagnostic.catastrophic = true;
    diagnostic.message = std::string(source[pos] == '\0' ? "a NUL byte" : "a 0xFF byte") +
                         " in the source: NVRTC stops reading there, so nothing after it would be "
                         "compiled; is the file UTF-8 text?";
    return diagnostic;
}

// The `.file` table of a PTX module: index -> path.
std::map<int, std::string> ptxFiles(std::string_view ptx)
{
    std::map<int, std::string> files;
    for (std::size_t at = ptx.find(".file"); at != std::string_view::npos;
         at = ptx.find(".file", at + 5)) {
        if (at > 0 && ptx[at - 1] != '\t' && ptx[at - 1] != ' ' && ptx[at - 1] != '\n')
            continue;
        std::size_t i = at + 5;
        while (i < ptx.size() && (ptx[i] == ' ' || ptx[i] == '\t'))
            ++i;
        const int index = std::atoi(std::string(ptx.substr(i, 12)).c_str());
        const std::size_t open = ptx.find('"', i);
        const std::size_t close = open == std::string_view::npos ? open : ptx.find('"', open + 1);
        const std::size_t end = ptx.find('\n', i);
        if (index > 0 && close != std::string_view::npos && close < end)
            files[index] = std::string(ptx.substr(open + 1, close - open - 1));
    }
    return files;
}

// For a kernel its main source does not declare: the header its code comes from (the file of
// the first line-table entry in its body), and the lines around its declaration there.
void findDeclaringHeader(KernelInfo &kernel, std::string_view ptx,
                         const std::map<int, std::string> &files)
{
    const std::size_t entry = ptx.find(".entry " + kernel.loweredName);
    if (entry == std::string_view::npos)
        return;
    const std::size_t body = ptx.find('{', entry);
    const std::size_t loc = body == std::string_view::npos ? body : ptx.find(".loc", body);
    if (loc == std::string_view::npos)
        return;
    const auto file = files.find(std::atoi(std::string(ptx.substr(loc + 4, 12)).c_str()));
    if (file == files.end())
        return;
    std::ifstream in(file->second, std::ios::binary);
    if (!in)
        return;
    std::string text;
    text.resize(4 << 20); // a header, not a corpus: the first 4 MiB
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    const int line =
        declarationLine(codeOnly(text), plainIdentifier(kernel.readableName), kernel.readableName);
    if (line == 0)
        return;
    // From 40 lines before (a template head, macros it uses) to 40 after (the parameters).
    std::size_t start = 0;
    for (int i = 1; i < line - 40 && start != std::string::npos; ++i)
        start = text.find('\n', start) + 1;
    std::size_t end = start;
    for (int i = std::max(1, line - 40); i <= line + 40 && end < text.size(); ++i) {
        end = text.find('\n', end);
        end = end == std::string::npos ? text.size() : end + 1;
    }
    kernel.declaringFile = file->second;
    kernel.declaringLine = line;
    // Lines before the excerpt stay as blank lines, so the excerpt's line numbers are the
    // header's.
    kernel.declaration =
        std::string(std::size_t(std::max(0, line - 41)), '\n') + text.substr(start, end - start);
}

// Fills result.kernels from the PTX's entries, with their resources from ptxas' report and
// the name expression each was requested by (`expressionOf`: lowered name -> expression).
void describeKernels(CompileResult &result, std::string_view source,
                     const std::map<std::string, std::string> &expressionOf)
{
    const std::map<std::string, KernelResources> resources = parsePtxasReport(result.log);
    const std::map<std::string, int> threadBounds = entryThreadBounds(result.ptx);
    const std::map<int, std::string> files = ptxFiles(result.ptx);
    const std::string code = codeOnly(source);
    for (const std::string &lowered : entryNames(result.ptx)) {
        KernelInfo kernel;
        kernel.loweredName = lowered;
        kernel.externC = lowered.rfind("_Z", 0) != 0;
        kernel.readableName = demangle(lowered);
        if (const auto it = expressionOf.find(lowered); it != expressionOf.end())
            kernel.nameExpression = it->second;
        kernel.sourceLine =
            declarationLine(code, plainIdentifier(kernel.readableName), kernel.readableName);
        if (kernel.sourceLine == 0)
            findDeclaringHeader(kernel, result.ptx, files);
        if (const auto it = resources.find(lowered); it != resources.end())
            kernel.resources = it->second;
        if (const auto it = threadBounds.find(lowered); it != threadBounds.end())
            kernel.resources.maxThreadsPerBlock = it->second;
        result.kernels.push_back(std::move(kernel));
    }
}

// An error in a name expression is reported against a generated file (NVRTC's __nv_name_map,
// nvcc's <cuwb name expressions>); say which name it is about instead.
void explainNameExpressionErrors(CompileResult &result, std::string_view generatedFile)
{
    for (Diagnostic &diagnostic : result.diagnostics) {
        if (diagnostic.file.find(generatedFile) == std::string::npos)
            continue;
        diagnostic.file.clear();
        diagnostic.line = 0;
        diagnostic.column = 0;
        diagnostic.message = "the kernel name or name expression does not name an "
                             "instantiation of a __global__ template (" +
                             joined(result.options.nameExpressions, ", ") +
                             "): " + diagnostic.message;
    }
}

std::string quotedForShell(const std::string &argument)
{
    if (!argument.empty() &&
        argument.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789_-+=/.,:@%") == std::string::npos)
        return argument;
    std::string quoted = "'";
    for (char c : argument)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string commandText(const std::vector<std::string> &arguments)
{
    std::string text;
    for (const std::string &argument : arguments)
        text += (text.empty() ? "" : " ") + quotedForShell(argument);
    return text;
}

int compileTimeLimitSeconds()
{
    if (const char *text = std::getenv("CUWB_COMPILE_TIME_LIMIT"); text && *text) {
        char *end = nullptr;
        const long seconds = std::strtol(text, &end, 10);
        if (end && *end == '\0' && seconds > 0 && seconds < 86400)
            return int(seconds);
    }
    return 180;
}

// "a, b, c and 4 more"
std::string listOf(const std::vector<std::string> &names, std::size_t shown = 8)
{
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i)
        text += (i == 0 ? "" : ", ") + names[i];
    if (names.size() > shown)
        text += " and " + std::to_string(names.size() - shown) + " more";
    return text;
}

// Names the host code of the file: nvcc parses it as the user's build does and the workbench
// runs only the kernels; NVRTC cannot compile it at all, which the note says with the remedy.
void addHostCodeNote(CompileResult &result, std::string_view source)
{
    std::vector<std::string> functions = hostFunctionNames(source);
    if (functions.empty())
        return;
    for (std::string &name : functions)
        name += "()";
    if (result.compiledBy.name == "nvcc") {
        result.notes.push_back("host code set aside: " + listOf(functions) +
                               " (compiled by nvcc's front end as in your build, never run: the "
                               "project's launch and verification take its place)");
    } else if (!result.success) {
        result.notes.push_back("the file has host code (" + listOf(functions) +
                               "), which NVRTC cannot compile: with the CUDA toolkit's nvcc "
                               "(compileOptions.compiler \"auto\" or \"nvcc\") the file "
                               "compiles as it is");
    }
}

bool reportsMissingHeader(const CompileResult &result)
{
    return std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                       [](const Diagnostic &d) {
                           return d.message.find("cannot open source file") != std::string::npos;
                       });
}

// The header a "cannot open source file "x"" diagnostic names, or empty.
std::string missingHeaderOf(const Diagnostic &diagnostic)
{
    const std::string &message = diagnostic.message;
    const std::size_t at = message.find("cannot open source file \"");
    if (at == std::string::npos)
        return {};
    const std::size_t open = at + 24;
    const std::size_t close = message.find('"', open + 1);
    return close == std::string::npos ? std::string() : message.substr(open + 1, close - open - 1);
}

// Adds one error per missing header that the compile did not report (it stops at the first),
// placed on its #include line of the main file where it has one.
void addMissingHeaders(CompileResult &result, std::string_view source,
                       const std::vector<std::string> &missing, const std::string &how)
{
    std::set<std::string> reported;
    for (const Diagnostic &diagnostic : result.diagnostics)
        if (std::string header = missingHeaderOf(diagnostic); !header.empty())
            reported.insert(header);
    const std::vector<IncludeLine> includes = includeLines(source);
    for (const std::string &header : missing) {
        if (!reported.insert(header).second)
            continue;
        Diagnostic diagnostic;
        diagnostic.severity = Severity::Error;
        diagnostic.message = "cannot open source file \"" + header + "\" (" + how + ")";
        for (const IncludeLine &include : includes) {
            if (include.name == header) {
                diagnostic.file = result.fileName;
                diagnostic.line = include.line;
                // The column of the name's opening quote or bracket, as the preprocessor
                // reports the first one.
                std::size_t start = 0;
                for (int line = 1; line < include.line && start < source.size(); ++line) {
                    const std::size_t newline = source.find('\n', start);
                    start = newline == std::string_view::npos ? source.size() : newline + 1;
                }
                const std::size_t end = source.find('\n', start);
                const std::string_view text =
                    start < source.size() ? source.substr(start, end - start) : std::string_view();
                const std::size_t at = text.find((include.angled ? "<" : "\"") + header);
                diagnostic.column = at == std::string_view::npos ? 0 : int(at) + 1;
                break;
            }
        }
        result.diagnostics.push_back(std::move(diagnostic));
    }
}

// nvcc stops at the first header it cannot open. One pass of the host preprocessor with -MG
// (missing headers are listed as dependencies instead of stopping it) names all of them.
void addMissingHeaderNotes(CompileResult &result, std::string_view source,
                           const CompileOptions &options, const fs::path &folder,
                           const std::string &name, const std::string &sourceName)
{
    if (!reportsMissingHeader(result))
        return;
    std::vector<std::string> argv{
        nvccInstallation().path,      "-E", "-x", "cu", "-arch=" + options.arch,
        "-std=" + options.cppStandard};
    for (const std::string &define : options.defines)
        argv.push_back("-D" + define);
    for (const std::string &dir : options.includeDirs)
        argv.push_back("-I" + dir);
    for (const std::string &extra :
         {std::string("-Xcompiler=-M,-MG"), name, std::string("-o"), std::string("-")})
        argv.push_back(extra);
    std::string confinementError;
    const std::optional<ToolRun> ran = runNvcc(argv, folder, confinementError);
    if (!ran || !ran->succeeded())
        return;
    const ToolRun &run = *ran;
    // "name.o: name /usr/local/cuda/.../cuda_runtime.h nothere.h \\n sub/alsonot.h"
    std::vector<std::string> missing;
    std::string_view text = run.out;
    if (const std::size_t colon = text.find(": "); colon != std::string_view::npos)
        text.remove_prefix(colon + 2);
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) ||
                                   (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n')))
            ++i;
        std::size_t end = i;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])))
            ++end;
        const std::string word(text.substr(i, end - i));
        i = end;
        if (word.empty() || word == "\\" || word == name || word == sourceName ||
            word.front() == '/')
            continue;
        std::error_code error;
        if (fs::exists(folder / word, error))
            continue; // found beside the source: not missing
        missing.push_back(word);
    }
    addMissingHeaders(result, source, missing,
                      "one preprocessor pass over the whole file lists every missing header");
}

// NVRTC stops at the first header it cannot open; the other #include lines of the file that
// name a header no include folder has are reported with it, from the text (so one inside an
// #if that is not taken is listed too, which the message says).
void addMissingHeaderNotes(CompileResult &result, std::string_view source,
                           const CompileOptions &options)
{
    if (!reportsMissingHeader(result))
        return;
    std::vector<std::string> folders = options.includeDirs;
    folders.push_back(cudaIncludeDir());
    folders.push_back(cudaIncludeDir() + "/cccl");
    const std::vector<StandInHeader> &standIns = nvrtcStandInHeaders();
    std::vector<std::string> missing;
    for (const IncludeLine &include : includeLines(source)) {
        const bool standIn =
            std::any_of(standIns.begin(), standIns.end(),
                        [&include](const StandInHeader &h) { return h.name == include.name; });
        if (standIn)
            continue;
        std::error_code error;
        const bool found = std::any_of(folders.begin(), folders.end(), [&](const std::string &dir) {
            return fs::is_regular_file(fs::path(dir) / include.name, error);
        });
        if (!found)
            missing.push_back(include.name);
    }
    addMissingHeaders(result, source, missing,
                      "read from the file's #include lines: NVRTC stops at the first missing "
                      "header; this one may sit inside an #if that is not taken");
}

void compileWithNvrtc(CompileResult &result, std::string_view source, std::string_view fileName,
                      const CompileOptions &options)
{
    result.compiledBy.name = "nvrtc";
    result.compiledBy.version = nvrtcVersion();
    std::vector<std::string> arguments = options.toNvrtcArguments();
    arguments.push_back(std::string("--pre-include=") + kNvrtcPreludeName);
    result.compiledBy.command = commandText(arguments);
    // The headers nvcc's host preprocessing would give, in the forms device code can use.
    std::vector<std::pair<std::string, std::string>> headers{{kNvrtcPreludeName, nvrtcPrelude()}};
    std::vector<std::string> setAside;
    std::vector<std::string> mapped;
    const std::vector<IncludeLine> includes = includeLines(source);
    for (const StandInHeader &header : nvrtcStandInHeaders()) {
        headers.emplace_back(header.name, header.content);
        const bool included =
            std::any_of(includes.begin(), includes.end(),
                        [&header](const IncludeLine &line) { return line.name == header.name; });
        if (included)
            (header.setAside ? setAside : mapped).push_back("<" + header.name + ">");
    }
    if (!setAside.empty())
        result.notes.push_back("NVRTC: host-only headers set aside (they compile to nothing; "
                               "printf is built in): " +
                               listOf(setAside));
    if (!mapped.empty())
        result.notes.push_back("NVRTC: standard headers read as their libcu++ (<cuda/std/...>) "
                               "forms: " +
                               listOf(mapped));
    if (options.compiler == "auto") {
        // The difference from the user's build is said beside the result, never hidden.
        result.notes.push_back("built by NVRTC, not nvcc (" + nvccInstallation().problem +
                               "): its machine code can differ from your nvcc build's, in "
                               "instructions, registers and spills (docs/projects.md)");
    }
    const auto started = std::chrono::steady_clock::now();
    NvrtcProgram program(source, fileName, headers);
    for (const std::string &expression : options.nameExpressions)
        program.addNameExpression(expression);
    const NvrtcCompileOutcome outcome = program.compile(arguments);
    result.compileTimeMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();

    result.log = outcome.log;
    result.diagnostics = parseNvrtcLog(outcome.log, fileName, lastLineOf(source));
    explainNameExpressionErrors(result, "__nv_name_map");
    result.success = outcome.succeeded();
    if (!result.success) {
        if (outcome.result != NVRTC_ERROR_COMPILATION) {
            result.failureMessage = "NVRTC could not compile (" + outcome.statusText + ")";
            if (result.diagnostics.empty() && !outcome.log.empty())
                result.failureMessage += ": " + outcome.log;
        }
        addMissingHeaderNotes(result, source, options);
        addHostCodeNote(result, source);
        return;
    }

    result.ptx = program.ptx();
    result.cubin = program.cubin();
    result.lineMap = PtxLineMap::build(result.ptx, fileName);
    std::map<std::string, std::string> expressionOf;
    for (const std::string &expression : options.nameExpressions)
        expressionOf.emplace(program.loweredName(expression), expression);
    describeKernels(result, source, expressionOf);
}

// A folder of its own for one nvcc run, removed with everything in it.
class ScratchFolder
{
public:
    ScratchFolder()
    {
        std::error_code error;
        const fs::path base = fs::temp_directory_path(error);
        std::string pattern = ((error ? fs::path("/tmp") : base) / "cuwb-nvcc-XXXXXX").string();
        if (::mkdtemp(pattern.data()) != nullptr)
            m_path = pattern;
    }
    ~ScratchFolder()
    {
        std::error_code error;
        if (!m_path.empty())
            fs::remove_all(m_path, error);
    }
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;
    [[nodiscard]] const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

// The name the source is written under for nvcc: the last part of fileName, reduced to
// characters no tool misreads.
std::string scratchFileName(std::string_view fileName)
{
    std::string name(fileName.substr(fileName.find_last_of('/') + 1));
    for (char &c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            c = '_';
    }
    if (name.empty() || name.front() == '.' || name.front() == '-')
        name = "kernel_" + name;
    return name.size() > 100 ? name.substr(name.size() - 100) : name;
}

constexpr std::string_view kNameExpressionFile = "<cuwb name expressions>";

// `expression` with the object-like macros of `-D` defines replaced by their values, as the
// preprocessor replaced them in the reference nvcc compiled ("mul<BX, 2>" with -DBX=32 is
// "mul<32, 2>"); a few rounds, for defines that name other defines.
std::string expandDefines(std::string expression, const std::vector<std::string> &defines)
{
    std::map<std::string, std::string> values;
    for (const std::string &define : defines) {
        const std::size_t equals = define.find('=');
        if (define.find('(') < equals)
            continue; // a function-like macro
        values[define.substr(0, equals)] =
            equals == std::string::npos ? std::string("1") : define.substr(equals + 1);
    }
    for (int round = 0; round < 8; ++round) {
        std::string expanded;
        bool changed = false;
        for (std::size_t i = 0; i < expression.size();) {
            if (!isIdentifierChar(expression[i]) ||
                std::isdigit(static_cast<unsigned char>(expression[i]))) {
                // A number's letters (1e5, 32u) are not identifiers.
                std::size_t j = i + 1;
                if (std::isdigit(static_cast<unsigned char>(expression[i])))
                    while (j < expression.size() && isIdentifierChar(expression[j]))
                        ++j;
                expanded.append(expression, i, j - i);
                i = j;
                continue;
            }
            std::size_t j = i;
            while (j < expression.size() && isIdentifierChar(expression[j]))
                ++j;
            const std::string word = expression.substr(i, j - i);
            const auto it = values.find(word);
            changed = changed || it != values.end();
            expanded += it == values.end() ? word : it->second;
            i = j;
        }
        expression = std::move(expanded);
        if (!changed)
            break;
    }
    return expression;
}

// Which kernel of an nvcc module each name expression instantiated (NVRTC says so itself):
// the one the expression names once the defines are replaced; failing that, the only
// instantiation of that template no other expression claimed.
void markNameExpressions(CompileResult &result, const CompileOptions &options)
{
    std::vector<std::string> unresolved;
    for (const std::string &expression : options.nameExpressions) {
        KernelLookup lookup = findKernel(result.kernels, expression);
        if (!lookup.found())
            lookup = findKernel(result.kernels, expandDefines(expression, options.defines));
        if (lookup.found())
            const_cast<KernelInfo *>(lookup.kernel)->nameExpression = expression;
        else
            unresolved.push_back(expression);
    }
    for (const std::string &expression : unresolved) {
        const std::string name(
            trimmed(std::string_view(expression).substr(0, expression.find('<'))));
        KernelInfo *only = nullptr;
        int candidates = 0;
        for (KernelInfo &kernel : result.kernels) {
            const std::string display = displayName(kernel);
            const std::string qualified = display.substr(0, display.find('<'));
            if (kernel.nameExpression.empty() && display.find('<') != std::string::npos &&
                (qualified == name || qualified.ends_with("::" + name))) {
                only = &kernel;
                ++candidates;
            }
        }
        if (candidates == 1)
            only->nameExpression = expression;
    }
}

// Writes the editor's text into `folder` as `name` for nvcc, behind a #line directive that names
// the user's file, with the template instantiations the options ask for after it, and for a
// header (`mainName` differs from `name`) the .cu that includes it. False when a file could
// not be written.
bool writeNvccSources(const fs::path &folder, const std::string &name, const std::string &mainName,
                      std::string_view source, std::string_view fileName,
                      const CompileOptions &options)
{
    const bool header = mainName != name;
    std::error_code error;
    fs::create_directory(folder / "keep", error);
    std::ofstream out(folder / name, std::ios::binary);
    // Every location the compiler writes (messages, the PTX's .file, the CUBIN's line table,
    // __FILE__) names the file as the user does, not the scratch copy; the search for
    // "quoted" includes still starts beside the copy, and the caller's -I folders.
    std::string presumed;
    for (char c : fileName) {
        if (c == '"' || c == '\\')
            presumed += '\\';
        presumed += c == '\n' ? ' ' : c;
    }
    out << "#line 1 \"" << presumed << "\"\n";
    out.write(source.data(), std::streamsize(source.size()));
    std::ofstream wrapper;
    if (header) {
        wrapper.open(folder / mainName, std::ios::binary);
        wrapper << "#include \"" << name << "\"\n";
    }
    std::ofstream &tail = header ? wrapper : out;
    // A template kernel is instantiated the way the user's host code would: by taking its
    // address, after the source, so that no line of it moves.
    if (!options.nameExpressions.empty()) {
        tail << "\n#line 1 \"" << kNameExpressionFile << "\"\n";
        for (std::size_t i = 0; i < options.nameExpressions.size(); ++i)
            tail << "static void *const __cuwb_name_" << i << " = (void *)&"
                 << options.nameExpressions[i] << ";\n";
    }
    return out && (!header || wrapper);
}

// The PTX nvcc kept (--keep) in `keep`: the module's, not a second compile; empty if none.
std::string keptPtx(const fs::path &keep)
{
    std::error_code error;
    for (const fs::directory_entry &entry : fs::directory_iterator(keep, error)) {
        if (entry.path().extension() == ".ptx") {
            std::ifstream ptx(entry.path(), std::ios::binary);
            return {std::istreambuf_iterator<char>(ptx), std::istreambuf_iterator<char>()};
        }
    }
    return {};
}

void compileWithNvcc(CompileResult &result, std::string_view source, std::string_view fileName,
                     const CompileOptions &options)
{
    const NvccInstallation &nvcc = nvccInstallation();
    result.compiledBy.name = "nvcc";
    result.compiledBy.version = nvcc.version;
    if (!nvcc.found() && compilesConfined()) {
        result.failureMessage = "a confined compile needs nvcc (NVRTC runs inside this process "
                                "and cannot be confined), and nvcc cannot be used: " +
                                nvcc.problem;
        return;
    }
    if (!nvcc.found()) {
        result.failureMessage = "nvcc cannot be used: " + nvcc.problem +
                                "; set compileOptions.compiler to \"nvrtc\" (or \"auto\") to "
                                "compile with NVRTC instead";
        return;
    }
    ScratchFolder scratch;
    if (scratch.path().empty()) {
        result.failureMessage =
            std::string("cannot create a folder for nvcc: ") + std::strerror(errno);
        return;
    }
    const std::string name = scratchFileName(fileName);
    // A header (.cuh, .h) is compiled as the user's build compiles it: included by a .cu. (Given
    // to nvcc itself, gcc would warn "#pragma once in main file" about most headers.)
    const bool header = !name.ends_with(".cu");
    const std::string mainName = header ? "cuwb_includes_" + name + ".cu" : name;
    const fs::path keep = scratch.path() / "keep";
    const fs::path cubinPath = scratch.path() / "module.cubin";
    if (!writeNvccSources(scratch.path(), name, mainName, source, fileName, options)) {
        result.failureMessage = "cannot write the source for nvcc into " + scratch.path().string();
        return;
    }
    std::vector<std::string> shown{"nvcc"};
    for (const std::string &argument : options.toNvccArguments())
        shown.push_back(argument);
    if (header) {
        shown.emplace_back("-x");
        shown.emplace_back("cu");
    }
    shown.push_back(std::string(fileName.substr(fileName.find_last_of('/') + 1)));
    result.compiledBy.command = commandText(shown);
    if (!options.nameExpressions.empty())
        result.compiledBy.command +=
            "  # with host references instantiating " + joined(options.nameExpressions, ", ");

    std::vector<std::string> argv{nvcc.path};
    for (const std::string &argument : options.toNvccArguments())
        argv.push_back(argument);
    // -x cu: a header (.cuh, .h) is compiled as CUDA, as when a .cu includes it.
    const std::vector<std::string> tail{
        "-x", "cu", "--keep", "--keep-dir=" + keep.string(), "-o", cubinPath.string(), mainName};
    argv.insert(argv.end(), tail.begin(), tail.end());
    std::string confinementError;
    const auto started = std::chrono::steady_clock::now();
    const std::optional<ToolRun> ran = runNvcc(argv, scratch.path(), confinementError);
    if (!ran) {
        result.failureMessage = confinementError;
        return;
    }
    const ToolRun &run = *ran;
    result.compileTimeMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    // The scratch folder is nobody's business: messages name the file as the user does.
    result.log = run.out + run.err;
    for (const std::string &prefix :
         std::vector<std::string>{keep.string() + "/", scratch.path().string() + "/"})
        for (std::size_t at = result.log.find(prefix); at != std::string::npos;
             at = result.log.find(prefix, at))
            result.log.erase(at, prefix.size());
    result.diagnostics = parseNvrtcLog(result.log, fileName, lastLineOf(source), source);
    explainNameExpressionErrors(result, kNameExpressionFile);
    if (run.timedOut || run.tooMuchOutput || run.signal != 0 || !run.started) {
        result.failureMessage = run.failure("nvcc");
        if (run.timedOut)
            result.failureMessage += " (after " + std::to_string(compileTimeLimitSeconds()) +
                                     " s; CUWB_COMPILE_TIME_LIMIT sets the limit)";
        return;
    }
    std::ifstream cubin(cubinPath, std::ios::binary);
    result.success = run.exitCode == 0 && cubin;
    if (!result.success) {
        if (result.counts().errors == 0)
            result.failureMessage = run.failure("nvcc");
        addMissingHeaderNotes(result, source, options, scratch.path(), mainName, name);
        return;
    }
    result.cubin.assign(std::istreambuf_iterator<char>(cubin), std::istreambuf_iterator<char>());
    result.ptx = keptPtx(keep);
    result.lineMap = PtxLineMap::build(result.ptx, fileName);
    describeKernels(result, source, {});
    markNameExpressions(result, options);
    addHostCodeNote(result, source);
}

CompileResult compileUncached(std::string_view source, std::string_view fileName,
                              const CompileOptions &options)
{
    CompileResult result;
    result.fileName = std::string(fileName);
    result.options = options;
    result.templates = kernelTemplates(source);

    if (const std::vector<std::string> problems = options.validate(); !problems.empty()) {
        result.failureMessage = joined(problems, "; ");
        return result;
    }
    // A confined process compiles with nvcc only: NVRTC would read files from inside it.
    const std::string compiler = compilesConfined() ? "nvcc" : resolvedCompiler(options);
    for (const std::string &flag : options.flags) {
        if (const std::string problem = flagProblem(flag, compiler); !problem.empty()) {
            result.failureMessage = "compiler option " + problem;
            return result;
        }
    }

    if (auto badByte = compiler == "nvrtc" ? checkSourceBytes(source, fileName) : std::nullopt) {
        result.diagnostics.push_back(std::move(*badByte));
        return result;
    }

    try {
        if (compiler == "nvcc")
            compileWithNvcc(result, source, fileName, options);
        else
            compileWithNvrtc(result, source, fileName, options);
    } catch (const ApiError &error) {
        // An infrastructure fault is still reported as data: compile() serves user input.
        result.success = false;
        result.failureMessage = error.what();
    }
    return result;
}

// Compiles `source` as Kernel Tuner would when a define asks for its conventions
// (tunerconventions.h), with the user's line numbers and options in the result.
CompileResult compileUnderConventions(std::string_view source, std::string_view fileName,
                                      const CompileOptions &options,
                                      const std::optional<TunerSource> &tuned)
{
    if (!tuned)
        return compileUncached(source, fileName, options);
    if (tuned->error) {
        CompileResult refused;
        refused.fileName = std::string(fileName);
        refused.options = options;
        refused.diagnostics.push_back(*tuned->error);
        refused.diagnostics.back().file = std::string(fileName);
        return refused;
    }
    CompileResult result = compileUncached(tuned->source, fileName, tuned->options);
    result.options = options;
    // Declarations were counted in the compiled text, which starts with the constants.
    for (KernelInfo &kernel : result.kernels) {
        if (kernel.sourceLine > tuned->prefixLines)
            kernel.sourceLine -= tuned->prefixLines;
    }
    result.templates = kernelTemplates(source);
    const int lastLine = lastLineOf(source);
    for (Diagnostic &diagnostic : result.diagnostics) {
        if (diagnostic.file == fileName && diagnostic.line > lastLine)
            diagnostic.line = lastLine; // "at end of source" of the longer text
    }
    return result;
}

// What the conventions did, on the way out: the caches keep what the compiler said, so a result
// served from them (perhaps stored by a compile-server whose result had them) gets them once.
CompileResult withTunerRemarks(CompileResult result, const std::optional<TunerSource> &tuned)
{
    if (!tuned)
        return result;
    for (Diagnostic remark : tuned->remarks) {
        remark.file = result.fileName;
        if (std::find(result.diagnostics.begin(), result.diagnostics.end(), remark) ==
            result.diagnostics.end())
            result.diagnostics.push_back(std::move(remark));
    }
    for (const std::string &note : tuned->notes) {
        if (std::find(result.notes.begin(), result.notes.end(), note) == result.notes.end())
            result.notes.push_back(note);
    }
    return result;
}

} // namespace

KernelCompiler::KernelCompiler(std::size_t cacheCapacity)
    : m_capacity(cacheCapacity)
{}

CompileResult KernelCompiler::compile(std::string_view source, std::string_view fileName,
                                      const CompileOptions &options)
{
    const std::string key = cacheKey(source, fileName, options);
    const std::optional<TunerSource> tuned = applyTunerConventions(source, fileName, options);
    {
        const std::lock_guard lock(m_mutex);
        const auto it = std::find_if(m_cache.begin(), m_cache.end(),
                                     [&key](const auto &entry) { return entry.first == key; });
        if (it != m_cache.end()) {
            m_cache.splice(m_cache.begin(), m_cache, it);
            ++m_hits;
            CompileResult hit = it->second;
            hit.fromCache = true;
            return withTunerRemarks(std::move(hit), tuned);
        }
    }

    std::shared_ptr<const CompileCache> disk;
    if (!compilesConfined()) {
        const std::lock_guard lock(m_mutex);
        disk = m_diskCache;
    }
    std::optional<std::string> diskKey;
    if (disk) {
        diskKey = disk->key(source, fileName, options);
        if (diskKey) {
            if (std::optional<CompileResult> stored = disk->load(*diskKey, source, fileName)) {
                stored->options = options;
                store(source, fileName, options, *stored);
                const std::lock_guard lock(m_mutex);
                ++m_hits;
                return withTunerRemarks(std::move(*stored), tuned);
            }
        }
    }

    // NVRTC runs outside the lock, so compiles on several threads proceed together.
    CompileResult result = compileUnderConventions(source, fileName, options, tuned);
    // Option problems and infrastructure faults are not what this input compiles to; a compile
    // error is, and is kept like a success (a failing sweep variant is not compiled again).
    const bool cacheable = CompileCache::storable(result);
    if (disk && diskKey && cacheable)
        disk->store(*diskKey, result);

    if (cacheable && m_capacity > 0) {
        const std::lock_guard lock(m_mutex);
        const bool present = std::any_of(m_cache.begin(), m_cache.end(),
                                         [&key](const auto &entry) { return entry.first == key; });
        if (!present) {
            m_cache.emplace_front(key, result);
            while (m_cache.size() > m_capacity)
                m_cache.pop_back();
        }
    }
    return withTunerRemarks(std::move(result), tuned);
}

void KernelCompiler::store(std::string_view source, std::string_view fileName,
                           const CompileOptions &options, CompileResult result)
{
    if (m_capacity == 0)
        return;
    const std::string key = cacheKey(source, fileName, options);
    const std::lock_guard lock(m_mutex);
    const auto it = std::find_if(m_cache.begin(), m_cache.end(),
                                 [&key](const auto &entry) { return entry.first == key; });
    if (it != m_cache.end())
        m_cache.erase(it);
    m_cache.emplace_front(key, std::move(result));
    while (m_cache.size() > m_capacity)
        m_cache.pop_back();
}

void KernelCompiler::setDiskCache(std::shared_ptr<const CompileCache> cache)
{
    const std::lock_guard lock(m_mutex);
    m_diskCache = std::move(cache);
}

std::size_t KernelCompiler::cacheHits() const
{
    const std::lock_guard lock(m_mutex);
    return m_hits;
}

std::size_t KernelCompiler::cacheSize() const
{
    const std::lock_guard lock(m_mutex);
    return m_cache.size();
}

void KernelCompiler::clearCache()
{
    const std::lock_guard lock(m_mutex);
    m_cache.clear();
}

void confineCompiles(std::vector<std::string> readable)
{
    const std::lock_guard lock(g_confinementMutex);
    g_confinedReadable = std::move(readable);
}

bool compilesConfined()
{
    const std::lock_guard lock(g_confinementMutex);
    return g_confinedReadable.has_value();
}

} // namespace cuwb
