#include "measure/measurejson.h"

#include "util/jsonread.h"

#include "launch/launchjson.h"

#include <optional>
#include <string>

namespace cuwb {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &message)
{
    throw json::other_error::create(501, message, static_cast<const json *>(nullptr));
}

void requireObject(const json &value)
{
    if (!value.is_object())
        fail(std::string("expected an object, found ") + value.type_name());
}

// Reads `key` into `value` when present and not null; errors name the field.
template <typename T> void read(const json &object, const char *key, T &value)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return;
    try {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            value = jsonread::integerFrom<T>(*it); // refused as written, never wrapped
        else
            it->get_to(value);
    } catch (const json::exception &error) {
        fail(joinFieldPath(key, plainJsonError(error)));
    }
}

template <typename T> void read(const json &object, const char *key, std::optional<T> &value)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        value.reset();
        return;
    }
    T inner{};
    read(object, key, inner);
    value = inner;
}

template <typename T> void write(json &object, const char *key, const std::optional<T> &value)
{
    if (value)
        object[key] = *value;
}

template <typename E, std::size_t N>
E enumFromName(const json &value, const E (&all)[N], const char *(*name)(E))
{
    if (!value.is_string())
        fail(std::string("expected a string, found ") + value.type_name());
    const std::string text = value.get<std::string>();
    std::string names;
    for (E candidate : all) {
        if (text == name(candidate))
            return candidate;
        names += (names.empty() ? "" : ", ") + std::string(name(candidate));
    }
    fail("expected one of " + names + ", found '" + text + "'");
}

} // namespace

void to_json(json &json, SampleMode mode)
{
    json = sampleModeName(mode);
}

void from_json(const json &json, SampleMode &mode)
{
    static const SampleMode all[] = {SampleMode::Cold, SampleMode::Hot};
    mode = enumFromName(json, all, sampleModeName);
}

void to_json(json &json, StopReason reason)
{
    json = stopReasonName(reason);
}

void from_json(const json &json, StopReason &reason)
{
    static const StopReason all[] = {
        StopReason::NotStopped, StopReason::NoiseBelowTarget, StopReason::NoiseNotShrinking,
        StopReason::TimeCap,    StopReason::FixedCount,       StopReason::Cancelled,
        StopReason::Fault,      StopReason::WrongSample};
    reason = enumFromName(json, all, stopReasonName);
}

void to_json(json &json, TimingSource source)
{
    json = timingSourceName(source);
}

void from_json(const json &json, TimingSource &source)
{
    static const TimingSource all[] = {TimingSource::Cupti, TimingSource::Events,
                                       TimingSource::Profiler};
    source = enumFromName(json, all, timingSourceName);
}

void to_json(json &json, const SampleSettings &settings)
{
    json = {{"mode", settings.mode},
            {"fixedSamples", settings.fixedSamples},
            {"minSamples", settings.minSamples},
            {"minGpuTimeSeconds", settings.minGpuTimeSeconds},
            {"targetRelativeNoise", settings.targetRelativeNoise},
            {"timeCapSeconds", settings.timeCapSeconds},
            {"warmupLaunches", settings.warmupLaunches},
            {"plateauWindowSamples", settings.plateauWindowSamples},
            {"plateauMinImprovement", settings.plateauMinImprovement},
            {"timer", settings.timer}};
    if (settings.guarded) {
        json["guarded"] = true;
    }
}

void from_json(const json &json, SampleSettings &settings)
{
    requireObject(json);
    settings = SampleSettings{};
    read(json, "mode", settings.mode);
    read(json, "fixedSamples", settings.fixedSamples);
    read(json, "minSamples", settings.minSamples);
    read(json, "minGpuTimeSeconds", settings.minGpuTimeSeconds);
    read(json, "targetRelativeNoise", settings.targetRelativeNoise);
    read(json, "timeCapSeconds", settings.timeCapSeconds);
    read(json, "warmupLaunches", settings.warmupLaunches);
    read(json, "plateauWindowSamples", settings.plateauWindowSamples);
    read(json, "plateauMinImprovement", settings.plateauMinImprovement);
    read(json, "timer", settings.timer);
    read(json, "guarded", settings.guarded);
}

void to_json(json &json, const ThroughputExpressions &expressions)
{
    json = json::object();
    if (!expressions.bytes.empty()) {
        json["bytes"] = expressions.bytes;
    }
    if (!expressions.flops.empty()) {
        json["flops"] = expressions.flops;
    }
}

void from_json(const json &json, ThroughputExpressions &expressions)
{
    requireObject(json);
    expressions = ThroughputExpressions{};
    read(json, "bytes", expressions.bytes);
    read(json, "flops", expressions.flops);
}

void to_json(json &json, const MeasureSpec &spec)
{
    json = spec.throughput;
    json["settings"] = spec.settings;
}

void from_json(const json &json, MeasureSpec &spec)
{
    requireObject(json);
    spec = MeasureSpec{};
    json.get_to(spec.throughput);
    read(json, "settings", spec.settings);
}

void to_json(json &json, const MetricsResult &result)
{
    json = {{"chip", result.chip},
            {"values", result.values},
            {"passes", result.passes},
            {"error", result.error},
            {"permissionDenied", result.permissionDenied},
            {"registersPerThread", result.registersPerThread},
            {"staticSharedBytes", result.staticSharedBytes},
            {"dynamicSharedBytes", result.dynamicSharedBytes},
            {"blockThreads", result.blockThreads},
            {"gridBlocks", result.gridBlocks},
            {"theoreticalOccupancy", result.theoreticalOccupancy},
            {"activeBlocksPerSm", result.activeBlocksPerSm},
            {"occupancyLimiter", result.occupancyLimiter},
            {"waves", result.waves},
            {"occupancyError", result.occupancyError}};
}

void from_json(const json &json, MetricsResult &result)
{
    requireObject(json);
    result = MetricsResult{};
    read(json, "chip", result.chip);
    read(json, "values", result.values);
    read(json, "passes", result.passes);
    read(json, "error", result.error);
    read(json, "permissionDenied", result.permissionDenied);
    read(json, "registersPerThread", result.registersPerThread);
    read(json, "staticSharedBytes", result.staticSharedBytes);
    read(json, "dynamicSharedBytes", result.dynamicSharedBytes);
    read(json, "blockThreads", result.blockThreads);
    read(json, "gridBlocks", result.gridBlocks);
    read(json, "theoreticalOccupancy", result.theoreticalOccupancy);
    read(json, "activeBlocksPerSm", result.activeBlocksPerSm);
    read(json, "occupancyLimiter", result.occupancyLimiter);
    read(json, "waves", result.waves);
    read(json, "occupancyError", result.occupancyError);
}

void to_json(json &json, const SampleStatistics &statistics)
{
    json = {{"count", statistics.count},
            {"medianNs", statistics.medianNs},
            {"meanNs", statistics.meanNs},
            {"minNs", statistics.minNs},
            {"maxNs", statistics.maxNs},
            {"stddevNs", statistics.stddevNs},
            {"relativeNoise", statistics.relativeNoise},
            {"totalNs", statistics.totalNs},
            {"driftRelative", statistics.driftRelative}};
}

void from_json(const json &json, SampleStatistics &statistics)
{
    requireObject(json);
    statistics = SampleStatistics{};
    read(json, "count", statistics.count);
    read(json, "medianNs", statistics.medianNs);
    read(json, "meanNs", statistics.meanNs);
    read(json, "minNs", statistics.minNs);
    read(json, "maxNs", statistics.maxNs);
    read(json, "stddevNs", statistics.stddevNs);
    read(json, "relativeNoise", statistics.relativeNoise);
    read(json, "totalNs", statistics.totalNs);
    read(json, "driftRelative", statistics.driftRelative);
}

void to_json(json &json, const StopDecision &decision)
{
    json = {{"stop", decision.stop}, {"reason", decision.reason}, {"message", decision.message}};
}

void from_json(const json &json, StopDecision &decision)
{
    requireObject(json);
    decision = StopDecision{};
    read(json, "stop", decision.stop);
    read(json, "reason", decision.reason);
    read(json, "message", decision.message);
}

void to_json(json &json, const Throughput &throughput)
{
    json = json::object();
    write(json, "bytes", throughput.bytes);
    json["bytesExpression"] = throughput.bytesExpression;
    write(json, "effectiveGBps", throughput.effectiveGBps);
    write(json, "theoreticalPeakGBps", throughput.theoreticalPeakGBps);
    write(json, "percentOfPeak", throughput.percentOfPeak);
    write(json, "copyCeilingGBps", throughput.copyCeilingGBps);
    write(json, "percentOfCeiling", throughput.percentOfCeiling);
    json["flopsExpression"] = throughput.flopsExpression;
    write(json, "flops", throughput.flops);
    write(json, "gflops", throughput.gflops);
    json["exceedsPeak"] = throughput.exceedsPeak;
    json["warnings"] = throughput.warnings;
    json["errors"] = throughput.errors;
}

void from_json(const json &json, Throughput &throughput)
{
    requireObject(json);
    throughput = Throughput{};
    read(json, "bytes", throughput.bytes);
    read(json, "bytesExpression", throughput.bytesExpression);
    read(json, "effectiveGBps", throughput.effectiveGBps);
    read(json, "theoreticalPeakGBps", throughput.theoreticalPeakGBps);
    read(json, "percentOfPeak", throughput.percentOfPeak);
    read(json, "copyCeilingGBps", throughput.copyCeilingGBps);
    read(json, "percentOfCeiling", throughput.percentOfCeiling);
    read(json, "flopsExpression", throughput.flopsExpression);
    read(json, "flops", throughput.flops);
    read(json, "gflops", throughput.gflops);
    read(json, "exceedsPeak", throughput.exceedsPeak);
    read(json, "warnings", throughput.warnings);
    read(json, "errors", throughput.errors);
}

void to_json(json &json, const ProvenanceBuffer &buffer)
{
    json = {{"parameter", buffer.parameter}, {"count", buffer.count}, {"bytes", buffer.bytes}};
}

void from_json(const json &json, ProvenanceBuffer &buffer)
{
    requireObject(json);
    buffer = ProvenanceBuffer{};
    read(json, "parameter", buffer.parameter);
    read(json, "count", buffer.count);
    read(json, "bytes", buffer.bytes);
}

void to_json(json &json, const Provenance &p)
{
    nlohmann::json options = nullptr;
    if (!p.compileOptionsJson.empty()) {
        options = nlohmann::json::parse(p.compileOptionsJson, nullptr, false);
        if (options.is_discarded()) {
            options = p.compileOptionsJson; // keep the text rather than lose it
        }
    }
    json = {{"deviceName", p.deviceName},
            {"arch", p.arch},
            {"deviceOrdinal", p.deviceOrdinal},
            {"driverVersion", p.driverVersion},
            {"toolkitVersion", p.toolkitVersion},
            {"nvrtcVersion", p.nvrtcVersion},
            {"compileOptions", options},
            {"compiler", p.compiler},
            {"compileCommand", p.compileCommand},
            {"sourceHash", p.sourceHash},
            {"sourceBytes", p.sourceBytes},
            {"kernel", p.kernel},
            {"grid", p.grid},
            {"block", p.block},
            {"dynamicSharedBytes", p.dynamicSharedBytes},
            {"buffers", p.buffers},
            {"defaultSmClockKHz", p.defaultSmClockKHz},
            {"memoryClockKHz", p.memoryClockKHz}};
}

void from_json(const json &json, Provenance &p)
{
    requireObject(json);
    p = Provenance{};
    read(json, "deviceName", p.deviceName);
    read(json, "arch", p.arch);
    read(json, "deviceOrdinal", p.deviceOrdinal);
    read(json, "driverVersion", p.driverVersion);
    read(json, "toolkitVersion", p.toolkitVersion);
    read(json, "nvrtcVersion", p.nvrtcVersion);
    if (const auto it = json.find("compileOptions"); it != json.end() && !it->is_null()) {
        p.compileOptionsJson = it->is_string() ? it->get<std::string>() : it->dump();
    }
    read(json, "compiler", p.compiler);
    read(json, "compileCommand", p.compileCommand);
    read(json, "sourceHash", p.sourceHash);
    read(json, "sourceBytes", p.sourceBytes);
    read(json, "kernel", p.kernel);
    read(json, "grid", p.grid);
    read(json, "block", p.block);
    read(json, "dynamicSharedBytes", p.dynamicSharedBytes);
    read(json, "buffers", p.buffers);
    read(json, "defaultSmClockKHz", p.defaultSmClockKHz);
    read(json, "memoryClockKHz", p.memoryClockKHz);
}

void to_json(json &json, const MeasurementPhases &phases)
{
    json = {{"prepareMs", phases.prepareMs}, {"setupMs", phases.setupMs},
            {"warmupMs", phases.warmupMs},   {"samplingMs", phases.samplingMs},
            {"finishMs", phases.finishMs},   {"totalMs", phases.totalMs}};
}

void from_json(const json &json, MeasurementPhases &phases)
{
    requireObject(json);
    phases = MeasurementPhases{};
    read(json, "prepareMs", phases.prepareMs);
    read(json, "setupMs", phases.setupMs);
    read(json, "warmupMs", phases.warmupMs);
    read(json, "samplingMs", phases.samplingMs);
    read(json, "finishMs", phases.finishMs);
    read(json, "totalMs", phases.totalMs);
}

void to_json(json &json, const Measurement &measurement)
{
    json = {{"settings", measurement.settings},
            {"statistics", measurement.statistics},
            {"stop", measurement.stop},
            {"throughput", measurement.throughput},
            {"timingSource", measurement.timingSource},
            {"notes", measurement.notes},
            {"samplesNs", measurement.samplesNs},
            {"eventSamplesNs", measurement.eventSamplesNs},
            {"eventStatistics", measurement.eventStatistics},
            {"faultStatus", measurement.faultStatus},
            {"faultMessage", measurement.faultMessage},
            {"smClocksMHz", measurement.smClocksMHz},
            {"smClockMinMHz", measurement.smClockMinMHz},
            {"smClockMaxMHz", measurement.smClockMaxMHz},
            {"throttledSamples", measurement.throttledSamples},
            {"throttled", measurement.throttled},
            {"provenance", measurement.provenance},
            {"phases", measurement.phases}};
    // Written only for a sequence, so a measurement of one kernel keeps its shape.
    if (!measurement.kernels.empty())
        json["kernels"] = measurement.kernels;
    // Written only for a guarded measurement, likewise.
    if (measurement.settings.guarded) {
        json["verifiedSamples"] = measurement.verifiedSamples;
        json["wrongSample"] = measurement.wrongSample;
    }
}

void to_json(json &json, const KernelSamples &kernel)
{
    json = {{"kernel", kernel.kernel},
            {"samplesNs", kernel.samplesNs},
            {"statistics", kernel.statistics}};
}

void from_json(const json &json, KernelSamples &kernel)
{
    requireObject(json);
    kernel = KernelSamples{};
    read(json, "kernel", kernel.kernel);
    read(json, "samplesNs", kernel.samplesNs);
    read(json, "statistics", kernel.statistics);
}

void from_json(const json &json, Measurement &measurement)
{
    requireObject(json);
    measurement = Measurement{};
    read(json, "settings", measurement.settings);
    read(json, "statistics", measurement.statistics);
    read(json, "stop", measurement.stop);
    read(json, "throughput", measurement.throughput);
    read(json, "timingSource", measurement.timingSource);
    read(json, "notes", measurement.notes);
    read(json, "samplesNs", measurement.samplesNs);
    read(json, "eventSamplesNs", measurement.eventSamplesNs);
    read(json, "eventStatistics", measurement.eventStatistics);
    read(json, "faultStatus", measurement.faultStatus);
    read(json, "faultMessage", measurement.faultMessage);
    read(json, "smClocksMHz", measurement.smClocksMHz);
    read(json, "smClockMinMHz", measurement.smClockMinMHz);
    read(json, "smClockMaxMHz", measurement.smClockMaxMHz);
    read(json, "throttledSamples", measurement.throttledSamples);
    read(json, "throttled", measurement.throttled);
    read(json, "provenance", measurement.provenance);
    read(json, "phases", measurement.phases);
    read(json, "kernels", measurement.kernels);
    read(json, "verifiedSamples", measurement.verifiedSamples);
    read(json, "wrongSample", measurement.wrongSample);
}

} // namespace cuwb
