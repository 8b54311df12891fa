// A stand-in for `cuwb worker` on a GPU, for the sweep runner's tests and `cuwb sweep
// --worker` in tests/cli: the sweep paths are tested without a GPU. Usage:
// cuwb_fakesweepworker [MODE [MARKER]].
//
// The hello names a device ("Fake H200", sm_90, 132 SMs). Every measure request gets the
// samples it asks for (10 when adaptive), with a median that depends on block.x: 1000 ns at
// 256, 100 ns more per power of two away from it, and half that where -DFAKE_WRONG=1 (a wrong
// kernel that looks fast). A run request verifies, except where -DFAKE_WRONG=1; its checks
// report largest errors that depend on block.x (abs block.x * 1e-9 at index block.x / 32, rel
// twice that at the next index).
// MODE "crash-at-K": abort at the K-th measure request while MARKER does not exist (creating
// it first), so that the worker started next behaves. "cancel-at-K": answer the K-th measure
// request only once a cancel arrives, with two samples and stop reason "cancelled".
// "no-device": the hello names no device, as `cuwb worker` on a machine without a GPU. A
// metrics request gets a made-up value (1, 2, 3, ... in request order) for exactly the metrics
// it names, so tests see what the host asked for; no value is a measurement. When
// CUWB_FAKE_WORKER_LOG names a file, the type of every request is appended to it, one a line.
// "hang-at-K": never answer the K-th measure request while MARKER does not exist (creating it
// first, with this process's id, so that the test can end it), as a worker whose connection is
// about to be cut. The hello names the version in
// $CUWB_FAKE_WORKER_VERSION when it is set (a remote worker's must match the client's).
//
// Several GPUs, for MultiDeviceSweep and `cuwb sweep --devices` (docs/multigpu.md): the
// arguments may hold `--device N` anywhere (as `cuwb worker --device N`). $CUWB_FAKE_DEVICES
// lists the machine's GPUs, "NAME[:MAJOR.MINOR],..." (default compute capability 9.0): the
// worker of GPU N names the N-th (ordinal N), or no device when there is none. Without it,
// every worker has the one Fake H200. $CUWB_FAKE_DEVICE_MODES ("N=MODE;N=MODE") gives GPU N a
// MODE of its own in place of the argument's, with the marker $CUWB_FAKE_MARKER.N (or
// MARKER.N): the modes above, and "no-start" (exit before the hello, as a worker whose GPU is
// gone), "crash-block-V" (abort at every measure request of block.x = V), "fault-block-V"
// (answer it with a device fault and exit, as a real worker after an illegal address),
// "die-at-K" (abort at the K-th measure request, creating the marker, and while the marker
// exists exit before the hello: a GPU lost mid-sweep). $CUWB_FAKE_MEASURE_DELAY_MS holds
// every measure and run request that long; when $CUWB_FAKE_TIMELINE names a file, each such
// request appends "begin GPU BLOCKX PID" on arrival and "end GPU BLOCKX PID" before its reply,
// one write a line, so tests count the workers measuring at once from the order of the lines.
// When $CUWB_FAKE_CWD_LOG names a file, each run request appends the worker's working directory
// (a graded project's scratch folder).
#include "device/devicejson.h"
#include "launch/expression.h"
#include "measure/statistics.h"
#include "worker/protocol.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace cuwb;

namespace {

void send(const nlohmann::json &reply)
{
    std::cout << encodeLine(reply) << std::flush;
}

void logRequest(const std::string &type)
{
    if (const char *path = std::getenv("CUWB_FAKE_WORKER_LOG")) {
        std::ofstream(path, std::ios::app) << type << '\n';
    }
}

bool hasDefine(const RunRequest &request, const std::string &define)
{
    const auto &defines = request.options.defines;
    return std::find(defines.begin(), defines.end(), define) != defines.end();
}

// The GPU this worker opens: $CUWB_FAKE_DEVICES' entry `ordinal`, or the one Fake H200.
std::optional<DeviceInfo> fakeDevice(int ordinal)
{
    DeviceInfo device;
    device.name = "Fake H200";
    device.major = 9;
    device.minor = 0;
    device.ordinal = ordinal;
    if (const char *list = std::getenv("CUWB_FAKE_DEVICES")) {
        std::istringstream in(list);
        std::vector<std::string> entries;
        for (std::string entry; std::getline(in, entry, ',');) {
            entries.push_back(entry);
        }
        if (ordinal < 0 || std::size_t(ordinal) >= entries.size()) {
            return std::nullopt;
        }
        const std::string &entry = entries[std::size_t(ordinal)];
        const std::size_t colon = entry.find(':');
        device.name = entry.substr(0, colon);
        if (colon != std::string::npos) {
            device.major = std::atoi(entry.c_str() + colon + 1);
            const std::size_t dot = entry.find('.', colon);
            device.minor = dot == std::string::npos ? 0 : std::atoi(entry.c_str() + dot + 1);
        }
    }
    device.smCount = 132;
    device.memoryClockKHz = 3201000;
    device.memoryBusWidthBits = 6016;
    return device;
}

// GPU `ordinal`'s mode in $CUWB_FAKE_DEVICE_MODES, or empty.
std::string deviceMode(int ordinal)
{
    const char *modes = std::getenv("CUWB_FAKE_DEVICE_MODES");
    if (modes == nullptr) {
        return {};
    }
    std::istringstream in(modes);
    const std::string prefix = std::to_string(ordinal) + "=";
    for (std::string entry; std::getline(in, entry, ';');) {
        if (entry.rfind(prefix, 0) == 0) {
            return entry.substr(prefix.size());
        }
    }
    return {};
}

// One line appended with a single write(2), so lines of several workers never interleave.
void timeline(const char *event, int ordinal, double blockX)
{
    const char *path = std::getenv("CUWB_FAKE_TIMELINE");
    if (path == nullptr) {
        return;
    }
    const std::string line = std::string(event) + " " + std::to_string(ordinal) + " " +
                             std::to_string(long(blockX)) + " " + std::to_string(::getpid()) + "\n";
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        (void)!::write(fd, line.data(), line.size());
        ::close(fd);
    }
}

double blockXOf(const WorkerRequest &request)
{
    const LaunchSpec &launch = request.run.launch;
    const Variables variables = evaluateVariables(launch.variables).values;
    return evaluateExpression(launch.block[0], variables).value;
}

// The K of "crash-at-K" or "cancel-at-K"; 0 when the mode is not that one.
int requestNumber(const std::string &mode, const std::string &prefix)
{
    return mode.rfind(prefix, 0) == 0 ? std::atoi(mode.c_str() + prefix.size()) : 0;
}

Measurement measurementOf(const WorkerRequest &request, std::size_t samples,
                          const std::string &deviceName)
{
    const LaunchSpec &launch = request.run.launch;
    const double blockX = blockXOf(request);
    double ns = 1000.0 + 100.0 * std::fabs(std::log2(std::max(blockX, 1.0) / 256.0));
    if (hasDefine(request.run, "FAKE_WRONG=1")) {
        ns /= 2;
    }
    Measurement m;
    m.settings = request.settings;
    for (std::size_t i = 0; i < samples; ++i) {
        m.samplesNs.push_back(ns + double(i % 3) - 1.0);
    }
    m.eventSamplesNs = m.samplesNs;
    m.statistics = computeStatistics(m.samplesNs);
    m.eventStatistics = m.statistics;
    m.stop = {true, StopReason::FixedCount, "fixed count reached"};
    m.throughput.bytes = 8.0e6;
    m.throughput.effectiveGBps = 8.0e6 / m.statistics.medianNs;
    m.throughput.theoreticalPeakGBps = 4814.3;
    m.throughput.percentOfPeak = *m.throughput.effectiveGBps / 4814.3 * 100.0;
    m.throughput.copyCeilingGBps = 4210.0;
    m.throughput.percentOfCeiling = *m.throughput.effectiveGBps / 4210.0 * 100.0;
    m.provenance.deviceName = deviceName;
    m.provenance.arch = "sm_90";
    m.provenance.kernel = launch.kernel;
    return m;
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> arguments;
    int ordinal = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--device" && i + 1 < argc) {
            ordinal = std::atoi(argv[++i]);
        } else {
            arguments.emplace_back(argv[i]);
        }
    }
    std::string mode = !arguments.empty() ? arguments[0] : "ok";
    std::string markerPath = arguments.size() > 1 ? arguments[1] : std::string();
    if (const std::string own = deviceMode(ordinal); !own.empty()) {
        mode = own;
        const char *base = std::getenv("CUWB_FAKE_MARKER");
        markerPath = (base ? std::string(base) : markerPath) + "." + std::to_string(ordinal);
    }
    const char *marker = markerPath.empty() ? nullptr : markerPath.c_str();
    const int crashAt = requestNumber(mode, "crash-at-");
    const int cancelAt = requestNumber(mode, "cancel-at-");
    const int hangAt = requestNumber(mode, "hang-at-");
    const int dieAt = requestNumber(mode, "die-at-");
    const int crashBlock = requestNumber(mode, "crash-block-");
    const int faultBlock = requestNumber(mode, "fault-block-");
    if (mode == "no-start" || (dieAt > 0 && marker != nullptr && std::ifstream(marker).good())) {
        std::cerr << "fake worker: GPU " << ordinal << " is gone\n";
        return 3;
    }
    const std::optional<DeviceInfo> device = fakeDevice(ordinal);
    const std::string deviceName = device ? device->name : std::string();
    int delayMs = 0;
    if (const char *delay = std::getenv("CUWB_FAKE_MEASURE_DELAY_MS")) {
        delayMs = std::atoi(delay);
    }
    int measureRequests = 0;

    std::string line;
    while (std::getline(std::cin, line)) {
        const nlohmann::json message = nlohmann::json::parse(line);
        if (isCancelRequest(message)) {
            logRequest("cancel");
            continue; // too late: nothing in flight
        }
        const WorkerRequest request = parseRequest(message);
        logRequest(message.value("type", std::string()));
        switch (request.type) {
        case WorkerRequest::Type::Hello: {
            HelloReply hello;
            const char *version = std::getenv("CUWB_FAKE_WORKER_VERSION");
            hello.worker = version ? version : "fake-sweep";
            if (mode == "no-device" || !device) {
                hello.message = mode == "no-device" ? "no GPU: this is a fake worker without one"
                                                    : "no GPU " + std::to_string(ordinal) +
                                                          ": the fake machine has fewer";
                send(makeHelloReply(request.id, hello));
                break;
            }
            hello.device = device;
            hello.freeMemoryBytes = 100ull << 30;
            hello.driverVersion = 13000;
            hello.nvrtcVersion = "13.0";
            send(makeHelloReply(request.id, hello));
            break;
        }
        case WorkerRequest::Type::Measure: {
            ++measureRequests;
            const double blockX = blockXOf(request);
            timeline("begin", ordinal, blockX);
            if (delayMs > 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
            }
            if (measureRequests == crashAt && marker != nullptr && !std::ifstream(marker).good()) {
                std::ofstream(marker) << "crashed\n";
                std::abort();
            }
            if (measureRequests == dieAt && marker != nullptr) {
                std::ofstream(marker) << "died\n";
                std::abort();
            }
            if (crashBlock > 0 && long(blockX) == crashBlock) {
                std::abort();
            }
            if (faultBlock > 0 && long(blockX) == faultBlock) {
                Measurement faulted = measurementOf(request, 0, deviceName);
                faulted.faultStatus = runStatusName(RunStatus::Fault);
                faulted.faultMessage = "the kernel faulted: CUDA_ERROR_ILLEGAL_ADDRESS";
                timeline("end", ordinal, blockX);
                send(makeMeasurementReply(request.id, faulted, true));
                return 0;
            }
            if (measureRequests == hangAt && marker != nullptr && !std::ifstream(marker).good()) {
                std::ofstream(marker) << ::getpid() << "\n";
                for (;;) {
                    ::pause();
                }
            }
            const int fixed = request.settings.fixedSamples;
            Measurement measurement =
                measurementOf(request, fixed > 0 ? std::size_t(fixed) : 10, deviceName);
            if (measureRequests == cancelAt) {
                std::string next;
                while (std::getline(std::cin, next) &&
                       !isCancelRequest(nlohmann::json::parse(next))) {
                }
                logRequest("cancel");
                measurement = measurementOf(request, 2, deviceName);
                measurement.stop = {true, StopReason::Cancelled, "cancelled after 2 samples"};
            }
            timeline("end", ordinal, blockX);
            send(makeMeasurementReply(request.id, measurement));
            break;
        }
        case WorkerRequest::Type::Metrics: {
            MetricsResult result;
            result.chip = "GH100";
            result.passes = 1;
            double made = 0.0;
            for (const std::string &name : request.metrics.metrics) {
                result.values[name] = ++made;
            }
            send(makeMetricsReply(request.id, result));
            break;
        }
        case WorkerRequest::Type::Inspect: {
            InspectResult result;
            result.error = "this fake worker has no profiler";
            send(makeInspectReply(request.id, result));
            break;
        }
        case WorkerRequest::Type::Run: {
            // Timed like a measurement, for `cuwb run --devices` (its projects on GPUs at once).
            const double blockX = blockXOf(request);
            timeline("begin", ordinal, blockX);
            if (delayMs > 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
            }
            timeline("end", ordinal, blockX);
            if (const char *path = std::getenv("CUWB_FAKE_CWD_LOG")) {
                char cwd[4096];
                if (::getcwd(cwd, sizeof cwd) != nullptr) {
                    std::ofstream(path, std::ios::app) << cwd << '\n';
                }
            }
            RunResult result;
            result.status = RunStatus::Succeeded;
            result.device = deviceName + " (sm_" + std::to_string(device ? device->major : 9) +
                            std::to_string(device ? device->minor : 0) + ")";
            result.verification.ran = true;
            result.verification.passed = !hasDefine(request.run, "FAKE_WRONG=1");
            result.verification.message = result.verification.passed
                                              ? "all 4 elements match"
                                              : "3 of 4 elements differ (abs > 0)";
            if (!request.run.verification.checks.empty()) {
                const VerificationSpec &check = request.run.verification.checks.front();
                result.verification.output = check.output;
                result.verification.label = check.label();
                result.verification.maxAbsError = blockX * 1e-9;
                result.verification.maxAbsErrorIndex = std::uint64_t(blockX / 32);
                result.verification.maxRelError = blockX * 2e-9;
                result.verification.maxRelErrorIndex = std::uint64_t(blockX / 32) + 1;
                result.checks = {result.verification};
            }
            send(makeRunResultReply(request.id, result));
            break;
        }
        case WorkerRequest::Type::Page:
            send(makeErrorReply(request.id, "this fake worker keeps no buffers"));
            break;
        case WorkerRequest::Type::Export:
            send(makeErrorReply(request.id, "this fake worker keeps no buffers"));
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
