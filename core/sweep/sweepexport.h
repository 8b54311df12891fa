// Exports of a sweep result for other tools: CSV (one row per point, for spreadsheets and
// plotting scripts) and the T4 autotuning results format (schema 1.0.0 of the Open Autotuning
// Results Schema, as Kernel Tuner writes and reads it), so a sweep can be compared with a
// Kernel Tuner run. The JSON form that reads back is sweepjson.h.
//
// CSV: a header row, then one row per point in sweep order; RFC 4180 quoting, lines ending
// in \n. Columns: index, label, one column per axis (named as axisName() names it: block.x,
// TILE, N, ...), status, message, block_x..z, grid_x..z, median_ns, mean_ns, min_ns,
// max_ns, stddev_ns, relative_noise, samples, effective_GBps, percent_of_peak, percent_of_ceiling,
// gflops, theoretical_occupancy (0..1), occupancy_limiter, waves, registers_per_thread,
// static_shared_bytes, max_abs_error, max_abs_error_at, max_rel_error, max_rel_error_at (a
// verified point's largest errors and the element, "c[12]"; with several checks the worst
// check's), best ("best", "tied", "best-on-device" for each GPU's best when the GPUs are of
// different models, or empty); a sweep over several GPUs adds device (its index) and
// device_name. Figures a point lacks are empty.
//
// T4: {"schema_version": "1.0.0", "results": [...]}, one result per point that was
// evaluated (pending points of a cancelled sweep are left out). Each has "timestamp",
// "configuration" (tunable parameter → value, numbers where the value is one, named as Kernel
// Tuner names them: block_size_x/y/z for the block, the project's names for defines, template
// arguments and variables), "objectives": ["time"], "times" in milliseconds
// ("compilation_time" as the schema names it and "compilation" as Kernel Tuner writes it,
// "benchmark", "runtimes" = every sample, "framework", "search_algorithm" = 0, "validation"),
// "invalidity" ("correct", "compile", "runtime" for a launch the kernel's resources refuse,
// "timeout", "constraints" for a block over the limits or a point a constraint excludes,
// "correctness"), "correctness" (1, or 0 for a point whose output was wrong) and
// "measurements": time (median, ms), time_stddev (ms), effective_bandwidth (GB/s), gflops
// (GFLOP/s) and theoretical_occupancy (%), each where known.
#pragma once

#include "sweep/sweep.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cuwb {

std::string sweepResultToCsv(const SweepResult &result);

inline constexpr const char *kT4SchemaVersion = "1.0.0";
// "correct", "compile", "runtime", "timeout", "constraints" or "correctness"; empty for a
// pending point, which T4 has no word for.
std::string t4Invalidity(const SweepPointResult &point);
nlohmann::json sweepResultToT4(const SweepResult &result);

// Writes `text` to `path` (replacing it). Returns an error sentence or empty.
std::string writeTextFile(const std::string &path, const std::string &text);

} // namespace cuwb
