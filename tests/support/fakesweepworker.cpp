// A stand-in for `cuwb worker` on a GPU, for the sweep runner's tests and `cuwb sweep
// --worker` in tests/cli: the sweep paths are tested without a GPU. Usage:
// cuwb_fakesweepworker [MODE [MARKER]].
//
// The hello names a device ("Fake H200", sm_90, 132 SMs). Every measure request gets the
// samples it asks for (10 when adaptive), with a median that depends on block.x: 1000 ns at
// 256, 100 ns more per power of two away from it, and half that where -DFAKE_WRONG=1 (a wrong
// kernel that looks fast). A run request verifies, except where -DFAKE_WRONG=1.
// MODE "crash-at-K": abort at the K-th measure request while MARKER does not exist (creating
// it first), so that the worker started next behaves. "cancel-at-K": answer the K-th measure
// request only once a cancel arrives, with two samples and stop reason "cancelled".
// "no-device": the hello names no device, as `cuwb worker` on a machine without a GPU. A
// metrics request gets a made-up value (1, 2, 3, ... in request order) for exactly the metrics
// it names, so tests see what the host asked for; no value is a measurement. When
// CUWB_FAKE_WORKER_LOG names a file, the type of every request is appended to it, one a line.
// "hang-at-K": never answer the K-th measure request while MARKER does not exist (creating it
// first), as a worker whose connection is about to be cut. The hello names the version in
// $CUWB_FAKE_WORKER_VERSION when it is set (a remote worker's must match the client's).
#include "device/devicejson.h"
#include "launch/expression.h"
#include "measure/statistics.h"
#include "worker/protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>

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

DeviceInfo fakeDevice()
{
    DeviceInfo device;
    device.name = "Fake H200";
    device.major = 9;
    device.minor = 0;
    device.smCount = 132;
    device.memoryClockKHz = 3201000;
    device.memoryBusWidthBits = 6016;
    return device;
}

// The K of "crash-at-K" or "cancel-at-K"; 0 when the mode is not that one.
int requestNumber(const std::string &mode, const std::string &prefix)
{
    return mode.rfind(prefix, 0) == 0 ? std::atoi(mode.c_str() + prefix.size()) : 0;
}

Measurement measurementOf(const WorkerRequest &request, std::size_t samples)
{
    const LaunchSpec &launch = request.run.launch;
    const Variables variables = evaluateVariables(launch.variables).values;
    const double blockX = evaluateExpression(launch.block[0], variables).value;
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
    m.provenance.deviceName = "Fake H200";
    m.provenance.arch = "sm_90";
    m.provenance.kernel = launch.kernel;
    return m;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "ok";
    const char *marker = argc > 2 ? argv[2] : nullptr;
    const int crashAt = requestNumber(mode, "crash-at-");
    const int cancelAt = requestNumber(mode, "cancel-at-");
    const int hangAt = requestNumber(mode, "hang-at-");
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
            if (mode == "no-device") {
                hello.message = "no GPU: this is a fake worker without one";
                send(makeHelloReply(request.id, hello));
                break;
            }
            hello.device = fakeDevice();
            hello.freeMemoryBytes = 100ull << 30;
            hello.driverVersion = 13000;
            hello.nvrtcVersion = "13.0";
            send(makeHelloReply(request.id, hello));
            break;
        }
        case WorkerRequest::Type::Measure: {
            ++measureRequests;
            if (measureRequests == crashAt && marker != nullptr && !std::ifstream(marker).good()) {
                std::ofstream(marker) << "crashed\n";
                std::abort();
            }
            if (measureRequests == hangAt && marker != nullptr && !std::ifstream(marker).good()) {
                std::ofstream(marker) << "hung\n";
                for (;;) {
                    ::pause();
                }
            }
            const int fixed = request.settings.fixedSamples;
            Measurement measurement = measurementOf(request, fixed > 0 ? std::size_t(fixed) : 10);
            if (measureRequests == cancelAt) {
                std::string next;
                while (std::getline(std::cin, next) &&
                       !isCancelRequest(nlohmann::json::parse(next))) {
                }
                logRequest("cancel");
                measurement = measurementOf(request, 2);
                measurement.stop = {true, StopReason::Cancelled, "cancelled after 2 samples"};
            }
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
            RunResult result;
            result.status = RunStatus::Succeeded;
            result.device = "Fake H200 (sm_90)";
            result.verification.ran = true;
            result.verification.passed = !hasDefine(request.run, "FAKE_WRONG=1");
            result.verification.message = result.verification.passed
                                              ? "all 4 elements match"
                                              : "3 of 4 elements differ (abs > 0)";
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
