// RunnerState: what a Runner keeps from one request to the next (the device's context and
// stream, the compiler, the helper kernels, the last run's buffers for paging and export, the
// measurement's timer, SM clock reader and blocking-kernel flags), shared by the files of the
// runner's phases. Runner::State is a RunnerState (runner.cpp): runner.h keeps State private,
// so only this struct can be named by preparedlaunch.cpp and the others. Private to core/run;
// app/ and tests see Runner only.
#pragma once

#include "compiler/kernelcompiler.h"
#include "cuda/cuptiactivity.h"
#include "cuda/devicememory.h"
#include "cuda/driverwrappers.h"
#include "cuda/nvml.h"
#include "device/deviceinfo.h"
#include "run/gpuhelpers.h"
#include "run/preparedlaunch.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cuwb {

struct RunnerState
{
    int ordinal = 0;
    DeviceInfo device;
    std::unique_ptr<PrimaryContext> context;
    std::unique_ptr<Stream> stream;
    std::unique_ptr<GpuHelpers> helpers;
    KernelCompiler compiler{8};
    bool contextLost = false;
    int runs = 0;
    std::unique_ptr<RunResources> kept;
    std::vector<std::string> keptHandles; // parallel to kept->buffers
    // Created on the first measurement and kept: CUPTI allows one subscriber per process.
    std::unique_ptr<KernelActivityTimer> timer;
    // NVML's view of this device, opened on the first measurement and kept.
    std::unique_ptr<SmClockReader> clocks;
    // The flags of the blocking kernel that holds the stream while a sample is queued.
    std::unique_ptr<MappedHostFlags> holdFlags;
    std::function<bool()> cancelCheck;
    // What the last request left for the next one (recycleResources()): modules without module
    // variables by their image's hash, newest last, and buffers to reuse at the same size.
    std::vector<std::pair<std::string, std::shared_ptr<Module>>> modules;
    std::vector<DeviceBuffer> spareBuffers;
    // The device-to-device copy ceiling, measured on the first measurement and kept.
    std::optional<double> copyCeilingGBps;
    std::string copyCeilingProblem;

    // Stops CUPTI's kernel records a completed measurement left on for the next one (a run, a
    // metrics pass or another kind of timing must not pay for them).
    void quietTimer()
    {
        if (timer && !contextLost) {
            timer->stop();
        }
    }

    GpuHelpers &gpuHelpers()
    {
        if (!helpers) {
            helpers = std::make_unique<GpuHelpers>(device.arch(), device.smCount);
        }
        return *helpers;
    }

    const Allocation &keptBuffer(const std::string &handle) const
    {
        if (kept) {
            for (std::size_t k = 0; k < keptHandles.size(); ++k) {
                if (keptHandles[k] == handle) {
                    return kept->buffers[k];
                }
            }
        }
        throw std::runtime_error("no buffer `" + handle +
                                 "` is kept: it belongs to an earlier run, or was released");
    }
};

} // namespace cuwb
