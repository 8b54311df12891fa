// InstructionMix: how many instructions of each class (sassclass.h) a kernel or one source line
// compiled to, with its local-memory traffic — register spills apart from local arrays — in
// instructions and bytes per thread. These are static counts of the code, not executed
// instructions: a loop body counts once.
#pragma once

#include "compiler/ptxlinemap.h" // SourceLocation
#include "inspect/sassclass.h"

#include <array>
#include <string>
#include <vector>

namespace cuwb {

struct SassFunction;
struct SassInstruction;

struct InstructionMix
{
    std::array<int, kSassClassCount> counts{}; // by SassClass
    int instructions = 0;
    int predicated = 0; // guarded by a predicate other than PT
    // LDL/STL, spills included; bytes are per thread.
    int localLoads = 0;
    int localStores = 0;
    long long localLoadBytes = 0;
    long long localStoreBytes = 0;
    // The part of them that nvdisasm marks as register spills and refills.
    int spillLoads = 0;
    int spillStores = 0;
    long long spillLoadBytes = 0;
    long long spillStoreBytes = 0;

    void add(const SassInstruction &instruction); // padding is not counted
    void add(const InstructionMix &other);
    [[nodiscard]] int count(SassClass klass) const { return counts[std::size_t(klass)]; }
    [[nodiscard]] int groupCount(SassGroup group) const;
    [[nodiscard]] bool usesLocalMemory() const { return localLoads + localStores > 0; }
    [[nodiscard]] bool spills() const { return spillLoads + spillStores > 0; }
    bool operator==(const InstructionMix &) const = default;
};

struct LineMix
{
    SourceLocation source;
    InstructionMix mix;
};

struct FunctionMix
{
    std::string function; // the symbol name
    InstructionMix total;
    std::vector<LineMix> lines; // by file, then line; the innermost source line of each
    InstructionMix noLine;      // instructions the line table says nothing about
};

FunctionMix instructionMix(const SassFunction &function);

} // namespace cuwb
