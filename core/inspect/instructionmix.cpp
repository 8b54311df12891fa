#include "inspect/instructionmix.h"

#include "inspect/sasslisting.h"

#include <map>

namespace cuwb {

namespace {

// "@PT" is always true; ptxas rarely prints it, but it guards nothing.
bool isPredicated(const SassInstruction &instruction)
{
    return !instruction.predicate.empty() && instruction.predicate != "@PT" &&
           instruction.predicate != "@UPT";
}

} // namespace

void InstructionMix::add(const SassInstruction &instruction)
{
    if (instruction.padding || instruction.endOfCode)
        return;
    ++counts[std::size_t(instruction.klass)];
    ++instructions;
    if (isPredicated(instruction))
        ++predicated;
    if (instruction.klass != SassClass::LocalMemory)
        return;
    const SassAccess access = instruction.access();
    if (access == SassAccess::Load) {
        ++localLoads;
        localLoadBytes += instruction.accessBytes;
        if (instruction.spill) {
            ++spillLoads;
            spillLoadBytes += instruction.accessBytes;
        }
    } else if (access == SassAccess::Store) {
        ++localStores;
        localStoreBytes += instruction.accessBytes;
        if (instruction.spill) {
            ++spillStores;
            spillStoreBytes += instruction.accessBytes;
        }
    }
}

void InstructionMix::add(const InstructionMix &other)
{
    for (std::size_t i = 0; i < counts.size(); ++i)
        counts[i] += other.counts[i];
    instructions += other.instructions;
    predicated += other.predicated;
    localLoads += other.localLoads;
    localStores += other.localStores;
    localLoadBytes += other.localLoadBytes;
    localStoreBytes += other.localStoreBytes;
    spillLoads += other.spillLoads;
    spillStores += other.spillStores;
    spillLoadBytes += other.spillLoadBytes;
    spillStoreBytes += other.spillStoreBytes;
}

int InstructionMix::groupCount(SassGroup group) const
{
    int total = 0;
    for (int i = 0; i < kSassClassCount; ++i) {
        if (sassGroup(SassClass(i)) == group)
            total += counts[std::size_t(i)];
    }
    return total;
}

FunctionMix instructionMix(const SassFunction &function)
{
    FunctionMix mix;
    mix.function = function.name;
    std::map<std::pair<std::string, int>, LineMix> byLine;
    for (const SassInstruction &instruction : function.instructions) {
        if (instruction.padding || instruction.endOfCode)
            continue;
        mix.total.add(instruction);
        if (instruction.source.line <= 0) {
            mix.noLine.add(instruction);
            continue;
        }
        LineMix &line = byLine[{instruction.source.file, instruction.source.line}];
        line.source = instruction.source;
        line.mix.add(instruction);
    }
    for (auto &[key, line] : byLine)
        mix.lines.push_back(std::move(line));
    return mix;
}

} // namespace cuwb
