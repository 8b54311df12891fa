#include "inspect/sasslisting.h"

#include "util/text.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace cuwb {

namespace {

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

std::optional<std::uint64_t> parseHex(std::string_view text)
{
    if (text.empty() || text.size() > 16)
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : text) {
        int digit = 0;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        else
            return std::nullopt;
        value = value * 16 + std::uint64_t(digit);
    }
    return value;
}

// `File "path", line N` at the start of `text`; advances past it.
std::optional<SourceLocation> readFileLine(std::string_view &text)
{
    text = trimmed(text);
    if (!text.starts_with("File \""))
        return std::nullopt;
    text.remove_prefix(6);
    const std::size_t quote = text.find('"');
    if (quote == std::string_view::npos)
        return std::nullopt;
    SourceLocation location;
    location.file = std::string(text.substr(0, quote));
    text.remove_prefix(quote + 1);
    text = trimmed(text);
    if (!text.starts_with(", line "))
        return std::nullopt;
    text.remove_prefix(7);
    std::size_t n = 0;
    long long line = 0;
    while (n < text.size() && text[n] >= '0' && text[n] <= '9') {
        if (line < 100000000)
            line = line * 10 + (text[n] - '0');
        ++n;
    }
    if (n == 0)
        return std::nullopt;
    location.line = int(line);
    text.remove_prefix(n);
    return location;
}

// One `//## File "a.cu", line 3 inlined at "a.cu", line 8` line: the location, and the call
// site when there is one.
struct Annotation
{
    SourceLocation location;
    std::optional<SourceLocation> inlinedAt;
};

std::optional<Annotation> parseAnnotation(std::string_view line)
{
    line = trimmed(line);
    if (!line.starts_with("//##"))
        return std::nullopt;
    line.remove_prefix(4);
    Annotation annotation;
    const auto location = readFileLine(line);
    if (!location)
        return std::nullopt;
    annotation.location = *location;
    line = trimmed(line);
    if (line.starts_with("inlined at")) {
        line.remove_prefix(10);
        annotation.inlinedAt = readFileLine(line);
    }
    return annotation;
}

// nvdisasm prints, before an instruction whose source changed, one line per level of inlining:
// the innermost first ("line 3 inlined at line 8"), then its caller ("line 8 inlined at line
// 15"), then the function's own line ("line 15"). The instruction's source is the first; its
// call sites are the rest, with the last "inlined at" when the chain stops early.
void applyAnnotations(const std::vector<Annotation> &block, SourceLocation &source,
                      std::vector<SourceLocation> &inlinedAt)
{
    source = block.front().location;
    inlinedAt.clear();
    for (std::size_t i = 1; i < block.size(); ++i)
        inlinedAt.push_back(block[i].location);
    if (block.back().inlinedAt)
        inlinedAt.push_back(*block.back().inlinedAt);
}

struct ParsedInstruction
{
    std::uint64_t offset = 0;
    std::string predicate;
    std::string opcode;
    std::string operands;
    std::vector<std::string> notes;
};

// `        /*0130*/              @!P2 LDC.64 R2, c[0x0][0x210] ;   (*"SpillRefill"*)`
std::optional<ParsedInstruction> parseInstruction(std::string_view line)
{
    line = trimmed(line);
    if (!line.starts_with("/*"))
        return std::nullopt;
    const std::size_t close = line.find("*/");
    if (close == std::string_view::npos)
        return std::nullopt;
    const auto offset = parseHex(line.substr(2, close - 2));
    if (!offset)
        return std::nullopt;
    std::string_view rest = trimmed(line.substr(close + 2));
    if (rest.empty() || rest.starts_with("0x")) // an encoding line of -hex
        return std::nullopt;
    ParsedInstruction instruction;
    instruction.offset = *offset;
    if (rest.front() == '@') {
        const std::size_t space = rest.find_first_of(" \t");
        if (space == std::string_view::npos)
            return std::nullopt;
        instruction.predicate = std::string(rest.substr(0, space));
        rest = trimmed(rest.substr(space));
    }
    // Notes: (*"SpillRefill"*), possibly several, printed before the closing semicolon.
    std::string body;
    for (std::size_t at = 0; at < rest.size();) {
        const std::size_t open = rest.find("(*", at);
        const std::size_t end = open == std::string_view::npos ? open : rest.find("*)", open + 2);
        if (end == std::string_view::npos) {
            body += rest.substr(at);
            break;
        }
        body += rest.substr(at, open - at);
        std::string_view note = trimmed(rest.substr(open + 2, end - open - 2));
        if (note.size() >= 2 && note.front() == '"' && note.back() == '"')
            note = note.substr(1, note.size() - 2);
        instruction.notes.emplace_back(note);
        at = end + 2;
    }
    std::string_view code = body;
    code = trimmed(code.substr(0, code.find(';')));
    const std::size_t space = code.find_first_of(" \t");
    instruction.opcode = std::string(code.substr(0, space));
    if (space != std::string_view::npos)
        instruction.operands = std::string(trimmed(code.substr(space)));
    if (instruction.opcode.empty())
        return std::nullopt;
    return instruction;
}

// `.type name,@function` → "name".
std::optional<std::string> functionTypeName(std::string_view line)
{
    line = trimmed(line);
    if (!line.starts_with(".type"))
        return std::nullopt;
    line = trimmed(line.substr(5));
    const std::size_t comma = line.find(',');
    if (comma == std::string_view::npos || trimmed(line.substr(comma + 1)) != "@function")
        return std::nullopt;
    return std::string(trimmed(line.substr(0, comma)));
}

// `.other name,@"STO_CUDA_ENTRY STV_DEFAULT"`: whether `name` is a kernel.
std::optional<std::string> entryName(std::string_view line)
{
    line = trimmed(line);
    if (!line.starts_with(".other") || line.find("STO_CUDA_ENTRY") == std::string_view::npos)
        return std::nullopt;
    line = trimmed(line.substr(6));
    return std::string(trimmed(line.substr(0, line.find(','))));
}

// A label line: `name:` at the start of the line.
std::optional<std::string_view> labelName(std::string_view line)
{
    if (line.empty() || line.front() == ' ' || line.front() == '\t' || line.back() != ':')
        return std::nullopt;
    return line.substr(0, line.size() - 1);
}

bool isSelfBranch(const SassFunction &function, const SassInstruction &instruction)
{
    if (instruction.baseOpcode() != "BRA" || !instruction.predicate.empty())
        return false;
    const std::size_t open = instruction.operands.find("`(");
    const std::size_t close = instruction.operands.find(')', open);
    if (open == std::string::npos || close == std::string::npos)
        return false;
    const long long target = function.labelOffset(
        std::string_view(instruction.operands).substr(open + 2, close - open - 2));
    return target >= 0 && std::uint64_t(target) == instruction.offset;
}

// nvdisasm shows the end of a function's code as a branch to itself followed by NOPs up to the
// section's alignment. The NOPs are padding. The branch never issues but stays in the listing:
// a warp that has issued its EXIT and waits for its stores to drain is sampled there, and PC
// sampling (like Nsight Compute's source page) puts those samples on it.
void markPadding(SassFunction &function)
{
    std::vector<SassInstruction> &code = function.instructions;
    std::size_t first = code.size();
    while (first > 0 && code[first - 1].baseOpcode() == "NOP" && code[first - 1].predicate.empty())
        --first;
    if (first > 0 && isSelfBranch(function, code[first - 1])) {
        code[first - 1].endOfCode = true;
    } else if (first == code.size() || first == 0) {
        return;
    } else {
        // NOPs alone are padding only after an instruction that does not fall through.
        const std::string_view before = code[first - 1].baseOpcode();
        if (before != "EXIT" && before != "RET" && before != "BRA")
            return;
    }
    for (std::size_t i = first; i < code.size(); ++i)
        code[i].padding = true;
}

void finishFunction(SassFunction &function)
{
    if (function.instructions.empty())
        return;
    markPadding(function);
    std::uint64_t stride = 16; // every instruction of sm_70 and later
    if (function.instructions.size() >= 2)
        stride = function.instructions[1].offset - function.instructions[0].offset;
    function.sizeBytes = function.instructions.back().offset + stride;
}

} // namespace

const SassInstruction *SassFunction::instructionAt(std::uint64_t offset) const
{
    const auto it = std::lower_bound(instructions.begin(), instructions.end(), offset,
                                     [](const SassInstruction &instruction, std::uint64_t key) {
                                         return instruction.offset < key;
                                     });
    if (it == instructions.end() || it->offset != offset)
        return nullptr;
    return &*it;
}

long long SassFunction::labelOffset(std::string_view label) const
{
    for (const SassLabel &entry : labels) {
        if (entry.name == label)
            return static_cast<long long>(entry.offset);
    }
    return -1;
}

const SassFunction *SassListing::function(std::string_view name) const
{
    for (const SassFunction &entry : functions) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

const SassInstruction *SassListing::instructionAt(std::string_view name,
                                                  std::uint64_t pcOffset) const
{
    const SassFunction *found = function(name);
    return found ? found->instructionAt(pcOffset) : nullptr;
}

std::size_t SassListing::instructionCount() const
{
    std::size_t count = 0;
    for (const SassFunction &entry : functions)
        count += entry.instructions.size();
    return count;
}

std::string demangleSassName(std::string_view name)
{
    std::string symbol(name);
    // "$kernel$_Z6helperf": a device function placed in a kernel's section.
    if (symbol.starts_with("$")) {
        const std::size_t last = symbol.rfind('$');
        if (last + 1 < symbol.size())
            symbol = symbol.substr(last + 1);
    }
    if (!symbol.starts_with("_Z"))
        return symbol;
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> readable(
        abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && readable ? std::string(readable.get()) : symbol;
}

SassListing parseNvdisasm(std::string_view text)
{
    SassListing listing;
    std::set<std::string> functionSymbols;
    std::set<std::string> entries;
    SassFunction *current = nullptr;
    std::vector<Annotation> pending;
    SourceLocation source;
    std::vector<SourceLocation> inlinedAt;
    std::vector<std::string> pendingLabels;
    std::vector<std::string> pendingRoutines;

    const auto attachPending = [&](std::uint64_t offset) {
        for (std::string &label : pendingLabels)
            current->labels.push_back({std::move(label), offset});
        pendingLabels.clear();
        for (std::string &routine : pendingRoutines) {
            const std::string readable = demangleSassName(routine);
            current->routines.push_back({std::move(routine), readable, offset});
        }
        pendingRoutines.clear();
    };
    const auto closeFunction = [&] {
        if (!current)
            return;
        // A label after the last instruction (the end of the code) points past it.
        finishFunction(*current);
        for (std::string &label : pendingLabels)
            current->labels.push_back({std::move(label), current->sizeBytes});
        pendingLabels.clear();
        pendingRoutines.clear();
    };

    for (const std::string_view line : splitLines(text)) {
        const std::string_view content = trimmed(line);
        if (content.starts_with(".target")) {
            listing.arch = std::string(trimmed(content.substr(7)));
            continue;
        }
        if (content.starts_with(".section")) {
            closeFunction();
            current = nullptr;
            std::string_view name = trimmed(content.substr(8));
            name = name.substr(0, name.find(','));
            if (name.starts_with(".text.")) {
                listing.functions.emplace_back();
                current = &listing.functions.back();
                current->name = std::string(name.substr(6));
                current->readableName = demangleSassName(current->name);
                current->routines.push_back({current->name, current->readableName, 0});
            }
            pending.clear();
            source = {};
            inlinedAt.clear();
            continue;
        }
        if (const auto name = functionTypeName(content)) {
            functionSymbols.insert(*name);
            continue;
        }
        if (const auto name = entryName(content)) {
            entries.insert(*name);
            if (current && current->name == *name)
                current->entry = true;
            continue;
        }
        if (!current)
            continue;
        if (const auto annotation = parseAnnotation(content)) {
            pending.push_back(*annotation);
            continue;
        }
        if (const auto label = labelName(line)) {
            if (*label == current->name || *label == ".text." + current->name)
                continue;
            if (functionSymbols.count(std::string(*label)) != 0) {
                // Another routine's code begins: the line table says nothing of it until its
                // next annotation, so the previous line does not run on into it.
                pendingRoutines.emplace_back(*label);
                source = {};
                inlinedAt.clear();
            } else {
                pendingLabels.emplace_back(*label);
            }
            continue;
        }
        const auto parsed = parseInstruction(line);
        if (!parsed)
            continue;
        attachPending(parsed->offset);
        if (!pending.empty()) {
            applyAnnotations(pending, source, inlinedAt);
            pending.clear();
        }
        SassInstruction instruction;
        instruction.offset = parsed->offset;
        instruction.predicate = parsed->predicate;
        instruction.opcode = parsed->opcode;
        instruction.operands = parsed->operands;
        instruction.notes = parsed->notes;
        instruction.source = source;
        instruction.inlinedAt = inlinedAt;
        instruction.klass = classifySass(instruction.opcode, instruction.operands);
        instruction.accessBytes = sassAccessBytes(instruction.klass, instruction.opcode);
        instruction.spill = std::find(instruction.notes.begin(), instruction.notes.end(),
                                      "SpillRefill") != instruction.notes.end();
        instruction.routine = int(current->routines.size()) - 1;
        current->instructions.push_back(std::move(instruction));
    }
    closeFunction();
    for (SassFunction &function : listing.functions) {
        if (entries.count(function.name) != 0)
            function.entry = true;
    }
    return listing;
}

bool isMainSourceFile(std::string_view file, std::string_view mainFile)
{
    if (mainFile.empty())
        return false;
    if (file == mainFile)
        return true;
    return file.size() > mainFile.size() && file.ends_with(mainFile) &&
           file[file.size() - mainFile.size() - 1] == '/';
}

std::vector<SassInstructionRef> instructionsForLine(const SassListing &listing,
                                                    std::string_view file, int line, bool inlined)
{
    std::vector<SassInstructionRef> refs;
    const auto matches = [&](const SourceLocation &location) {
        return location.line == line &&
               (location.file == file || isMainSourceFile(location.file, file));
    };
    for (std::size_t f = 0; f < listing.functions.size(); ++f) {
        const SassFunction &function = listing.functions[f];
        for (std::size_t i = 0; i < function.instructions.size(); ++i) {
            const SassInstruction &instruction = function.instructions[i];
            if (instruction.padding)
                continue;
            bool hit = matches(instruction.source);
            if (!hit && inlined)
                hit = std::any_of(instruction.inlinedAt.begin(), instruction.inlinedAt.end(),
                                  matches);
            if (hit)
                refs.push_back({int(f), int(i)});
        }
    }
    return refs;
}

LineValues sumByLine(const SassListing &listing, const std::vector<PcValue> &values)
{
    LineValues result;
    std::map<std::pair<std::string, int>, LineValue> byLine;
    for (const PcValue &value : values) {
        const SassInstruction *instruction = listing.instructionAt(value.function, value.pcOffset);
        if (!instruction || instruction->source.line <= 0) {
            result.unattributed += value.value;
            continue;
        }
        LineValue &entry = byLine[{instruction->source.file, instruction->source.line}];
        entry.source = instruction->source;
        entry.value += value.value;
        ++entry.instructions;
    }
    for (auto &[key, entry] : byLine)
        result.lines.push_back(std::move(entry));
    return result;
}

} // namespace cuwb
