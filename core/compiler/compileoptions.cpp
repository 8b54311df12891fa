#include "compiler/compileoptions.h"

#include "cuda/nvrtcinfo.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <utility>

namespace cuwb {

const std::vector<std::string> &supportedCppStandards()
{
    // What NVRTC 13 accepts for -std (c++23 is rejected as an invalid option).
    static const std::vector<std::string> standards{"c++03", "c++11", "c++14", "c++17", "c++20"};
    return standards;
}

namespace {

bool isIdentifier(std::string_view name)
{
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

// "sm_90" -> 90, "sm_90a" -> 90 with suffix 'a'; nullopt-like -1 for anything else.
int archNumber(std::string_view arch, char &suffix)
{
    suffix = '\0';
    if (arch.substr(0, 3) != "sm_" || arch.size() < 5)
        return -1;
    std::string_view digits = arch.substr(3);
    if (digits.back() == 'a' || digits.back() == 'f') {
        suffix = digits.back();
        digits.remove_suffix(1);
    }
    if (digits.empty() || digits.size() > 4 ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return -1;
    return std::stoi(std::string(digits));
}

bool isSupportedArch(const std::string &arch)
{
    const auto &archs = nvrtcSupportedArchs();
    if (std::find(archs.begin(), archs.end(), arch) != archs.end())
        return true;
    // Architecture-specific ("sm_90a") and family ("sm_100f") targets extend a supported base
    // architecture; NVRTC lists only the base.
    char suffix = '\0';
    const int number = archNumber(arch, suffix);
    if (number < 0 || suffix == '\0')
        return false;
    const std::string base = "sm_" + std::to_string(number);
    if (std::find(archs.begin(), archs.end(), base) == archs.end())
        return false;
    return suffix == 'a' ? number >= 90 : number >= 100;
}

std::string supportedRange()
{
    const auto &archs = nvrtcSupportedArchs();
    if (archs.empty())
        return "none";
    return archs.front() + " … " + archs.back();
}

struct FlagRule
{
    std::string_view name;   // without leading dashes, without "=value"
    std::string_view values; // "" (no value), "bool", "onoff", "list", "fastcompile", "ptxas"
    bool nvcc;
    bool nvrtc;
};

// Options that change code generation or diagnostics only. Both compilers spell them with one
// or two leading dashes; "=" separates a value.
constexpr FlagRule kFlagRules[] = {
    {"ftz", "bool", true, true},
    {"prec-div", "bool", true, true},
    {"prec-sqrt", "bool", true, true},
    {"fmad", "bool", true, true},
    {"extra-device-vectorization", "", true, true},
    {"restrict", "", true, true},
    {"dopt", "onoff", true, true},
    {"Ofast-compile", "fastcompile", true, true},
    {"Ofc", "fastcompile", true, true},
    {"w", "", true, true},
    {"disable-warnings", "", true, true},
    {"diag-suppress", "list", true, true},
    {"diag-warn", "list", true, true},
    {"diag-error", "list", true, true},
    {"display-error-number", "", true, true},
    {"no-display-error-number", "", true, true},
    {"ptxas-options", "ptxas", true, true},
    {"Xptxas", "ptxas", true, true},
    {"expt-relaxed-constexpr", "", true, false},
    {"expt-extended-lambda", "", true, false},
    {"extended-lambda", "", true, false},
    {"Wno-deprecated-gpu-targets", "", true, false},
    {"Wno-deprecated-declarations", "", true, false},
    {"Wreorder", "", true, false},
    {"Werror", "list", true, false},
    {"default-device", "", false, true},
    {"device-int128", "", false, true},
    {"device-as-default-execution-space", "", false, true},
};

// Options the workbench sets from a field of its own.
constexpr std::pair<std::string_view, std::string_view> kFieldFlags[] = {
    {"arch", "arch"},
    {"gpu-architecture", "arch"},
    {"gencode", "arch"},
    {"generate-code", "arch"},
    {"code", "arch"},
    {"gpu-code", "arch"},
    {"G", "deviceDebug"},
    {"device-debug", "deviceDebug"},
    {"lineinfo", "lineInfo"},
    {"generate-line-info", "lineInfo"},
    {"use_fast_math", "fastMath"},
    {"use-fast-math", "fastMath"},
    {"std", "cppStandard"},
    {"maxrregcount", "maxRegisters"},
    {"O0", "optLevel"},
    {"O1", "optLevel"},
    {"O2", "optLevel"},
    {"O3", "optLevel"},
};

bool isBoolValue(std::string_view value)
{
    return value == "true" || value == "false";
}

// A ptxas option list ("-O3,-dlcm=cg" or "-v"): options of the code generator only; no file.
std::string ptxasProblem(std::string_view list)
{
    if (list.empty())
        return "names no ptxas option";
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t end = list.find(',', start);
        if (end == std::string_view::npos)
            end = list.size();
        std::string_view item = list.substr(start, end - start);
        start = end + 1;
        if (item.empty() || item.front() != '-')
            return "\"" + std::string(item) + "\" is not a ptxas option";
        while (!item.empty() && item.front() == '-')
            item.remove_prefix(1);
        const std::string_view name = item.substr(0, item.find('='));
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
            }))
            return "\"" + std::string(item) + "\" is not a ptxas option";
        for (std::string_view refused :
             {"o", "output-file", "options-file", "optf", "input-as-string", "compile-only", "c",
              "compile-as-tools-patch", "gpu-name", "arch", "m32"}) {
            if (name == refused)
                return "the ptxas option -" + std::string(name) +
                       " is set by the workbench or names a file";
        }
    }
    return {};
}

} // namespace

const std::vector<std::string> &compilerChoices()
{
    static const std::vector<std::string> choices{"auto", "nvcc", "nvrtc"};
    return choices;
}

std::string flagProblem(std::string_view flag, std::string_view compiler)
{
    const std::string quoted = "\"" + std::string(flag) + "\"";
    if (flag.empty())
        return "an empty compiler option";
    if (flag.size() > 1000)
        return "a compiler option of " + std::to_string(flag.size()) +
               " characters; the limit is 1000";
    if (flag.find_first_of(" \t\n\r") != std::string_view::npos)
        return quoted + " holds a space: give each option as one entry, with '=' before its value";
    if (flag.front() != '-')
        return quoted + " is not an option (options start with '-')";
    std::string_view body = flag;
    while (!body.empty() && body.front() == '-')
        body.remove_prefix(1);
    if (body.size() > 1 && body.front() == 'D')
        return quoted + ": give defines in \"defines\"";
    if (body.size() > 1 && body.front() == 'I')
        return quoted + ": give include folders in \"includeDirs\"";
    if (body.size() > 1 && body.front() == 'U') {
        const std::string_view name = body.substr(1);
        return isIdentifier(name) ? std::string() : quoted + ": -U needs a macro name";
    }
    const std::size_t equals = body.find('=');
    const std::string_view name = body.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : body.substr(equals + 1);
    for (const auto &[option, field] : kFieldFlags) {
        if (name == option)
            return quoted + ": set it with \"" + std::string(field) + "\"";
    }
    for (const FlagRule &rule : kFlagRules) {
        if (name != rule.name)
            continue;
        if ((compiler == "nvcc" && !rule.nvcc) || (compiler == "nvrtc" && !rule.nvrtc))
            return quoted + " is not an option of " +
                   std::string(compiler == "nvcc" ? "nvcc" : "NVRTC");
        const bool hasValue = equals != std::string_view::npos;
        if (rule.values.empty())
            return hasValue ? quoted + " takes no value" : std::string();
        if (!hasValue)
            return quoted + " needs a value after '='";
        if (rule.values == "bool" && !isBoolValue(value))
            return quoted + ": the value must be true or false";
        if (rule.values == "onoff" && value != "on" && value != "off")
            return quoted + ": the value must be on or off";
        if (rule.values == "fastcompile" && value != "0" && value != "min" && value != "mid" &&
            value != "max")
            return quoted + ": the value must be 0, min, mid or max";
        if (rule.values == "list" &&
            (value.empty() || !std::all_of(value.begin(), value.end(), [](char c) {
                 return std::isalnum(static_cast<unsigned char>(c)) || c == ',' || c == '-' ||
                        c == '_';
             })))
            return quoted + ": the value must be a comma-separated list of names or numbers";
        if (rule.values == "ptxas") {
            if (const std::string problem = ptxasProblem(value); !problem.empty())
                return quoted + ": " + problem;
        }
        return {};
    }
    for (std::string_view refused : {"o",
                                     "output-file",
                                     "include",
                                     "pre-include",
                                     "preinclude",
                                     "ccbin",
                                     "compiler-bindir",
                                     "Xcompiler",
                                     "compiler-options",
                                     "Xlinker",
                                     "linker-options",
                                     "Xnvlink",
                                     "Xarchive",
                                     "keep",
                                     "keep-dir",
                                     "save-temps",
                                     "odir",
                                     "output-directory",
                                     "run",
                                     "run-args",
                                     "options-file",
                                     "optf",
                                     "dryrun",
                                     "E",
                                     "M",
                                     "MM",
                                     "MD",
                                     "MMD",
                                     "MF",
                                     "cubin",
                                     "ptx",
                                     "fatbin",
                                     "c",
                                     "compile",
                                     "dc",
                                     "dw",
                                     "rdc",
                                     "relocatable-device-code",
                                     "lib",
                                     "link",
                                     "x",
                                     "time",
                                     "fdevice-time-trace",
                                     "device-time-trace",
                                     "cudart",
                                     "L",
                                     "l",
                                     "library",
                                     "library-path",
                                     "include-path",
                                     "system-include",
                                     "isystem",
                                     "pch",
                                     "create-pch",
                                     "use-pch",
                                     "pch-dir"}) {
        if (name == refused)
            return quoted +
                   " is set by the workbench, names files or runs another program, so it is "
                   "not accepted";
    }
    return quoted + " is not an option the workbench knows to change only code generation (see "
                    "docs/projects.md, compileOptions.flags)";
}

std::vector<std::string> CompileOptions::validate() const
{
    std::vector<std::string> problems;
    const auto &choices = compilerChoices();
    if (std::find(choices.begin(), choices.end(), compiler) == choices.end())
        problems.push_back("compiler \"" + compiler + "\" is not one of auto, nvcc, nvrtc");
    for (const std::string &flag : flags) {
        // "auto" may become either: an option of only one compiler is refused for the one
        // that is used, at compile time (kernelcompiler.cpp).
        if (std::string problem = flagProblem(flag, compiler == "auto" ? "" : compiler);
            !problem.empty())
            problems.push_back("compiler option " + problem);
    }
    if (!isSupportedArch(arch)) {
        problems.push_back((arch.empty() ? std::string("an empty architecture") : arch) +
                           " is not supported by NVRTC " + nvrtcVersion() +
                           "; supported: " + supportedRange());
    }
    if (optLevel < 0 || optLevel > 3) {
        problems.push_back("optimisation level " + std::to_string(optLevel) +
                           " is out of range; use 0 to 3");
    }
    if (maxRegisters != 0 && (maxRegisters < 16 || maxRegisters > 255)) {
        problems.push_back("maximum registers " + std::to_string(maxRegisters) +
                           " is out of range; use 0 (no limit) or 16 to 255");
    }
    const auto &standards = supportedCppStandards();
    if (std::find(standards.begin(), standards.end(), cppStandard) == standards.end()) {
        std::string list;
        for (const std::string &standard : standards)
            list += (list.empty() ? "" : ", ") + standard;
        problems.push_back("C++ standard \"" + cppStandard +
                           "\" is not supported by NVRTC; use one of " + list);
    }
    for (const std::string &define : defines) {
        const std::string_view name = std::string_view(define).substr(0, define.find('='));
        if (!isIdentifier(name)) {
            problems.push_back("define \"" + define +
                               "\" must be NAME or NAME=VALUE, with NAME a C++ identifier");
        }
    }
    for (const std::string &dir : includeDirs) {
        std::error_code error;
        if (dir.empty() || !std::filesystem::is_directory(dir, error))
            problems.push_back("include folder \"" + dir + "\" does not exist");
    }
    for (const std::string &expression : nameExpressions) {
        if (expression.find_first_not_of(" \t") == std::string::npos)
            problems.push_back("a name expression is empty");
    }
    return problems;
}

std::vector<std::string> CompileOptions::toNvrtcArguments() const
{
    // A real sm_XX target makes NVRTC run ptxas, which gives both the CUBIN and the resource
    // report (-v); a compute_XX target would stop at PTX.
    std::vector<std::string> arguments{"--gpu-architecture=" + arch};
    if (deviceDebug)
        arguments.emplace_back("-G"); // implies line info; ptxas rejects -lineinfo beside it
    else if (lineInfo)
        arguments.emplace_back("-lineinfo");
    if (fastMath)
        arguments.emplace_back("--use_fast_math");
    arguments.push_back("-std=" + cppStandard);
    if (maxRegisters > 0)
        arguments.push_back("--maxrregcount=" + std::to_string(maxRegisters));
    for (const std::string &define : defines)
        arguments.push_back("-D" + define);
    for (const std::string &dir : includeDirs)
        arguments.push_back("-I" + dir);
    // The user's folders come first so they can shadow toolkit headers. CUDA 13 keeps libcu++
    // (<cuda/std/...>), CUB and Thrust under include/cccl.
    const std::string toolkit = cudaIncludeDir();
    arguments.push_back("-I" + toolkit);
    arguments.push_back("-I" + toolkit + "/cccl");
    arguments.emplace_back("--ptxas-options=-v");
    for (const std::string &flag : flags)
        arguments.push_back(flag);
    // Where a driver is present NVRTC serves repeated compiles from the driver's compute
    // cache and skips ptxas, so the resource report above would be missing (seen on an H200,
    // driver 580). KernelCompiler keeps its own cache of whole results instead.
    arguments.emplace_back("--no-cache");
    // With -G ptxas must not optimise ("Optimized debugging not supported").
    if (!deviceDebug)
        arguments.push_back("--ptxas-options=-O" + std::to_string(optLevel));
    return arguments;
}

std::vector<std::string> CompileOptions::toNvccArguments() const
{
    // What a user types: -arch=sm_90 both compiles (cicc for compute_90) and assembles (ptxas
    // for sm_90), -cubin stops at the machine code. nvcc's device optimisation is ptxas' -O3
    // unless told otherwise, so -O3 adds nothing; -O<n> for the host is irrelevant here.
    std::vector<std::string> arguments{"-cubin", "-arch=" + arch};
    if (deviceDebug)
        arguments.emplace_back("-G");
    else if (lineInfo)
        arguments.emplace_back("-lineinfo");
    if (fastMath)
        arguments.emplace_back("--use_fast_math");
    arguments.push_back("-std=" + cppStandard);
    if (maxRegisters > 0)
        arguments.push_back("-maxrregcount=" + std::to_string(maxRegisters));
    for (const std::string &define : defines)
        arguments.push_back("-D" + define);
    for (const std::string &dir : includeDirs)
        arguments.push_back("-I" + dir);
    if (!deviceDebug && optLevel != 3)
        arguments.push_back("-Xptxas=-O" + std::to_string(optLevel));
    arguments.emplace_back("-Xptxas=-v");
    for (const std::string &flag : flags)
        arguments.push_back(flag);
    return arguments;
}

std::string CompileOptions::canonicalText() const
{
    // Length-prefixed fields, so that no define or folder name can imitate another field.
    std::string text;
    const auto field = [&text](std::string_view key, std::string_view value) {
        text += key;
        text += '=';
        text += std::to_string(value.size());
        text += ':';
        text += value;
        text += '\n';
    };
    field("arch", arch);
    field("O", std::to_string(optLevel));
    field("G", deviceDebug ? "1" : "0");
    field("lineinfo", lineInfo ? "1" : "0");
    field("fastmath", fastMath ? "1" : "0");
    field("std", cppStandard);
    field("maxrregcount", std::to_string(maxRegisters));
    for (const std::string &define : defines)
        field("D", define);
    for (const std::string &dir : includeDirs)
        field("I", dir);
    for (const std::string &expression : nameExpressions)
        field("name", expression);
    field("compiler", compiler);
    for (const std::string &flag : flags)
        field("flag", flag);
    return text;
}

} // namespace cuwb
