#include "sweep/sweepjson.h"

#include "device/devicejson.h"
#include "launch/launchjson.h"
#include "measure/measurejson.h"
#include "util/jsondepth.h"
#include "util/jsonread.h"
#include "worker/protocol.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cuwb {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &message)
{
    throw json::other_error::create(501, message, static_cast<const json *>(nullptr));
}

template <typename F> void inField(const std::string &field, F &&read)
{
    try {
        read();
    } catch (const json::exception &error) {
        fail(joinFieldPath(field, plainJsonError(error)));
    }
}

void requireObject(const json &value)
{
    if (!value.is_object()) {
        fail(std::string("expected an object, found ") + value.type_name());
    }
}

const json *member(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

template <typename T> void read(const json &object, const char *key, T &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
                value = jsonread::integerFrom<T>(*field);
            else
                field->get_to(value);
        });
    }
}

void readString(const json &object, const char *key, std::string &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (!field->is_string()) {
                fail(std::string("expected a string, found ") + field->type_name());
            }
            value = field->get<std::string>();
        });
    }
}

void readBool(const json &object, const char *key, bool &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (!field->is_boolean()) {
                fail(std::string("expected true or false, found ") + field->type_name());
            }
            value = field->get<bool>();
        });
    }
}

void readNumber(const json &object, const char *key, double &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (!field->is_number()) {
                fail(std::string("expected a number, found ") + field->type_name());
            }
            value = field->get<double>();
        });
    }
}

// Doubles that may travel as "nan"/"inf" (finiteSafe).
void readDouble(const json &object, const char *key, double &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] { value = readFiniteSafe(*field); });
    }
}

void readDouble(const json &object, const char *key, std::optional<double> &value)
{
    value.reset();
    if (const json *field = member(object, key)) {
        inField(key, [&] { value = readFiniteSafe(*field); });
    }
}

template <typename E, std::size_t N>
E enumFromName(const json &value, const E (&all)[N], const char *(*name)(E))
{
    std::string names;
    for (const E candidate : all) {
        names += (names.empty() ? "" : ", ") + std::string(name(candidate));
    }
    if (!value.is_string()) {
        fail("expected one of " + names + ", found " + value.type_name());
    }
    const std::string text = value.get<std::string>();
    for (const E candidate : all) {
        if (text == name(candidate)) {
            return candidate;
        }
    }
    fail("expected one of " + names + ", found '" + text + "'");
}

constexpr AxisValues kAxisKinds[] = {AxisValues::List, AxisValues::Range, AxisValues::PowersOfTwo};
constexpr AxisCombination kCombinations[] = {AxisCombination::Cartesian, AxisCombination::Zip};
constexpr PointStatus kStatuses[] = {PointStatus::Pending, PointStatus::Measured,
                                     PointStatus::Skipped, PointStatus::Failed, PointStatus::Wrong};

// A value that reads back as the same text is written as a number: "values": [8, 16, 32].
json valueJson(const std::string &text)
{
    char *end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (!text.empty() && *end == '\0' && std::isfinite(number) && formatNumber(number) == text) {
        if (number == std::trunc(number) && std::fabs(number) < 9.0e15) {
            return json(static_cast<long long>(number));
        }
        return json(number);
    }
    return json(text);
}

std::string valueText(const json &value)
{
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_number_integer() || value.is_number_unsigned()) {
        return value.dump();
    }
    if (value.is_number_float()) {
        return formatNumber(value.get<double>());
    }
    fail(std::string("expected a value (a number or a string), found ") + value.type_name());
}

json arrayOf3(const std::array<std::uint64_t, 3> &values)
{
    return json::array({values[0], values[1], values[2]});
}

void readArrayOf3(const json &object, const char *key, std::array<std::uint64_t, 3> &values)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (!field->is_array() || field->size() != 3) {
                fail("expected three whole numbers");
            }
            for (std::size_t i = 0; i < 3; ++i) {
                values[i] = jsonread::integerFrom<std::uint64_t>((*field)[i]);
            }
        });
    }
}

} // namespace

void to_json(json &j, const SweepAxis &axis)
{
    j = json{{"target", axis.target}, {"kind", axisValuesName(axis.kind)}};
    if (!axis.group.empty()) {
        j["group"] = axis.group;
    }
    switch (axis.kind) {
    case AxisValues::List: {
        json values = json::array();
        for (const std::string &value : axis.values) {
            values.push_back(valueJson(value));
        }
        j["values"] = values;
        break;
    }
    case AxisValues::Range:
        j["from"] = finiteSafe(axis.from);
        j["to"] = finiteSafe(axis.to);
        j["step"] = finiteSafe(axis.step);
        break;
    case AxisValues::PowersOfTwo:
        j["from"] = finiteSafe(axis.from);
        j["to"] = finiteSafe(axis.to);
        break;
    }
}

void from_json(const json &j, SweepAxis &axis)
{
    requireObject(j);
    axis = SweepAxis{};
    readString(j, "target", axis.target);
    readString(j, "group", axis.group);
    if (const json *kind = member(j, "kind")) {
        inField("kind", [&] { axis.kind = enumFromName(*kind, kAxisKinds, axisValuesName); });
    } else if (!member(j, "values")) {
        fail("kind: missing; give \"values\": [...] for a list, or \"kind\": \"range\" or "
             "\"powersOfTwo\" with from and to");
    }
    if (axis.kind == AxisValues::List) {
        const json *values = member(j, "values");
        if (!values) {
            fail("values: missing; a list axis needs its values");
        }
        inField("values", [&] {
            if (!values->is_array()) {
                fail(std::string("expected an array, found ") + values->type_name());
            }
            for (std::size_t i = 0; i < values->size(); ++i) {
                inField("[" + std::to_string(i) + "]",
                        [&] { axis.values.push_back(valueText((*values)[i])); });
            }
        });
        return;
    }
    for (const char *key : {"from", "to"}) {
        if (!member(j, key)) {
            fail(std::string(key) + ": missing; a " + axisValuesName(axis.kind) +
                 " axis needs from and to");
        }
    }
    readNumber(j, "from", axis.from);
    readNumber(j, "to", axis.to);
    if (axis.kind == AxisValues::Range) {
        if (!member(j, "step")) {
            fail("step: missing; a range needs a step");
        }
        readNumber(j, "step", axis.step);
    }
}

void to_json(json &j, const SweepSpec &spec)
{
    j = json{{"axes", spec.axes},
             {"combination", axisCombinationName(spec.combination)},
             {"constraints", spec.constraints},
             {"settings", spec.settings},
             {"verify", spec.verify},
             {"metrics", spec.metrics}};
    if (spec.roofline) {
        j["roofline"] = true; // absent when off, so older files and projects stay as they were
    }
}

void from_json(const json &j, SweepSpec &spec)
{
    requireObject(j);
    spec = SweepSpec{};
    if (const json *axes = member(j, "axes")) {
        inField("axes", [&] {
            if (!axes->is_array()) {
                fail(std::string("expected an array, found ") + axes->type_name());
            }
            for (std::size_t i = 0; i < axes->size(); ++i) {
                inField("[" + std::to_string(i) + "]",
                        [&] { spec.axes.push_back((*axes)[i].get<SweepAxis>()); });
            }
        });
    }
    if (const json *combination = member(j, "combination")) {
        inField("combination", [&] {
            spec.combination = enumFromName(*combination, kCombinations, axisCombinationName);
        });
    }
    if (const json *constraints = member(j, "constraints")) {
        inField("constraints", [&] {
            if (!constraints->is_array()) {
                fail(std::string("expected an array of expressions, found ") +
                     constraints->type_name());
            }
            for (std::size_t i = 0; i < constraints->size(); ++i) {
                inField("[" + std::to_string(i) + "]", [&] {
                    const json &constraint = (*constraints)[i];
                    if (!constraint.is_string()) {
                        fail(std::string("expected an expression, found ") +
                             constraint.type_name());
                    }
                    spec.constraints.push_back(constraint.get<std::string>());
                });
            }
        });
    }
    if (const json *settings = member(j, "settings")) {
        inField("settings", [&] {
            requireObject(*settings);
            // Settings not given keep the sweep's defaults, not a single measurement's.
            json merged = SweepSpec::defaultSweepSettings();
            merged.update(*settings);
            merged.get_to(spec.settings);
            if (const auto problem = checkSampleSettings(spec.settings)) {
                fail(*problem);
            }
        });
    }
    readBool(j, "verify", spec.verify);
    readBool(j, "metrics", spec.metrics);
    readBool(j, "roofline", spec.roofline);
}

void to_json(json &j, PointStatus status)
{
    j = pointStatusName(status);
}

void from_json(const json &j, PointStatus &status)
{
    status = enumFromName(j, kStatuses, pointStatusName);
}

void to_json(json &j, const SweepPointResult &r)
{
    const SweepPoint &p = r.point;
    json values = json::array();
    for (const auto &[target, value] : p.values) {
        values.push_back(json{{"target", target}, {"value", value}});
    }
    j = json{{"index", p.index},           {"label", p.label()},       {"values", values},
             {"block", arrayOf3(p.block)}, {"grid", arrayOf3(p.grid)}, {"request", p.request},
             {"skipReason", p.skipReason}, {"status", r.status},       {"message", r.message}};
    if (p.skipKind != SkipKind::None) {
        j["skipKind"] = skipKindName(p.skipKind);
    }
    j["dynamicSharedBytes"] = p.dynamicSharedBytes;
    if (r.measurement) {
        j["measurement"] = *r.measurement;
    }
    if (r.metrics) {
        j["metrics"] = *r.metrics;
    }
    if (r.theoreticalOccupancy) {
        j["theoreticalOccupancy"] = finiteSafe(*r.theoreticalOccupancy);
    }
    j["occupancyLimiter"] = r.occupancyLimiter;
    if (r.waves) {
        j["waves"] = finiteSafe(*r.waves);
    }
    j["wallSeconds"] = finiteSafe(r.wallSeconds);
    j["compileFailed"] = r.compileFailed;
    j["registersPerThread"] = r.registersPerThread;
    j["staticSharedBytes"] = r.staticSharedBytes;
    j["compileMs"] = finiteSafe(r.compileMs);
    j["verifyMs"] = finiteSafe(r.verifyMs);
    j["measureMs"] = finiteSafe(r.measureMs);
    j["workerCompileMs"] = finiteSafe(r.workerCompileMs);
    j["measuredAt"] = r.measuredAt;
    if (!r.checks.empty()) {
        j["checks"] = r.checks;
    }
    if (r.deviceIndex) {
        j["device"] = {{"index", *r.deviceIndex}, {"name", r.deviceName}};
    }
}

void from_json(const json &j, SweepPointResult &r)
{
    requireObject(j);
    r = SweepPointResult{};
    SweepPoint &p = r.point;
    read(j, "index", p.index);
    if (const json *values = member(j, "values")) {
        inField("values", [&] {
            if (!values->is_array()) {
                fail(std::string("expected an array, found ") + values->type_name());
            }
            for (std::size_t i = 0; i < values->size(); ++i) {
                inField("[" + std::to_string(i) + "]", [&] {
                    const json &value = (*values)[i];
                    requireObject(value);
                    std::string target;
                    std::string text;
                    readString(value, "target", target);
                    readString(value, "value", text);
                    p.values.emplace_back(target, text);
                });
            }
        });
    }
    readArrayOf3(j, "block", p.block);
    readArrayOf3(j, "grid", p.grid);
    read(j, "request", p.request);
    readString(j, "skipReason", p.skipReason);
    std::string skipKind;
    readString(j, "skipKind", skipKind);
    if (!skipKind.empty()) {
        inField("skipKind", [&] {
            const std::optional<SkipKind> kind = skipKindFromName(skipKind);
            if (!kind) {
                fail("expected one of compile, resources, limits, expression, constraint, found '" +
                     skipKind + "'");
            }
            p.skipKind = *kind;
        });
    }
    read(j, "dynamicSharedBytes", p.dynamicSharedBytes);
    read(j, "status", r.status);
    readString(j, "message", r.message);
    if (const json *measurement = member(j, "measurement")) {
        inField("measurement", [&] { r.measurement = measurement->get<Measurement>(); });
    }
    if (const json *metrics = member(j, "metrics")) {
        inField("metrics", [&] { r.metrics = metrics->get<MetricsResult>(); });
    }
    readDouble(j, "theoreticalOccupancy", r.theoreticalOccupancy);
    readString(j, "occupancyLimiter", r.occupancyLimiter);
    readDouble(j, "waves", r.waves);
    readDouble(j, "measureMs", r.measureMs);
    readDouble(j, "workerCompileMs", r.workerCompileMs);
    readDouble(j, "wallSeconds", r.wallSeconds);
    readBool(j, "compileFailed", r.compileFailed);
    read(j, "registersPerThread", r.registersPerThread);
    read(j, "staticSharedBytes", r.staticSharedBytes);
    readDouble(j, "compileMs", r.compileMs);
    readDouble(j, "verifyMs", r.verifyMs);
    readString(j, "measuredAt", r.measuredAt);
    if (const json *checks = member(j, "checks")) {
        inField("checks", [&] { r.checks = checks->get<std::vector<VerificationResult>>(); });
    }
    if (const json *device = member(j, "device")) {
        inField("device", [&] {
            requireObject(*device);
            int index = 0;
            read(*device, "index", index);
            r.deviceIndex = index;
            readString(*device, "name", r.deviceName);
        });
    }
}

json sweepResultToJson(const SweepResult &result)
{
    json document{{"format", kSweepResultFormat},
                  {"formatVersion", result.formatVersion},
                  {"projectName", result.projectName},
                  {"kernel", result.kernel},
                  {"sourceHash", result.sourceHash},
                  {"deviceName", result.deviceName},
                  {"startedAt", result.startedAt},
                  {"wallSeconds", finiteSafe(result.wallSeconds)},
                  {"cancelled", result.cancelled},
                  {"error", result.error},
                  {"notes", result.notes}};
    // Derived from the points; written for readers of the file, recomputed when read.
    const SweepTimeBreakdown t = result.timeBreakdown();
    document["timeBreakdown"] = {{"wallMs", finiteSafe(t.wallMs)},
                                 {"hostCompileMs", finiteSafe(t.hostCompileMs)},
                                 {"workerCompileMs", finiteSafe(t.workerCompileMs)},
                                 {"verifyMs", finiteSafe(t.verifyMs)},
                                 {"measureMs", finiteSafe(t.measureMs)},
                                 {"gpuSampleMs", finiteSafe(t.gpuSampleMs)},
                                 {"otherMs", finiteSafe(t.otherMs)},
                                 {"prepareMs", finiteSafe(t.prepareMs)},
                                 {"setupMs", finiteSafe(t.setupMs)},
                                 {"warmupMs", finiteSafe(t.warmupMs)},
                                 {"samplingMs", finiteSafe(t.samplingMs)},
                                 {"measuredPoints", t.measuredPoints},
                                 {"overheadPerPointMs", finiteSafe(t.overheadPerPointMs)},
                                 {"medianOverheadMs", finiteSafe(t.medianOverheadMs)}};
    if (result.theoreticalPeakGBps) {
        document["theoreticalPeakGBps"] = finiteSafe(*result.theoreticalPeakGBps);
    }
    if (result.copyCeilingGBps) {
        document["copyCeilingGBps"] = finiteSafe(*result.copyCeilingGBps);
    }
    if (result.device) {
        document["device"] = *result.device;
    }
    document["spec"] = result.spec;
    if (result.shard) {
        document["shard"] = {{"index", result.shard->index},
                             {"count", result.shard->count},
                             {"totalPoints", result.shard->totalPoints}};
    }
    // Every point measures the same source; it is written once.
    std::string source;
    std::string fileName;
    if (!result.points.empty()) {
        source = result.points.front().point.request.source;
        fileName = result.points.front().point.request.fileName;
    }
    document["fileName"] = fileName;
    document["source"] = source;
    const std::optional<std::size_t> best = result.bestPoint();
    document["best"] = best ? json(*best) : json(nullptr);
    document["tiedWithBest"] = result.pointsTiedWithBest();
    if (!result.devices.empty()) {
        document["devices"] = result.devices;
        document["mixedModels"] = result.mixedModels();
        json perDevice = json::array();
        for (const auto &[device, point] : result.bestPointPerDevice()) {
            perDevice.push_back({{"device", device}, {"point", point}});
        }
        document["bestPerDevice"] = std::move(perDevice);
    }
    json points = json::array();
    for (const SweepPointResult &point : result.points) {
        json entry = point;
        if (point.point.request.source == source) {
            entry["request"].erase("source");
        }
        points.push_back(std::move(entry));
    }
    document["points"] = std::move(points);
    return document;
}

std::string serializeSweepResult(const SweepResult &result)
{
    return sweepResultToJson(result).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

namespace {

// The text as JSON, refused before a tree is built when it nests too deep; the error, or empty.
std::string parseResultJson(std::string_view text, json &document)
{
    // A result nests six deep; a file nested far deeper is refused before a tree is built
    // (util/jsondepth.h).
    constexpr std::size_t kMaxDepth = 64;
    if (const std::optional<std::size_t> deep = findJsonDeeperThan(text, kMaxDepth)) {
        return "not a readable sweep result: nested deeper than " + std::to_string(kMaxDepth) +
               " levels at byte " + std::to_string(*deep + 1);
    }
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::parse_error &error) {
        return "not a readable sweep result: " + plainJsonError(error);
    } catch (const json::out_of_range &error) {
        // A number too large for a double (1e999) is not a parse error to nlohmann.
        return "not a readable sweep result: " + plainJsonError(error);
    }
    return {};
}

// A sweep result's format and version, which this version reads; the error, or empty.
std::string checkResultFormat(const json &document, long long &found)
{
    if (!document.is_object()) {
        return std::string("a sweep result must be a JSON object, not ") + document.type_name();
    }
    const auto format = document.find("format");
    if (format != document.end() && *format != kSweepResultFormat) {
        return "this is not a CUDA Workbench sweep result (its format is " + format->dump() +
               ", expected \"" + kSweepResultFormat + "\")";
    }
    const auto version = document.find("formatVersion");
    if (version == document.end()) {
        return "formatVersion is missing; this is not a CUDA Workbench sweep result";
    }
    if (!version->is_number_integer()) {
        return "formatVersion must be a whole number, found " + version->dump();
    }
    found = version->get<long long>();
    if (found != kSweepResultFormatVersion) {
        return "the sweep result has format version " + std::to_string(found) +
               ", but this CUDA Workbench reads version " +
               std::to_string(kSweepResultFormatVersion) +
               (found > kSweepResultFormatVersion ? "; it was written by a newer CUDA Workbench"
                                                  : "; it was written by an older CUDA Workbench");
    }
    return {};
}

// The result's own fields: what was swept, where, when, and how it ended.
void readResultFields(const json &document, SweepResult &result)
{
    readString(document, "projectName", result.projectName);
    readString(document, "kernel", result.kernel);
    readString(document, "sourceHash", result.sourceHash);
    readString(document, "deviceName", result.deviceName);
    readString(document, "startedAt", result.startedAt);
    readDouble(document, "wallSeconds", result.wallSeconds);
    readBool(document, "cancelled", result.cancelled);
    readString(document, "error", result.error);
    read(document, "notes", result.notes);
    readDouble(document, "theoreticalPeakGBps", result.theoreticalPeakGBps);
    readDouble(document, "copyCeilingGBps", result.copyCeilingGBps);
    if (const auto device = document.find("device"); device != document.end()) {
        result.device = device->get<DeviceInfo>();
    }
    read(document, "spec", result.spec);
    if (const json *devices = member(document, "devices")) {
        inField("devices", [&] { result.devices = devices->get<std::vector<DeviceInfo>>(); });
    }
    if (const json *shard = member(document, "shard")) {
        inField("shard", [&] {
            SweepShard value;
            value.index = jsonread::integerFrom<int>(shard->at("index"));
            value.count = jsonread::integerFrom<int>(shard->at("count"));
            value.totalPoints = jsonread::integerFrom<std::size_t>(shard->at("totalPoints"));
            if (value.count < 1 || value.index < 1 || value.index > value.count) {
                fail("shard " + std::to_string(value.index) + " of " + std::to_string(value.count) +
                     " does not exist");
            }
            result.shard = value;
        });
    }
}

// The points, each request given back the source and file name the result keeps once.
void readResultPoints(const json &document, SweepResult &result)
{
    std::string source;
    std::string fileName;
    readString(document, "source", source);
    readString(document, "fileName", fileName);
    if (const json *points = member(document, "points")) {
        inField("points", [&] {
            if (!points->is_array()) {
                fail(std::string("expected an array, found ") + points->type_name());
            }
            for (std::size_t i = 0; i < points->size(); ++i) {
                inField("[" + std::to_string(i) + "]", [&] {
                    json entry = (*points)[i];
                    if (entry.is_object() && entry.contains("request") &&
                        entry["request"].is_object() && !entry["request"].contains("source")) {
                        entry["request"]["source"] = source;
                        if (!entry["request"].contains("fileName")) {
                            entry["request"]["fileName"] = fileName;
                        }
                    }
                    result.points.push_back(entry.get<SweepPointResult>());
                });
            }
        });
    }
}

} // namespace

SweepResultLoad parseSweepResult(std::string_view text)
{
    SweepResultLoad load;
    json document;
    load.error = parseResultJson(text, document);
    long long found = 0;
    if (load.error.empty())
        load.error = checkResultFormat(document, found);
    if (!load.error.empty())
        return load;
    SweepResult result;
    try {
        result.formatVersion = int(found);
        readResultFields(document, result);
        readResultPoints(document, result);
    } catch (const json::exception &error) {
        load.error = plainJsonError(error);
        return load;
    }
    load.result = std::move(result);
    return load;
}

SweepResultLoad loadSweepResult(const std::string &path)
{
    SweepResultLoad load;
    std::error_code code;
    if (std::filesystem::is_directory(path, code)) {
        load.error = "cannot read '" + path + "': it is a directory";
        return load;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        load.error = "cannot read '" + path + "': " + std::strerror(errno);
        return load;
    }
    std::ostringstream text;
    text << in.rdbuf();
    load = parseSweepResult(text.str());
    if (!load.error.empty()) {
        load.error = path + ": " + load.error;
    }
    return load;
}

} // namespace cuwb
