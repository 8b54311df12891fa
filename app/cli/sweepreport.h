// What `cuwb sweep` prints after a sweep and checks before one, shared with `cuwb merge` and
// the Slurm sweep (slurmsweep.h), so that a merged result reads exactly like a local one.
#pragma once

#include "sweep/sweep.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace cuwb::cli {

// "measured 6 of 7 points in 1.2 s (1 skipped)", the best point, the points tied with it,
// where the time went and the notes.
void printSweepSummary(std::ostream &out, const SweepResult &result);

// The skipped points of `result` grouped by what stopped them (groupSkips): with `nameEach`,
// each point that does not compile or cannot launch on a line of its own ("LABEL: skipped:
// REASON", the first 50), then every other reason once with its count and first point ("232
// points skipped: excluded by the constraint `...` (the first: LABEL)"); without, every reason
// once. Each line starts with `prefix`.
void printSkipGroups(std::ostream &out, const std::string &prefix, const SweepResult &result,
                     bool nameEach);

// Why `path` cannot be written ("cannot write 'x': the folder /y does not exist"), or empty;
// checked before a long sweep rather than after it.
std::string checkWritable(const std::string &path);

// Writes the result as CSV, JSON and T4 where the paths are given, printing "wrote JSON to
// FILE" for each; false (with the reason on std::cerr, prefixed by `command`) when one failed.
bool writeSweepOutputs(const char *command, const SweepResult &result,
                       const std::optional<std::string> &csv,
                       const std::optional<std::string> &json,
                       const std::optional<std::string> &t4);

} // namespace cuwb::cli
