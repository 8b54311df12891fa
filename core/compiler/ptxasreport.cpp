#include "compiler/ptxasreport.h"
#include "util/text.h"

#include <cctype>
#include <optional>
#include <vector>

namespace cuwb {

namespace {

// The number directly before `unit` in a comma-separated field, e.g. "12 registers" -> 12.
std::optional<int> numberBefore(std::string_view field, std::string_view unit)
{
    field = trimmed(field);
    if (field.size() <= unit.size() || field.substr(field.size() - unit.size()) != unit)
        return std::nullopt;
    std::string_view number = trimmed(field.substr(0, field.size() - unit.size()));
    if (number.empty())
        return std::nullopt;
    long long value = 0;
    for (char c : number) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        if (value < 1000000000)
            value = value * 10 + (c - '0');
    }
    return static_cast<int>(value);
}

std::vector<std::string_view> splitFields(std::string_view text)
{
    std::vector<std::string_view> fields;
    while (true) {
        const std::size_t comma = text.find(',');
        fields.push_back(trimmed(text.substr(0, comma)));
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    return fields;
}

// "Compiling entry function '_Z1kPf' for 'sm_90'" -> "_Z1kPf"
std::string quotedName(std::string_view text)
{
    const std::size_t open = text.find('\'');
    const std::size_t close = text.find('\'', open + 1);
    if (open == std::string_view::npos || close == std::string_view::npos)
        return {};
    return std::string(text.substr(open + 1, close - open - 1));
}

} // namespace

std::map<std::string, KernelResources> parsePtxasReport(std::string_view log)
{
    // The report is a sequence per entry: "Compiling entry function", "Function properties for",
    // the stack/spill line, "Used N registers, ...". Non-inlined device functions get their own
    // "Function properties" block without a "Used" line; they are not kernels and are skipped.
    std::map<std::string, KernelResources> kernels;
    std::string current; // the function the next property lines describe, if it is an entry

    std::size_t start = 0;
    while (start <= log.size()) {
        std::size_t end = log.find_first_of("\n", start);
        if (end == std::string_view::npos)
            end = log.size();
        std::string_view line = trimmed(log.substr(start, end - start));
        start = end + 1;
        // NVRTC separates the front end's log and ptxas' with a NUL.
        while (!line.empty() && line.front() == '\0')
            line = trimmed(line.substr(1));
        // nvcc prints the stack line of a function without ptxas' "ptxas ." prefix.
        const bool stackLine =
            !startsWith(line, "ptxas") && line.find("bytes stack frame") != std::string_view::npos;
        if (!startsWith(line, "ptxas") && !stackLine)
            continue;
        // "ptxas         .     400 bytes stack frame, ..." (NVRTC) reads as ". 400 bytes ...".
        const std::string stackText = stackLine ? ". " + std::string(line) : std::string();
        line = stackLine ? std::string_view(stackText) : trimmed(line.substr(5));
        if (startsWith(line, "info")) {
            const std::size_t colon = line.find(':');
            if (colon == std::string_view::npos)
                continue;
            const std::string_view text = trimmed(line.substr(colon + 1));
            if (startsWith(text, "Compiling entry function")) {
                current = quotedName(text);
                if (!current.empty())
                    kernels[current].reported = true;
            } else if (startsWith(text, "Function properties for ")) {
                std::string name(trimmed(text.substr(24)));
                current = kernels.count(name) ? name : std::string();
            } else if (startsWith(text, "Used ") && !current.empty()) {
                KernelResources &resources = kernels[current];
                for (std::string_view field : splitFields(text.substr(5))) {
                    if (auto v = numberBefore(field, "registers"))
                        resources.registers = *v;
                    else if (auto v = numberBefore(field, "bytes smem"))
                        resources.staticSharedBytes = *v;
                    else if (auto v = numberBefore(field, "bytes cmem[0]"))
                        resources.constantBytes = *v;
                    else if (startsWith(field, "used ")) {
                        if (auto v = numberBefore(field.substr(5), "barriers"))
                            resources.barriers = *v;
                        else if (auto v = numberBefore(field.substr(5), "barrier"))
                            resources.barriers = *v;
                    }
                }
            }
        } else if (startsWith(line, ".") && !current.empty()) {
            // "ptxas         .     400 bytes stack frame, 0 bytes spill stores, 0 bytes spill
            // loads"
            KernelResources &resources = kernels[current];
            for (std::string_view field : splitFields(trimmed(line.substr(1)))) {
                if (auto v = numberBefore(field, "bytes stack frame"))
                    resources.stackFrameBytes = *v;
                else if (auto v = numberBefore(field, "bytes spill stores"))
                    resources.spillStoreBytes = *v;
                else if (auto v = numberBefore(field, "bytes spill loads"))
                    resources.spillLoadBytes = *v;
            }
        }
    }
    return kernels;
}

} // namespace cuwb
