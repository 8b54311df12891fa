// SassClass: what kind of work one SASS instruction does, for the instruction mix of the SASS
// view (per kernel and per source line): memory by space, arithmetic by precision, conversions,
// control and moves. The opcode table lives in sassclass.cpp, one row per base opcode with a
// few idioms (an IMAD that only moves, an HFMA2 that loads a constant) on top; an opcode it
// does not know is Other, so a gap in the table shows up in the mix instead of hiding in a class.
#pragma once

#include <optional>
#include <string_view>

namespace cuwb {

enum class SassClass {
    GlobalMemory,   // LDG, STG, LDGSTS, the TMA and bulk copies
    SharedMemory,   // LDS, STS, LDSM, STSM
    LocalMemory,    // LDL, STL: local arrays, the stack and register spills
    ConstantMemory, // LDC, ULDC
    TextureMemory,  // TEX, TLD, ..., and surfaces (SULD, SUST, ...)
    AtomicMemory,   // ATOM, ATOMG, ATOMS, RED, REDG and reductions of any space
    GenericMemory,  // LD, ST: a generic address, global or shared only known at run time
    Fp32,
    Fp64,
    Fp16, // half and bfloat16, scalar and packed pairs
    Integer,
    SpecialFunction, // MUFU: reciprocal, square root, sine, exponent, ...
    Tensor,          // HMMA, IMMA, DMMA, the warp-group and tcgen05 MMAs
    Conversion,      // F2F, F2I, I2F, I2I, F2FP, ...
    Control,         // branches, calls, exit, barriers, reconvergence, fences
    Move,            // register, special-register and uniform moves, shuffles, votes
    Other,           // NOP and any opcode the table does not know
};
inline constexpr int kSassClassCount = static_cast<int>(SassClass::Other) + 1;

// The five groups of the mix. Other belongs to Move ("move/other").
enum class SassGroup { Memory, Arithmetic, Conversion, Control, Move };
inline constexpr int kSassGroupCount = static_cast<int>(SassGroup::Move) + 1;

SassGroup sassGroup(SassClass klass);
// Short lowercase names used by the CLI and JSON: "global", "fp32", "sfu", "move", ...
const char *sassClassName(SassClass klass);
const char *sassGroupName(SassGroup group);
std::optional<SassClass> sassClassFromName(std::string_view name);

// opcode: with its modifiers ("IMAD.MOV.U32"); operands: the text after it, used only for the
// idioms that a base opcode alone cannot tell apart.
SassClass classifySass(std::string_view opcode, std::string_view operands);

// The base opcode: the opcode up to its first modifier ("LDG" of "LDG.E.128.CONSTANT").
std::string_view sassBaseOpcode(std::string_view opcode);

// What a memory instruction does with memory, for loads and stores of local memory (spills).
enum class SassAccess { None, Load, Store, Atomic };
SassAccess sassAccess(SassClass klass, std::string_view opcode);
// Bytes one thread moves, from the width modifier (.U8, .S16, .64, .128; 4 without one); 0
// for an instruction that is not a load, store or atomic.
int sassAccessBytes(SassClass klass, std::string_view opcode);

} // namespace cuwb
