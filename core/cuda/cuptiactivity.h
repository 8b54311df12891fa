// KernelActivityTimer: GPU durations of our own kernel launches from CUPTI activity records of
// kind CUPTI_ACTIVITY_KIND_KERNEL, matched to launches by correlation id (docs/
// measurement.md, Timing). CUPTI is loaded at run time, so the program starts without it; when
// it is missing or another profiler (ncu, nsys) already holds it, available() is false with
// the reason and the caller times with events instead. Only the KERNEL kind is ever enabled:
// CONCURRENT_KERNEL instruments kernels and slows bandwidth-bound ones by 8-10%.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace cuwb {

class KernelActivityTimer
{
public:
    // Loads CUPTI, registers the activity buffers and subscribes to cuLaunchKernel. Never
    // throws: a failure leaves available() false with the reason.
    KernelActivityTimer();
    ~KernelActivityTimer(); // forced flush, then disables and unsubscribes
    KernelActivityTimer(const KernelActivityTimer &) = delete;
    KernelActivityTimer &operator=(const KernelActivityTimer &) = delete;

    [[nodiscard]] bool available() const;
    // "libcupti.so.13 not found: ...", "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ...".
    [[nodiscard]] const std::string &unavailableReason() const;

    // Records kernels from now on (enables CUPTI_ACTIVITY_KIND_KERNEL) / stops recording.
    // Returns false, with the reason in unavailableReason(), when CUPTI refuses.
    bool start();
    void stop();

    // The correlation id of the last cuLaunchKernel made on any thread since start(), or
    // nullopt when none was seen. Read it right after a launch.
    [[nodiscard]] std::optional<std::uint32_t> lastLaunchCorrelation() const;

    // Delivers the records of finished kernels (cuptiActivityFlushAll(0)); synchronise first.
    void flush();
    // Durations in ns by correlation id of the records delivered so far, handed over once.
    // Records with start == 0, end == 0 or end < start are dropped.
    std::map<std::uint32_t, std::uint64_t> takeDurations();
    // Records delivered without usable times whose launches had correlation ids from
    // `correlation` on (the profiler's launches leave such records, which are not a
    // measurement's), and records CUPTI reported lost since construction.
    [[nodiscard]] std::uint64_t invalidRecordsSince(std::uint32_t correlation) const;
    [[nodiscard]] std::uint64_t lostRecords() const;

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace cuwb
