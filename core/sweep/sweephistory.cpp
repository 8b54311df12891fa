#include "sweep/sweephistory.h"

#include "measure/measurejson.h"
#include "sweep/sweepjson.h"

#include <exception>

namespace cuwb {

std::string sweepSummary(const SweepResult &result)
{
    const std::size_t total = result.points.size();
    std::string summary = std::to_string(total) + (total == 1 ? " point" : " points");
    if (const std::optional<std::size_t> best = result.bestPoint()) {
        const SweepPointResult &b = result.points[*best];
        summary += ", best " + b.point.label();
        if (b.measurement)
            summary += ": " + measurementSummary(*b.measurement);
    } else if (!result.error.empty()) {
        return summary + ", not run: " + result.error;
    } else {
        summary += ", none measured";
    }
    std::string rest;
    for (const PointStatus status :
         {PointStatus::Skipped, PointStatus::Failed, PointStatus::Wrong, PointStatus::Pending}) {
        if (const std::size_t n = result.count(status)) {
            rest += (rest.empty() ? "" : ", ") + std::to_string(n) + " " +
                    (status == PointStatus::Pending ? "not measured" : pointStatusName(status));
        }
    }
    if (result.cancelled)
        rest += std::string(rest.empty() ? "" : ", ") + "cancelled";
    return rest.empty() ? summary : summary + "; " + rest;
}

HistoryEntry sweepEntry(const SweepResult &result, const std::string &projectName,
                        const std::string &projectPath)
{
    HistoryEntry entry;
    entry.kind = HistoryKind::Sweep;
    entry.projectName = projectName.empty() ? result.projectName : projectName;
    entry.projectPath = projectPath;
    entry.kernel = result.kernel;
    entry.deviceName = result.deviceName;
    entry.sourceHash = result.sourceHash;
    entry.summary = sweepSummary(result);
    // Compact, as a sweep with every sample is megabytes; a stray invalid UTF-8 byte in a
    // compiler message must not lose the entry.
    entry.json =
        sweepResultToJson(result).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    entry.jsonBytes = entry.json.size();
    return entry;
}

HistoryDocument readHistoryDocument(std::string_view kind, std::string_view json)
{
    HistoryDocument document;
    if (kind == historyKindName(HistoryKind::Sweep)) {
        SweepResultLoad load = parseSweepResult(json);
        if (load.result) {
            document.sweep = std::move(*load.result);
        } else {
            document.error = load.error;
        }
        return document;
    }
    try {
        document.measurement = nlohmann::json::parse(json).get<Measurement>();
    } catch (const std::exception &error) {
        document.error = error.what();
    }
    return document;
}

} // namespace cuwb
