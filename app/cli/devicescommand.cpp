#include "argumentparser.h"
#include "commands.h"
#include "workeroptions.h"

#include "cuda/driverapi.h"
#include "device/devicejson.h"
#include "worker/protocol.h"
#include "worker/workerprocess.h"

#include <cstdio>
#include <iostream>

namespace cuwb::cli {

namespace {

std::string fixed(double value, const char *unit)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.1f %s", value, unit);
    return text;
}

void printDevice(const DeviceInfo &device)
{
    std::cout << "GPU " << device.ordinal << ": " << device.name << " (" << device.arch() << "), "
              << device.smCount << " SMs, "
              << fixed(double(device.totalMemoryBytes) / (1024.0 * 1024.0 * 1024.0), "GiB")
              << " memory, SM clock " << device.smClockKHz / 1000 << " MHz, memory clock "
              << device.memoryClockKHz / 1000 << " MHz, " << device.memoryBusWidthBits
              << "-bit bus, " << fixed(device.l2CacheBytes / (1024.0 * 1024.0), "MiB") << " L2\n";
    // Each GPU's own limits: in a machine of several GPUs (docs/multigpu.md) they may differ.
    std::cout << "  limits: " << device.maxThreadsPerBlock << " threads per block, "
              << device.maxThreadsPerSm << " per SM, " << device.maxBlocksPerSm
              << " blocks per SM, " << device.registersPerSm << " registers per SM, "
              << fixed(double(device.sharedPerSmBytes) / 1024.0, "KiB") << " shared memory per SM ("
              << fixed(double(device.sharedPerBlockOptinBytes) / 1024.0, "KiB")
              << " per block opted in)\n";
}

// `cuwb devices --on TARGET`: the GPU a remote worker opened, from its hello (the worker
// serves one device; --device picks another).
int remoteDevices(const WorkerProcess::Options &options, bool json)
{
    WorkerProcess worker(options);
    const WorkerProcess::Reply reply = worker.request(makeReleaseRequest(), 30.0);
    if (!reply.ok()) {
        std::cerr << "cuwb devices: " << reply.error << "\n";
        return ExitFailure;
    }
    const HelloReply hello = parseHelloReply(worker.hello());
    if (json) {
        // The shape of `cuwb devices --json` (what the GUI's device query reads), with the
        // target and the remote cuwb's version beside it.
        DeviceQuery query;
        query.driverLoaded = hello.driverVersion != 0 || hello.device.has_value();
        query.driverVersion = hello.driverVersion;
        if (hello.device) {
            query.devices.push_back(*hello.device);
        }
        query.message = hello.message;
        nlohmann::json out = query;
        out["on"] = options.remoteName;
        out["worker"] = hello.worker;
        out["freeMemoryBytes"] = hello.freeMemoryBytes;
        std::cout << out.dump(2) << "\n";
        return ExitSuccess;
    }
    std::cout << "On " << options.remoteName << ": cuwb " << hello.worker;
    if (hello.driverVersion != 0) {
        std::cout << ", CUDA driver " << formatCudaVersion(hello.driverVersion);
    }
    std::cout << "\n";
    if (hello.device) {
        printDevice(*hello.device);
    } else {
        std::cout << hello.message << "\n";
    }
    return ExitSuccess;
}

} // namespace

void printDevicesHelp(std::ostream &out)
{
    out << "Usage: cuwb devices [--json] [--on TARGET [--device N]]\n"
           "\n"
           "Lists every GPU the CUDA driver sees, each with its architecture, SM count,\n"
           "memory, clocks and limits; where there are none, says why (no driver:\n"
           "compile-only mode; a driver but no GPU; an initialisation error). The absence\n"
           "of a GPU is information, not an error: the exit status is 0 either way, 2 on a\n"
           "usage error.\n"
           "\n"
           "  --json        print the device query as JSON (what the GUI reads)\n"
           "  --on TARGET   the GPU a worker on TARGET opens (user@host[:port], a name from\n"
           "                the targets file, or command:WORDS; docs/remote.md); exits 1 when\n"
           "                the worker cannot be reached\n"
           "  --device N    with --on: the remote GPU to open (default 0)\n";
}

int runDevices(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--help", "-h"});
    addWorkerOptions(parser);
    if (!parser.parse(arguments)) {
        return usageError("devices", parser.error());
    }
    if (parser.isSet("--help")) {
        printDevicesHelp(std::cout);
        return ExitSuccess;
    }
    if (!parser.positionals().empty()) {
        return usageError("devices", "unexpected argument '" + parser.positionals().front() + "'");
    }

    if (parser.isSet("--on")) {
        const auto options = workerOptions(parser);
        if (const auto *problem = std::get_if<std::string>(&options)) {
            return usageError("devices", *problem);
        }
        return remoteDevices(std::get<WorkerProcess::Options>(options), parser.isSet("--json"));
    }
    if (parser.isSet("--device") || parser.isSet("--worker")) {
        return usageError("devices", "--device and --worker go with --on");
    }
    const DeviceQuery query = queryDevices();
    if (parser.isSet("--json")) {
        std::cout << nlohmann::json(query).dump(2) << "\n";
        return ExitSuccess;
    }
    if (query.driverLoaded) {
        std::cout << "CUDA driver " << formatCudaVersion(query.driverVersion) << "\n";
    }
    if (!query.message.empty()) {
        std::cout << query.message << "\n";
    }
    for (const DeviceInfo &device : query.devices) {
        printDevice(device);
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
