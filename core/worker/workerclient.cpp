#include "worker/workerclient.h"

#include <cmath>
#include <cstdio>
#include <exception>

namespace cuwb {

namespace {

double deadlineOrDefault(double deadlineSeconds)
{
    return std::isfinite(deadlineSeconds) && deadlineSeconds > 0 ? deadlineSeconds : 10.0;
}

std::string seconds(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// "could not start the worker: why" → "could not start: why", for "The worker could not start".
std::string startProblem(const std::string &error)
{
    const std::string prefix = "could not start the worker";
    if (error.rfind(prefix, 0) == 0) {
        return "could not start" + error.substr(prefix.size());
    }
    return "could not start: " + error;
}

} // namespace

double WorkerClient::runTimeoutSeconds(double deadlineSeconds)
{
    return deadlineOrDefault(deadlineSeconds) + kSlackSeconds;
}

double WorkerClient::measureTimeoutSeconds(double deadlineSeconds, const SampleSettings &settings)
{
    const double cap = std::isfinite(settings.timeCapSeconds) && settings.timeCapSeconds > 0
                           ? settings.timeCapSeconds
                           : 0.0;
    return cap + runTimeoutSeconds(deadlineSeconds);
}

double WorkerClient::metricsTimeoutSeconds(double deadlineSeconds)
{
    return deadlineOrDefault(deadlineSeconds) * kMaxReplayPasses + kSlackSeconds;
}

RunResult WorkerClient::failedRun(const WorkerProcess::Reply &reply, double deadlineSeconds,
                                  const std::string &what)
{
    RunResult result;
    result.status = RunStatus::WorkerCrashed;
    switch (reply.failure) {
    case WorkerProcess::Failure::None:
        result.message = "The worker's answer could not be read.";
        break;
    case WorkerProcess::Failure::Timeout:
        // The worker enforces the kernel's deadline itself; this is the backstop for a worker
        // stuck anywhere, so say both numbers.
        result.status = RunStatus::Timeout;
        result.message = "The " + what + " did not finish within " +
                         seconds(deadlineOrDefault(deadlineSeconds)) +
                         " s (the kernel's deadline) and the worker's slack: " + reply.error +
                         "; the worker was stopped and starts afresh for the next request.";
        break;
    case WorkerProcess::Failure::StartFailed:
        result.message = "The worker " + startProblem(reply.error);
        break;
    case WorkerProcess::Failure::Crashed:
    case WorkerProcess::Failure::Garbage:
        result.message = "The worker stopped unexpectedly: " + reply.error +
                         " It starts afresh for the next request.";
        break;
    case WorkerProcess::Failure::ErrorReply:
        result.message = "The worker refused the " + what + ": " + reply.error;
        break;
    case WorkerProcess::Failure::Cancelled:
        result.message = "The " + what + " was cancelled; the worker was stopped.";
        break;
    }
    return result;
}

RunResult WorkerClient::runFromReply(const WorkerProcess::Reply &reply, double deadlineSeconds)
{
    if (!reply.ok()) {
        return failedRun(reply, deadlineSeconds);
    }
    try {
        return parseRunResultReply(reply.message);
    } catch (const std::exception &error) {
        RunResult result;
        result.status = RunStatus::WorkerCrashed;
        result.message = std::string("The worker's answer could not be read: ") + error.what();
        return result;
    }
}

WorkerProcess::Reply WorkerClient::exchange(nlohmann::json message, double timeoutSeconds)
{
    WorkerProcess::Reply reply = m_process.request(std::move(message), timeoutSeconds);
    m_lastFailure = reply.failure;
    return reply;
}

bool WorkerClient::release()
{
    return exchange(makeReleaseRequest(), kSlackSeconds).ok();
}

RunResult WorkerClient::run(const RunRequest &request)
{
    const double deadline = request.launch.deadlineSeconds;
    return runFromReply(exchange(makeRunRequest(request), runTimeoutSeconds(deadline)), deadline);
}

Measurement WorkerClient::measure(const RunRequest &request, const SampleSettings &settings,
                                  const ThroughputExpressions &throughput)
{
    const double deadline = request.launch.deadlineSeconds;
    const WorkerProcess::Reply reply = exchange(makeMeasureRequest(request, settings, throughput),
                                                measureTimeoutSeconds(deadline, settings));
    Measurement measurement;
    measurement.settings = settings;
    if (reply.ok()) {
        try {
            return parseMeasurementReply(reply.message);
        } catch (const std::exception &error) {
            measurement.faultStatus = runStatusName(RunStatus::WorkerCrashed);
            measurement.faultMessage =
                std::string("The worker's answer could not be read: ") + error.what();
            return measurement;
        }
    }
    const RunResult failed = failedRun(reply, deadline, "measurement");
    measurement.faultStatus = runStatusName(failed.status);
    measurement.faultMessage = failed.message;
    return measurement;
}

MetricsResult WorkerClient::metrics(const RunRequest &request, const MetricsRequest &metrics)
{
    const double deadline = request.launch.deadlineSeconds;
    const WorkerProcess::Reply reply =
        exchange(makeMetricsRequest(request, metrics), metricsTimeoutSeconds(deadline));
    MetricsResult result;
    if (reply.ok()) {
        try {
            return parseMetricsReply(reply.message);
        } catch (const std::exception &error) {
            result.error = std::string("the worker's answer could not be read: ") + error.what();
            return result;
        }
    }
    result.error = "the worker could not collect the metrics: " +
                   failedRun(reply, deadline, "metrics pass").message;
    return result;
}

InspectResult WorkerClient::inspect(const RunRequest &request, const InspectRequest &inspect)
{
    const double deadline = request.launch.deadlineSeconds;
    // The patched launch is one run, several times slower: the metrics pass's allowance.
    const WorkerProcess::Reply reply =
        exchange(makeInspectRequest(request, inspect), metricsTimeoutSeconds(deadline));
    InspectResult result;
    if (reply.ok()) {
        try {
            return parseInspectReply(reply.message);
        } catch (const std::exception &error) {
            result.error = std::string("the worker's answer could not be read: ") + error.what();
            return result;
        }
    }
    result.error = "the worker could not inspect the kernel: " +
                   failedRun(reply, deadline, "inspection pass").message;
    return result;
}

WorkerClient::PageOutcome WorkerClient::page(const PageRequest &request)
{
    PageOutcome outcome;
    const WorkerProcess::Reply reply = exchange(makePageRequest(request), kPageTimeoutSeconds);
    if (!reply.ok()) {
        outcome.error = reply.error;
        return outcome;
    }
    try {
        outcome.page = parsePageReply(reply.message);
    } catch (const std::exception &error) {
        outcome.error = std::string("the worker's page could not be read: ") + error.what();
    }
    return outcome;
}

WorkerClient::ExportOutcome WorkerClient::exportBuffer(const std::string &handle,
                                                       const std::string &path, ExportFormat format)
{
    ExportOutcome outcome;
    const WorkerProcess::Reply reply =
        exchange(makeExportRequest(handle, path, format), kExportTimeoutSeconds);
    if (!reply.ok()) {
        outcome.error = reply.error;
        return outcome;
    }
    try {
        outcome.exported = parseExportedReply(reply.message);
    } catch (const std::exception &error) {
        outcome.error = std::string("the worker's answer could not be read: ") + error.what();
    }
    return outcome;
}

} // namespace cuwb
