// SassDocument: what the SASS view shows of one compile: nvdisasm's listing, or why there is
// none; each function's text as `cuwb sass` prints it (core/inspect/sasstext.h), with the
// source line above each run of instructions and the text line of every instruction; and each
// function's instruction mix. Built off the GUI thread by SassController; plain values, shared
// read-only between that thread and the view.
#pragma once

#include "inspect/instructionmix.h"
#include "inspect/nvdisasm.h"
#include "inspect/sasstext.h"

#include <memory>
#include <string>
#include <vector>

namespace cuwb {

struct SassFunctionText
{
    int function = 0; // index into SassListing::functions
    SassText text;
    FunctionMix mix;
    // 1-based line of text of each instruction (by index into SassFunction::instructions);
    // 0 for the padding left out of the text.
    std::vector<int> textLineOfInstruction;
};

struct SassDocument
{
    // Shared with SassController's cache: the same CUBIN is never disassembled twice.
    std::shared_ptr<const SassDisassembly> disassembly;
    std::string fileName; // the name the main source was compiled under
    // The main source's name in the CUBIN's line table (NVRTC records it with a folder);
    // empty when the code has no line information.
    std::string mainFile;
    std::vector<SassFunctionText> functions; // in the listing's order

    [[nodiscard]] bool ok() const { return disassembly && disassembly->ok(); }
    [[nodiscard]] const SassListing &listing() const { return disassembly->listing; }
    // Index into `functions` of the listing's function `symbol`, or -1.
    [[nodiscard]] int indexOfFunction(const std::string &symbol) const;
};

// `sourceLines`: the compiled source, for the source lines shown above their instructions.
SassDocument buildSassDocument(std::shared_ptr<const SassDisassembly> disassembly,
                               const std::vector<std::string> &sourceLines,
                               const std::string &fileName);

// "27 instructions: memory 6 (global 2, shared 4), arithmetic 15 (fp32 3, integer 12), control 3,
// move 3" — the mix in one line, the classes of each group in brackets when there are several.
std::string formatMixLine(const InstructionMix &mix);
// "none", or "2 spill stores (16 bytes), 2 refills (16 bytes) per thread" and the like.
std::string formatLocalMemory(const InstructionMix &mix);

} // namespace cuwb
