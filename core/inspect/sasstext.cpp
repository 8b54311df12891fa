#include "inspect/sasstext.h"

#include "util/text.h"

#include <algorithm>
#include <cstdio>

namespace cuwb {

namespace {

std::string hexOffset(std::uint64_t offset, int width)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%0*llx", width, static_cast<unsigned long long>(offset));
    return buffer;
}

std::string shown(const SassTextOptions &options, const std::string &file)
{
    return options.displayFile ? options.displayFile(file) : file;
}

std::string sourceHeader(const SassInstruction &instruction, const SassTextOptions &options)
{
    if (instruction.source.line <= 0)
        return "(no source line)";
    std::string header =
        shown(options, instruction.source.file) + ":" + std::to_string(instruction.source.line);
    if (options.sourceText) {
        const std::string text(
            trimmed(options.sourceText(instruction.source.file, instruction.source.line)));
        if (!text.empty())
            header += ": " + text;
    }
    if (!instruction.inlinedAt.empty()) {
        header += "   [inlined at ";
        for (std::size_t i = 0; i < instruction.inlinedAt.size(); ++i) {
            const SourceLocation &site = instruction.inlinedAt[i];
            header +=
                (i == 0 ? "" : ", ") + shown(options, site.file) + ":" + std::to_string(site.line);
        }
        header += "]";
    }
    return header;
}

bool sameSource(const SassInstruction &a, const SassInstruction &b)
{
    return a.source == b.source && a.inlinedAt == b.inlinedAt;
}

} // namespace

std::string describeAccess(const SassInstruction &instruction)
{
    const SassAccess access = instruction.access();
    if (access == SassAccess::None || instruction.klass == SassClass::ConstantMemory)
        return {};
    std::string space;
    if (instruction.spill)
        space = access == SassAccess::Load ? "spill refill (load)" : "spill store";
    else
        space = std::string(sassClassName(instruction.klass)) +
                (access == SassAccess::Load    ? " load"
                 : access == SassAccess::Store ? " store"
                                               : " atomic");
    if (instruction.accessBytes > 0)
        space += ", " + std::to_string(instruction.accessBytes) + " bytes";
    return space;
}

SassText formatSassFunction(const SassFunction &function, const SassTextOptions &options)
{
    SassText result;
    const int width = function.sizeBytes > 0xffff ? 6 : 4;
    std::size_t predicateWidth = 0;
    for (const SassInstruction &instruction : function.instructions)
        predicateWidth = std::max(predicateWidth, instruction.predicate.size());

    const auto emit = [&](std::string line, int instruction, SourceLocation source) {
        result.text += line;
        result.text += '\n';
        result.lines.push_back({instruction, std::move(source)});
    };

    const SassInstruction *previous = nullptr;
    int padding = 0;
    for (std::size_t index = 0; index < function.instructions.size(); ++index) {
        const SassInstruction &instruction = function.instructions[index];
        if (instruction.padding && !options.showPadding) {
            ++padding;
            continue;
        }
        for (const SassRoutine &routine : function.routines) {
            if (routine.offset == instruction.offset && routine.name != function.name) {
                std::string line = routine.name + ":";
                if (routine.readableName != routine.name)
                    line += "   // " + routine.readableName;
                emit(std::move(line), -1, {});
                previous = nullptr;
            }
        }
        for (const SassLabel &label : function.labels) {
            if (label.offset == instruction.offset)
                emit(label.name + ":", -1, instruction.source);
        }
        if (options.interleaveSource && (!previous || !sameSource(*previous, instruction)))
            emit(sourceHeader(instruction, options), -1, instruction.source);
        std::string line = "    " + hexOffset(instruction.offset, width) + "  ";
        line += std::string(predicateWidth - instruction.predicate.size(), ' ');
        line += instruction.predicate;
        line += predicateWidth > 0 ? " " : "";
        line += instruction.opcode;
        if (!instruction.operands.empty())
            line += " " + instruction.operands;
        if (instruction.klass == SassClass::LocalMemory) {
            constexpr std::size_t kNoteColumn = 64;
            line.resize(std::max(line.size() + 2, kNoteColumn), ' ');
            line += "// " + describeAccess(instruction);
        }
        emit(std::move(line), int(index), instruction.source);
        previous = &instruction;
    }
    if (padding > 0)
        emit("    (" + std::to_string(padding) +
                 " padding instructions after the end of the code left out)",
             -1, {});
    return result;
}

std::vector<int> SassText::linesForSource(std::string_view file, int line) const
{
    std::vector<int> found;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].instruction >= 0 && lines[i].source.line == line &&
            lines[i].source.file == file)
            found.push_back(int(i) + 1);
    }
    return found;
}

int SassText::lineOfInstruction(int instruction) const
{
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].instruction == instruction)
            return int(i) + 1;
    }
    return 0;
}

} // namespace cuwb
