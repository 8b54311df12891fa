#include "inspect/listingcounters.h"

#include <cstdio>

namespace cuwb {

namespace {

std::string hex(std::uint64_t offset)
{
    char text[32];
    std::snprintf(text, sizeof text, "0x%04llx", static_cast<unsigned long long>(offset));
    return text;
}

// Why an offset counted on the GPU does not fit the listing's function; empty when it does.
std::string misfit(const SassFunction &function, std::uint64_t offset, std::uint32_t line)
{
    const SassInstruction *instruction = function.instructionAt(offset);
    if (!instruction || instruction->padding) {
        return "the inspected code has an instruction at offset " + hex(offset) +
               " where this listing has none";
    }
    if (line > 0 && instruction->source.line > 0 && instruction->source.line != int(line)) {
        return "the instruction at offset " + hex(offset) + " comes from line " +
               std::to_string(line) + " in the inspected code but from line " +
               std::to_string(instruction->source.line) + " in this listing";
    }
    return {};
}

} // namespace

const InstructionFigures *ListingCounters::at(std::uint64_t offset) const
{
    const auto found = byOffset.find(offset);
    return found == byOffset.end() ? nullptr : &found->second;
}

ListingCounters placeOnListing(const InspectResult &result, const SassListing &listing)
{
    ListingCounters counters;
    counters.function = result.kernel;
    if (!result.ok()) {
        counters.mismatch = "the inspection failed: " + result.error;
        return counters;
    }
    for (std::size_t f = 0; f < listing.functions.size(); ++f) {
        if (listing.functions[f].name == result.kernel) {
            counters.functionIndex = int(f);
        }
    }
    if (counters.functionIndex < 0) {
        counters.mismatch = "this listing has no function `" + result.kernel +
                            "`: it was compiled from other code or options than the inspection";
        return counters;
    }
    const SassFunction &function = listing.functions[std::size_t(counters.functionIndex)];
    for (const SassInstructionCounters &counted : result.instructions) {
        if (std::string why = misfit(function, counted.pcOffset, counted.line); !why.empty()) {
            counters.mismatch = std::move(why);
            counters.byOffset.clear();
            return counters;
        }
        counters.byOffset[counted.pcOffset].totals.add(counted);
    }
    for (const auto &[offset, figures] : counters.byOffset) {
        counters.instructionsExecuted += figures.totals.instructions;
    }
    for (const PcStallSamples &sampled : result.stalls) {
        if (std::string why = misfit(function, sampled.pcOffset, sampled.line); !why.empty()) {
            counters.mismatch = std::move(why);
            counters.byOffset.clear();
            return counters;
        }
        InstructionFigures &figures = counters.byOffset[sampled.pcOffset];
        figures.stallSamples += sampled.samples;
        for (const auto &[reason, samples] : sampled.reasons) {
            figures.stallReasons[reason] += samples;
        }
        counters.stallSamples += sampled.samples;
    }
    return counters;
}

} // namespace cuwb
