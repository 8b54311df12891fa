// A finished sweep as an entry of the run history (history/historystore.h): the list's record
// (project, kernel, device, source hash, a one-line summary) and the sweep's result document
// (sweepjson.h), so that the History panel can reopen it in the sweep results view or overlay
// it as a baseline. The GUI stores every finished sweep this way; readHistoryDocument turns a
// stored document of either kind back into a typed value.
#pragma once

#include "history/historystore.h"
#include "measure/measurement.h"
#include "sweep/sweep.h"

#include <optional>
#include <string>
#include <string_view>

namespace cuwb {

// "32 points, best block.x=256: median 198.1 µs, 2710 GB/s"; with what went wrong after it
// ("; 2 skipped, 1 failed, cancelled"), or why nothing was measured ("no GPU: ...").
std::string sweepSummary(const SweepResult &result);
// A "sweep" entry whose document is serializeSweepResult's; loadSweepResult/parseSweepResult
// read it back.
HistoryEntry sweepEntry(const SweepResult &result, const std::string &projectName,
                        const std::string &projectPath);

// A stored history document read back: a sweep, a measurement, or why it could not be read.
struct HistoryDocument
{
    std::optional<SweepResult> sweep;
    std::optional<Measurement> measurement;
    std::string error; // set when neither could be read
};
// `kind` is the entry's kind name ("sweep", "measurement"); `json` its stored document.
HistoryDocument readHistoryDocument(std::string_view kind, std::string_view json);

} // namespace cuwb
