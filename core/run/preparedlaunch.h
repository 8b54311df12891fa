// PreparedLaunch: a launch made ready to run, what run(), measure() and profileMetrics() share
// before the first launch: the request compiled for the device, resolved and validated, its
// module loaded, every buffer allocated with guard bands before and after it and initialised on
// the GPU (bands, poisoned outputs, generated inputs, files, then copies), the module variables
// set; after the launch, the bands and the poison are read back. Everything a run holds on the GPU
// is in RunResources, which is leaked rather than freed once a kernel has overrun its deadline
// (LeakOnLoss).
#pragma once

#include "compiler/compileresult.h"
#include "cuda/devicememory.h"
#include "cuda/driverwrappers.h"
#include "kernel/elementtype.h"
#include "launch/devicenames.h"
#include "launch/launchspec.h"
#include "run/runresult.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

class GpuHelpers;
struct RunRequest;
struct RunnerState;

// A buffer with guard bands before and after it: [band][data][band]. The bands hold
// kGuardByte; any other byte there after the launch is a write out of bounds.
struct Allocation
{
    std::string parameter;
    ElementType type;
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::uint64_t guardBytes = 0;
    BufferRole role = BufferRole::In;
    DeviceBuffer memory;

    [[nodiscard]] DevicePointer data() const { return memory.pointer() + guardBytes; }
    [[nodiscard]] std::uint64_t scalars() const { return count * std::uint64_t(type.lanes); }
};

// What one check of the verification holds on the GPU between the reference and the compare.
struct CheckResources
{
    std::unique_ptr<Module> referenceModule;
    std::unique_ptr<Module> maskModule;
    DeviceBuffer reference;
    DeviceBuffer mask; // one byte per checked element: 1 where the check's mask holds
};

// Everything a run holds on the GPU. After a kernel ran past its deadline none of it may be
// freed (cuMemFree and cuModuleUnload would wait for the kernel): it is leaked instead.
struct RunResources
{
    std::shared_ptr<Module> module; // shared with RunnerState::modules when it may be reused
    std::vector<Allocation> buffers;
    std::vector<CheckResources> checks; // one per check of the verification
    std::vector<DeviceBuffer> copies;
};

// A further kernel of a launch sequence, ready to launch after the first.
struct PreparedStep
{
    std::string kernel; // as the project names it
    std::optional<Function> function;
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
    unsigned dynamicShared = 0;
    std::vector<void *> params; // into Prepared::pointers and the resolved step's scalars
};

// A prepared launch: what run() and measure() share before the first launch.
struct Prepared
{
    LaunchSpec launch;                       // the request's, with its defines bound
    std::string source;                      // the request's source text
    std::vector<std::string> compileDefines; // the options' defines, the bound ones included
    DeviceNames deviceNames;                 // the device.* names of this GPU
    double workerCompileMs = 0.0;            // NVRTC here; 0 when compiled by the host or cached
    CompileResult compiled;
    ResolvedLaunch resolved;
    std::unique_ptr<RunResources> resources;
    std::optional<Function> function;
    std::vector<DevicePointer> pointers; // parallel to resources->buffers
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
    unsigned dynamicShared = 0;
    double deadlineSeconds = 10.0;
    std::string note;
    // The further kernels of a sequence, in order, after the first (`function`).
    std::vector<PreparedStep> steps;
    // The first kernel's parameter list (into `pointers` and the resolved scalars); kept here
    // since a launch reads them when it is enqueued.
    std::vector<void *> params;
};

// Enqueues the launch: the first kernel, then each further kernel of the sequence, on `gpu`.
// `between(k)` is called after the k-th kernel is enqueued (0 is the first), to record an event
// or read CUPTI's correlation id; it may be empty.
void launchSequence(Prepared &prepared, const Stream &gpu,
                    const std::function<void(std::size_t)> &between = {});
// The names of the kernels of the launch in order: the first kernel's, then the steps'.
std::vector<std::string> sequenceKernelNames(const Prepared &prepared);

// On a timeout the resources are leaked on purpose (see RunResources).
struct LeakOnLoss
{
    std::unique_ptr<RunResources> &resources;
    const bool &lost;
    ~LeakOnLoss()
    {
        if (lost) {
            (void)resources.release();
        }
    }
};

// Everything before the reference and the launch, shared by run(), measure() and
// profileMetrics(): compiles, resolves and validates, loads the module, allocates with guard
// bands and initialises. Keeps `phase` up to date for the messages of a failed CUDA call;
// throws RunFailure for the user's mistakes (InvalidLaunch, CompileFailed, OutOfMemory).
void prepareLaunch(RunnerState &runner, const RunRequest &request, Prepared &prepared,
                   std::string &phase);

// Lets the next request reuse what `resources` holds, then drops it: the module stays loaded
// when it has no module variables (whose values a kernel or a launch's globals may have
// changed), and the buffers are kept for a request that needs the same sizes. A sweep's points
// would otherwise load the same module and allocate the same buffers at every point. What the
// next request does not reuse it frees before allocating, so that request has all the memory.
void recycleResources(RunnerState &runner, std::unique_ptr<RunResources> &resources);

// After the launch: the guard bands read back (an element that changed is a write out of
// bounds), the outputs still holding the poison (unwritten) and the buffer's statistics.
BufferReport checkBuffer(const Allocation &buffer, const std::string &handle, GpuHelpers &helpers,
                         const Stream &gpu);
// After the launch: a module variable's size and statistics as the kernel left them.
BufferReport readGlobal(const ResolvedBuffer &global, const Module &module, GpuHelpers &helpers,
                        const Stream &gpu);

// Kernel parameters: the buffers' device pointers and the scalars' encoded bytes.
std::vector<void *> parameterPointerList(const ResolvedLaunch &resolved,
                                         const std::vector<DevicePointer> &pointers);
// The same for any kernel of a sequence: `slots` index `pointers` (>= 0) or `scalars`.
std::vector<void *> parameterPointers(const std::vector<int> &slots,
                                      const std::vector<ResolvedScalar> &scalars,
                                      const std::vector<DevicePointer> &pointers);

} // namespace cuwb
