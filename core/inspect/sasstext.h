// SassText: one function of a SASS listing as text, the way `cuwb sass` prints it and a SASS
// view shows it: each instruction with its offset and predicate, the branch labels and the
// routines placed after the kernel, local-memory traffic and spills marked, and (optionally)
// the source line each run of instructions came from. Every line of the text remembers which
// instruction and source line it shows, so a view can link source, PTX and SASS both ways.
#pragma once

#include "compiler/ptxlinemap.h" // SourceLocation
#include "inspect/sasslisting.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct SassTextOptions
{
    // Print the source line before the instructions generated from it (and, for inlined code,
    // where it was inlined).
    bool interleaveSource = true;
    bool showPadding = false; // the self-branch and NOPs after the end; otherwise one summary line
    // The text of a 1-based line of a file as the line table names it; empty when unknown.
    std::function<std::string(const std::string &file, int line)> sourceText;
    // How a file is shown ("samples/transpose/transpose.cu" for "transpose.cu"); the name
    // itself when unset.
    std::function<std::string(const std::string &file)> displayFile;
};

struct SassTextLine
{
    int instruction = -1;  // index into SassFunction::instructions; -1 for other lines
    SourceLocation source; // the source line it shows or belongs to; line 0: none
};

struct SassText
{
    std::string text;
    std::vector<SassTextLine> lines; // one per line of text, in order

    // 1-based text lines of the instructions generated from a line of `file`.
    [[nodiscard]] std::vector<int> linesForSource(std::string_view file, int line) const;
    // 1-based text line of an instruction (an index into SassFunction::instructions), or 0.
    [[nodiscard]] int lineOfInstruction(int instruction) const;
};

SassText formatSassFunction(const SassFunction &function, const SassTextOptions &options = {});

// "global load, 16 bytes" or "spill store, 8 bytes" for a local-memory instruction and the other
// loads and stores; empty for the rest.
std::string describeAccess(const SassInstruction &instruction);

} // namespace cuwb
