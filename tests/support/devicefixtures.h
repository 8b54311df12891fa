// Devices as the driver describes them, for tests that place figures against a GPU's peaks.
#pragma once

#include "device/deviceinfo.h"

namespace cuwb::testing {

// The H200 SXM the GPU evidence was measured on (docs/results): cc 9.0, 132 SMs at 1980 MHz,
// HBM3e at 3201 MHz on a 6016-bit bus (4814 GB/s), 60 MiB of L2.
inline DeviceInfo h200()
{
    DeviceInfo d;
    d.name = "NVIDIA H200";
    d.major = 9;
    d.minor = 0;
    d.smCount = 132;
    d.smClockKHz = 1980000;
    d.memoryClockKHz = 3201000;
    d.memoryBusWidthBits = 6016;
    d.l2CacheBytes = 60 * 1024 * 1024;
    return d;
}

} // namespace cuwb::testing
