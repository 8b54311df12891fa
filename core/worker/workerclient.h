// WorkerClient: the one typed client of `cuwb worker`, over a WorkerProcess (the transport).
// Each call sends one request and turns the reply into the result type the caller wants: a
// RunResult, a Measurement, a MetricsResult, a page of values, an export. It holds the one
// timeout policy (how long past a kernel's own deadline the worker may take before it is
// killed) and the one mapping from a worker failure (start, crash, hang, garbage, refusal,
// cancel) to a status and a plain sentence, so the GUI, `cuwb` and the sweep runner say the
// same thing about the same failure. Synchronous: call it from a thread that may block.
// The images a remote worker gets are compiled here, in this process, unless a CompileFunction
// is given (the GUI's compile server).
#pragma once

#include "compiler/compilefunction.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "run/runresult.h"
#include "worker/protocol.h"
#include "worker/workerprocess.h"

#include <string>
#include <utility>

namespace cuwb {

class WorkerClient
{
public:
    // The most replay passes a metrics pass may take (CUPTI's range profiler), each one launch.
    static constexpr int kMaxReplayPasses = 16;
    // Beyond a kernel's deadline: a fresh worker's start (a context, NVRTC, the copy ceiling),
    // the compile, the allocations, the copies and the checks.
    static constexpr double kSlackSeconds = 90.0;
    static constexpr double kPageTimeoutSeconds = 30.0;
    static constexpr double kExportTimeoutSeconds = 600.0;

    explicit WorkerClient(WorkerProcess &process, CompileFunction hostCompile = {})
        : m_process(process)
        , m_hostCompile(std::move(hostCompile))
    {}

    RunResult run(const RunRequest &request);
    Measurement measure(const RunRequest &request, const SampleSettings &settings,
                        const ThroughputExpressions &throughput);
    MetricsResult metrics(const RunRequest &request, const MetricsRequest &metrics);
    // The inspection pass: counters per instruction of one launch; failures in the error.
    InspectResult inspect(const RunRequest &request, const InspectRequest &inspect);

    struct PageOutcome
    {
        Page page;
        std::string error; // empty when the page came
    };
    PageOutcome page(const PageRequest &request);

    struct ExportOutcome
    {
        ExportReply exported;
        std::string error; // empty when the file was written
    };
    ExportOutcome exportBuffer(const std::string &handle, const std::string &path,
                               ExportFormat format);
    // Frees the buffers the worker keeps from the last run (for paging); false when it failed.
    bool release();

    // How the last request's exchange went: None when the worker answered it (whatever the
    // answer says), else why not (a cancel, a crash, a timeout...).
    [[nodiscard]] WorkerProcess::Failure lastFailure() const { return m_lastFailure; }
    [[nodiscard]] bool answered() const { return m_lastFailure == WorkerProcess::Failure::None; }

    // The worker's limits: a run's deadline (10 s when none is given) plus the slack; a
    // measurement adds its time cap; a metrics pass allows a deadline per replay pass.
    static double runTimeoutSeconds(double deadlineSeconds);
    static double measureTimeoutSeconds(double deadlineSeconds, const SampleSettings &settings);
    static double metricsTimeoutSeconds(double deadlineSeconds);

    // A failed reply as a run's status and sentence; `what` names the request ("run",
    // "measurement", "metrics pass"). Also for replies that could not be parsed.
    static RunResult failedRun(const WorkerProcess::Reply &reply, double deadlineSeconds,
                               const std::string &what = "run");

private:
    // A reply that arrived as a RunResult, or the failure as one.
    static RunResult runFromReply(const WorkerProcess::Reply &reply, double deadlineSeconds);

    WorkerProcess::Reply exchange(nlohmann::json message, double timeoutSeconds);
    // A request of a run, measurement, metrics or inspection pass: for a remote worker, with
    // the input files and the image compiled here for its GPU (docs/remote.md). The failure
    // (a file too large, a worker that cannot be reached) is returned instead of sent.
    WorkerProcess::Reply exchangeRun(nlohmann::json message, const RunRequest &request,
                                     double timeoutSeconds);

    WorkerProcess &m_process;
    CompileFunction m_hostCompile; // empty: hostCompile() in this process
    WorkerProcess::Failure m_lastFailure = WorkerProcess::Failure::None;
};

} // namespace cuwb
