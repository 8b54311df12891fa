// Runner: the GPU side of a run, inside the worker process. Owns the device's primary context;
// compiles the request with NVRTC for the device's architecture, allocates every buffer with
// guard bands before and after, initialises it on the GPU (generator kernels; generated data
// never passes through host memory), poisons outputs (NaN for floating types, 0xFF bytes
// otherwise), launches, waits with the launch's deadline, checks guards and unwritten outputs,
// computes statistics and verifies. Keeps the last run's buffers for paging and export.
#pragma once

#include "device/deviceinfo.h"
#include "inspect/instructioncounters.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "run/runrequest.h"
#include "run/runresult.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace cuwb {

class Runner
{
public:
    explicit Runner(int deviceOrdinal = 0); // throws ApiError when the device cannot be opened
    ~Runner();
    Runner(const Runner &) = delete;
    Runner &operator=(const Runner &) = delete;

    [[nodiscard]] const DeviceInfo &device() const;
    [[nodiscard]] std::uint64_t freeMemoryBytes() const;

    // Never throws for the user's work: compile errors, invalid launches, faults and timeouts
    // come back in RunResult. After a Fault or Timeout the process must exit (contextLost()).
    RunResult run(const RunRequest &request);
    [[nodiscard]] bool contextLost() const;

    // Prepares exactly like run() (without verification), warms up, then samples the launch
    // until settings' stopping criterion holds: cold samples flush L2 first, hot ones do not.
    // Times with CUPTI kernel records when it is available, else with cuEvents (and says so in
    // the notes); the event pair is always recorded as a cross-check. Never throws for the
    // user's work: a fault or timeout part-way keeps the samples taken and sets faultStatus.
    // `throughput` replaces the default bytes (each buffer once by its role) and adds GFLOP/s.
    Measurement measure(const RunRequest &request, const SampleSettings &settings,
                        const ThroughputExpressions &throughput = {});

    // Prepares exactly like run() and collects hardware metrics of one launch with the CUPTI
    // Range Profiler, which replays it once per pass. Never timed, never verified. Never
    // throws for the user's work: a refusal (no permission, unknown metric) or a fault comes
    // back in the result's error.
    // Called after each measurement sample; when it returns true, sampling stops there with
    // StopReason::Cancelled and the samples taken so far are reported. Empty: never cancelled.
    void setCancelCheck(std::function<bool()> check);

    MetricsResult profileMetrics(const RunRequest &request, const MetricsRequest &metrics);
    // The inspection pass: one launch with CUPTI counting per instruction of the kernel (SASS
    // metrics), each instruction placed on its source line; never timed (docs/inspect.md).
    InspectResult inspect(const RunRequest &request, const InspectRequest &inspect);

    // Elements [first, first + count) of a kept buffer, formatted; throws std::runtime_error
    // with a plain message for an unknown handle or a range past the end.
    Page page(const PageRequest &request);
    // Writes a kept buffer to `path`; returns the bytes written; throws std::runtime_error.
    std::uint64_t exportBuffer(const std::string &handle, const std::string &path,
                               ExportFormat format);
    void release();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace cuwb
