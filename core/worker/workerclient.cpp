#include "worker/workerclient.h"

#include "compiler/kernelcompiler.h"
#include "cuda/nvrtcinfo.h"
#include "launch/launchenvironment.h"
#include "measure/measurement.h"
#include "run/runjson.h"
#include "worker/inlinefiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>

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

// The host's compiles for remote workers, kept across requests and clients (a sweep makes a
// client per point) so that each variant is compiled here once.
CompileResult hostCompile(const RunRequest &request, const CompileOptions &options)
{
    static std::mutex mutex;
    static KernelCompiler compiler(64);
    const std::lock_guard lock(mutex);
    return compiler.compile(request.source, request.fileName, options);
}

// The number of "sm_90": 90; 0 when there is none.
int archNumber(const std::string &arch)
{
    const std::size_t digits = arch.find_first_of("0123456789");
    return digits == std::string::npos ? 0 : std::atoi(arch.c_str() + digits);
}

// For a GPU newer than this NVRTC knows: the newest architecture it knows below the GPU's,
// whose PTX the driver there JIT-compiles; empty when it knows the GPU's or none below.
std::string olderArchKnownHere(const std::string &arch)
{
    const std::vector<std::string> &known = nvrtcSupportedArchs();
    if (known.empty() || std::find(known.begin(), known.end(), arch) != known.end()) {
        return {};
    }
    std::string best;
    for (const std::string &candidate : known) {
        if (archNumber(candidate) <= archNumber(arch) && archNumber(candidate) > archNumber(best)) {
            best = candidate;
        }
    }
    return best;
}

std::string capitalised(std::string text)
{
    if (!text.empty() && text.front() >= 'a' && text.front() <= 'z') {
        text.front() = static_cast<char>(text.front() - 'a' + 'A');
    }
    return text;
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
        if (reply.linkLost) {
            // Nothing else is lost: the next request connects again.
            result.message = capitalised(reply.error) + ".";
            break;
        }
        result.message = "The worker stopped unexpectedly: " + reply.error +
                         " It starts afresh for the next request.";
        break;
    case WorkerProcess::Failure::ErrorReply:
        if (reply.notSent) {
            result.status = RunStatus::InvalidLaunch;
            result.message = "The " + what + " was not sent to the remote worker: " + reply.error;
            break;
        }
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

WorkerProcess::Reply WorkerClient::exchangeRun(nlohmann::json message, const RunRequest &request,
                                               double timeoutSeconds)
{
    if (!m_process.remote()) {
        return exchange(std::move(message), timeoutSeconds);
    }
    // The GPU's architecture comes with the hello: connect first.
    WorkerProcess::Reply connected = m_process.connect();
    if (!connected.ok()) {
        m_lastFailure = connected.failure;
        return connected;
    }
    const auto files = collectInputFiles(request);
    if (const auto *problem = std::get_if<std::string>(&files)) {
        m_lastFailure = WorkerProcess::Failure::ErrorReply;
        WorkerProcess::Reply refused{WorkerProcess::Failure::ErrorReply, {}, *problem};
        refused.notSent = true;
        return refused;
    }
    attachInputFiles(message, std::get<std::vector<InlineFile>>(files));

    // The image for the remote GPU, compiled here once per worker; a source that does not
    // compile goes as it is, and the worker's compile says why as it does locally.
    std::string imageKey;
    const HelloReply hello = parseHelloReply(m_process.hello());
    CompileOptions options = request.options;
    LaunchSpec launch = request.launch;
    if (hello.device &&
        bindLaunchDefines(launch, options,
                          {request.launch.kernel, request.verification.referenceKernel})
            .empty()) {
        options.arch = hello.device->arch();
        imageKey = sourceHashFnv1a64(request.source) + ":" + request.fileName + ":" +
                   options.canonicalText();
        // A request that brings its own image (a sweep's first of a variant) delivers it.
        if (!request.image && !m_process.hasImage(imageKey)) {
            const auto compileHere = [&](const CompileOptions &with) {
                return m_hostCompile ? m_hostCompile(request.source, request.fileName, with)
                                     : hostCompile(request, with);
            };
            CompileResult compiled = compileHere(options);
            bool ptxOnly = false;
            if (const std::string older = olderArchKnownHere(options.arch);
                !compiled.success && !older.empty()) {
                CompileOptions fallback = options;
                fallback.arch = older;
                compiled = compileHere(fallback);
                ptxOnly = true; // the cubin is for another GPU: the worker JITs the PTX
            }
            if (compiled.success) {
                CompiledImage image;
                image.options = compiled.options;
                image.cubin = ptxOnly ? std::string() : compiled.cubin;
                image.ptx = compiled.ptx;
                image.kernels = compiled.kernels;
                image.compileTimeMs = compiled.compileTimeMs;
                image.compiledBy = compiled.compiledBy;
                message["request"]["image"] = image;
            } else {
                imageKey.clear();
            }
        }
    }
    WorkerProcess::Reply reply = exchange(std::move(message), timeoutSeconds);
    if (reply.failure == WorkerProcess::Failure::None && !imageKey.empty()) {
        m_process.imageDelivered(imageKey);
    }
    return reply;
}

bool WorkerClient::release()
{
    return exchange(makeReleaseRequest(), kSlackSeconds).ok();
}

RunResult WorkerClient::run(const RunRequest &request)
{
    const double deadline = request.launch.deadlineSeconds;
    return runFromReply(exchangeRun(makeRunRequest(request), request, runTimeoutSeconds(deadline)),
                        deadline);
}

Measurement WorkerClient::measure(const RunRequest &request, const SampleSettings &settings,
                                  const ThroughputExpressions &throughput)
{
    const double deadline = request.launch.deadlineSeconds;
    const WorkerProcess::Reply reply =
        exchangeRun(makeMeasureRequest(request, settings, throughput), request,
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
        exchangeRun(makeMetricsRequest(request, metrics), request, metricsTimeoutSeconds(deadline));
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
        exchangeRun(makeInspectRequest(request, inspect), request, metricsTimeoutSeconds(deadline));
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
    // A remote worker's paths are on its machine: it sends the file back and it is written here.
    const bool remote = m_process.remote();
    const WorkerProcess::Reply reply =
        exchange(makeExportRequest(handle, path, format, remote), kExportTimeoutSeconds);
    if (!reply.ok()) {
        outcome.error = reply.error;
        return outcome;
    }
    try {
        outcome.exported = parseExportedReply(reply.message);
    } catch (const std::exception &error) {
        outcome.error = std::string("the worker's answer could not be read: ") + error.what();
        return outcome;
    }
    if (remote) {
        if (!outcome.exported.data) {
            outcome.error = "the remote worker did not send the exported file back";
            return outcome;
        }
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(outcome.exported.data->data(),
                  static_cast<std::streamsize>(outcome.exported.data->size()));
        if (!out) {
            outcome.error = "cannot write " + path;
            return outcome;
        }
        outcome.exported.path = path;
        outcome.exported.bytes = outcome.exported.data->size();
        outcome.exported.data.reset();
    }
    return outcome;
}

} // namespace cuwb
