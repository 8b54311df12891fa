// SassListing: the machine code (SASS) of a compiled module as nvdisasm printed it with
// `--print-code --print-line-info-inline`, read into functions and instructions, each with its
// offset from the start of its function (CUPTI's pcOffset), its predicate, opcode, operands,
// the source line it came from (the cubin's line table, -lineinfo), the call sites it was
// inlined at and its class for the instruction mix. The parser is pure: nvdisasm runs in
// nvdisasm.h, and tests feed it recorded output.
//
// Later, GPU counters keyed by (function name, pcOffset) — CUPTI's SASS metrics and PC
// sampling — reach source lines through instructionAt() and sumByLine().
#pragma once

#include "compiler/ptxlinemap.h" // SourceLocation
#include "inspect/sassclass.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct SassInstruction
{
    std::uint64_t offset = 0; // bytes from the start of the function: CUPTI's pcOffset
    std::string predicate;    // "@P0", "@!UP1"; empty when not predicated
    std::string opcode;       // with its modifiers: "LDG.E.128.CONSTANT"
    std::string operands;     // as nvdisasm prints them: "R4, desc[UR4][R2.64]"
    // nvdisasm's notes after the instruction, (*"SpillRefill"*) printed as SpillRefill.
    std::vector<std::string> notes;
    SourceLocation source; // the innermost source line (inside an inlined function); line 0: none
    // Where the code of `source` was inlined, innermost call site first; empty when not inlined.
    std::vector<SourceLocation> inlinedAt;
    SassClass klass = SassClass::Other;
    int accessBytes = 0; // per thread, for loads, stores and atomics (sassAccessBytes)
    bool spill = false;  // a register spill or refill, as nvdisasm marks them (SpillRefill)
    // The NOPs that pad a function to its alignment: never executed, left out of the listing.
    bool padding = false;
    // The branch to itself that ends a function's code: never issued, so left out of the mix,
    // but kept in the listing, where PC sampling finds the warps that exited and wait for their
    // stores to drain.
    bool endOfCode = false;
    int routine = 0; // index into SassFunction::routines of the routine it belongs to

    [[nodiscard]] std::string_view baseOpcode() const { return sassBaseOpcode(opcode); }
    [[nodiscard]] SassAccess access() const { return sassAccess(klass, opcode); }
};

// A routine inside a function's code: the function itself (routine 0), then the non-inlined
// device functions and internal helpers (such as the slow path of sqrtf) that ptxas placed in
// the same section, which are reached by CALL.
struct SassRoutine
{
    std::string name;         // the symbol: "$callsHelper$_Z6helperf"
    std::string readableName; // "helper(float)"
    std::uint64_t offset = 0;
};

struct SassLabel
{
    std::string name; // ".L_x_3", the target of a branch
    std::uint64_t offset = 0;
};

// One code section: a __global__ kernel with the routines placed after it.
struct SassFunction
{
    std::string name;         // the symbol, as KernelInfo::loweredName
    std::string readableName; // demangled; the symbol itself when it is not mangled
    bool entry = false;       // a kernel (STO_CUDA_ENTRY)
    std::uint64_t sizeBytes = 0;
    std::vector<SassInstruction> instructions; // by offset
    std::vector<SassRoutine> routines;
    std::vector<SassLabel> labels;

    // The instruction at a byte offset from the function's start, or nullptr.
    [[nodiscard]] const SassInstruction *instructionAt(std::uint64_t offset) const;
    // The offset of a label named in a branch's operands, or -1.
    [[nodiscard]] long long labelOffset(std::string_view label) const;
};

struct SassListing
{
    std::string arch; // "sm_90", from nvdisasm's .target line
    std::vector<SassFunction> functions;

    // By symbol name; nullptr when there is none.
    [[nodiscard]] const SassFunction *function(std::string_view name) const;
    // The instruction of a (function, pcOffset) pair as CUPTI reports it, or nullptr.
    [[nodiscard]] const SassInstruction *instructionAt(std::string_view function,
                                                       std::uint64_t pcOffset) const;
    [[nodiscard]] std::size_t instructionCount() const;
};

// Reads nvdisasm's text (of -c -gi, or -c -g: then no inlining is known). Lines it does not
// know are skipped, so other options such as -hex only add noise.
SassListing parseNvdisasm(std::string_view text);

// "helper(float)" for "_Z6helperf" and "$callsHelper$_Z6helperf"; the name itself when it is
// not a mangled C++ name.
std::string demangleSassName(std::string_view name);

// Whether a file the line table names is the main source compiled under the name `mainFile`:
// NVRTC records it inside the compiling process's folder ("/home/me/transpose.cu" for
// "transpose.cu").
bool isMainSourceFile(std::string_view file, std::string_view mainFile);

// Where in a listing the instructions of one source line are.
struct SassInstructionRef
{
    int function = 0;    // index into SassListing::functions
    int instruction = 0; // index into SassFunction::instructions
};
// The instructions generated from a 1-based line of `file` (the line table's name, or the main
// source's name as isMainSourceFile() matches it), padding left out, in listing order. With inlined
// = true, also those of code inlined there (the line is one of their call sites).
std::vector<SassInstructionRef> instructionsForLine(const SassListing &listing,
                                                    std::string_view file, int line,
                                                    bool inlined = false);

// A value measured per instruction, keyed as CUPTI keys it.
struct PcValue
{
    std::string function; // the symbol name
    std::uint64_t pcOffset = 0;
    double value = 0.0;
};
struct LineValue
{
    SourceLocation source;
    double value = 0.0;
    int instructions = 0; // how many values fell on this line
};
struct LineValues
{
    std::vector<LineValue> lines; // by file, then line
    double unattributed = 0.0;    // values of instructions without a line, or not in the listing
};
// Sums values by the source line of their instruction (the innermost one).
LineValues sumByLine(const SassListing &listing, const std::vector<PcValue> &values);

} // namespace cuwb
