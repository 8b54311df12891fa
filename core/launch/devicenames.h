// DeviceNames: the attributes of the GPU a launch runs on, as names its expressions may use
// (`device.smCount`, `device.l2Bytes`, ...), so that a grid can be sized from the SM count as
// programs size it from cudaGetDeviceProperties. In the worker they come from the real device;
// without one (`cuwb check`, `sweep --list`, the Launch dock before a GPU is known) from the
// device chosen, else the catalogue's GPU of the target architecture (device/devicecatalogue.h),
// else the architecture's limits alone — `source` says which, in words a user reads. The names
// and their meanings are listed in docs/projects.md.
#pragma once

#include "device/deviceinfo.h"
#include "launch/expression.h"

#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct DeviceNames
{
    Variables values; // "device.smCount" -> 132, ...; a name that is not known is absent
    // Where they come from: "NVIDIA H200 (the device)", "NVIDIA H200 (catalogue entry for
    // sm_90; no GPU)", "sm_100 limits (no GPU; the catalogue has no sm_100 device)". Empty when
    // none were given (then every device name is unknown).
    std::string source;
    std::string arch; // "sm_90"; empty when none was given
    bool operator==(const DeviceNames &) const = default;
};

struct DeviceNameInfo
{
    const char *name;    // "device.smCount"
    const char *meaning; // "multiprocessors (SMs)"
    bool perDevice;      // known only from a device or the catalogue, not from the limits
};
// Every device name, in the order docs/projects.md lists them.
const std::vector<DeviceNameInfo> &deviceNameList();

// The names of a device the driver described (or the catalogue's). `source` says where it came
// from; empty: "NAME (the device)".
DeviceNames deviceNamesOf(const DeviceInfo &device, std::string source = {});
// The names without a GPU: the catalogue's device of `arch`, else the architecture's limits
// (no SM count, L2 size or clocks), else none at all for an architecture not known here.
DeviceNames deviceNamesForArch(std::string_view arch);

// True for "device.something": a name that belongs to the device, known or not.
bool isDeviceName(std::string_view name);
// Why `name` (a device.* name an expression used) has no value: "device.smCount is not known
// without a GPU for sm_100 (the catalogue has no sm_100 device); run on a GPU" or "unknown
// device attribute 'device.smcount'; the device's names are device.smCount, ...".
std::string deviceNameProblem(std::string_view name, const DeviceNames &names);

// An expression's error, with a device name's own explanation in place of "unknown variable".
std::string explainExpressionError(const ExpressionError &error, const DeviceNames &names);

} // namespace cuwb
