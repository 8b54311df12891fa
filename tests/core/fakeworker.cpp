// A stand-in for `cuwb worker` that misbehaves on purpose, for tst_workerprocess: the
// supervision logic (crash, hang, garbage, wrong id, stderr flood, early exit, wrong protocol)
// is tested without a GPU. Usage: cuwb_fakeworker MODE [MARKER]. A mode ending in "-once"
// misbehaves only while MARKER does not exist (and creates it), so that the worker started
// next behaves, as a real worker does after a fault.
#include "worker/protocol.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
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

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "ok";
    const char *marker = argc > 2 ? argv[2] : nullptr;
    if (mode == "exit") {
        return 0;
    }

    std::string line;
    while (std::getline(std::cin, line)) {
        const nlohmann::json message = nlohmann::json::parse(line);
        if (isCancelRequest(message)) {
            continue; // too late: nothing in flight
        }
        const WorkerRequest request = parseRequest(message);
        switch (request.type) {
        case WorkerRequest::Type::Hello: {
            if (mode == "hang-hello") {
                for (;;) {
                    pause();
                }
            }
            HelloReply hello;
            hello.worker = "fake";
            hello.message = "no GPU: this is a fake worker";
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
                measurement.samplesNs = {1000.0, 1001.0, 999.0};
                measurement.stop = {true, StopReason::Cancelled, "cancelled after 3 samples"};
                send(makeMeasurementReply(request.id, measurement));
                break;
            }
            measurement.faultStatus = "no-device";
            measurement.faultMessage = "this is a fake worker";
            send(makeMeasurementReply(request.id, measurement));
            break;
        }
        case WorkerRequest::Type::Metrics: {
            MetricsResult result;
            result.error = "this is a fake worker";
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
            send(makeExportedReply(request.id, ExportReply{request.path, 16}));
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
