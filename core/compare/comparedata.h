// CompareData: what the Compare view shows, as plain values. Two sides as they were collected
// (measured, profiled, inspected on the worker) or read back (a history entry, a sweep point, the
// JSON of `cuwb measure --json`, `cuwb inspect --json` or `cuwb compare --json`), each with what
// is missing from it in words, and what follows from the pair: core's Comparison (compareSides),
// speed of light per side, the per-line differences of two kernels of one source file and the
// difference of their instruction mixes. Building it is cheap and does no I/O; the loaders read
// documents already in memory.
#pragma once

#include "inspect/instructionmix.h"
#include "measure/comparison.h"

#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct SweepPointResult;

struct CompareSideInput
{
    ComparisonSide side;
    std::string origin;  // where it comes from: "transpose.cuwb", "history: 2026-12-01 10:02"
    std::string failure; // why nothing could be collected ("no GPU", a fault); empty otherwise
    // The parts absent, each in words: "metrics: the history entry keeps none".
    std::vector<std::string> missing;
    // The source file the kernel was compiled from, as the inspection's line table names it
    // ("transpose.cu"); empty when unknown.
    std::string sourceFile;
    std::optional<InstructionMix> mix; // the kernel's SASS, when a listing was at hand
    // Why no listing on screen can be this side's code (a sweep point's own compile options,
    // a history entry's old source); empty when one may be.
    std::string mixUnavailable;

    [[nodiscard]] bool failed() const { return !failure.empty(); }
};

// One source line of either kernel: its counters on each side (zero where the side has no
// instruction of that line) and its findings.
struct LineDelta
{
    int line = 0;
    bool inA = false;
    bool inB = false;
    CounterTotals a;
    CounterTotals b;
    double stallShareA = 0.0;
    double stallShareB = 0.0;
    std::vector<std::string> findingsA;
    std::vector<std::string> findingsB;
    // Instructions, global sectors or shared wavefronts differ by compareSides' counter rule.
    bool significant = false;
};

// The static instruction count of one class (sassclass.h) in each kernel's SASS.
struct MixDelta
{
    std::string klass; // "global memory"
    int a = 0;
    int b = 0;
};

struct CompareData
{
    CompareSideInput a;
    CompareSideInput b;
    Comparison comparison;
    // Speed of light, compute and memory as a percentage of the peak, per side; the rule of
    // compareSides decides which differences count.
    std::vector<Delta> speedOfLight;
    std::vector<LineDelta> lines;
    std::string linesSkipped; // why there are no per-line differences; empty when there are
    std::vector<Delta> mix;   // per class, in sassclass order; significant by the counter rule
    std::string mixSkipped;
};

CompareData buildCompare(CompareSideInput a, CompareSideInput b);

// A measurement document (measurejson.h, with an optional "metrics" member as `cuwb measure
// --json` writes it) as a side; a document that is not one fills `failure`.
CompareSideInput sideFromMeasurementJson(const std::string &name, const std::string &origin,
                                         const std::string &json);
// A stored history entry of kind `kind`: only a measurement can be a side. What the entry does
// not keep is listed in `missing` (metrics unless stored with it, and the inspection).
CompareSideInput sideFromHistoryEntry(const std::string &name, const std::string &origin,
                                      const std::string &kind, const std::string &json);
// A point of a sweep: its measurement and metrics as the sweep stored them.
CompareSideInput sideFromSweepPoint(const SweepPointResult &point);
// Adds a recorded file's content to `side`: the JSON of `cuwb inspect --json` (or a bare
// InspectResult) becomes its inspection, a measurement document its measurement (and metrics).
// Returns an empty string, or why the text is neither.
std::string addRecordedJson(CompareSideInput &side, const std::string &json);
// The JSON of `cuwb compare --json`: both sides' measurements (its counters and findings are
// not per line, and are not read back). Empty string, or why not.
std::string sidesFromCompareJson(const std::string &json, CompareSideInput &a, CompareSideInput &b);

} // namespace cuwb
