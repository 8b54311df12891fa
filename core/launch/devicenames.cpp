#include "launch/devicenames.h"

#include "device/devicecatalogue.h"

#include <algorithm>

namespace cuwb {

const std::vector<DeviceNameInfo> &deviceNameList()
{
    static const std::vector<DeviceNameInfo> names = {
        {"device.smCount", "multiprocessors (SMs)", true},
        {"device.warpSize", "threads in a warp", false},
        {"device.maxThreadsPerBlock", "threads a block may have", false},
        {"device.maxThreadsPerSM", "threads resident on one SM", false},
        {"device.maxBlocksPerSM", "blocks resident on one SM", false},
        {"device.regsPerSM", "32-bit registers of one SM", false},
        {"device.regsPerBlock", "32-bit registers a block may use", false},
        {"device.sharedPerSM", "bytes of shared memory of one SM", false},
        {"device.maxSharedPerBlock", "bytes of shared memory a block gets without opting in",
         false},
        {"device.maxSharedPerBlockOptin", "bytes of shared memory a block may opt in to", false},
        {"device.l2Bytes", "bytes of L2 cache", true},
        {"device.clockKHz", "SM clock in kHz (the driver's clock rate)", true},
        {"device.memoryClockKHz", "memory clock in kHz", true},
        {"device.memoryBusBits", "memory bus width in bits", true},
        {"device.memoryBytes", "bytes of device memory", true},
        {"device.major", "compute capability, major", false},
        {"device.minor", "compute capability, minor", false},
        {"device.computeCapability", "major * 10 + minor (90 for sm_90)", false},
    };
    return names;
}

namespace {

void put(Variables &values, const char *name, double value)
{
    if (value > 0) {
        values[name] = value;
    }
}

// The names every architecture has from its limits.
void putLimits(Variables &values, const ArchLimits &limits)
{
    put(values, "device.warpSize", limits.warpSize);
    put(values, "device.maxThreadsPerBlock", limits.maxThreadsPerBlock);
    put(values, "device.maxThreadsPerSM", limits.maxThreadsPerSm);
    put(values, "device.maxBlocksPerSM", limits.maxBlocksPerSm);
    put(values, "device.regsPerSM", limits.registersPerSm);
    put(values, "device.regsPerBlock", limits.registersPerBlock);
    put(values, "device.sharedPerSM", double(limits.sharedPerSmBytes));
    put(values, "device.maxSharedPerBlock", double(limits.sharedPerBlockBytes));
    put(values, "device.maxSharedPerBlockOptin", double(limits.sharedPerBlockOptinBytes));
    put(values, "device.major", limits.major);
    values["device.minor"] = limits.minor; // 0 is a minor version
    put(values, "device.computeCapability", limits.major * 10 + limits.minor);
}

std::string knownNames()
{
    std::string text;
    for (const DeviceNameInfo &info : deviceNameList()) {
        text += (text.empty() ? "" : ", ") + std::string(info.name);
    }
    return text;
}

} // namespace

DeviceNames deviceNamesOf(const DeviceInfo &device, std::string source)
{
    DeviceNames names;
    names.arch = device.arch();
    names.source = source.empty() ? device.name + " (the device)" : std::move(source);
    putLimits(names.values, device.limits());
    put(names.values, "device.smCount", device.smCount);
    put(names.values, "device.l2Bytes", device.l2CacheBytes);
    put(names.values, "device.clockKHz", device.smClockKHz);
    put(names.values, "device.memoryClockKHz", device.memoryClockKHz);
    put(names.values, "device.memoryBusBits", device.memoryBusWidthBits);
    put(names.values, "device.memoryBytes", double(device.totalMemoryBytes));
    return names;
}

DeviceNames deviceNamesForArch(std::string_view arch)
{
    if (const std::optional<DeviceInfo> device = catalogueDevice(arch)) {
        return deviceNamesOf(*device, device->name + " (catalogue entry for " + device->arch() +
                                          "; no GPU)");
    }
    DeviceNames names;
    const std::optional<ArchLimits> limits = archLimits(arch);
    if (!limits) {
        return names;
    }
    names.arch = limits->name();
    names.source = names.arch + " limits (no GPU; the catalogue has no " + names.arch + " device)";
    putLimits(names.values, *limits);
    return names;
}

bool isDeviceName(std::string_view name)
{
    return name.starts_with("device.");
}

std::string deviceNameProblem(std::string_view name, const DeviceNames &names)
{
    const std::vector<DeviceNameInfo> &list = deviceNameList();
    const auto info = std::find_if(list.begin(), list.end(),
                                   [&](const DeviceNameInfo &entry) { return name == entry.name; });
    if (info == list.end()) {
        return "unknown device attribute '" + std::string(name) + "'; the device's names are " +
               knownNames();
    }
    if (names.source.empty()) {
        return std::string(name) + " is not known here: no device and no architecture was given";
    }
    if (names.values.count(std::string(name)) == 0 && info->perDevice &&
        names.source.find("(the device)") == std::string::npos &&
        names.source.find("catalogue entry") == std::string::npos) {
        return std::string(name) + " is not known without a GPU for " + names.arch +
               " (the catalogue has no " + names.arch + " device); run on a GPU";
    }
    return std::string(name) + " is not reported by " + names.source;
}

std::string explainExpressionError(const ExpressionError &error, const DeviceNames &names)
{
    if (isDeviceName(error.unknownName)) {
        return deviceNameProblem(error.unknownName, names);
    }
    return error.message;
}

} // namespace cuwb
