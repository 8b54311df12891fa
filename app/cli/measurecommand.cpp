// cuwb measure: times one project's kernel the way the GUI's Measure button does — warm-up,
// then cold or hot samples until the stopping criterion holds — in a `cuwb worker` child, and
// prints the statistics and throughput (or the whole Measurement as JSON).
#include "argumentparser.h"
#include "clitext.h"
#include "commands.h"
#include "diagnostictext.h"
#include "workeroptions.h"

#include "interruptcancels.h"
#include "util/format.h"

#include "measure/measurejson.h"
#include "measure/metrics.h"
#include "measure/roofline.h"
#include "project/project.h"
#include "run/runjson.h"
#include "run/runoutcome.h"
#include "worker/protocol.h"
#include "worker/workerclient.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <variant>

namespace cuwb::cli {

namespace {

// Beyond the time cap the worker needs time for NVRTC, the context, the allocations, the copy
// ceiling and one deadline's worth of a kernel that overruns.

void printMeasurement(std::ostream &out, const std::string &path, const Measurement &m)
{
    out << path << ": ";
    if (!m.faultStatus.empty()) {
        out << m.faultStatus << ": " << m.faultMessage << '\n';
    } else {
        out << "measured";
        if (!m.provenance.deviceName.empty()) {
            out << " on " << m.provenance.deviceName;
        }
        out << '\n';
    }
    if (!m.provenance.compiler.empty())
        out << "  built by " << m.provenance.compiler << ": " << m.provenance.compileCommand
            << '\n';
    const SampleStatistics &s = m.statistics;
    if (s.count > 0) {
        out << "  median " << formatMicroseconds(s.medianNs) << ", mean "
            << formatMicroseconds(s.meanNs) << ", min " << formatMicroseconds(s.minNs) << ", max "
            << formatMicroseconds(s.maxNs) << ", stddev " << formatMicroseconds(s.stddevNs) << '\n';
        out << "  noise " << formatNumber("%.2f %%", s.relativeNoise * 100.0) << ", " << s.count
            << " samples (" << sampleModeName(m.settings.mode) << "), timed by "
            << timingSourceName(m.timingSource);
        if (m.eventStatistics.count > 0 && m.timingSource == TimingSource::Cupti) {
            out << " (cuEvent median " << formatMicroseconds(m.eventStatistics.medianNs) << ")";
        }
        out << '\n';
        if (!m.stop.message.empty()) {
            out << "  stopped: " << m.stop.message << '\n';
        }
        if (m.settings.guarded) {
            out << "  guarded: "
                << (m.wrongSample.empty() ? plural(m.verifiedSamples, "sample") +
                                                " verified, the GPU restored before each"
                                          : "WRONG " + m.wrongSample)
                << '\n';
        }
        // A launch sequence: each kernel's part of the samples.
        for (const KernelSamples &kernel : m.kernels) {
            if (kernel.statistics.count > 0) {
                out << "  kernel " << kernel.kernel << ": median "
                    << formatMicroseconds(kernel.statistics.medianNs) << ", min "
                    << formatMicroseconds(kernel.statistics.minNs) << ", noise "
                    << formatNumber("%.2f %%", kernel.statistics.relativeNoise * 100.0) << '\n';
            }
        }
        if (!m.smClocksMHz.empty()) {
            out << "  SM clock " << formatNumber("%.0f", m.smClockMinMHz) << "–"
                << formatNumber("%.0f MHz", m.smClockMaxMHz);
            if (m.provenance.defaultSmClockKHz > 0) {
                out << " (default "
                    << formatNumber("%.0f MHz", m.provenance.defaultSmClockKHz * 1e-3) << ")";
            }
            out << (m.throttled
                        ? formatNumber(", throttled in %.0f samples", double(m.throttledSamples))
                        : std::string(", not throttled"))
                << '\n';
        }
    }
    const Throughput &t = m.throughput;
    if (t.effectiveGBps) {
        out << "  effective bandwidth " << formatNumber("%.1f GB/s", *t.effectiveGBps);
        if (t.bytes) {
            out << " (" << formatNumber("%.4g bytes", *t.bytes);
            if (!t.bytesExpression.empty()) {
                out << " = " << t.bytesExpression;
            }
            out << ")";
        }
        out << '\n';
    }
    if (t.percentOfPeak && t.theoreticalPeakGBps) {
        out << "  " << formatNumber("%.1f %%", *t.percentOfPeak) << " of the theoretical peak "
            << formatNumber("%.0f GB/s", *t.theoreticalPeakGBps) << '\n';
    }
    if (t.percentOfCeiling && t.copyCeilingGBps) {
        out << "  " << formatNumber("%.1f %%", *t.percentOfCeiling)
            << " of the measured copy ceiling " << formatNumber("%.0f GB/s", *t.copyCeilingGBps)
            << '\n';
    }
    if (t.gflops) {
        out << "  " << formatNumber("%.2f GFLOP/s", *t.gflops);
        if (t.flops) {
            out << " (" << formatNumber("%.4g FLOP", *t.flops) << " = " << t.flopsExpression << ")";
        }
        out << '\n';
    }
    for (const std::string &warning : t.warnings) {
        out << "  warning: " << warning << '\n';
    }
    for (const std::string &error : t.errors) {
        out << "  error: " << error << '\n';
    }
    for (const std::string &note : m.notes) {
        out << "  note: " << note << '\n';
    }
}

// "metrics pass: 1 replay pass on GH100 for 6 metrics", computed on the host before the pass.
std::string describePlan(const std::string &arch, const std::vector<std::string> &metrics)
{
    const std::string chip = chipForArch(arch);
    const std::string count = std::to_string(metrics.size()) + " metrics";
    if (chip.empty()) {
        return "metrics pass: " + count + "; the replay passes are not known for " + arch;
    }
    const MetricsResult plan = planMetricPasses(chip, metrics);
    if (!plan.ok()) {
        return "metrics pass: " + count + " on " + chip + "; passes unknown: " + plan.error;
    }
    return "metrics pass: " + std::to_string(plan.passes) + " replay pass" +
           (plan.passes == 1 ? "" : "es") + " on " + chip + " for " + count;
}

std::optional<double> metricValue(const MetricsResult &result, const char *name)
{
    const auto found = result.values.find(name);
    return found == result.values.end() ? std::nullopt : std::optional<double>(found->second);
}

void printMetrics(std::ostream &out, const Measurement &m, const MetricsResult &r)
{
    if (!r.ok()) {
        out << "  metrics not collected: " << r.error << '\n';
    } else {
        const auto read = metricValue(r, "dram__bytes_read.sum");
        const auto written = metricValue(r, "dram__bytes_write.sum");
        if (read && written) {
            out << "  ";
            if (m.throughput.bytes) {
                out << "declared " << formatNumber("%.2f GB", *m.throughput.bytes * 1e-9) << ", ";
            }
            out << "DRAM moved " << formatNumber("%.2f GB", (*read + *written) * 1e-9) << " (read "
                << formatNumber("%.2f GB", *read * 1e-9) << ", written "
                << formatNumber("%.2f GB", *written * 1e-9) << ")";
            // The kernel's writes reach the L2; what is still there when it ends is not yet
            // DRAM traffic (docs/measurement.md).
            if (const auto l2 = metricValue(r, "lts__t_sectors_srcunit_tex_op_write.sum")) {
                const double l2Bytes = *l2 * 32.0;
                out << "; the kernel wrote " << formatNumber("%.2f GB", l2Bytes * 1e-9);
                if (l2Bytes > *written) {
                    out << ", " << formatNumber("%.3f GB", (l2Bytes - *written) * 1e-9)
                        << " of it still in L2 when it ended";
                }
            }
            out << '\n';
        }
        if (const auto dram =
                metricValue(r, "dram__throughput.avg.pct_of_peak_sustained_elapsed")) {
            out << "  DRAM throughput " << formatNumber("%.1f %%", *dram) << " of peak\n";
        }
        if (const auto time = metricValue(r, "gpu__time_duration.sum")) {
            out << "  GPU time in the metrics pass " << formatMicroseconds(*time) << '\n';
        }
    }
    const auto achieved = metricValue(r, "sm__warps_active.avg.pct_of_peak_sustained_active");
    out << "  occupancy: ";
    if (achieved) {
        out << "achieved " << formatNumber("%.1f %%", *achieved) << ", ";
    }
    if (r.occupancyError.empty() && r.activeBlocksPerSm > 0) {
        out << "theoretical " << formatNumber("%.1f %%", r.theoreticalOccupancy * 100.0)
            << " (limited by " << r.occupancyLimiter << ", " << r.activeBlocksPerSm << " blocks of "
            << r.blockThreads << " threads per SM, " << r.registersPerThread
            << " registers per thread), " << formatNumber("%.2f waves", r.waves) << '\n';
    } else {
        out << "theoretical unknown"
            << (r.occupancyError.empty() ? std::string() : ": " + r.occupancyError) << '\n';
    }
}

std::string rate(double flopsPerSecond)
{
    return flopsPerSecond >= 1e12 ? formatNumber("%.1f TFLOP/s", flopsPerSecond * 1e-12)
                                  : formatNumber("%.1f GFLOP/s", flopsPerSecond * 1e-9);
}

// Speed of light and the roofline of a metrics pass that collected rooflineMetrics(), against
// the peaks of `device`; the same in `json` when it is not null.
void printRoofline(std::ostream &out, const MetricsResult &r, const DeviceInfo &device,
                   nlohmann::json *json)
{
    const SpeedOfLight sol = speedOfLight(r.values);
    const auto percent = [](const std::optional<double> &value) {
        return value ? formatNumber("%.1f %%", *value) : std::string("?");
    };
    out << "  speed of light: compute (SM) " << percent(sol.computePercent) << ", memory "
        << percent(sol.memoryPercent) << " (DRAM " << percent(sol.dramPercent) << ", L2 "
        << percent(sol.l2Percent) << ", L1 " << percent(sol.l1Percent) << ")\n";
    std::string why;
    const std::optional<RooflinePoint> point = rooflinePoint(r.values, why);
    const DevicePeaks peaks = devicePeaks(device);
    if (json) {
        const auto optional = [](const std::optional<double> &v) {
            return v ? nlohmann::json(*v) : nlohmann::json();
        };
        (*json)["speedOfLight"] = {{"computePercent", optional(sol.computePercent)},
                                   {"memoryPercent", optional(sol.memoryPercent)},
                                   {"dramPercent", optional(sol.dramPercent)},
                                   {"l2Percent", optional(sol.l2Percent)},
                                   {"l1Percent", optional(sol.l1Percent)}};
    }
    if (!point) {
        out << "  roofline: " << why << '\n';
        return;
    }
    const Precision precision = point->dominant();
    out << "  roofline: " << rate(point->flopsPerSecond()) << " " << precisionName(precision)
        << " at " << formatNumber("%.3g FLOP/byte", point->intensity());
    const std::optional<RooflinePlacement> placed = placeOnRoofline(*point, peaks);
    if (placed) {
        out << ": " << (placed->memoryBound ? "memory-bound" : "compute-bound") << " (ridge "
            << formatNumber("%.3g FLOP/byte", placed->ridgeIntensity) << "), "
            << formatNumber("%.1f %%", placed->fractionOfRoof * 100.0) << " of the roof ("
            << rate(placed->roofFlopsPerSecond) << ")";
    } else {
        out << " (" << (peaks.note.empty() ? "no peak for this precision" : peaks.note) << ")";
    }
    out << '\n';
    if (json) {
        nlohmann::json flops = nlohmann::json::object();
        for (const auto &[p, count] : point->flops) {
            flops[precisionName(p)] = count;
        }
        nlohmann::json peak = nlohmann::json::object();
        for (const auto &[p, value] : peaks.flopsPerSecond) {
            peak[precisionName(p)] = value;
        }
        (*json)["roofline"] = {{"flops", flops},
                               {"dramBytes", point->dramBytes},
                               {"seconds", point->seconds},
                               {"intensity", point->intensity()},
                               {"flopsPerSecond", point->flopsPerSecond()},
                               {"precision", precisionName(precision)},
                               {"peakFlopsPerSecond", peak},
                               {"peakDramBytesPerSecond", peaks.dramBytesPerSecond}};
        if (placed) {
            (*json)["roofline"]["ridgeIntensity"] = placed->ridgeIntensity;
            (*json)["roofline"]["memoryBound"] = placed->memoryBound;
            (*json)["roofline"]["fractionOfRoof"] = placed->fractionOfRoof;
        }
    }
}

// The verification run before the measurement: its verdict and each check's largest errors.
void printVerification(std::ostream &out, const RunResult &run, const RunOutcome &outcome)
{
    out << "  verification: " << (outcome.passed ? std::string("PASSED") : outcome.headline());
    if (outcome.kernel == KernelOutcome::Ran) {
        out << " (" << outcome.checksLine() << ")";
    }
    out << '\n';
    std::vector<VerificationResult> checks = run.checks;
    if (checks.empty() && run.verification.ran) {
        checks.push_back(run.verification);
    }
    for (const VerificationResult &check : checks) {
        out << "    " << (check.output.empty() ? std::string("output") : "`" + check.output + "`")
            << ": "
            << (!check.ran     ? "did not run"
                : check.passed ? "passed"
                               : "FAILED");
        if (const std::string errors = largestErrorText(check); !errors.empty()) {
            out << ", largest error " << errors;
        }
        out << '\n';
    }
}

bool parsePositive(const std::string &text, double &value)
{
    char *end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && std::isfinite(value) && value > 0.0;
}

} // namespace

void printMeasureHelp(std::ostream &out)
{
    out << "Usage: cuwb measure PROJECT.cuwb [--json] [--cold|--hot] [--samples N]\n"
           "                    [--no-verify] [--guarded]\n"
           "                    [--timer cupti|profiler|events]\n"
           "                    [--min-samples N] [--min-time S] [--noise R] [--cap S]\n"
           "                    [--bytes EXPR] [--flops EXPR] [--metrics]\n"
           "                    [--metric NAME]... [--roofline] [--device N]\n"
           "                    [--worker CMD] [--on TARGET]\n"
           "\n"
           "Times the project's kernel on the GPU in a 'cuwb worker' child: one warm-up\n"
           "launch, then samples until there are enough samples and GPU time and the\n"
           "relative noise is below the target (or no longer shrinking), or the time cap is\n"
           "reached. Kernel times come from CUPTI activity records, with cuEvents as the\n"
           "cross-check and the fallback. Prints the median, mean, min, max, standard\n"
           "deviation, noise, the timing source and the effective bandwidth against the\n"
           "device's theoretical peak and its measured device-to-device copy ceiling.\n"
           "A project with a verification is run and checked first, as 'cuwb run' checks\n"
           "it (each check's verdict and largest error are printed); a kernel whose output\n"
           "is wrong is still measured, and the exit status says it failed. A launch\n"
           "sequence is timed as a whole and each kernel on its own.\n"
           "\n"
           "  --no-verify       measure without the verification run first\n"
           "  --guarded         as grading measures (docs/grading.md): before every sample\n"
           "                    the module's globals, the inputs and the poisoned outputs\n"
           "                    are put back as the first launch found them, and every\n"
           "                    sample's output is verified; a wrong one voids the\n"
           "                    measurement (untimed; costs host time per sample)\n"
           "  --json            print the whole measurement as JSON\n"
           "  --cold            flush L2 before each sample (the default)\n"
           "  --hot             back-to-back launches, L2 kept\n"
           "  --samples N       take exactly N samples (the time cap still applies)\n"
           "  --timer T         what times each sample: cupti (CUPTI's kernel records,\n"
           "                    the default), profiler (the profiler's gpu__time_duration,\n"
           "                    what Nsight Compute reports: closest for short kernels,\n"
           "                    needs profiling permission and host time per sample) or\n"
           "                    events (cuEvents around each launch)\n"
           "  --min-samples N   at least N samples (default 10)\n"
           "  --min-time S      at least S seconds of GPU time (default 0.5)\n"
           "  --noise R         target relative noise, e.g. 0.005 for 0.5% (default)\n"
           "  --cap S           give up after S seconds (default 15)\n"
           "  --bytes EXPR      bytes the kernel moves, over the launch variables\n"
           "                    (default: each input buffer read once, each output written\n"
           "                    once); gives the effective GB/s\n"
           "  --flops EXPR      floating-point operations, e.g. '2*M*N*K'; gives GFLOP/s\n"
           "  --metrics         after timing, a separate metrics pass (CUPTI Range\n"
           "                    Profiler, never timed): DRAM bytes against the declared\n"
           "                    bytes, DRAM throughput, achieved beside theoretical\n"
           "                    occupancy, the limiter and the waves; needs profiling\n"
           "                    permission, without which the timing is still reported\n"
           "  --roofline        the metrics pass also collects what speed of light and the\n"
           "                    roofline need: compute and memory throughput as percentages\n"
           "                    of the peaks, FLOPs (an FMA as two) against DRAM bytes, and\n"
           "                    where that puts the kernel under the device's roofs\n"
           "  --metric NAME     collect NAME (a CUPTI metric such as\n"
           "                    dram__bytes_read.sum) instead of the default set;\n"
           "                    repeat for several; implies --metrics\n"
           "  --device N        the GPU to measure on (default 0)\n"
           "  --worker CMD      start the worker with CMD instead of 'cuwb worker'\n"
           "  --on TARGET       run on a remote GPU: user@host[:port] over ssh, a name from\n"
           "                    the targets file, or command:WORDS (docs/remote.md)\n"
           "\n"
           "Ctrl+C while sampling stops the sampling and reports the samples taken (a\n"
           "second Ctrl+C ends cuwb at once).\n"
           "\n"
           "The project's \"measure\" section (bytes, flops, settings) gives the defaults;\n"
           "options given here override it.\n"
           "\n"
           "Exit status: 0 measured (and verified), 1 the kernel could not be measured\n"
           "(compile error, fault, timeout, no GPU; the reason is printed) or its output did\n"
           "not verify, 2 usage error or a project that cannot be read.\n";
}

namespace {

// The project's "measure" settings with the command line's overrides; an exit status when an
// option is wrong.
std::variant<SampleSettings, int> measureSettings(const ArgumentParser &parser,
                                                  const Project &project)
{
    SampleSettings settings = project.measure.settings;
    if (parser.isSet("--hot")) {
        settings.mode = SampleMode::Hot;
    } else if (parser.isSet("--cold")) {
        settings.mode = SampleMode::Cold;
    }
    if (parser.isSet("--guarded")) {
        settings.guarded = true;
    }
    if (const auto timer = parser.value("--timer")) {
        if (*timer == "cupti") {
            settings.timer = TimingSource::Cupti;
        } else if (*timer == "profiler") {
            settings.timer = TimingSource::Profiler;
        } else if (*timer == "events") {
            settings.timer = TimingSource::Events;
        } else {
            return usageError("measure",
                              "--timer is cupti, profiler or events, got '" + *timer + "'");
        }
    }
    const auto count = [&](const char *option, int minimum, int &target) {
        if (const auto text = parser.value(option)) {
            const std::optional<long long> parsed = parseCount(*text);
            if (!parsed || *parsed < minimum || *parsed > 10000000) {
                return usageError("measure", std::string(option) + " needs a whole number of " +
                                                 "at least " + std::to_string(minimum) + ", got '" +
                                                 *text + "'");
            }
            target = static_cast<int>(*parsed);
        }
        return int(ExitSuccess);
    };
    const auto seconds = [&](const char *option, double &target) {
        if (const auto text = parser.value(option)) {
            if (!parsePositive(*text, target)) {
                return usageError("measure", std::string(option) +
                                                 " needs a positive number, got '" + *text + "'");
            }
        }
        return int(ExitSuccess);
    };
    for (const int status : {count("--samples", 1, settings.fixedSamples),
                             count("--min-samples", 2, settings.minSamples),
                             seconds("--min-time", settings.minGpuTimeSeconds),
                             seconds("--noise", settings.targetRelativeNoise),
                             seconds("--cap", settings.timeCapSeconds)}) {
        if (status != ExitSuccess) {
            return status;
        }
    }
    if (const auto problem = checkSampleSettings(settings)) {
        return usageError("measure", *problem);
    }
    return settings;
}

ThroughputExpressions measureThroughput(const ArgumentParser &parser, const Project &project)
{
    ThroughputExpressions throughput = project.measure.throughput;
    if (const auto text = parser.value("--bytes")) {
        throughput.bytes = *text;
    }
    if (const auto text = parser.value("--flops")) {
        throughput.flops = *text;
    }
    return throughput;
}

// The metrics a metrics pass collects: the default set, the --metric names, the roofline's;
// an exit status when a name is malformed.
std::variant<MetricsRequest, int> metricsRequestFor(const ArgumentParser &parser)
{
    MetricsRequest metricsRequest;
    const std::vector<std::string> metricNames = parser.values("--metric");
    for (const std::string &name : metricNames) {
        if (name.empty() || name.find_first_of(" \t") != std::string::npos) {
            return usageError("measure", "--metric needs a metric name such as "
                                         "dram__bytes_read.sum, got '" +
                                             name + "'");
        }
    }
    if (!metricNames.empty()) {
        metricsRequest.metrics = metricNames;
    }
    if (parser.isSet("--roofline")) {
        for (const std::string &name : rooflineMetrics()) {
            if (std::find(metricsRequest.metrics.begin(), metricsRequest.metrics.end(), name) ==
                metricsRequest.metrics.end()) {
                metricsRequest.metrics.push_back(name);
            }
        }
    }
    return metricsRequest;
}

// What one `cuwb measure` found on its worker.
struct Measured
{
    std::optional<RunResult> verified; // the verification run, when there was one
    std::optional<RunOutcome> verifiedOutcome;
    Measurement measurement;
    std::optional<MetricsResult> metrics;
    nlohmann::json roofline = nlohmann::json::object();
};

// Checked as `cuwb run` checks it, before it is timed (a figure for wrong output misleads),
// then timed; a kernel that did not run has its failure reported as the measurement's.
void verifyThenMeasure(WorkerProcess &worker, const RunRequest &request, bool verify,
                       const SampleSettings &settings, const ThroughputExpressions &throughput,
                       Measured &m)
{
    if (verify) {
        {
            const InterruptCancels interruptCancels(worker);
            WorkerClient client(worker);
            m.verified = client.run(request);
            if (client.answered()) {
                client.release(); // the measurement allocates its own buffers
            }
        }
        m.verifiedOutcome = describeRun(*m.verified, true);
    }
    if (m.verifiedOutcome && m.verifiedOutcome->kernel != KernelOutcome::Ran) {
        m.measurement.settings = settings;
        m.measurement.faultStatus = runStatusName(m.verified->status);
        m.measurement.faultMessage = m.verified->message;
        return;
    }
    const InterruptCancels interruptCancels(worker);
    m.measurement = WorkerClient(worker).measure(request, settings, throughput);
}

// After the timing, never mixed with it (the profiler replays the kernel): the metrics pass,
// and the roofline from them at the worker's device.
void collectMetrics(const ArgumentParser &parser, WorkerProcess &worker, const RunRequest &request,
                    const MetricsRequest &metricsRequest, Measured &m)
{
    const bool json = parser.isSet("--json");
    m.metrics = WorkerClient(worker).metrics(request, metricsRequest);
    if (!json) {
        printMetrics(std::cout, m.measurement, *m.metrics);
    } else if (!m.metrics->ok()) {
        std::cerr << "cuwb measure: metrics not collected: " << m.metrics->error << '\n';
    }
    if (!parser.isSet("--roofline") || !m.metrics->ok()) {
        return;
    }
    std::optional<DeviceInfo> device;
    try {
        device = parseHelloReply(worker.hello()).device;
    } catch (const nlohmann::json::exception &) {
        // No device to put the roofs at: said below.
    }
    std::ostringstream text;
    if (device) {
        printRoofline(text, *m.metrics, *device, json ? &m.roofline : nullptr);
    } else {
        text << "  roofline: the worker did not say which GPU it has\n";
    }
    (json ? std::cerr : std::cout) << text.str();
}

void printMeasuredJson(const Measured &m)
{
    nlohmann::json document = m.measurement;
    if (m.metrics) {
        document["metrics"] = *m.metrics; // additive: the measurement's own fields are unchanged
    }
    for (const auto &[key, value] : m.roofline.items()) {
        document[key] = value;
    }
    if (m.verified) {
        // The verification run, as `cuwb run --json` gives it; additive too.
        document["run"] = *m.verified;
        document["run"]["outcome"] = *m.verifiedOutcome;
    }
    std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

// Failed when the measurement failed, the verification did not pass or a guarded sample was
// wrong; each said on stderr.
int measuredExitStatus(const std::string &path, bool json, const Measured &m)
{
    if (!m.measurement.faultStatus.empty()) {
        if (json) {
            std::cerr << "cuwb measure: " << path << ": " << m.measurement.faultMessage << '\n';
        }
        return ExitFailure;
    }
    if (m.verifiedOutcome && !m.verifiedOutcome->passed) {
        std::cerr << "cuwb measure: " << path << ": measured, but " << m.verifiedOutcome->headline()
                  << '\n';
        return ExitFailure;
    }
    if (!m.measurement.wrongSample.empty()) {
        std::cerr << "cuwb measure: " << path << ": the measurement is void: the output of "
                  << m.measurement.wrongSample << '\n';
        return ExitFailure;
    }
    return ExitSuccess;
}

} // namespace

int runMeasure(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addFlag({"--json"});
    parser.addFlag({"--no-verify"});
    parser.addFlag({"--guarded"});
    parser.addFlag({"--cold"});
    parser.addFlag({"--hot"});
    parser.addOption({"--timer"});
    parser.addOption({"--samples"});
    parser.addOption({"--min-samples"});
    parser.addOption({"--min-time"});
    parser.addOption({"--noise"});
    parser.addOption({"--cap"});
    addWorkerOptions(parser);
    parser.addOption({"--bytes"});
    parser.addFlag({"--metrics"});
    parser.addFlag({"--roofline"});
    parser.addOption({"--metric"});
    parser.addOption({"--flops"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("measure", parser.error());
    }
    if (parser.isSet("--help")) {
        printMeasureHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1) {
        return usageError("measure", parser.positionals().empty()
                                         ? "no project given"
                                         : "measure takes one project, got " +
                                               std::to_string(parser.positionals().size()));
    }
    if (parser.isSet("--cold") && parser.isSet("--hot")) {
        return usageError("measure", "--cold and --hot exclude each other");
    }
    const std::string &path = parser.positionals().front();
    std::optional<OpenedProject> opened = openProject("measure", path);
    if (!opened)
        return ExitUsage;
    const Project &project = opened->project;
    const std::variant<SampleSettings, int> chosen = measureSettings(parser, project);
    if (const int *status = std::get_if<int>(&chosen)) {
        return *status;
    }
    const SampleSettings &settings = std::get<SampleSettings>(chosen);
    const auto workerChoice = workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("measure", *problem);
    }
    const std::variant<MetricsRequest, int> metricsChoice = metricsRequestFor(parser);
    if (const int *status = std::get_if<int>(&metricsChoice)) {
        return *status;
    }
    const MetricsRequest &metricsRequest = std::get<MetricsRequest>(metricsChoice);
    const bool wantMetrics = parser.isSet("--metrics") || !parser.values("--metric").empty() ||
                             parser.isSet("--roofline");
    const RunRequest request = projectRunRequest(project, std::move(opened->source));

    WorkerProcess worker(std::get<WorkerProcess::Options>(workerChoice));
    const bool json = parser.isSet("--json");
    Measured m;
    verifyThenMeasure(worker, request,
                      project.verification.configured() && !parser.isSet("--no-verify"), settings,
                      measureThroughput(parser, project), m);
    if (!json) {
        printMeasurement(std::cout, path, m.measurement);
        if (m.verified && m.verifiedOutcome->kernel == KernelOutcome::Ran) {
            printVerification(std::cout, *m.verified, *m.verifiedOutcome);
        }
    }
    if (wantMetrics && m.measurement.faultStatus.empty() &&
        m.measurement.stop.reason != StopReason::Cancelled) {
        (json ? std::cerr : std::cout)
            << (json ? "cuwb measure: " : "  ")
            << describePlan(m.measurement.provenance.arch, metricsRequest.metrics) << '\n'
            << std::flush;
        collectMetrics(parser, worker, request, metricsRequest, m);
    }
    worker.stop();
    if (json) {
        printMeasuredJson(m);
    }
    return measuredExitStatus(path, json, m);
}

} // namespace cuwb::cli
