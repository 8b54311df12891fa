// The worker protocol: one JSON object per line over the worker's stdin/stdout, versioned.
// Every request has an "id" and a "type"; every reply repeats the id.
//
//   -> {"id":1,"type":"hello","protocol":1,"cuwb":"0.1.0"}
//   <- {"id":1,"type":"hello","protocol":1,"worker":"0.1.0","device":{DeviceInfo},
//       "freeMemoryBytes":N,"driverVersion":13000,"nvrtcVersion":"13.0"}
//   -> {"id":2,"type":"run","request":{RunRequest}}
//   <- {"id":2,"type":"runResult","result":{RunResult}}
//   -> {"id":7,"type":"measure","request":{RunRequest},"settings":{SampleSettings}}
//   <- {"id":7,"type":"measurement","measurement":{Measurement}}
//   -> {"id":3,"type":"page","handle":"run2/c","first":0,"count":256}
//   <- {"id":3,"type":"page","handle":"run2/c","first":0,"values":["1.5","nan",...]}
//   -> {"id":4,"type":"export","handle":"run2/c","path":"/tmp/c.npy","format":"npy"}
//   <- {"id":4,"type":"exported","path":"/tmp/c.npy","bytes":N}
//   -> {"id":4,"type":"export","handle":"run2/c","path":"c.npy","format":"npy","return":true}
//   <- {"id":4,"type":"exported","path":"c.npy","bytes":N,"data":"<base64>"}  (a remote
//      worker: the file comes back over the channel and the client writes it)
//
// A remote worker's run, measure, metrics and inspect requests may carry the input files the
// request names: "files":[{"path":"in.npy","data":"<base64>"}] (worker/inlinefiles.h).
//   -> {"id":5,"type":"release"}            (frees the buffers of the last run)
//   <- {"id":5,"type":"released"}
//   -> {"id":6,"type":"shutdown"}
//   <- {"id":6,"type":"bye"}                 (then the worker exits 0)
//   <- {"id":N,"type":"error","message":"..."} for a request it could not serve
//
// Without a driver or a GPU the hello reply has "device":null and says why in "message"; a
// run is then answered with status "no-device". Doubles that are not finite travel as the
// strings "nan", "inf" and "-inf" (JSON has no NaN).
//
// After a device fault or a timeout the worker answers the run with "exiting":true, then
// exits: the CUDA context is unusable (docs/measurement.md, Faults) and the client starts a new
// worker. The GUI and the CLI build and read messages only through the functions below.
#pragma once

#include "device/deviceinfo.h"
#include "inspect/instructioncounters.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "run/runjson.h"
#include "run/runrequest.h"
#include "run/runresult.h"
#include "worker/inlinefiles.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

inline constexpr int kWorkerProtocolVersion = 1;

// This program's version ("0.1.0"): the hello carries it both ways (docs/remote.md).
std::string workbenchVersion();

// ---- Messages. Requests are built without an "id": WorkerProcess::request() adds it. ----

// Request and reply "type" values.
namespace message {
inline constexpr const char *kHello = "hello";
inline constexpr const char *kRun = "run";
inline constexpr const char *kRunResult = "runResult";
inline constexpr const char *kMeasure = "measure";
inline constexpr const char *kMeasurement = "measurement";
inline constexpr const char *kMetrics = "metrics"; // request and its reply
inline constexpr const char *kInspect = "inspect"; // request and its reply
inline constexpr const char *kPage = "page";
inline constexpr const char *kExport = "export";
inline constexpr const char *kExported = "exported";
inline constexpr const char *kRelease = "release";
inline constexpr const char *kReleased = "released";
inline constexpr const char *kShutdown = "shutdown";
inline constexpr const char *kCancel = "cancel"; // no id, no reply of its own
inline constexpr const char *kBye = "bye";
inline constexpr const char *kError = "error";
} // namespace message

nlohmann::json makeHelloRequest();
nlohmann::json makeRunRequest(const RunRequest &request);
// The expressions are sent only when set ("throughput": {"bytes", "flops"}), so the request
// of an older client reads unchanged.
nlohmann::json makeMeasureRequest(const RunRequest &request, const SampleSettings &settings,
                                  const ThroughputExpressions &throughput = {});
// A separate metrics pass (CUPTI Range Profiler) of the request's launch, never timed.
nlohmann::json makeMetricsRequest(const RunRequest &request, const MetricsRequest &metrics);
// The inspection pass (CUPTI's SASS metrics, counters per instruction) of the request's launch.
nlohmann::json makeInspectRequest(const RunRequest &request, const InspectRequest &inspect);
nlohmann::json makePageRequest(const PageRequest &request);
// returnData: the worker sends the file back in the reply instead of keeping it (a remote
// worker, whose paths are on another machine); it refuses more than kMaxReturnedExportBytes.
nlohmann::json makeExportRequest(const std::string &handle, const std::string &path,
                                 ExportFormat format, bool returnData = false);
inline constexpr std::uint64_t kMaxReturnedExportBytes = std::uint64_t(128) << 20;
// Adds input files to a run, measure, metrics or inspect request (nothing when empty).
void attachInputFiles(nlohmann::json &request, const std::vector<InlineFile> &files);
nlohmann::json makeReleaseRequest();
nlohmann::json makeShutdownRequest();
// {"type": "cancel"}: sent while a request is in flight; the worker ends that request early
// and its reply says so (a measurement: stop reason "cancelled", the samples taken so far).
// It has no id and gets no reply of its own; a cancel that arrives when nothing is in flight
// is ignored.
nlohmann::json makeCancelRequest();
bool isCancelRequest(const nlohmann::json &message);

// What the worker reads: a request of any type. parseRequest throws nlohmann::json::exception
// when the line is not a well-formed request (unknown type, missing or mistyped fields).
struct WorkerRequest
{
    enum class Type { Hello, Run, Measure, Metrics, Inspect, Page, Export, Release, Shutdown };
    nlohmann::json id; // echoed verbatim in the reply
    Type type = Type::Hello;
    int protocol = 0;                        // Hello
    std::string client;                      // Hello: the client's cuwb version, if it says
    RunRequest run;                          // Run, Measure, Metrics, Inspect
    MetricsRequest metrics;                  // Metrics
    InspectRequest inspect;                  // Inspect
    SampleSettings settings;                 // Measure
    ThroughputExpressions throughput;        // Measure
    PageRequest page;                        // Page
    std::string handle;                      // Export
    std::string path;                        // Export
    ExportFormat format = ExportFormat::Npy; // Export
    bool returnData = false;                 // Export
    std::vector<InlineFile> files;           // Run, Measure, Metrics, Inspect
};
WorkerRequest parseRequest(const nlohmann::json &message);

struct HelloReply
{
    int protocol = kWorkerProtocolVersion;
    std::string worker;               // the worker's version, "0.1.0"
    std::optional<DeviceInfo> device; // none without a driver or a GPU
    std::string message;              // why there is no device; empty when there is one
    std::uint64_t freeMemoryBytes = 0;
    int driverVersion = 0;    // e.g. 13000; 0 without a driver
    std::string nvrtcVersion; // "13.0"
};

struct ExportReply
{
    std::string path;
    std::uint64_t bytes = 0;
    std::optional<std::string> data; // the file's bytes, when the request asked for them
};

// Replies, built by the worker with the request's id. `exiting`: the worker exits after this
// reply (its context is lost), so the client must not send it another request.
nlohmann::json makeHelloReply(const nlohmann::json &id, const HelloReply &hello);
nlohmann::json makeRunResultReply(const nlohmann::json &id, const RunResult &result,
                                  bool exiting = false);
// A measurement that could not run (no GPU, a fault) says why in faultStatus/faultMessage.
nlohmann::json makeMeasurementReply(const nlohmann::json &id, const Measurement &measurement,
                                    bool exiting = false);
// A refused pass (no permission, unknown metric) or a fault says why in the result's error.
nlohmann::json makeMetricsReply(const nlohmann::json &id, const MetricsResult &result,
                                bool exiting = false);
nlohmann::json makeInspectReply(const nlohmann::json &id, const InspectResult &result,
                                bool exiting = false);
nlohmann::json makePageReply(const nlohmann::json &id, const Page &page);
nlohmann::json makeExportedReply(const nlohmann::json &id, const ExportReply &reply);
nlohmann::json makeReleasedReply(const nlohmann::json &id);
nlohmann::json makeByeReply(const nlohmann::json &id);
nlohmann::json makeErrorReply(const nlohmann::json &id, const std::string &message,
                              bool exiting = false);

// Reading replies; each throws nlohmann::json::exception when the message is not of its type.
HelloReply parseHelloReply(const nlohmann::json &message);
RunResult parseRunResultReply(const nlohmann::json &message);
Measurement parseMeasurementReply(const nlohmann::json &message);
MetricsResult parseMetricsReply(const nlohmann::json &message);
InspectResult parseInspectReply(const nlohmann::json &message);
Page parsePageReply(const nlohmann::json &message);
ExportReply parseExportedReply(const nlohmann::json &message);
std::string parseErrorReply(const nlohmann::json &message);
bool replyIsExiting(const nlohmann::json &message); // "exiting": true

// One message as one line: compact JSON, invalid UTF-8 replaced (never throws for text).
std::string encodeLine(const nlohmann::json &message);

} // namespace cuwb
