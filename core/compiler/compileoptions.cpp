#include "compiler/compileoptions.h"

#include "cuda/nvrtcinfo.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

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

} // namespace

std::vector<std::string> CompileOptions::validate() const
{
    std::vector<std::string> problems;
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
    // Where a driver is present NVRTC serves repeated compiles from the driver's compute
    // cache and skips ptxas, so the resource report above would be missing (seen on an H200,
    // driver 580). KernelCompiler keeps its own cache of whole results instead.
    arguments.emplace_back("--no-cache");
    // With -G ptxas must not optimise ("Optimized debugging not supported").
    if (!deviceDebug)
        arguments.push_back("--ptxas-options=-O" + std::to_string(optLevel));
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
    return text;
}

} // namespace cuwb
