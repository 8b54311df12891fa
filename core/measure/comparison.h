// A/B comparison of two variants (docs/inspect.md): two kernels, two configurations or two
// projects, each measured, profiled and inspected, side by side. Pure: the host compares what
// the worker returned for each.
//
// What counts as a difference: a time differs when the two medians are further apart than
// three times the larger sample noise (and 1 %); a counter (exact, not sampled) when it
// changed by 10 % or more; a finding when one side has it and the other does not.
#pragma once

#include "inspect/linecounters.h"
#include "measure/measurement.h"
#include "measure/metrics.h"

#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// What was collected for one side; each part may be absent (not asked for, or it failed).
struct ComparisonSide
{
    std::string name; // "matmul_naive" or the project's file name
    std::optional<Measurement> measurement;
    std::optional<MetricsResult> metrics;
    std::optional<InspectSummary> inspection;
};

struct Delta
{
    std::string what; // "median time", "dram__bytes_read.sum", "global sectors", ...
    double a = 0.0;
    double b = 0.0;
    bool significant = false;
    // b / a, or nullopt when a is 0.
    [[nodiscard]] std::optional<double> ratio() const;
};

struct FindingDelta
{
    int line = 0;
    std::string message;
    bool inA = false; // else only in B
};

struct Comparison
{
    std::optional<Delta> time;          // the medians, in ns
    std::vector<Delta> metrics;         // the metrics both passes collected, by name
    std::vector<Delta> counters;        // the inspection's kernel totals
    std::vector<FindingDelta> findings; // findings on one side only
    std::vector<std::string> notes;     // what could not be compared, in words
    // "B is 3.82× faster than A (median 1.71 ms against 6.53 ms)", or "no difference beyond
    // the noise" — empty without two times.
    std::string verdict;
};

Comparison compareSides(const ComparisonSide &a, const ComparisonSide &b);

// Whether two timings differ beyond their noise: the medians further apart, relative to a's,
// than three times the larger relative noise and 1 %. The rule of compareSides, and of a
// class's ranking (grading/classreport.h), where those that do not differ share a rank.
bool timesDiffer(const SampleStatistics &a, const SampleStatistics &b);

} // namespace cuwb
