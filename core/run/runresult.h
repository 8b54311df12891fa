// RunResult: what one run of a kernel produced, as the worker reports it: time, per-buffer
// guard-band violations, unwritten outputs, statistics, verification, or the fault that ended it.
#pragma once

#include "run/verification.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cuwb {

struct BufferStats
{
    bool valid = false;
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    std::uint64_t nanCount = 0;
    std::uint64_t infCount = 0;
};

struct GuardViolation
{
    bool before = false;         // true: the band before the buffer
    std::uint64_t elements = 0;  // how many elements of the band were changed
    std::int64_t firstIndex = 0; // index relative to the buffer start (negative before it)
    std::string message;         // "wrote 24 elements past the end of `d`, first at index 16777216"
};

struct BufferReport
{
    std::string parameter;
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::string handle; // the worker's id for paging this buffer, e.g. "run3/c"
    std::vector<GuardViolation> guardViolations;
    std::uint64_t unwritten = 0; // outputs still holding the poison value
    std::int64_t firstUnwritten = -1;
    BufferStats stats;
};

enum class RunStatus {
    Succeeded,     // launched, synchronised, no device error
    InvalidLaunch, // validation refused it; nothing touched the GPU
    CompileFailed,
    Fault, // a device error: illegal address, trap, misaligned access...
    OutOfMemory,
    Timeout,       // ran past the deadline; the worker was killed
    WorkerCrashed, // the worker died or spoke garbage
    NoDevice,
};
const char *runStatusName(RunStatus status); // "succeeded", "invalid-launch", ...

// One kernel of a launch sequence in a run: its cuEvent time.
struct KernelRunTime
{
    std::string kernel; // as the project names it
    double timeMs = 0.0;
};

struct RunResult
{
    RunStatus status = RunStatus::Succeeded;
    std::string message;       // a plain sentence for the user when not Succeeded
    std::string deviceError;   // e.g. "CUDA_ERROR_ILLEGAL_ADDRESS", empty when none
    double kernelTimeMs = 0.0; // cuEvent time of the launch (of a sequence: all its kernels)
    double wallTimeMs = 0.0;   // of the whole run in the worker
    double compileMs = 0.0;    // NVRTC in the worker; 0 when the variant came compiled or cached
    std::vector<BufferReport> buffers;
    // The module variables the launch set (__constant__, __device__), as the kernel left them:
    // size and statistics; no guard bands and no handle (the worker keeps no copy).
    std::vector<BufferReport> globals;
    // The overall verdict of the checks (combineChecks; one check's own verdict when there is
    // one), and each check's, in the project's order. Empty checks: none was asked for.
    VerificationResult verification;
    std::vector<VerificationResult> checks;
    // A launch sequence: each kernel's time, the first kernel's first. Empty for one kernel.
    std::vector<KernelRunTime> kernelTimes;
    std::string device; // "NVIDIA H200 (sm_90)"

    // Succeeded, no guard violations and verification passed (or none was asked for).
    [[nodiscard]] bool passed() const;
};

} // namespace cuwb
