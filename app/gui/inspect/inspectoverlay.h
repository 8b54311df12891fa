// InspectOverlay: what an inspection puts on the source editor, computed from its summary
// (core/inspect/linecounters.h) for the lines of the main source: the heat of each line — its
// share of the PC stall samples (where the warps spent their time), or of the executed
// instructions when there are no samples — against the hottest line; an annotation under each
// line with a finding or a good part of the samples; and the hot lines, hottest first, for the
// navigator. Pure: tests check it without a window.
#pragma once

#include "inspect/linecounters.h"

#include <QString>

#include <map>
#include <utility>
#include <vector>

namespace cuwb {

struct InspectOverlay
{
    bool bySamples = false;                   // heat from PC samples, else executed instructions
    std::vector<std::pair<int, double>> heat; // 1-based line, 0..1 (1: the hottest line)
    std::map<int, QString> annotations;       // by 1-based line
    std::vector<int> hotLines;                // hottest first
};

// A line's samples earn an annotation from this share of the kernel's samples.
inline constexpr double kStallShareToAnnotate = 0.05;
// A line is a hot spot for the navigator from this share (of samples or instructions).
inline constexpr double kHotShare = 0.02;

// Whether a line of the summary is in the main source compiled as `fileName` (not a header).
bool isMainSourceLine(const LineCounters &line, const std::string &fileName);
// The share that sets a line's heat: of the samples when the summary has any, else of the
// executed instructions.
double heatShare(const LineCounters &line, const InspectSummary &summary);

InspectOverlay makeInspectOverlay(const InspectSummary &summary, const std::string &fileName);

} // namespace cuwb
