// ListingCounters: the inspection pass's counters (instructioncounters.h) placed on the
// instructions of a SASS listing (sasslisting.h), for the SASS view's columns: what each
// instruction executed, how it used memory against the ideal, and how many PC samples found
// warps waiting at it. Counters belong to the code they were counted on: the worker compiles
// for its own GPU, so a listing of another architecture or other options need not have the
// same instructions at the same offsets. Such a listing is a mismatch, said in words, and
// nothing is placed on it. Pure and GPU-free.
#pragma once

#include "inspect/linecounters.h"
#include "inspect/sasslisting.h"

#include <cstdint>
#include <map>
#include <string>

namespace cuwb {

// What one instruction did in the inspected launch.
struct InstructionFigures
{
    CounterTotals totals; // of this instruction alone
    std::uint64_t stallSamples = 0;
    std::map<std::string, std::uint64_t> stallReasons;
};

struct ListingCounters
{
    std::string function;   // the inspected kernel's symbol
    int functionIndex = -1; // into SassListing::functions; -1 when the listing lacks it
    std::map<std::uint64_t, InstructionFigures> byOffset; // by pcOffset; empty on a mismatch
    std::uint64_t instructionsExecuted = 0;               // the kernel's warp instructions
    std::uint64_t stallSamples = 0;                       // the kernel's PC samples
    // Why the counters do not fit the listing ("no instruction at offset 0x0120"); empty when
    // they do.
    std::string mismatch;

    [[nodiscard]] bool matches() const { return mismatch.empty() && functionIndex >= 0; }
    // The figures of the instruction at `offset`, or nullptr when it was not counted.
    [[nodiscard]] const InstructionFigures *at(std::uint64_t offset) const;
};

// Places `result`'s counters and PC samples on `listing`'s function of the same name. Every
// counted or sampled offset must be an instruction of that function and, with line
// information on both sides, come from the same source line; otherwise the result is a
// mismatch. A failed inspection places nothing and says so.
ListingCounters placeOnListing(const InspectResult &result, const SassListing &listing);

} // namespace cuwb
