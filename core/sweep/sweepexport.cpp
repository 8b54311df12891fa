#include "sweep/sweepexport.h"

#include "launch/launchspec.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <optional>

namespace cuwb {

using nlohmann::json;

namespace {

std::string number(double value)
{
    if (!std::isfinite(value)) {
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

std::string number(const std::optional<double> &value)
{
    return value ? number(*value) : std::string();
}

// RFC 4180: a field with a comma, a quote or a line end is quoted, its quotes doubled.
std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c;
        if (c == '"') {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

void appendRow(std::string &out, const std::vector<std::string> &fields)
{
    for (std::size_t i = 0; i < fields.size(); ++i) {
        out += (i == 0 ? "" : ",") + csvField(fields[i]);
    }
    out += '\n';
}

// The axis targets of the sweep, in order: the spec's, else the first point's.
std::vector<std::string> axisTargets(const SweepResult &result)
{
    std::vector<std::string> targets;
    for (const SweepAxis &axis : result.spec.axes) {
        targets.push_back(axis.target);
    }
    if (targets.empty() && !result.points.empty()) {
        for (const auto &value : result.points.front().point.values) {
            targets.push_back(value.first);
        }
    }
    return targets;
}

std::string valueOf(const SweepPoint &point, const std::string &target, std::size_t position)
{
    if (position < point.values.size() && point.values[position].first == target) {
        return point.values[position].second;
    }
    for (const auto &[name, value] : point.values) {
        if (name == target) {
            return value;
        }
    }
    return {};
}

json configurationValue(const std::string &text)
{
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value)) {
        return json(text);
    }
    if (value == std::trunc(value) && std::fabs(value) < 9.0e15) {
        return json(static_cast<long long>(value));
    }
    return json(value);
}

// Kernel Tuner's name of a block dimension (its default block_size_names) and the project's
// own name for every other axis: a -D define or template argument by its name, a variable by
// its name, the flags as maxrregcount and use_fast_math. A name that two axes would share
// keeps the second axis's own spelling, so that no value is lost.
std::vector<std::string> tunerParameterNames(const std::vector<std::string> &targets)
{
    std::vector<std::string> names;
    for (const std::string &target : targets) {
        std::string name = axisName(target);
        if (const std::optional<AxisTargetInfo> info = parseAxisTarget(target);
            info && info->kind == AxisTarget::Block) {
            name = "block_size_" + info->name;
        }
        if (std::find(names.begin(), names.end(), name) != names.end())
            name = target;
        names.push_back(std::move(name));
    }
    return names;
}

json measurementEntry(const char *name, double value, const char *unit)
{
    return json{{"name", name}, {"value", value}, {"unit", unit}};
}

} // namespace

namespace {

// The columns: index, label, one per axis, then the point's figures, then (several GPUs) the
// device that measured it.
std::vector<std::string> csvHeader(const std::vector<std::string> &targets, bool devices)
{
    std::vector<std::string> header{"index", "label"};
    for (const std::string &target : targets) {
        header.push_back(axisName(target));
    }
    for (const char *name : {"status",
                             "message",
                             "block_x",
                             "block_y",
                             "block_z",
                             "grid_x",
                             "grid_y",
                             "grid_z",
                             "median_ns",
                             "mean_ns",
                             "min_ns",
                             "max_ns",
                             "stddev_ns",
                             "relative_noise",
                             "samples",
                             "effective_GBps",
                             "percent_of_peak",
                             "percent_of_ceiling",
                             "gflops",
                             "theoretical_occupancy",
                             "occupancy_limiter",
                             "waves",
                             "registers_per_thread",
                             "static_shared_bytes",
                             "max_abs_error",
                             "max_abs_error_at",
                             "max_rel_error",
                             "max_rel_error_at",
                             "best"}) {
        header.emplace_back(name);
    }
    if (devices) {
        header.emplace_back("device");
        header.emplace_back("device_name");
    }
    return header;
}

// The measurement's statistics and throughput, or as many empty cells.
void appendMeasuredCells(std::vector<std::string> &row, const SweepPointResult &r)
{
    if (r.measurement && r.measurement->statistics.count > 0) {
        const SampleStatistics &s = r.measurement->statistics;
        for (const double value :
             {s.medianNs, s.meanNs, s.minNs, s.maxNs, s.stddevNs, s.relativeNoise}) {
            row.push_back(number(value));
        }
        row.push_back(std::to_string(s.count));
        const Throughput &t = r.measurement->throughput;
        row.push_back(number(t.effectiveGBps));
        row.push_back(number(t.percentOfPeak));
        row.push_back(number(t.percentOfCeiling));
        row.push_back(number(t.gflops));
    } else {
        row.insert(row.end(), 11, std::string());
    }
}

// The verification's largest errors (the worst check's, with several) and where they are.
void appendErrorCells(std::vector<std::string> &row, const SweepPointResult &r)
{
    // The verification's largest errors (the worst check's, with several) and where.
    const VerificationResult *worst = worstCheck(r.checks);
    const auto where = [&](std::uint64_t index) {
        if (!worst || worst->aggregateActual || worst->output.empty()) {
            return std::string();
        }
        return worst->output + "[" + std::to_string(index) + "]";
    };
    row.push_back(worst ? number(worst->maxAbsError) : std::string());
    row.push_back(worst && worst->maxAbsError ? where(worst->maxAbsErrorIndex) : std::string());
    row.push_back(worst ? number(worst->maxRelError) : std::string());
    row.push_back(worst && worst->maxRelError ? where(worst->maxRelErrorIndex) : std::string());
}

} // namespace

std::string sweepResultToCsv(const SweepResult &result)
{
    const std::vector<std::string> targets = axisTargets(result);
    // A sweep over several GPUs: which one measured each point (multidevicesweep.h).
    const bool devices = !result.devices.empty();
    const std::vector<std::string> header = csvHeader(targets, devices);
    std::string out;
    appendRow(out, header);

    const std::optional<std::size_t> best = result.bestPoint();
    const std::vector<std::size_t> tied = result.pointsTiedWithBest();
    std::vector<std::size_t> deviceBest; // across GPU models: each GPU's best
    if (result.mixedModels()) {
        for (const auto &entry : result.bestPointPerDevice()) {
            deviceBest.push_back(entry.second);
        }
    }
    for (std::size_t k = 0; k < result.points.size(); ++k) {
        const SweepPointResult &r = result.points[k];
        const SweepPoint &p = r.point;
        std::vector<std::string> row{std::to_string(p.index), p.label()};
        for (std::size_t i = 0; i < targets.size(); ++i) {
            row.push_back(valueOf(p, targets[i], i));
        }
        row.emplace_back(pointStatusName(r.status));
        row.push_back(r.message.empty() ? p.skipReason : r.message);
        for (const std::uint64_t value : p.block) {
            row.push_back(value == 0 ? std::string() : std::to_string(value));
        }
        for (const std::uint64_t value : p.grid) {
            row.push_back(value == 0 ? std::string() : std::to_string(value));
        }
        appendMeasuredCells(row, r);
        row.push_back(number(r.theoreticalOccupancy));
        row.push_back(r.occupancyLimiter);
        row.push_back(number(r.waves));
        row.push_back(r.registersPerThread > 0 ? std::to_string(r.registersPerThread)
                                               : std::string());
        row.push_back(r.registersPerThread > 0 ? std::to_string(r.staticSharedBytes)
                                               : std::string());
        appendErrorCells(row, r);
        const bool isTied = std::find(tied.begin(), tied.end(), k) != tied.end();
        const bool isDeviceBest =
            std::find(deviceBest.begin(), deviceBest.end(), k) != deviceBest.end();
        row.emplace_back(best == k      ? "best"
                         : isTied       ? "tied"
                         : isDeviceBest ? "best-on-device"
                                        : "");
        if (devices) {
            row.push_back(r.deviceIndex ? std::to_string(*r.deviceIndex) : std::string());
            row.push_back(r.deviceName);
        }
        appendRow(out, row);
    }
    return out;
}

std::string t4Invalidity(const SweepPointResult &point)
{
    switch (point.status) {
    case PointStatus::Pending:
        return {};
    case PointStatus::Measured:
        return "correct";
    case PointStatus::Skipped:
        // As Kernel Tuner classifies them: what the compiler rejects (ptxas' shared memory
        // included) is "compile", a launch the compiled kernel's resources refuse "runtime",
        // a block over the device's threads (and what a restriction excludes) "constraints".
        switch (point.point.skipKind) {
        case SkipKind::Compile:
            return "compile";
        case SkipKind::Resources:
            return "runtime";
        case SkipKind::Limits:
        case SkipKind::Expression:
        case SkipKind::Constraint:
            return "constraints";
        case SkipKind::None:
            break;
        }
        return point.compileFailed ? "compile" : "constraints";
    case PointStatus::Failed:
        return point.measurement && point.measurement->faultStatus == "timeout" ? "timeout"
                                                                                : "runtime";
    case PointStatus::Wrong:
        return "correctness";
    }
    return {};
}

json sweepResultToT4(const SweepResult &result)
{
    const std::vector<std::string> targets = axisTargets(result);
    const std::vector<std::string> names = tunerParameterNames(targets);
    json results = json::array();
    for (const SweepPointResult &r : result.points) {
        const std::string invalidity = t4Invalidity(r);
        if (invalidity.empty()) {
            continue;
        }
        json configuration = json::object();
        for (std::size_t i = 0; i < targets.size(); ++i) {
            configuration[names[i]] = configurationValue(valueOf(r.point, targets[i], i));
        }
        json runtimes = json::array();
        double sampleMs = 0.0;
        json measurements = json::array();
        // A wrong point was measured too; its time is reported, marked incorrect.
        if (r.measurement && r.measurement->statistics.count > 0) {
            for (const double ns : r.measurement->samplesNs) {
                runtimes.push_back(ns * 1e-6);
                sampleMs += ns * 1e-6;
            }
            const SampleStatistics &s = r.measurement->statistics;
            measurements.push_back(measurementEntry("time", s.medianNs * 1e-6, "ms"));
            measurements.push_back(measurementEntry("time_stddev", s.stddevNs * 1e-6, "ms"));
            const Throughput &t = r.measurement->throughput;
            if (t.effectiveGBps) {
                measurements.push_back(
                    measurementEntry("effective_bandwidth", *t.effectiveGBps, "GB/s"));
            }
            if (t.gflops) {
                measurements.push_back(measurementEntry("gflops", *t.gflops, "GFLOP/s"));
            }
        }
        if (r.theoreticalOccupancy) {
            measurements.push_back(
                measurementEntry("theoretical_occupancy", *r.theoreticalOccupancy * 100.0, "%"));
        }
        const double wallMs = r.wallSeconds * 1e3;
        const double framework = std::max(0.0, wallMs - r.compileMs - r.verifyMs - sampleMs);
        json entry{{"timestamp", r.measuredAt.empty() ? result.startedAt : r.measuredAt},
                   {"configuration", configuration},
                   {"objectives", json::array({"time"})},
                   // The schema names the compile time compilation_time; Kernel Tuner writes
                   // compilation, and benchmark for the time the measurement took: both.
                   {"times",
                    {{"compilation_time", r.compileMs},
                     {"compilation", r.compileMs},
                     {"benchmark", r.measureMs},
                     {"runtimes", runtimes},
                     {"framework", framework},
                     {"search_algorithm", 0.0},
                     {"validation", r.verifyMs}}},
                   {"invalidity", invalidity},
                   {"correctness", r.status == PointStatus::Wrong ? 0 : 1},
                   {"measurements", measurements}};
        results.push_back(std::move(entry));
    }
    return json{{"schema_version", kT4SchemaVersion}, {"results", results}};
}

std::string writeTextFile(const std::string &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        return "cannot write '" + path + "': " + std::strerror(errno);
    }
    out << text;
    out.flush();
    if (!out) {
        return "cannot write '" + path + "': " + std::strerror(errno);
    }
    return {};
}

} // namespace cuwb
