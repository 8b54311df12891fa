// JSON forms of the measurement types, for the worker protocol, `cuwb measure --json` and
// exports. Writing then reading gives back an equal value (doubles keep every bit). Reading
// tolerates missing fields (they keep their defaults); an unknown enum name or a field of the
// wrong type throws nlohmann::json::exception whose message names the field.
#pragma once

#include "measure/measurement.h"
#include "measure/metrics.h"

#include <nlohmann/json.hpp>

namespace cuwb {

void to_json(nlohmann::json &json, SampleMode mode); // "cold", "hot"
void from_json(const nlohmann::json &json, SampleMode &mode);
void to_json(nlohmann::json &json, StopReason reason); // "noise-below-target", ...
void from_json(const nlohmann::json &json, StopReason &reason);
void to_json(nlohmann::json &json, TimingSource source); // "cupti", "events", "profiler"
void from_json(const nlohmann::json &json, TimingSource &source);
void to_json(nlohmann::json &json, const SampleSettings &settings);
void from_json(const nlohmann::json &json, SampleSettings &settings);
// {"bytes": "...", "flops": "..."}, empty expressions omitted; missing ones read as empty.
void to_json(nlohmann::json &json, const ThroughputExpressions &expressions);
void from_json(const nlohmann::json &json, ThroughputExpressions &expressions);
// A project's "measure" section: {"bytes", "flops", "settings": SampleSettings}.
void to_json(nlohmann::json &json, const MeasureSpec &spec);
void from_json(const nlohmann::json &json, MeasureSpec &spec);
// MetricsResult, for the worker's metrics reply; every field, values by metric name.
void to_json(nlohmann::json &json, const MetricsResult &result);
void from_json(const nlohmann::json &json, MetricsResult &result);
void to_json(nlohmann::json &json, const KernelSamples &kernel);
void from_json(const nlohmann::json &json, KernelSamples &kernel);
void to_json(nlohmann::json &json, const SampleStatistics &statistics);
void from_json(const nlohmann::json &json, SampleStatistics &statistics);
void to_json(nlohmann::json &json, const StopDecision &decision);
void from_json(const nlohmann::json &json, StopDecision &decision);
void to_json(nlohmann::json &json, const Throughput &throughput); // absent figures omitted
void from_json(const nlohmann::json &json, Throughput &throughput);
void to_json(nlohmann::json &json, const ProvenanceBuffer &buffer);
void from_json(const nlohmann::json &json, ProvenanceBuffer &buffer);
// compileOptionsJson travels as an object ("compileOptions"), not as a string.
void to_json(nlohmann::json &json, const Provenance &provenance);
void from_json(const nlohmann::json &json, Provenance &provenance);
void to_json(nlohmann::json &json, const MeasurementPhases &phases);
void from_json(const nlohmann::json &json, MeasurementPhases &phases);
void to_json(nlohmann::json &json, const Measurement &measurement);
void from_json(const nlohmann::json &json, Measurement &measurement);

} // namespace cuwb
