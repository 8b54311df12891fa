// The JSON of a run: its request, its result (buffers, guard bands, verification) and a page
// of values, as the worker protocol and `cuwb run --json` write them. from_json throws
// nlohmann::json::exception on malformed input. Doubles that are not finite travel as the
// strings "nan", "inf" and "-inf" (JSON has no NaN).
#pragma once

#include "run/runoutcome.h"
#include "run/runrequest.h"
#include "run/runresult.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace cuwb {

// JSON conversions. from_json throws nlohmann::json::exception on malformed input.
void to_json(nlohmann::json &j, const CompiledImage &image);
void from_json(const nlohmann::json &j, CompiledImage &image);
void to_json(nlohmann::json &j, const RunRequest &r);
void from_json(const nlohmann::json &j, RunRequest &r);
void to_json(nlohmann::json &j, const RunResult &r);
void from_json(const nlohmann::json &j, RunResult &r);
// Written only: a RunResult's JSON carries describeRun's reading of it as "outcome".
void to_json(nlohmann::json &j, const RunOutcome &o);
void to_json(nlohmann::json &j, const Page &p);
void from_json(const nlohmann::json &j, Page &p);
void to_json(nlohmann::json &j, const PageRequest &p);
void from_json(const nlohmann::json &j, PageRequest &p);
void to_json(nlohmann::json &j, const BufferStats &s);
void from_json(const nlohmann::json &j, BufferStats &s);
void to_json(nlohmann::json &j, const GuardViolation &g);
void from_json(const nlohmann::json &j, GuardViolation &g);
void to_json(nlohmann::json &j, const BufferReport &b);
void from_json(const nlohmann::json &j, BufferReport &b);
void to_json(nlohmann::json &j, const Mismatch &m);
void from_json(const nlohmann::json &j, Mismatch &m);
void to_json(nlohmann::json &j, const VerificationResult &v);
void from_json(const nlohmann::json &j, VerificationResult &v);
void to_json(nlohmann::json &j, const KernelRunTime &k);
void from_json(const nlohmann::json &j, KernelRunTime &k);

// A double as JSON: a number when finite, else "nan", "inf" or "-inf"; and back (also
// accepts null as NaN, which is how a plain nlohmann dump writes it). Throws on other types.
nlohmann::json finiteSafe(double value);
double readFiniteSafe(const nlohmann::json &value);

const char *exportFormatName(ExportFormat format); // "npy", "bin", "csv"
std::optional<ExportFormat> parseExportFormat(std::string_view name);
std::optional<RunStatus> parseRunStatus(std::string_view name); // inverse of runStatusName

} // namespace cuwb
