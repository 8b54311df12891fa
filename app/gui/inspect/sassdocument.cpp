#include "gui/inspect/sassdocument.h"

#include "inspect/sassclass.h"

#include <utility>

namespace cuwb {

namespace {

std::string counted(long long count, const char *singular, const char *pluralForm)
{
    return std::to_string(count) + " " + (count == 1 ? singular : pluralForm);
}

} // namespace

int SassDocument::indexOfFunction(const std::string &symbol) const
{
    if (!ok())
        return -1;
    for (std::size_t i = 0; i < functions.size(); ++i) {
        if (listing().functions[std::size_t(functions[i].function)].name == symbol)
            return int(i);
    }
    return -1;
}

SassDocument buildSassDocument(std::shared_ptr<const SassDisassembly> disassembly,
                               const std::vector<std::string> &sourceLines,
                               const std::string &fileName)
{
    SassDocument document;
    document.disassembly = std::move(disassembly);
    document.fileName = fileName;
    if (!document.ok())
        return document;
    const SassListing &listing = document.listing();
    // The line table names the main source with the folder NVRTC ran in.
    for (const SassFunction &function : listing.functions) {
        for (const SassInstruction &instruction : function.instructions) {
            if (document.mainFile.empty() && instruction.source.line > 0 &&
                isMainSourceFile(instruction.source.file, fileName))
                document.mainFile = instruction.source.file;
        }
    }
    SassTextOptions options;
    options.sourceText = [&](const std::string &file, int line) -> std::string {
        if (file != document.mainFile || line < 1 || std::size_t(line) > sourceLines.size())
            return {};
        return sourceLines[std::size_t(line) - 1];
    };
    options.displayFile = [&](const std::string &file) {
        return file == document.mainFile ? fileName : file;
    };
    for (std::size_t f = 0; f < listing.functions.size(); ++f) {
        const SassFunction &function = listing.functions[f];
        SassFunctionText text;
        text.function = int(f);
        text.text = formatSassFunction(function, options);
        text.mix = instructionMix(function);
        text.textLineOfInstruction.assign(function.instructions.size(), 0);
        for (std::size_t line = 0; line < text.text.lines.size(); ++line) {
            const int instruction = text.text.lines[line].instruction;
            if (instruction >= 0 && std::size_t(instruction) < function.instructions.size())
                text.textLineOfInstruction[std::size_t(instruction)] = int(line) + 1;
        }
        document.functions.push_back(std::move(text));
    }
    return document;
}

std::string formatMixLine(const InstructionMix &mix)
{
    std::string text = counted(mix.instructions, "instruction", "instructions");
    std::string groups;
    for (int g = 0; g < kSassGroupCount; ++g) {
        const auto group = SassGroup(g);
        const int total = mix.groupCount(group);
        if (total == 0)
            continue;
        std::vector<std::string> classes;
        for (int c = 0; c < kSassClassCount; ++c) {
            const auto klass = SassClass(c);
            if (sassGroup(klass) == group && mix.count(klass) > 0)
                classes.push_back(std::string(sassClassName(klass)) + " " +
                                  std::to_string(mix.count(klass)));
        }
        groups += (groups.empty() ? "" : ", ") + std::string(sassGroupName(group)) + " " +
                  std::to_string(total);
        if (classes.size() > 1) {
            groups += " (";
            for (std::size_t i = 0; i < classes.size(); ++i)
                groups += (i == 0 ? "" : ", ") + classes[i];
            groups += ")";
        } else if (classes.size() == 1 && classes.front().rfind(sassGroupName(group), 0) != 0) {
            // "memory 2 (global 2)": which kind, when the group's name does not say it.
            groups += " (" + classes.front() + ")";
        }
    }
    if (!groups.empty())
        text += ": " + groups;
    return text;
}

std::string formatLocalMemory(const InstructionMix &mix)
{
    if (!mix.usesLocalMemory())
        return "none";
    std::string text;
    if (mix.spills()) {
        text = counted(mix.spillStores, "spill store", "spill stores") + " (" +
               std::to_string(mix.spillStoreBytes) + " bytes), " +
               counted(mix.spillLoads, "refill", "refills") + " (" +
               std::to_string(mix.spillLoadBytes) + " bytes)";
    }
    const int otherLoads = mix.localLoads - mix.spillLoads;
    const int otherStores = mix.localStores - mix.spillStores;
    if (otherLoads + otherStores > 0) {
        text += (text.empty() ? "" : "; other local memory: ") +
                counted(otherLoads, "load", "loads") + " (" +
                std::to_string(mix.localLoadBytes - mix.spillLoadBytes) + " bytes), " +
                counted(otherStores, "store", "stores") + " (" +
                std::to_string(mix.localStoreBytes - mix.spillStoreBytes) + " bytes)";
    }
    return text + " per thread";
}

} // namespace cuwb
