#include "argumentparser.h"
#include "commands.h"

#include "cuda/driverapi.h"
#include "device/devicejson.h"

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

} // namespace

void printDevicesHelp(std::ostream &out)
{
    out << "Usage: cuwb devices [--json]\n"
           "\n"
           "Lists the GPUs the CUDA driver sees, with architecture, SM count, memory and\n"
           "clocks; where there are none, says why (no driver: compile-only mode; a driver\n"
           "but no GPU; an initialisation error). The absence of a GPU is information, not\n"
           "an error: the exit status is 0 either way, 2 on a usage error.\n"
           "\n"
           "  --json   print the device query as JSON (what the GUI reads)\n";
}

int runDevices(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--help", "-h"});
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
        std::cout << "GPU " << device.ordinal << ": " << device.name << " (" << device.arch()
                  << "), " << device.smCount << " SMs, "
                  << fixed(double(device.totalMemoryBytes) / (1024.0 * 1024.0 * 1024.0), "GiB")
                  << " memory, SM clock " << device.smClockKHz / 1000 << " MHz, memory clock "
                  << device.memoryClockKHz / 1000 << " MHz, " << device.memoryBusWidthBits
                  << "-bit bus, " << fixed(device.l2CacheBytes / (1024.0 * 1024.0), "MiB")
                  << " L2\n";
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
