// The inspection pass's counters placed on source lines (docs/inspect.md): per line, what its
// instructions executed and how they used memory, with findings in plain words ("uncoalesced
// store: 32.0 sectors per request, 4.0 ideal", "4-way bank conflict") and the kernel's totals.
// Pure and GPU-free: the host computes it from the worker's InspectResult.
#pragma once

#include "inspect/instructioncounters.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cuwb {

// What a set of instructions did (a line's, or the kernel's). Global "requests" are warp-level
// global memory instructions executed; sectors are 32-byte sectors they accessed, against the
// ideal count for the bytes the active threads asked for.
struct CounterTotals
{
    std::uint64_t instructions = 0;        // warp instructions executed
    std::uint64_t threadInstructions = 0;  // thread instructions executed
    std::uint64_t predicatedOnThreads = 0; // of those, with their predicate true
    std::uint64_t globalRequests = 0;      // warp-level global loads, stores, atomics
    std::uint64_t globalTagLookups = 0;    // their L1 tag lookups (ncu: "L1 Tag Requests Global")
    std::uint64_t globalSectors = 0;
    std::uint64_t globalSectorsIdeal = 0;
    // The same for the store instructions alone (an instruction that stored is a store).
    std::uint64_t globalStoreRequests = 0;
    std::uint64_t globalStoreSectors = 0;
    std::uint64_t globalStoreSectorsIdeal = 0;
    std::uint64_t sharedRequests = 0;
    std::uint64_t sharedWavefronts = 0;
    std::uint64_t sharedWavefrontsIdeal = 0;
    std::uint64_t localRequests = 0;
    std::uint64_t localSectors = 0;
    std::uint64_t divergentBranches = 0; // branch executions whose active threads split
    std::uint64_t uniformBranches = 0;

    void add(const SassInstructionCounters &instruction);
    [[nodiscard]] double sectorsPerRequest() const;
    [[nodiscard]] double idealSectorsPerRequest() const;
    // Shared-memory wavefronts over the ideal: 1 without bank conflicts, n for an n-way one.
    [[nodiscard]] double bankConflictWays() const;
};

enum class FindingKind { Uncoalesced, BankConflict, LocalMemory, Divergence, IdleThreads };
const char *findingKindName(FindingKind kind); // "uncoalesced", "bank-conflict", ...

struct Finding
{
    FindingKind kind;
    std::string message; // "uncoalesced store: 32.0 sectors per request, 4.0 ideal"
};

struct LineCounters
{
    std::string file;
    int line = 0;
    CounterTotals totals;
    double share = 0.0; // of the kernel's warp instructions executed, 0..1
    // PC sampling: the samples of warps at this line's instructions, by stall reason.
    std::uint64_t stallSamples = 0;
    std::map<std::string, std::uint64_t> stallReasons;
    double stallShare = 0.0; // of the kernel's samples, 0..1
    std::vector<Finding> findings;
    std::vector<std::uint32_t> offsets; // the line's instructions
};

struct InspectSummary
{
    std::string kernel;
    CounterTotals totals;
    std::vector<LineCounters> lines; // by file, then line; lines of no instruction are absent
    std::uint64_t unplacedInstructions = 0; // executed by instructions without a source line
    std::uint64_t stallSamples = 0;         // the kernel's PC samples
    std::map<std::string, std::uint64_t> stallReasons;
    std::vector<std::string> notes; // what the figures cannot say, in words
};

// Groups `result`'s instructions by source line and finds what stands out on each.
InspectSummary summarise(const InspectResult &result);

// The lines with the most warp instructions executed, most first, at most `count`.
std::vector<const LineCounters *> hottestLines(const InspectSummary &summary, std::size_t count);
// The lines with the most PC samples (where the warps spent their time), most first.
std::vector<const LineCounters *> stalledLines(const InspectSummary &summary, std::size_t count);
// `reasons`' largest entries, "long_scoreboard 61 %, selected 12 %", at most `count`.
std::string topReasons(const std::map<std::string, std::uint64_t> &reasons, std::size_t count);

} // namespace cuwb
