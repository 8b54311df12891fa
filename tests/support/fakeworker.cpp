// A stand-in for `cuwb worker` that misbehaves on purpose, for tst_workerprocess: the
// supervision logic (crash, hang, garbage, wrong id, stderr flood, early exit, wrong protocol)
// is tested without a GPU. Usage: cuwb_fakeworker MODE [MARKER]. A mode ending in "-once"
// misbehaves only while MARKER does not exist (and creates it), so that the worker started
// next behaves, as a real worker does after a fault.
//
// For the GUI's measurement tests it also plays a worker on a GPU: mode "measure-ok" says
// hello with an H200-like device, verifies a run request's checks as mode "checks" does (what
// `cuwb measure` runs first) and answers measure and metrics requests with figures like
// those of the copy sample on an H200 (a metric whose name contains "no_such" is refused as
// unknown); "metrics-denied" refuses the metrics pass for want of profiling permission; mode
// "devices" prints `cuwb devices --json` for that device. For Inspect, on the same device:
// "inspect-ok" answers an inspect request with the InspectResult recorded in the file named by
// $FAKE_INSPECT_RESULT (its JSON, bare or as the "result" of `cuwb inspect --json`);
// "inspect-denied" refuses it for want of profiling permission; "inspect-fault" answers that
// the kernel faulted and exits, as a real worker does. For `cuwb run`'s reading of a
// result: "out-of-bounds" answers a run whose kernel completed and verified but wrote 24
// elements past the end of `c`; "wrong" one whose output differs from the reference. Mode
// "checks" is a GPU worker that verifies as the request asks: every check of a run request gets
// a verdict of its own (passed, unless its expression contains "wrong"), with largest errors,
// a launch sequence gets each kernel's time, and a measurement of a sequence each kernel's
// samples (scaled by the source's "FAKE_TIME_SCALE=X", for rankings). When
// CUWB_FAKE_WORKER_LOG names a file, the type of every request (and "cancel") is appended to it,
// one a line; when CUWB_FAKE_WORKER_HELLO_DELAY_MS is set, the hello reply waits that long (a slow
// start). When CUWB_FAKE_WORKER_REQUESTS names a file, every request line is appended to it as
// it came (what a remote client sent along); $CUWB_FAKE_WORKER_VERSION is the hello's version,
// and $CUWB_FAKE_WORKER_SM ("9.9") the compute capability of its device (a GPU newer than
// the host's NVRTC knows).
#include "device/devicejson.h"
#include "inspect/instructioncountersjson.h"
#include "measure/statistics.h"
#include "run/verification.h"
#include "worker/protocol.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <string>
#include <unistd.h>

using namespace cuwb;

namespace {

void send(const nlohmann::json &reply)
{
    std::cout << encodeLine(reply) << std::flush;
}

// True the first time for a "-once" mode (creating the marker), always for the others.
bool misbehaveNow(const std::string &mode, const std::string &wanted, const char *marker)
{
    if (mode == wanted) {
        return true;
    }
    if (mode != wanted + "-once" || marker == nullptr) {
        return false;
    }
    if (std::ifstream(marker).good()) {
        return false;
    }
    std::ofstream(marker) << "done\n";
    return true;
}

void logRequest(const std::string &type)
{
    if (const char *path = std::getenv("CUWB_FAKE_WORKER_LOG")) {
        std::ofstream(path, std::ios::app) << type << '\n';
    }
}

// An H200 as `cuwb devices --json` describes it (docs/results/h200-foundation/devices.json).
DeviceInfo fakeH200()
{
    DeviceInfo device;
    device.name = "Fake H200";
    device.major = 9;
    device.minor = 0;
    device.smCount = 132;
    device.totalMemoryBytes = 150109880320ULL;
    device.smClockKHz = 1980000;
    device.memoryClockKHz = 3201000;
    device.memoryBusWidthBits = 6016;
    device.l2CacheBytes = 62914560;
    device.maxThreadsPerBlock = 1024;
    device.maxThreadsPerSm = 2048;
    device.maxBlocksPerSm = 32;
    device.registersPerSm = 65536;
    device.registersPerBlock = 65536;
    device.sharedPerSmBytes = 233472;
    device.sharedPerBlockBytes = 49152;
    device.sharedPerBlockOptinBytes = 232448;
    device.reservedSharedPerBlockBytes = 1024;
    const int block[3] = {1024, 1024, 64};
    const int grid[3] = {2147483647, 65535, 65535};
    for (int i = 0; i < 3; ++i) {
        device.maxBlockDim[i] = block[i];
        device.maxGridDim[i] = grid[i];
    }
    return device;
}

// A source that says "FAKE_TIME_SCALE=1.5" (in a comment) is measured 1.5 times as slow: the
// grading tests rank submissions by it.
void scaleBySource(Measurement &m, const std::string &source)
{
    const std::size_t at = source.find("FAKE_TIME_SCALE=");
    if (at == std::string::npos)
        return;
    const double scale = std::strtod(source.c_str() + at + 16, nullptr);
    if (!(scale > 0.0))
        return;
    for (double &sample : m.samplesNs)
        sample *= scale;
    m.eventSamplesNs = m.samplesNs;
    m.statistics = computeStatistics(m.samplesNs);
    m.eventStatistics = m.statistics;
    Throughput &t = m.throughput;
    t.effectiveGBps = *t.bytes / m.statistics.medianNs;
    t.percentOfPeak = *t.effectiveGBps / *t.theoreticalPeakGBps * 100.0;
    t.percentOfCeiling = *t.effectiveGBps / *t.copyCeilingGBps * 100.0;
    t.exceedsPeak = *t.effectiveGBps > *t.theoreticalPeakGBps;
}

// 60 samples around 199.3 µs, as the copy sample measures on an H200.
Measurement goodMeasurement(const WorkerRequest &request)
{
    Measurement m;
    m.settings = request.settings;
    for (int i = 0; i < 60; ++i) {
        m.samplesNs.push_back(199327.0 + ((i * 37) % 11 - 5) * 60.0);
        m.smClocksMHz.push_back(1980.0);
    }
    m.eventSamplesNs = m.samplesNs;
    m.statistics = computeStatistics(m.samplesNs);
    m.eventStatistics = m.statistics;
    m.stop = {true, StopReason::NoiseBelowTarget,
              "relative noise 0.09% below the target 0.50% after 60 samples"};
    m.timingSource = TimingSource::Cupti;
    m.smClockMinMHz = 1980.0;
    m.smClockMaxMHz = 1980.0;
    m.throughput.bytes = 536870912.0;
    m.throughput.effectiveGBps = 2693.4;
    m.throughput.theoreticalPeakGBps = 4814.3;
    m.throughput.percentOfPeak = 55.9;
    m.throughput.copyCeilingGBps = 4203.0;
    m.throughput.percentOfCeiling = 64.1;
    m.provenance.deviceName = "Fake H200";
    m.provenance.arch = "sm_90";
    m.provenance.kernel = request.run.launch.kernel;
    return m;
}

MetricsResult goodMetrics(const MetricsRequest &request)
{
    MetricsResult r;
    r.chip = "GH100";
    r.passes = 1;
    const std::map<std::string, double> known = {
        {"dram__bytes_read.sum", 268473344.0},
        {"dram__bytes_write.sum", 276572672.0},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 55.9},
        {"gpu__time_duration.sum", 202656.0},
        {"sm__warps_active.avg.pct_of_peak_sustained_active", 70.9},
    };
    for (const std::string &name : request.metrics) {
        if (name.find("no_such") != std::string::npos) {
            r.error = "unknown metric `" + name + "`: the chip GH100 has no metric of that name";
            r.passes = 0;
            r.values.clear();
            break;
        }
        const auto found = known.find(name);
        r.values[name] = found == known.end() ? 1.0 : found->second;
    }
    r.registersPerThread = 8;
    r.blockThreads = 256;
    r.gridBlocks = 262144;
    r.theoreticalOccupancy = 1.0;
    r.activeBlocksPerSm = 8;
    r.occupancyLimiter = "warps";
    r.waves = 248.24;
    return r;
}

RunResult goodResult(const RunRequest &request)
{
    RunResult result;
    result.status = RunStatus::Succeeded;
    result.message = "ran " + request.launch.kernel;
    result.kernelTimeMs = 1.5;
    result.device = "Fake GPU (sm_90)";
    BufferReport buffer;
    buffer.parameter = "c";
    buffer.count = 4;
    buffer.bytes = 16;
    buffer.handle = "run1/c";
    buffer.stats.valid = true;
    buffer.stats.min = -std::numeric_limits<double>::infinity();
    buffer.stats.max = 2.0;
    buffer.stats.mean = std::numeric_limits<double>::quiet_NaN();
    buffer.stats.nanCount = 1;
    result.buffers.push_back(buffer);
    return result;
}

// A run as a verifying worker reports it: each check's verdict, each kernel's time.
RunResult checkedResult(const RunRequest &request)
{
    RunResult result = goodResult(request);
    result.message.clear();
    for (std::size_t k = 0; k < request.verification.checks.size(); ++k) {
        const VerificationSpec &spec = request.verification.checks[k];
        const bool wrong = spec.expression.find("wrong") != std::string::npos;
        VerificationResult check;
        check.ran = true;
        check.passed = !wrong;
        check.output = spec.output;
        check.label = spec.label();
        check.checked = 4;
        check.mismatches = wrong ? 2 : 0;
        check.maxError = wrong ? 0.25 : 2e-7;
        check.maxErrorIndex = k + 2;
        check.maxAbsError = wrong ? 0.5 : 1e-7;
        check.maxAbsErrorIndex = k + 1;
        check.maxRelError = wrong ? 0.25 : 2e-7;
        check.maxRelErrorIndex = k + 2;
        check.message = wrong ? "2 of 4 elements of `" + spec.output + "` differ (rel > 1e-05)"
                              : "all 4 elements of `" + spec.output + "` match";
        result.checks.push_back(check);
    }
    result.verification = combineChecks(result.checks);
    if (!request.launch.then.empty()) {
        result.kernelTimes.push_back({request.launch.kernel, 1.0});
        for (const KernelStep &step : request.launch.then) {
            result.kernelTimes.push_back({step.kernel, 0.25});
        }
        result.kernelTimeMs = 1.0 + 0.25 * double(request.launch.then.size());
    }
    return result;
}

// A measurement of a sequence: each sample split among its kernels, the first taking half.
void splitAmongKernels(Measurement &m, const RunRequest &request)
{
    if (request.launch.then.empty()) {
        return;
    }
    const double others = double(request.launch.then.size());
    KernelSamples first{request.launch.kernel, {}, {}};
    for (const double sample : m.samplesNs) {
        first.samplesNs.push_back(sample / 2);
    }
    first.statistics = computeStatistics(first.samplesNs);
    m.kernels.push_back(first);
    for (const KernelStep &step : request.launch.then) {
        KernelSamples each{step.kernel, {}, {}};
        for (const double sample : m.samplesNs) {
            each.samplesNs.push_back(sample / 2 / others);
        }
        each.statistics = computeStatistics(each.samplesNs);
        m.kernels.push_back(each);
    }
}

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "ok";
    const char *marker = argc > 2 ? argv[2] : nullptr;
    if (mode == "exit") {
        return 0;
    }
    if (mode == "devices") {
        DeviceQuery query;
        query.driverLoaded = true;
        query.driverVersion = 13000;
        query.devices.push_back(fakeH200());
        std::cout << nlohmann::json(query).dump(2) << '\n';
        return 0;
    }
    const bool gpu = mode == "measure-ok" || mode == "metrics-denied" || mode == "checks" ||
                     mode.rfind("inspect-", 0) == 0;

    std::string line;
    while (std::getline(std::cin, line)) {
        const nlohmann::json message = nlohmann::json::parse(line);
        if (const char *path = std::getenv("CUWB_FAKE_WORKER_REQUESTS")) {
            std::ofstream(path, std::ios::app) << line << '\n';
        }
        if (isCancelRequest(message)) {
            logRequest("cancel");
            continue; // too late: nothing in flight
        }
        const WorkerRequest request = parseRequest(message);
        logRequest(message.value("type", std::string()));
        switch (request.type) {
        case WorkerRequest::Type::Hello: {
            if (mode == "hang-hello") {
                for (;;) {
                    pause();
                }
            }
            if (const char *delay = std::getenv("CUWB_FAKE_WORKER_HELLO_DELAY_MS")) {
                ::usleep(static_cast<useconds_t>(std::atoi(delay)) * 1000);
            }
            HelloReply hello;
            const char *version = std::getenv("CUWB_FAKE_WORKER_VERSION");
            hello.worker = version ? version : "fake";
            if (gpu) {
                hello.device = fakeH200();
                if (const char *sm = std::getenv("CUWB_FAKE_WORKER_SM")) {
                    std::sscanf(sm, "%d.%d", &hello.device->major, &hello.device->minor);
                }
                hello.freeMemoryBytes = 140000000000ULL;
                hello.driverVersion = 13000;
                hello.nvrtcVersion = "13.0";
            } else {
                hello.message = "no GPU: this is a fake worker";
            }
            if (mode == "protocol") {
                hello.protocol = 99;
            }
            send(makeHelloReply(request.id, hello));
            if (mode == "close-stdin") {
                // Stops reading: the client's next write gets EPIPE, then this exits.
                ::close(STDIN_FILENO);
                ::usleep(200 * 1000);
                return 0;
            }
            break;
        }
        case WorkerRequest::Type::Measure: {
            Measurement measurement;
            measurement.settings = request.settings;
            if (mode == "measure-until-cancel") {
                // Samples "forever" until the client's cancel arrives, then answers with them.
                std::string next;
                while (std::getline(std::cin, next) &&
                       !isCancelRequest(nlohmann::json::parse(next))) {
                }
                logRequest("cancel");
                measurement.samplesNs = {1000.0, 1001.0, 999.0};
                measurement.statistics = computeStatistics(measurement.samplesNs);
                measurement.stop = {true, StopReason::Cancelled, "cancelled after 3 samples"};
                send(makeMeasurementReply(request.id, measurement));
                break;
            }
            if (gpu) {
                Measurement good = goodMeasurement(request);
                scaleBySource(good, request.run.source);
                splitAmongKernels(good, request.run);
                send(makeMeasurementReply(request.id, good));
                break;
            }
            measurement.faultStatus = "no-device";
            measurement.faultMessage = "this is a fake worker";
            send(makeMeasurementReply(request.id, measurement));
            break;
        }
        case WorkerRequest::Type::Inspect: {
            InspectResult result;
            result.error = "this is a fake worker";
            const char *recorded = std::getenv("FAKE_INSPECT_RESULT");
            if (mode == "inspect-ok" && recorded) {
                std::ifstream in(recorded);
                const nlohmann::json json = nlohmann::json::parse(in);
                result = (json.contains("result") ? json.at("result") : json).get<InspectResult>();
            } else if (mode == "inspect-denied") {
                result.kernel = request.run.launch.kernel;
                result.permissionDenied = true;
                result.error = "hardware metrics need permission to use the GPU's performance "
                               "counters (fake): run as root, or load the nvidia module with "
                               "NVreg_RestrictProfilingToAdminUsers=0";
            } else if (mode == "inspect-fault") {
                result.kernel = request.run.launch.kernel;
                result.error = "the kernel faulted: an illegal memory access was encountered "
                               "(fake)";
                send(makeInspectReply(request.id, result, true));
                _exit(3);
            }
            send(makeInspectReply(request.id, result));
            break;
        }
        case WorkerRequest::Type::Metrics: {
            MetricsResult result;
            if (mode == "measure-ok") {
                result = goodMetrics(request.metrics);
            } else if (mode == "metrics-denied") {
                result = goodMetrics(request.metrics);
                result.values.clear();
                result.passes = 0;
                result.permissionDenied = true;
                result.error = "hardware metrics need permission to use the GPU's performance "
                               "counters (fake)";
            } else {
                result.error = "this is a fake worker";
            }
            send(makeMetricsReply(request.id, result));
            break;
        }
        case WorkerRequest::Type::Run:
            if (misbehaveNow(mode, "crash", marker)) {
                std::abort();
            }
            if (misbehaveNow(mode, "hang", marker)) {
                for (;;) {
                    pause();
                }
            }
            if (misbehaveNow(mode, "garbage", marker)) {
                std::cout << "this is not json\n" << std::flush;
                break;
            }
            if (misbehaveNow(mode, "wrongid", marker)) {
                send(makeRunResultReply(request.id.get<long long>() + 1000,
                                        goodResult(request.run)));
                break;
            }
            if (misbehaveNow(mode, "error", marker)) {
                send(makeErrorReply(request.id, "no such kernel"));
                break;
            }
            if (mode == "flood") {
                const std::string chunk(4096, 'x');
                for (int i = 0; i < 1024; ++i) { // 4 MiB, far more than a pipe holds
                    std::fwrite(chunk.data(), 1, chunk.size(), stderr);
                }
                std::fputs("\nflood-end\n", stderr);
                std::fflush(stderr);
            }
            if (mode == "out-of-bounds" || mode == "wrong") {
                RunResult result = goodResult(request.run);
                result.message.clear();
                result.verification.ran = true;
                result.verification.checked = 4;
                result.verification.passed = mode == "out-of-bounds";
                if (mode == "out-of-bounds") {
                    GuardViolation violation;
                    violation.elements = 24;
                    violation.firstIndex = 4;
                    violation.message = "wrote 24 elements past the end of `c`, first at index 4";
                    result.buffers.front().guardViolations.push_back(violation);
                } else {
                    result.verification.mismatches = 3;
                    result.verification.message = "3 of 4 elements differ (abs > 0)";
                }
                send(makeRunResultReply(request.id, result));
                break;
            }
            if (mode == "checks" || mode == "measure-ok") {
                send(makeRunResultReply(request.id, checkedResult(request.run)));
                break;
            }
            if (misbehaveNow(mode, "exiting", marker)) {
                send(makeRunResultReply(request.id, goodResult(request.run), true));
                _exit(3);
            }
            send(makeRunResultReply(request.id, goodResult(request.run)));
            break;
        case WorkerRequest::Type::Page: {
            Page page;
            page.handle = request.page.handle;
            page.first = request.page.first;
            page.values = {"1.5", "nan"};
            send(makePageReply(request.id, page));
            break;
        }
        case WorkerRequest::Type::Export:
            send(makeExportedReply(request.id, ExportReply{request.path, 16, std::nullopt}));
            break;
        case WorkerRequest::Type::Release:
            send(makeReleasedReply(request.id));
            break;
        case WorkerRequest::Type::Shutdown:
            send(makeByeReply(request.id));
            return 0;
        }
    }
    return 0;
}
