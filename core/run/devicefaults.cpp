#include "run/devicefaults.h"

#include "run/runtext.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <thread>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

struct DeviceFault
{
    const char *status;
    const char *message;
    bool sticky;
};

// Plain sentences for the errors a kernel can cause. Sticky ones leave the context unusable
// (docs/measurement.md, Faults): the worker exits after answering.
constexpr DeviceFault kDeviceFaults[] = {
    {"CUDA_ERROR_ILLEGAL_ADDRESS",
     "the kernel accessed an illegal address — an index past the end of a buffer, or a null "
     "pointer",
     true},
    {"CUDA_ERROR_MISALIGNED_ADDRESS",
     "the kernel accessed memory through a misaligned address — e.g. a float4 load from an "
     "address that is not a multiple of 16 bytes",
     true},
    {"CUDA_ERROR_ASSERT", "a device-side assert() in the kernel failed", true},
    {"CUDA_ERROR_HARDWARE_STACK_ERROR",
     "the kernel overflowed its call stack — deep recursion or very large local arrays", true},
    {"CUDA_ERROR_ILLEGAL_INSTRUCTION",
     "the kernel executed an illegal instruction — a __trap() call, or a jump through a corrupted "
     "function pointer",
     true},
    {"CUDA_ERROR_INVALID_PC",
     "the kernel jumped to an invalid program counter — a corrupted function pointer or return "
     "address",
     true},
    {"CUDA_ERROR_LAUNCH_FAILED",
     "the kernel stopped with an unspecified launch failure — often a __trap() call or a "
     "corrupted pointer",
     true},
    {"CUDA_ERROR_LAUNCH_TIMEOUT", "the display watchdog stopped the kernel because it ran too long",
     true},
    {"CUDA_ERROR_ECC_UNCORRECTABLE", "the GPU reported an uncorrectable ECC memory error", true},
    {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "the launch needs more registers or shared memory than a block may have — try a smaller "
     "block",
     false},
};

} // namespace

RunFailure classifyApiError(const ApiError &error, const std::string &phase, bool &contextLost)
{
    const std::string &status = error.status();
    if (status == "CUDA_ERROR_OUT_OF_MEMORY") {
        return {RunStatus::OutOfMemory, "the GPU ran out of memory while " + phase};
    }
    const auto known = std::find_if(std::begin(kDeviceFaults), std::end(kDeviceFaults),
                                    [&](const DeviceFault &f) { return status == f.status; });
    RunFailure failure{RunStatus::Fault, ""};
    if (known != std::end(kDeviceFaults)) {
        failure.message = known->message;
        contextLost = contextLost || known->sticky;
    } else {
        // Unknown: assume the worst, a new worker costs half a second.
        failure.message = "a CUDA call failed while " + phase + ": " + error.what();
        contextLost = true;
    }
    if (phase.rfind("running the user's kernel", 0) != 0 && known != std::end(kDeviceFaults)) {
        failure.message += " (while " + phase + ")";
    }
    return failure;
}

void waitOrThrow(const Event &done, double deadlineSeconds, const std::string &what,
                 bool &contextLost, double expectedSeconds)
{
    // Capped at about 30 years: a larger deadline (a project may say 1e300 s) would overflow the
    // clock's 64-bit nanoseconds.
    const double seconds = std::min(deadlineSeconds, 1e9);
    const auto begin = Clock::now();
    const auto deadline =
        begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    // Yield for the first 200 µs (a sleep costs at least the kernel's 50 µs timer slack, which
    // made every sample of a short kernel take a millisecond), then sleep an eighth of the time
    // waited so far, at most 1 ms: a wait ends at most 12.5% late and costs little CPU.
    // Up to 50 ms of an expected wait is yielded through; a longer kernel's samples can afford
    // the sleeps' slack.
    const auto spin = std::max<Clock::duration>(
        std::chrono::microseconds(200),
        std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(std::min(expectedSeconds, 0.04) * 1.25)));
    constexpr auto kLongestSleep = std::chrono::milliseconds(1);
    while (!done.query()) {
        const auto now = Clock::now();
        if (now >= deadline) {
            contextLost = true;
            throw RunFailure{RunStatus::Timeout, what + " ran past the " +
                                                     shortNumber(deadlineSeconds) + " s deadline"};
        }
        const auto waited = now - begin;
        if (waited < spin) {
            std::this_thread::yield();
        } else {
            std::this_thread::sleep_for(std::min<Clock::duration>(waited / 8, kLongestSleep));
        }
    }
}

} // namespace cuwb
