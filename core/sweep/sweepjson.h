// JSON forms of sweeps: the spec (the project's "sweep" section) and the whole result
// (`cuwb sweep --json`, the GUI's export, the history). A result file carries its
// formatVersion; reading a file of another version fails with a message naming both versions,
// never with a half-read result.
//
//   spec:   {"axes": [{"target": "block.x", "kind": "range", "from": 32, "to": 1024,
//                      "step": 32},
//                     {"target": "-DTILE", "kind": "list", "values": [8, 16, 32]},
//                     {"target": "block.y", "kind": "powersOfTwo", "from": 1, "to": 32}],
//            "combination": "cartesian" | "zip", "constraints": ["block.x*block.y <= 1024"],
//            "settings": {SampleSettings}, "verify": false, "metrics": false}
//   result: {"format": "cuwb-sweep-result", "formatVersion": 1, "projectName", "kernel",
//            "sourceHash", "deviceName", "startedAt", "wallSeconds", "cancelled", "error",
//            "notes", "theoreticalPeakGBps", "copyCeilingGBps", "spec", "fileName", "source",
//            "best": index | null, "tiedWithBest": [indices],
//            "points": [{"index", "label", "values": [{"target", "value"}], "block", "grid",
//                        "request" (without its source, which is the result's), "skipReason",
//                        "status", "message", "measurement", "metrics",
//                        "theoreticalOccupancy", "occupancyLimiter", "waves", "wallSeconds",
//                        "compileFailed", "registersPerThread", "staticSharedBytes",
//                        "compileMs", "verifyMs", "measuredAt",
//                        "device": {"index", "name"} (a sweep over several GPUs)}],
//            and for a sweep over several GPUs: "devices": [DeviceInfo], "mixedModels",
//            "bestPerDevice": [{"device", "point"}]}
//
// "label", "best", "tiedWithBest", "mixedModels" and "bestPerDevice" are derived and ignored
// when read; "best" is null across GPUs of different models. Reading a spec
// tolerates missing fields: settings missing from "settings" keep the sweep defaults (20 hot
// samples); axis values may be numbers or strings.
#pragma once

#include "sweep/sweep.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace cuwb {

void to_json(nlohmann::json &json, const SweepAxis &axis);
void from_json(const nlohmann::json &json, SweepAxis &axis);
void to_json(nlohmann::json &json, const SweepSpec &spec);
void from_json(const nlohmann::json &json, SweepSpec &spec);
void to_json(nlohmann::json &json, PointStatus status); // pointStatusName()
void from_json(const nlohmann::json &json, PointStatus &status);
// A point result with its point's fields beside its own; the request keeps its source.
void to_json(nlohmann::json &json, const SweepPointResult &result);
void from_json(const nlohmann::json &json, SweepPointResult &result);

inline constexpr const char *kSweepResultFormat = "cuwb-sweep-result";

// The result as a document (the points' shared source written once).
nlohmann::json sweepResultToJson(const SweepResult &result);
std::string serializeSweepResult(const SweepResult &result); // pretty, with a final newline

struct SweepResultLoad
{
    std::optional<SweepResult> result;
    std::string error; // "format version 2 ... this CUDA Workbench reads version 1", "line 3..."
};
SweepResultLoad parseSweepResult(std::string_view text);
SweepResultLoad loadSweepResult(const std::string &path);

} // namespace cuwb
