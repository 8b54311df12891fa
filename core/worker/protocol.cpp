#include "worker/protocol.h"

#include "compiler/compilejson.h"
#include "device/devicejson.h"
#include "inspect/instructioncountersjson.h"
#include "launch/launchjson.h"
#include "measure/measurejson.h"
#include "util/base64.h"
#include "util/jsonread.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace cuwb {

namespace {

using jsonread::malformed;
using jsonread::readIfPresent;
using nlohmann::json;

const json &requireType(const json &message, const char *type)
{
    if (!message.is_object()) {
        malformed(message, "a message must be a JSON object");
    }
    const std::string actual = message.at("type").get<std::string>();
    if (actual != type) {
        malformed(message, "expected a '" + std::string(type) + "' message, got '" + actual + "'");
    }
    return message;
}

json makeRequest(const char *type)
{
    return json{{"type", type}};
}

json makeReply(const json &id, const char *type)
{
    return json{{"id", id}, {"type", type}};
}

} // namespace

// ---- Values ----

std::string workbenchVersion()
{
    return CUWB_VERSION;
}

json makeHelloRequest()
{
    json out = makeRequest(message::kHello);
    out["protocol"] = kWorkerProtocolVersion;
    out["cuwb"] = workbenchVersion();
    return out;
}

json makeRunRequest(const RunRequest &request)
{
    json out = makeRequest(message::kRun);
    out["request"] = request;
    return out;
}

json makeMeasureRequest(const RunRequest &request, const SampleSettings &settings,
                        const ThroughputExpressions &throughput)
{
    json out = makeRequest(message::kMeasure);
    out["request"] = request;
    out["settings"] = settings;
    if (throughput != ThroughputExpressions{}) {
        out["throughput"] = throughput;
    }
    return out;
}

json makeMetricsRequest(const RunRequest &request, const MetricsRequest &metrics)
{
    json out = makeRequest(message::kMetrics);
    out["request"] = request;
    out["metrics"] = metrics.metrics;
    return out;
}

json makeInspectRequest(const RunRequest &request, const InspectRequest &inspect)
{
    json out = makeRequest(message::kInspect);
    out["request"] = request;
    out["metrics"] = inspect.metrics;
    out["stalls"] = inspect.sampleStalls;
    return out;
}

json makePageRequest(const PageRequest &request)
{
    json out = makeRequest(message::kPage);
    out["handle"] = request.handle;
    out["first"] = request.first;
    out["count"] = request.count;
    return out;
}

json makeExportRequest(const std::string &handle, const std::string &path, ExportFormat format,
                       bool returnData)
{
    json out = makeRequest(message::kExport);
    out["handle"] = handle;
    out["path"] = path;
    out["format"] = exportFormatName(format);
    if (returnData) {
        out["return"] = true;
    }
    return out;
}

void attachInputFiles(json &request, const std::vector<InlineFile> &files)
{
    if (files.empty()) {
        return;
    }
    json list = json::array();
    for (const InlineFile &file : files) {
        list.push_back(json{{"path", file.path}, {"data", toBase64(file.bytes)}});
    }
    request["files"] = std::move(list);
}

json makeReleaseRequest()
{
    return makeRequest(message::kRelease);
}

json makeShutdownRequest()
{
    return makeRequest(message::kShutdown);
}

json makeCancelRequest()
{
    return makeRequest(message::kCancel);
}

bool isCancelRequest(const json &message)
{
    if (!message.is_object()) {
        return false;
    }
    const auto type = message.find("type");
    return type != message.end() && type->is_string() && *type == message::kCancel;
}

WorkerRequest parseRequest(const json &message)
{
    if (!message.is_object()) {
        malformed(message, "a request must be a JSON object");
    }
    WorkerRequest request;
    request.id = message.at("id");
    if (!request.id.is_number_integer()) {
        malformed(message, "a request's id must be an integer");
    }
    const std::string type = message.at("type").get<std::string>();
    if (const auto files = message.find("files"); files != message.end()) {
        for (const json &file : files->get_ref<const json::array_t &>()) {
            InlineFile inlineFile;
            file.at("path").get_to(inlineFile.path);
            if (!fromBase64(file.at("data").get<std::string>(), inlineFile.bytes)) {
                malformed(message, "the data of the file " + inlineFile.path + " is not base64");
            }
            request.files.push_back(std::move(inlineFile));
        }
    }
    if (type == message::kHello) {
        request.type = WorkerRequest::Type::Hello;
        message.at("protocol").get_to(request.protocol);
        readIfPresent(message, "cuwb", request.client);
    } else if (type == message::kRun) {
        request.type = WorkerRequest::Type::Run;
        message.at("request").get_to(request.run);
    } else if (type == message::kMeasure) {
        request.type = WorkerRequest::Type::Measure;
        message.at("request").get_to(request.run);
        if (const auto it = message.find("settings"); it != message.end()) {
            it->get_to(request.settings);
        }
        if (const auto it = message.find("throughput"); it != message.end()) {
            it->get_to(request.throughput);
        }
    } else if (type == message::kMetrics) {
        request.type = WorkerRequest::Type::Metrics;
        message.at("request").get_to(request.run);
        if (const auto it = message.find("metrics"); it != message.end()) {
            it->get_to(request.metrics.metrics);
        }
    } else if (type == message::kInspect) {
        request.type = WorkerRequest::Type::Inspect;
        message.at("request").get_to(request.run);
        if (const auto it = message.find("metrics"); it != message.end()) {
            it->get_to(request.inspect.metrics);
        }
        request.inspect.sampleStalls = message.value("stalls", true);
    } else if (type == message::kPage) {
        request.type = WorkerRequest::Type::Page;
        message.get_to(request.page);
    } else if (type == message::kExport) {
        request.type = WorkerRequest::Type::Export;
        message.at("handle").get_to(request.handle);
        message.at("path").get_to(request.path);
        const std::string format = message.at("format").get<std::string>();
        const std::optional<ExportFormat> parsed = parseExportFormat(format);
        if (!parsed) {
            malformed(message, "unknown export format '" + format + "' (npy, bin or csv)");
        }
        request.format = *parsed;
        request.returnData = message.value("return", false);
    } else if (type == message::kRelease) {
        request.type = WorkerRequest::Type::Release;
    } else if (type == message::kShutdown) {
        request.type = WorkerRequest::Type::Shutdown;
    } else {
        malformed(message, "unknown request type '" + type + "'");
    }
    return request;
}

// ---- Replies ----

json makeHelloReply(const json &id, const HelloReply &hello)
{
    json out = makeReply(id, message::kHello);
    out["protocol"] = hello.protocol;
    out["worker"] = hello.worker;
    out["device"] = hello.device ? json(*hello.device) : json(nullptr);
    out["message"] = hello.message;
    out["freeMemoryBytes"] = hello.freeMemoryBytes;
    out["driverVersion"] = hello.driverVersion;
    out["nvrtcVersion"] = hello.nvrtcVersion;
    return out;
}

json makeRunResultReply(const json &id, const RunResult &result, bool exiting)
{
    json out = makeReply(id, message::kRunResult);
    out["result"] = result;
    if (exiting) {
        out["exiting"] = true;
    }
    return out;
}

json makeMeasurementReply(const json &id, const Measurement &measurement, bool exiting)
{
    json out = makeReply(id, message::kMeasurement);
    out["measurement"] = measurement;
    if (exiting) {
        out["exiting"] = true;
    }
    return out;
}

json makeMetricsReply(const json &id, const MetricsResult &result, bool exiting)
{
    json out = makeReply(id, message::kMetrics);
    out["result"] = result;
    if (exiting) {
        out["exiting"] = true;
    }
    return out;
}

json makeInspectReply(const json &id, const InspectResult &result, bool exiting)
{
    json out = makeReply(id, message::kInspect);
    out["result"] = result;
    if (exiting) {
        out["exiting"] = true;
    }
    return out;
}

json makePageReply(const json &id, const Page &page)
{
    json out = makeReply(id, message::kPage);
    out["handle"] = page.handle;
    out["first"] = page.first;
    out["values"] = page.values;
    return out;
}

json makeExportedReply(const json &id, const ExportReply &reply)
{
    json out = makeReply(id, message::kExported);
    out["path"] = reply.path;
    out["bytes"] = reply.bytes;
    if (reply.data) {
        out["data"] = toBase64(*reply.data);
    }
    return out;
}

json makeReleasedReply(const json &id)
{
    return makeReply(id, message::kReleased);
}

json makeByeReply(const json &id)
{
    return makeReply(id, message::kBye);
}

json makeErrorReply(const json &id, const std::string &text, bool exiting)
{
    json out = makeReply(id, message::kError);
    out["message"] = text;
    if (exiting) {
        out["exiting"] = true;
    }
    return out;
}

HelloReply parseHelloReply(const json &message)
{
    requireType(message, message::kHello);
    HelloReply hello;
    message.at("protocol").get_to(hello.protocol);
    readIfPresent(message, "worker", hello.worker);
    if (const auto it = message.find("device"); it != message.end() && !it->is_null()) {
        hello.device = it->get<DeviceInfo>();
    }
    readIfPresent(message, "message", hello.message);
    readIfPresent(message, "freeMemoryBytes", hello.freeMemoryBytes);
    readIfPresent(message, "driverVersion", hello.driverVersion);
    readIfPresent(message, "nvrtcVersion", hello.nvrtcVersion);
    return hello;
}

RunResult parseRunResultReply(const json &message)
{
    return requireType(message, message::kRunResult).at("result").get<RunResult>();
}

Measurement parseMeasurementReply(const json &message)
{
    return requireType(message, message::kMeasurement).at("measurement").get<Measurement>();
}

MetricsResult parseMetricsReply(const json &message)
{
    return requireType(message, message::kMetrics).at("result").get<MetricsResult>();
}

InspectResult parseInspectReply(const json &message)
{
    return requireType(message, message::kInspect).at("result").get<InspectResult>();
}

Page parsePageReply(const json &message)
{
    return requireType(message, message::kPage).get<Page>();
}

ExportReply parseExportedReply(const json &message)
{
    requireType(message, message::kExported);
    ExportReply reply;
    message.at("path").get_to(reply.path);
    message.at("bytes").get_to(reply.bytes);
    if (const auto data = message.find("data"); data != message.end()) {
        std::string bytes;
        if (!fromBase64(data->get<std::string>(), bytes)) {
            malformed(message, "the exported file's data is not base64");
        }
        reply.data = std::move(bytes);
    }
    return reply;
}

std::string parseErrorReply(const json &message)
{
    return requireType(message, message::kError).at("message").get<std::string>();
}

bool replyIsExiting(const json &message)
{
    if (!message.is_object()) {
        return false;
    }
    const auto it = message.find("exiting");
    return it != message.end() && it->is_boolean() && it->get<bool>();
}

std::string encodeLine(const json &message)
{
    std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    return line;
}

} // namespace cuwb
