// cuwb sweep: measures a project's kernel at every point of its sweep (the project's "sweep"
// section, or a preset) in one `cuwb worker` child, prints each point as it completes with
// the progress and the time left, then the best point and the points tied with it, and
// writes the whole result as CSV, JSON (readable back) or T4 for Kernel Tuner. With --devices,
// one worker per GPU of the machine measures the points at once (MultiDeviceSweep,
// docs/multigpu.md); with --slurm, a Slurm job array measures it shard by shard (SlurmSweep,
// docs/slurm.md). The three are SweepExecutors, started, followed and reported alike.
#include "argumentparser.h"
#include "clitext.h"
#include "commands.h"
#include "diagnostictext.h"
#include "slurmarguments.h"
#include "sweepreport.h"
#include "workeroptions.h"

#include "interruptcancels.h"
#include "util/format.h"

#include "cluster/slurmsweep.h"
#include "measure/roofline.h"
#include "project/project.h"
#include "sweep/multidevicesweep.h"
#include "sweep/sweepexport.h"
#include "sweep/sweephostcheck.h"
#include "sweep/sweepjson.h"
#include "sweep/sweeprunner.h"
#include "sweep/sweepshard.h"
#include "worker/workerprocess.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <variant>

#include <unistd.h>

namespace cuwb::cli {

namespace {

// Above this many points a sweep starts only with --yes: it runs for a long time.
constexpr std::size_t kConfirmPoints = 1000;
// The exit status of a sweep cancelled with Ctrl+C (128 + SIGINT, as a shell reports it).
constexpr int kExitInterrupted = 130;

// "[ 7/32]": the count padded to the total's width, so the lines align.
std::string progressTag(std::size_t done, std::size_t total)
{
    const std::string all = std::to_string(total);
    std::string now = std::to_string(done);
    now.insert(0, all.size() > now.size() ? all.size() - now.size() : 0, ' ');
    return "[" + now + "/" + all + "]";
}

std::string figures(const SweepPointResult &r)
{
    std::string text;
    if (r.measurement && r.measurement->statistics.count > 0) {
        const SampleStatistics &s = r.measurement->statistics;
        text += "median " + formatMicroseconds(s.medianNs) +
                formatNumber(" ±%.1f%%", s.relativeNoise * 100);
        const Throughput &t = r.measurement->throughput;
        if (t.effectiveGBps) {
            text += formatNumber(", %.1f GB/s", *t.effectiveGBps);
            if (t.percentOfPeak) {
                text += formatNumber(" (%.1f%% of peak)", *t.percentOfPeak);
            }
        }
        if (t.gflops) {
            text += formatNumber(", %.2f GFLOP/s", *t.gflops);
        }
    }
    if (r.theoreticalOccupancy) {
        text += (text.empty() ? "" : ", ") +
                formatNumber("occupancy %.0f%%", *r.theoreticalOccupancy * 100.0) +
                (r.occupancyLimiter.empty() ? std::string() : " (" + r.occupancyLimiter + ")");
    }
    return text;
}

// A point's speed of light and place on the roofline, from a metrics pass that collected
// rooflineMetrics() (--roofline); empty without those values. `peaks` places it under the
// device's roofs when known.
std::string rooflineFigures(const SweepPointResult &r, const DevicePeaks *peaks)
{
    if (!r.metrics || !r.metrics->ok()) {
        return {};
    }
    std::string text;
    const SpeedOfLight sol = speedOfLight(r.metrics->values);
    if (sol.computePercent && sol.memoryPercent) {
        text += formatNumber("SOL compute %.1f%%", *sol.computePercent) +
                formatNumber(", memory %.1f%%", *sol.memoryPercent);
    }
    std::string why;
    const std::optional<RooflinePoint> point = rooflinePoint(r.metrics->values, why);
    if (point && point->totalFlops() > 0.0) {
        text += (text.empty() ? "" : "; ") +
                formatNumber("%.2f GFLOP/s", point->flopsPerSecond() / 1e9) + " " +
                precisionName(point->dominant()) +
                formatNumber(" at %.3g FLOP/byte", point->intensity());
        if (peaks) {
            if (const auto placed = placeOnRoofline(*point, *peaks)) {
                text += formatNumber(", %.1f%% of the roof", placed->fractionOfRoof * 100.0);
                text += placed->memoryBound ? " (memory-bound)" : " (compute-bound)";
            }
        }
    }
    return text;
}

// "abs 3e-07 at c[12], rel 1.2e-06 at c[40]": the largest errors of a verified point (of its
// worst check, with several); empty when it was not verified.
std::string pointErrors(const SweepPointResult &r)
{
    const VerificationResult *worst = worstCheck(r.checks);
    return worst ? largestErrorText(*worst) : std::string();
}

void printPoint(std::ostream &out, const SweepPointResult &r, const SweepProgress &progress,
                const DevicePeaks *peaks = nullptr)
{
    out << progressTag(progress.done, progress.total) << ' ' << r.point.label();
    if (r.deviceIndex) {
        out << " on GPU " << *r.deviceIndex;
    }
    out << ": ";
    switch (r.status) {
    case PointStatus::Measured:
        out << figures(r);
        if (const std::string roof = rooflineFigures(r, peaks); !roof.empty()) {
            out << "; " << roof;
        }
        if (const std::string errors = pointErrors(r); !errors.empty()) {
            out << "; verified, largest error " << errors;
        }
        break;
    case PointStatus::Wrong:
        out << "WRONG: " << r.message << "; " << figures(r);
        if (const std::string errors = pointErrors(r); !errors.empty()) {
            out << "; largest error " << errors;
        }
        break;
    case PointStatus::Skipped:
        out << "skipped: " << r.message;
        break;
    case PointStatus::Failed:
        out << "failed: " << r.message;
        break;
    case PointStatus::Pending:
        out << "not measured" << (r.message.empty() ? "" : ": " + r.message);
        break;
    }
    if (progress.secondsLeft && *progress.secondsLeft > 0 && progress.done < progress.total) {
        out << "  (~" << formatDuration(*progress.secondsLeft) << " left)";
    }
    out << '\n' << std::flush;
}

// ", metrics pass (N metrics: the roofline's too)": what each point's metrics pass collects.
std::string metricsNote(const SweepSpec &spec)
{
    if (!spec.metrics && !spec.roofline) {
        return {};
    }
    const std::size_t count = pointMetricsRequest(spec).metrics.size();
    return ", metrics pass (" + std::to_string(count) + " metrics" +
           (spec.roofline ? ": speed of light and roofline" : "") + ")";
}

std::string estimateText(const SweepSpec &spec, std::size_t runnable, double deadlineSeconds)
{
    const SweepEstimate estimate = estimateSweep(spec, runnable, deadlineSeconds);
    return "at least " + formatDuration(estimate.minSeconds) + ", at most " +
           formatDuration(estimate.maxSeconds) + " at the " +
           formatDuration(spec.settings.timeCapSeconds) + " time cap per point";
}

} // namespace

void printSweepSummary(std::ostream &out, const SweepResult &result)
{
    const std::size_t measured = result.count(PointStatus::Measured);
    out << "measured " << measured << " of " << result.points.size() << " points in "
        << formatDuration(result.wallSeconds);
    std::string rest;
    for (const PointStatus status :
         {PointStatus::Skipped, PointStatus::Failed, PointStatus::Wrong, PointStatus::Pending}) {
        if (const std::size_t n = result.count(status)) {
            rest += (rest.empty() ? "" : ", ") + std::to_string(n) + " " +
                    (status == PointStatus::Pending ? "not measured" : pointStatusName(status));
        }
    }
    out << (rest.empty() ? "" : " (" + rest + ")") << (result.cancelled ? ", cancelled" : "")
        << '\n';
    if (!result.devices.empty()) {
        out << "GPUs:";
        for (std::size_t i = 0; i < result.devices.size(); ++i) {
            const DeviceInfo &device = result.devices[i];
            std::size_t measuredThere = 0;
            for (const SweepPointResult &r : result.points) {
                measuredThere +=
                    r.deviceIndex == device.ordinal &&
                            (r.status == PointStatus::Measured || r.status == PointStatus::Wrong)
                        ? 1
                        : 0;
            }
            out << (i == 0 ? " " : ", ") << "GPU " << device.ordinal << " (" << device.name
                << ") measured " << measuredThere;
        }
        out << '\n';
    }
    if (result.mixedModels()) {
        // Times of different GPU models are not comparable: each GPU's best, side by side.
        out << "no single best: the GPUs are of different models\n";
        for (const auto &[device, k] : result.bestPointPerDevice()) {
            const SweepPointResult &b = result.points[k];
            out << "best on GPU " << device << " (" << b.deviceName << "): " << b.point.label()
                << ": " << figures(b) << '\n';
        }
    }
    if (const std::optional<std::size_t> best = result.bestPoint()) {
        const SweepPointResult &b = result.points[*best];
        out << "best: " << b.point.label()
            << (b.deviceIndex ? " (on GPU " + std::to_string(*b.deviceIndex) + ")" : "") << ": "
            << figures(b);
        if (b.measurement && b.measurement->throughput.percentOfCeiling) {
            out << formatNumber(", %.1f%% of the copy ceiling",
                                *b.measurement->throughput.percentOfCeiling);
        }
        out << '\n';
        const std::vector<std::size_t> tied = result.pointsTiedWithBest();
        if (!tied.empty()) {
            out << "within the noise of the best:";
            for (std::size_t i = 0; i < tied.size(); ++i) {
                out << (i == 0 ? " " : ", ") << result.points[tied[i]].point.label();
            }
            out << '\n';
        }
    }
    if (const SweepTimeBreakdown t = result.timeBreakdown(); t.measuredPoints > 0) {
        char line[640];
        std::snprintf(line, sizeof line,
                      "time: %.0f ms in all: host compiles %.0f ms, worker compiles %.0f ms, "
                      "verification runs %.0f ms, measurements %.0f ms, other (worker start, "
                      "checks) %.0f ms\n"
                      "  in the measurements: load and buffers %.1f ms, timer set-up %.1f ms, "
                      "warm-up %.1f ms, sampling %.1f ms (the kernels' samples %.1f ms)\n"
                      "  beyond its samples and compile, a point took %.3g ms (median; mean "
                      "%.3g ms with the worker's start)\n",
                      t.wallMs, t.hostCompileMs, t.workerCompileMs, t.verifyMs, t.measureMs,
                      t.otherMs, t.prepareMs, t.setupMs, t.warmupMs, t.samplingMs, t.gpuSampleMs,
                      t.medianOverheadMs, t.overheadPerPointMs);
        out << line;
    }
    for (const std::string &note : result.notes) {
        out << "note: " << note << '\n';
    }
}

namespace {

// What the points of a skip kind have in common, for a line that counts them.
const char *skipKindPhrase(SkipKind kind)
{
    switch (kind) {
    case SkipKind::Compile:
        return "that do not compile";
    case SkipKind::Resources:
        return "that the kernel's registers or shared memory cannot launch";
    case SkipKind::Limits:
        return "over the architecture's limits";
    case SkipKind::Expression:
        return "whose expressions have no usable value";
    case SkipKind::Constraint:
        return "excluded by constraints";
    case SkipKind::None:
        break;
    }
    return "skipped for other reasons";
}

} // namespace

void printSkipGroups(std::ostream &out, const std::string &prefix, const SweepResult &result,
                     bool nameEach)
{
    // Enough to see every distinct reason of a real sweep; a sweep of 10,000 points whose
    // limits messages each name their own thread count stays a few lines.
    constexpr std::size_t kMostNamed = 50;
    constexpr std::size_t kMostReasonsAKind = 5;
    std::size_t named = 0;
    std::size_t notNamed = 0;
    std::map<SkipKind, std::size_t> reasonsShown;
    std::map<SkipKind, std::size_t> notShown;
    for (const SkipGroup &group : groupSkips(result.points)) {
        const SweepPointResult &first = result.points[group.points.front()];
        if (nameEach && (namesEachPoint(group.kind) || group.kind == SkipKind::None)) {
            for (const std::size_t k : group.points) {
                if (named++ < kMostNamed)
                    out << prefix << result.points[k].point.label() << ": skipped: " << group.reason
                        << '\n';
                else
                    ++notNamed;
            }
            continue;
        }
        if (reasonsShown[group.kind]++ >= kMostReasonsAKind) {
            notShown[group.kind] += group.points.size();
            continue;
        }
        if (group.points.size() == 1) {
            out << prefix << first.point.label() << ": skipped: " << group.reason << '\n';
            continue;
        }
        out << prefix << plural(group.points.size(), "point") << " skipped: " << group.reason
            << " (the first: " << first.point.label() << ")\n";
    }
    if (notNamed > 0)
        out << prefix << "... and " << notNamed
            << " more that do not compile or cannot launch (cuwb sweep --list shows every "
               "point)\n";
    for (const auto &[kind, count] : notShown)
        out << prefix << "... and " << plural(count, "more point") << " " << skipKindPhrase(kind)
            << ", for other reasons" << (nameEach ? " (cuwb sweep --list shows every point)" : "")
            << '\n';
}

std::string checkWritable(const std::string &path)
{
    const std::filesystem::path file(path);
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
        return "cannot write '" + path + "': it is a directory";
    }
    if (std::filesystem::exists(file, error)) {
        return ::access(path.c_str(), W_OK) == 0 ? std::string()
                                                 : "cannot write '" + path + "': not writable";
    }
    const std::filesystem::path folder =
        file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
    if (!std::filesystem::is_directory(folder, error)) {
        return "cannot write '" + path + "': the folder " + folder.string() + " does not exist";
    }
    return ::access(folder.c_str(), W_OK) == 0
               ? std::string()
               : "cannot write '" + path + "': the folder is not writable";
}

void printSweepHelp(std::ostream &out)
{
    out << "Usage: cuwb sweep PROJECT.cuwb [--csv FILE] [--json FILE] [--t4 FILE] [--yes]\n"
           "                  [--preset ID] [--verify|--no-verify] [--metrics] [--roofline]\n"
           "                  [--samples N]\n"
           "                  [--cold|--hot] [--list [--arch ARCH]] [--device N]\n"
           "                  [--worker COMMAND] [--on TARGET] [--shard K/N]\n"
           "                  [--devices all|N,M,... [--per-device]]\n"
           "                  [--slurm [--gpus N] [--partition P] [--time T]\n"
           "                   [--sbatch-option OPT]... [--gres SPEC] [--job-dir DIR]\n"
           "                   [--dry-run]]\n"
           "\n"
           "Measures the project's kernel at every point of its sweep (the project's\n"
           "\"sweep\" section: axes over block.x/y/z, variables, -D defines, <template>\n"
           "arguments, -maxrregcount and --use_fast_math, as a cartesian product or zipped,\n"
           "with constraints) in one 'cuwb worker' child. Each point prints as it completes,\n"
           "with the progress and the time left; points that cannot run (too many threads,\n"
           "too much shared memory, a value that does not compile) are listed as skipped\n"
           "with the reason. At the end: the best point by median time and the points\n"
           "within the noise of it. By default each point takes 20 hot samples.\n"
           "\n"
           "  --csv FILE        write one row per point as CSV\n"
           "  --json FILE       write the whole result as JSON (formatVersion 1)\n"
           "  --t4 FILE         write the T4 autotuning results format (Kernel Tuner)\n"
           "  --yes             run a sweep of more than 1000 points\n"
           "  --preset ID       sweep a preset instead of the project's sweep:\n"
           "                    block-32-step-32 (block sizes 32-1024, step 32) or\n"
           "                    block-pow2 (powers of two 32-1024)\n"
           "  --verify          run and verify each point before measuring it; a point with\n"
           "                    wrong output is marked WRONG and is never the best; each\n"
           "                    point shows its largest error, absolute and relative, and\n"
           "                    where it was (the CSV and JSON carry them too)\n"
           "  --no-verify       do not verify, even when the project's sweep asks to\n"
           "                    (\"verify\": true)\n"
           "  --metrics         a metrics pass at each point (needs profiling permission)\n"
           "  --roofline        the metrics pass also collects what speed of light and the\n"
           "                    roofline need (throughput in % of peak, FP32/FP64/FP16\n"
           "                    instructions); each point prints its SOL, GFLOP/s and\n"
           "                    FLOP/byte, and the JSON carries the values (implies --metrics)\n"
           "  --samples N       take N samples at each point\n"
           "  --cold            flush L2 before each sample\n"
           "  --hot             back-to-back launches, L2 kept (the sweep default)\n"
           "  --timer T         what times each sample: cupti (the default), profiler (the\n"
           "                    profiler's gpu__time_duration, as Nsight Compute reports it),\n"
           "                    events (as cuwb measure --timer)\n"
           "  --list            check every point on the host and print it, run nothing:\n"
           "                    expressions, limits and a compile of each variant, so\n"
           "                    what ptxas rejects is listed as skipped (with --json FILE,\n"
           "                    the points as JSON)\n"
           "  --arch ARCH       with --list: plan for ARCH instead of the project's\n"
           "  --device N        the GPU to measure on (default 0)\n"
           "  --devices LIST    measure on several GPUs at once, one worker each: 'all'\n"
           "                    or GPU numbers such as 0,2; each point goes to the next\n"
           "                    free GPU and is marked with it; GPUs of different models\n"
           "                    give each GPU's best instead of one (docs/multigpu.md)\n"
           "  --per-device      with --devices: the whole sweep on every GPU, one result\n"
           "                    each (--csv/--json/--t4 FILE become FILE-gpuN.EXT)\n"
           "  --worker COMMAND  the worker to run instead of 'cuwb worker', e.g.\n"
           "                    'ssh gpu-host cuwb worker'\n"
           "  --on TARGET       run on a remote GPU or a named target (docs/remote.md)\n"
           "  --shard K/N       measure only shard K of N: the points whose index i has\n"
           "                    i mod N = K-1; --json then records the shard, and\n"
           "                    'cuwb merge' joins the N results into one\n"
        << slurmOptionsHelp()
        << "\n"
           "Ctrl+C stops after the point being measured and keeps (and writes) what was\n"
           "measured; a second Ctrl+C ends cuwb at once. A worker that dies at a point marks\n"
           "that point failed; a fresh worker measures the rest.\n"
           "\n"
           "Exit status: 0 at least one point measured, 1 nothing measured (every point\n"
           "skipped or failed, no GPU; the reason is printed), 2 usage error, a project or\n"
           "sweep that cannot be used, or a sweep of more than 1000 points without --yes,\n"
           "130 cancelled with Ctrl+C.\n";
}

namespace {

// "block (256, 1, 1), grid (64, 1, 1), dynamic shared memory 0 bytes; 12 registers, 2.0 KiB
// static shared memory, occupancy 100% (warps)" for a point that would run; the skip instead of
// the resources for one that would not. A block or grid that did not evaluate is left out.
std::string listedLaunch(const SweepPointResult &r)
{
    const auto dims = [](const std::array<std::uint64_t, 3> &d) {
        return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
               std::to_string(d[2]) + ")";
    };
    const SweepPoint &p = r.point;
    std::string text;
    if (p.block[0] > 0 && p.block[1] > 0 && p.block[2] > 0) {
        text += "block " + dims(p.block);
        if (p.grid[0] > 0 && p.grid[1] > 0 && p.grid[2] > 0)
            text += ", grid " + dims(p.grid);
        text += ", dynamic shared memory " + formatBytes(p.dynamicSharedBytes);
    }
    if (r.status == PointStatus::Skipped)
        return text + (text.empty() ? "" : "; ") + "skipped: " + r.message;
    if (r.registersPerThread > 0) {
        text += "; " + plural(std::uint64_t(r.registersPerThread), "register") + ", " +
                formatBytes(std::uint64_t(std::max(r.staticSharedBytes, 0))) +
                " static shared memory";
    }
    if (r.theoreticalOccupancy) {
        text += formatNumber(", occupancy %.0f%%", *r.theoreticalOccupancy * 100.0) +
                (r.occupancyLimiter.empty() ? std::string() : " (" + r.occupancyLimiter + ")");
    }
    return text;
}

// `cuwb sweep --list`: every point checked on the host for `arch` (expressions, limits, and a
// compile of each variant, so what ptxas rejects is known before anything runs), with the
// block, grid and dynamic shared memory it resolves to.
int listSweep(const std::string &path, const SweepSpec &spec, const RunRequest &base,
              const std::string &arch, const std::optional<std::string> &jsonPath)
{
    if (jsonPath) {
        if (const std::string problem = checkWritable(*jsonPath); !problem.empty()) {
            return usageError("sweep", "--json: " + problem);
        }
    }
    if (!archLimits(arch)) {
        return usageError("sweep", "--arch: unknown architecture '" + arch + "'");
    }
    const SweepPlan plan = planSweep(spec, base, arch);
    if (!plan.result.error.empty()) {
        std::cerr << "cuwb sweep: " << path << ": sweep: " << plan.result.error << '\n';
        return ExitUsage;
    }
    const std::size_t total = plan.result.points.size();
    for (const SweepPointResult &r : plan.result.points) {
        std::cout << progressTag(r.point.index + 1, total) << ' ' << r.point.label() << ": "
                  << listedLaunch(r) << '\n';
    }
    const std::size_t runnable = plan.runnable();
    char compiled[64];
    std::snprintf(compiled, sizeof compiled, "%.0f ms", plan.compileMs);
    std::cout << total << " points, " << runnable << " to measure on " << arch << " ("
              << plan.variants << (plan.variants == 1 ? " variant: " : " variants: ")
              << plan.compiles << " compiled on the host in " << compiled << ", "
              << plan.variants - plan.compiles << " from the compile cache); "
              << estimateText(spec, runnable, base.launch.deadlineSeconds) << '\n';
    if (spec.metrics || spec.roofline) {
        std::cout << "each point then gets a" << metricsNote(spec).substr(1) << '\n';
    }
    // The reasons together, what the compiler and the launch reject first.
    printSkipGroups(std::cout, "", plan.result, false);
    if (jsonPath) {
        if (const std::string problem = writeTextFile(*jsonPath, serializeSweepResult(plan.result));
            !problem.empty()) {
            std::cerr << "cuwb sweep: " << problem << '\n';
            return ExitUsage;
        }
        std::cout << "wrote JSON to " << *jsonPath << '\n';
    }
    if (runnable == 0) {
        std::cerr << "cuwb sweep: " << path << ": nothing to measure: all " << total
                  << " points are skipped (reasons above)\n";
        return ExitFailure;
    }
    return ExitSuccess;
}

} // namespace

bool writeSweepOutputs(const char *command, const SweepResult &result,
                       const std::optional<std::string> &csv,
                       const std::optional<std::string> &json, const std::optional<std::string> &t4)
{
    bool written = true;
    const auto write = [&](const std::optional<std::string> &path, const char *what,
                           const std::function<std::string()> &text) {
        if (!path) {
            return;
        }
        if (const std::string problem = writeTextFile(*path, text()); !problem.empty()) {
            std::cerr << "cuwb " << command << ": " << problem << '\n';
            written = false;
        } else {
            std::cout << "wrote " << what << " to " << *path << '\n';
        }
    };
    write(csv, "CSV", [&] { return sweepResultToCsv(result); });
    write(json, "JSON", [&] { return serializeSweepResult(result); });
    write(t4, "T4", [&] { return sweepResultToT4(result).dump(2) + "\n"; });
    return written;
}

namespace {

// "sweeping P on NAME: 32 points (1 skipped), 20 hot samples each, verified".
void printSweepStart(std::ostream &out, const std::string &path, const SweepResult &started,
                     const SweepSpec &spec, const std::string &on)
{
    out << "sweeping " << path << " on " << on << ": ";
    if (started.shard) {
        out << "shard " << started.shard->index << " of " << started.shard->count << ", "
            << started.points.size() << " of " << started.shard->totalPoints << " points";
    } else {
        out << started.points.size() << " points";
    }
    const std::size_t skipped = started.count(PointStatus::Skipped);
    if (skipped > 0) {
        out << " (" << skipped << " skipped)";
    }
    out << ", "
        << (spec.settings.fixedSamples > 0 ? std::to_string(spec.settings.fixedSamples)
                                           : std::string("adaptive"))
        << " " << sampleModeName(spec.settings.mode) << " samples each"
        << (spec.verify ? ", verified" : "") << metricsNote(spec) << '\n'
        << std::flush;
}

// "GPU 0 (NVIDIA H200), GPU 1 (NVIDIA H200)".
std::string gpuList(const std::vector<DeviceInfo> &devices)
{
    std::string text;
    for (const DeviceInfo &device : devices) {
        text += (text.empty() ? "" : ", ") + ("GPU " + std::to_string(device.ordinal)) + " (" +
                device.name + ")";
    }
    return text;
}

// FILE.EXT as FILE-gpuN.EXT: --per-device writes one result per GPU.
std::optional<std::string> perDevicePath(const std::optional<std::string> &path, int device)
{
    if (!path) {
        return path;
    }
    std::filesystem::path file(*path);
    file.replace_filename(file.stem().string() + "-gpu" + std::to_string(device) +
                          file.extension().string());
    return file.string();
}

// A sweep that ended: its error, or its summary and outputs; the exit status (interrupted,
// nothing measured, an output that could not be written).
int finishSweep(const ArgumentParser &parser, const std::string &path, const SweepResult &result)
{
    if (!result.error.empty()) {
        std::cerr << "cuwb sweep: " << path << ": " << result.error << '\n';
        return result.cancelled ? kExitInterrupted : ExitFailure;
    }
    printSweepSummary(std::cout, result);
    if (!writeSweepOutputs("sweep", result, parser.value("--csv"), parser.value("--json"),
                           parser.value("--t4"))) {
        return ExitUsage;
    }
    if (result.cancelled) {
        return kExitInterrupted;
    }
    const std::size_t measured =
        result.count(PointStatus::Measured) + result.count(PointStatus::Wrong);
    if (measured == 0) {
        std::cerr << "cuwb sweep: " << path << ": nothing was measured\n";
        return ExitFailure;
    }
    return ExitSuccess;
}

// A sweep on any executor, followed to its end: the start line (when `where` names the GPUs),
// each point as it comes with its GPU's peaks, the job's status lines, Ctrl+C as a cancel, then
// finishSweep.
int followSweep(const ArgumentParser &parser, const std::string &path, SweepExecutor &executor,
                const SweepSpec &spec, const RunRequest &base, const SweepContext &context,
                const std::function<std::string(const SweepResult &)> &where)
{
    std::map<int, DevicePeaks> peaks; // by GPU, for the points that name theirs
    std::optional<DevicePeaks> only;  // the one worker's GPU
    executor.setStartedCallback([&](const SweepResult &started) {
        if (where) {
            printSweepStart(std::cout, path, started, spec, where(started));
        }
        for (const DeviceInfo &device : started.devices) {
            peaks[device.ordinal] = devicePeaks(device);
        }
        if (started.device) {
            only = devicePeaks(*started.device);
        }
    });
    executor.setPointCallback([&](const SweepPointResult &r, const SweepProgress &progress) {
        const auto found = r.deviceIndex ? peaks.find(*r.deviceIndex) : peaks.end();
        const DevicePeaks *pointPeaks =
            found != peaks.end() ? &found->second : (only ? &*only : nullptr);
        printPoint(std::cout, r, progress, pointPeaks);
    });
    executor.setStatusCallback([](const std::string &line) {
        std::cout << line << '\n' << std::flush;
    });
    SweepResult result;
    {
        const InterruptCancels interruptCancels(executor);
        result = executor.run(spec, base, context);
    }
    return finishSweep(parser, path, result);
}

// `cuwb sweep --devices`: one worker per GPU (MultiDeviceSweep), the points shared among them
// or, with --per-device, the whole sweep on each.
int sweepOnDevices(const ArgumentParser &parser, const std::string &path, const SweepSpec &spec,
                   const RunRequest &base, const SweepContext &context,
                   const std::vector<int> &devices, const WorkerOptionsForDevice &optionsFor)
{
    MultiDeviceSweep sweep(devices, [&](int device) {
        WorkerProcess::Options options = optionsFor(device);
        options.executable = findOnPath(options.executable);
        return options;
    });
    if (!parser.isSet("--per-device")) {
        return followSweep(parser, path, sweep, spec, base, context,
                           [](const SweepResult &started) {
                               return std::to_string(started.devices.size()) + " GPUs, " +
                                      gpuList(started.devices);
                           });
    }
    // --per-device: the whole sweep on each GPU, each GPU's result apart.
    std::map<int, DevicePeaks> peaks;
    sweep.setStartedCallback([&](const SweepResult &started) {
        printSweepStart(std::cout, path, started, spec, gpuList(started.devices));
        for (const DeviceInfo &device : started.devices) {
            peaks[device.ordinal] = devicePeaks(device);
        }
    });
    sweep.setPointCallback([&](const SweepPointResult &r, const SweepProgress &progress) {
        const auto found = r.deviceIndex ? peaks.find(*r.deviceIndex) : peaks.end();
        printPoint(std::cout, r, progress, found == peaks.end() ? nullptr : &found->second);
    });
    const auto droppedOut = [&] {
        for (const SweepDeviceReport &report : sweep.reports()) {
            if (!report.device) {
                std::cerr << "cuwb sweep: GPU " << report.index << ": " << report.error << '\n';
            }
        }
    };

    std::vector<SweepResult> results;
    {
        const InterruptCancels interruptCancels(sweep);
        results = sweep.runPerDevice(spec, base, context);
    }
    droppedOut();
    if (results.empty()) {
        std::cerr << "cuwb sweep: " << path << ": no GPU's worker started\n";
        return sweep.cancelRequested() ? kExitInterrupted : ExitFailure;
    }
    bool written = true;
    bool cancelled = false;
    std::size_t measured = 0;
    for (const SweepResult &result : results) {
        const int device = result.devices.front().ordinal;
        std::cout << "\nGPU " << device << " (" << result.deviceName << "):\n";
        if (!result.error.empty()) {
            std::cout << "error: " << result.error << '\n';
        }
        printSweepSummary(std::cout, result);
        written = writeSweepOutputs("sweep", result, perDevicePath(parser.value("--csv"), device),
                                    perDevicePath(parser.value("--json"), device),
                                    perDevicePath(parser.value("--t4"), device)) &&
                  written;
        cancelled = cancelled || result.cancelled;
        measured += result.count(PointStatus::Measured) + result.count(PointStatus::Wrong);
    }
    // The GPUs side by side: each one's best point.
    std::cout << "\nper GPU:\n";
    for (const SweepResult &result : results) {
        const int device = result.devices.front().ordinal;
        std::cout << "  GPU " << device << " (" << result.deviceName << "): ";
        if (const std::optional<std::size_t> best = result.bestPoint()) {
            const SweepPointResult &b = result.points[*best];
            std::cout << "best " << b.point.label() << ": " << figures(b) << '\n';
        } else {
            std::cout << "no point measured\n";
        }
    }
    if (!written) {
        return ExitUsage;
    }
    if (cancelled) {
        return kExitInterrupted;
    }
    if (measured == 0) {
        std::cerr << "cuwb sweep: " << path << ": nothing was measured\n";
        return ExitFailure;
    }
    return ExitSuccess;
}

} // namespace

namespace {

// What the command line asks of a sweep, checked for combinations that exclude each other.
struct SweepInvocation
{
    ArgumentParser parser;
    std::optional<ShardSelection> shard;
    std::optional<SlurmOptions> slurm;
};

// Parses the options; an exit status when the command ends here (help, a usage error).
std::optional<int> parseSweepArguments(SweepInvocation &in,
                                       const std::vector<std::string> &arguments)
{
    ArgumentParser &parser = in.parser;
    parser.addOption({"--csv"});
    parser.addOption({"--json"});
    parser.addOption({"--t4"});
    parser.addFlag({"--yes", "-y"});
    parser.addOption({"--preset"});
    parser.addFlag({"--verify"});
    parser.addFlag({"--no-verify"});
    parser.addFlag({"--metrics"});
    parser.addFlag({"--roofline"});
    parser.addOption({"--samples"});
    parser.addFlag({"--cold"});
    parser.addFlag({"--hot"});
    parser.addOption({"--timer"});
    parser.addFlag({"--list"});
    parser.addOption({"--arch"});
    addWorkerOptions(parser);
    parser.addOption({"--shard"});
    parser.addOption({"--devices"});
    parser.addFlag({"--per-device"});
    addSlurmOptions(parser);
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError("sweep", parser.error());
    }
    if (parser.isSet("--help")) {
        printSweepHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1) {
        return usageError("sweep", parser.positionals().empty()
                                       ? "no project given"
                                       : "sweep takes one project, got " +
                                             std::to_string(parser.positionals().size()));
    }
    if (parser.isSet("--cold") && parser.isSet("--hot")) {
        return usageError("sweep", "--cold and --hot exclude each other");
    }
    if (parser.isSet("--verify") && parser.isSet("--no-verify")) {
        return usageError("sweep", "--verify and --no-verify exclude each other");
    }
    if (parser.isSet("--arch") && !parser.isSet("--list")) {
        return usageError("sweep", "--arch goes with --list: a sweep that runs is compiled for "
                                   "its GPU's own architecture");
    }
    if (const auto text = parser.value("--shard")) {
        std::string problem;
        in.shard = parseShardSelection(*text, problem);
        if (!in.shard) {
            return usageError("sweep", problem);
        }
    }
    if (in.shard && parser.isSet("--list")) {
        return usageError("sweep", "--shard and --list exclude each other");
    }
    // Where it runs, once: what cannot go together is the placement's to say.
    auto placement = placementOf(parser);
    if (const auto *problem = std::get_if<std::string>(&placement)) {
        return usageError("sweep", *problem);
    }
    in.slurm = std::get<Placement>(placement).slurm;
    if (parser.isSet("--devices")) {
        for (const char *other : {"--shard", "--list"}) {
            if (parser.isSet(other)) {
                return usageError("sweep",
                                  std::string("--devices and ") + other + " exclude each other");
            }
        }
    }
    if (in.slurm && (in.shard || parser.isSet("--list"))) {
        return usageError("sweep", std::string(in.shard ? "--shard" : "--list") +
                                       " and --slurm exclude each other: --slurm runs every "
                                       "shard itself");
    }
    return std::nullopt;
}

// The sweep to run: a preset or the project's own, with the command line's overrides; an exit
// status when there is none or an option is wrong.
std::variant<SweepSpec, int> sweepSpecFor(const ArgumentParser &parser, const Project &project,
                                          const std::string &path)
{
    SweepSpec spec;
    if (const auto id = parser.value("--preset")) {
        const auto &presets = sweepPresets();
        const auto preset = std::find_if(presets.begin(), presets.end(),
                                         [&](const SweepPreset &p) { return p.id == *id; });
        if (preset == presets.end()) {
            std::string ids;
            for (const SweepPreset &p : presets) {
                ids += (ids.empty() ? "" : ", ") + p.id;
            }
            return usageError("sweep", "no preset '" + *id + "'; the presets are " + ids);
        }
        spec = preset->spec;
    } else if (project.sweep) {
        spec = *project.sweep;
    } else {
        std::cerr << "cuwb sweep: " << path
                  << ": the project has no sweep; add a \"sweep\" section (see docs/sweeps.md) "
                     "or use --preset block-32-step-32\n";
        return int(ExitUsage);
    }
    if (spec.axes.empty()) {
        std::cerr << "cuwb sweep: " << path
                  << ": the sweep is empty: it has no axes, so there is nothing to measure; "
                     "add an axis such as {\"target\": \"block.x\", \"kind\": \"range\", "
                     "\"from\": 32, \"to\": 1024, \"step\": 32}\n";
        return int(ExitUsage);
    }
    spec.verify = (spec.verify || parser.isSet("--verify")) && !parser.isSet("--no-verify");
    spec.metrics = spec.metrics || parser.isSet("--metrics");
    spec.roofline = spec.roofline || parser.isSet("--roofline");
    if (parser.isSet("--hot")) {
        spec.settings.mode = SampleMode::Hot;
    } else if (parser.isSet("--cold")) {
        spec.settings.mode = SampleMode::Cold;
    }
    if (const auto timer = parser.value("--timer")) {
        if (*timer == "cupti")
            spec.settings.timer = TimingSource::Cupti;
        else if (*timer == "profiler")
            spec.settings.timer = TimingSource::Profiler;
        else if (*timer == "events")
            spec.settings.timer = TimingSource::Events;
        else
            return usageError("sweep",
                              "--timer is cupti, profiler or events, got '" + *timer + "'");
    }
    if (const auto text = parser.value("--samples")) {
        const std::optional<long long> samples = parseCount(*text);
        if (!samples || *samples < 1 || *samples > 10000000) {
            return usageError("sweep",
                              "--samples needs a whole number of at least 1, got '" + *text + "'");
        }
        spec.settings.fixedSamples = int(*samples);
    }
    return spec;
}

// The job folder of a sweep through Slurm: --job-dir, or cuwb-jobs/NAME-TIME beside the project
// (only named, not made, for --dry-run); empty with `error` set when it cannot be made.
std::string slurmJobDir(const SlurmOptions &slurm, const std::string &path, std::string &error)
{
    const std::string name = slurmName(std::filesystem::path(path).stem().string());
    if (slurm.dryRun && !slurm.jobDir) {
        return std::filesystem::absolute(path).parent_path().string() + "/cuwb-jobs/" + name +
               "-TIME";
    }
    return makeJobDir(slurm.jobDir, path, name, error);
}

// Through Slurm: an array of tasks, one shard each (cluster/slurmsweep.h), with what every
// shard must do alike forwarded; the shard, its output and --yes are the script's.
int submitSlurmSweep(const ArgumentParser &parser, const std::string &path,
                     const SlurmOptions &slurm, const SweepSpec &spec, const RunRequest &base,
                     const SweepContext &context, const SweepExpansion &expansion)
{
    const std::size_t total = expansion.points.size();
    const std::size_t runnable = expansion.runnableCount();
    if (runnable == 0) {
        std::cerr << "cuwb sweep: " << path << ": nothing to measure: all " << total
                  << " points are skipped (cuwb sweep --list says why)\n";
        return ExitFailure;
    }
    if (total > kConfirmPoints && !parser.isSet("--yes") && !slurm.dryRun) {
        std::cerr << "cuwb sweep: " << path << ": the sweep has " << total << " points ("
                  << runnable << " to measure); it takes "
                  << estimateText(spec, runnable, base.launch.deadlineSeconds)
                  << " on one GPU. Run it with --yes to submit it, or narrow its axes.\n";
        return ExitUsage;
    }
    const auto workerChoice = workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("sweep", *problem);
    }
    SlurmSweepJob job;
    job.cuwb = selfExecutable();
    job.projectPath = std::filesystem::absolute(path).string();
    job.projectName = std::filesystem::path(path).stem().string();
    // The tasks start where the sweep was submitted, as sbatch's own default does, so that a
    // relative --worker path means what it meant here.
    std::error_code code;
    job.workingDir = std::filesystem::current_path(code).string();
    job.slurm = slurm;
    for (const char *flag :
         {"--verify", "--no-verify", "--metrics", "--roofline", "--cold", "--hot"}) {
        if (parser.isSet(flag)) {
            job.taskOptions.emplace_back(flag);
        }
    }
    for (const char *option :
         {"--preset", "--samples", "--timer", "--device", "--worker", "--on"}) {
        if (const auto value = parser.value(option)) {
            job.taskOptions.insert(job.taskOptions.end(), {option, *value});
        }
    }
    std::string error;
    job.jobDir = slurmJobDir(slurm, path, error);
    if (job.jobDir.empty()) {
        std::cerr << "cuwb sweep: " << error << '\n';
        return ExitUsage;
    }
    if (slurm.dryRun) {
        std::cout << slurmSweepScript(job, total);
        return ExitSuccess;
    }
    for (const char *option : {"--csv", "--json", "--t4"}) {
        if (const auto output = parser.value(option)) {
            if (const std::string problem = checkWritable(*output); !problem.empty()) {
                return usageError("sweep", std::string(option) + ": " + problem);
            }
        }
    }
    SlurmSweep sweep(std::move(job));
    sweep.setStatusCallback([](const std::string &line) {
        std::cout << line << '\n' << std::flush;
    });
    SweepResult result;
    {
        const InterruptCancels interruptCancels(sweep);
        result = sweep.run(spec, base, context);
    }
    const int status = finishSweep(parser, path, result);
    if (result.error.empty() && !result.cancelled) {
        std::cout << "merged result in " << mergedResultPath(sweep.job().jobDir) << '\n';
    }
    return status;
}

// Before a worker starts: a sweep (or shard) with nothing to measure is refused with every
// point's reason, one too large to start without --yes is refused with its estimate, and the
// output files must be writable. An exit status when it is refused.
std::optional<int> refuseBeforeStarting(const ArgumentParser &parser, const std::string &path,
                                        const SweepSpec &spec, const SweepExpansion &expansion,
                                        const std::optional<ShardSelection> &shard,
                                        double deadlineSeconds)
{
    const std::size_t total = expansion.points.size();
    if (expansion.runnableCount() == 0) {
        for (const SweepPoint &point : expansion.points) {
            std::cout << progressTag(point.index + 1, total) << ' ' << point.label()
                      << (point.runnable() ? std::string() : ": skipped: " + point.skipReason)
                      << '\n';
        }
        std::cerr << "cuwb sweep: " << path << ": nothing to measure: all " << total
                  << " points are skipped (reasons above)\n";
        return ExitFailure;
    }
    std::size_t shardPoints = total;
    std::size_t shardRunnable = expansion.runnableCount();
    if (shard) {
        shardPoints = shardSize(total, *shard);
        shardRunnable = 0;
        for (const SweepPoint &point : expansion.points) {
            shardRunnable += inShard(point.index, *shard) && point.runnable() ? 1 : 0;
        }
    }
    if (shardPoints > kConfirmPoints && !parser.isSet("--yes")) {
        std::cerr << "cuwb sweep: " << path << ": the sweep has " << shardPoints
                  << (shard ? " points in this shard (" : " points (") << shardRunnable
                  << " to measure); it takes " << estimateText(spec, shardRunnable, deadlineSeconds)
                  << ". Run it with --yes to start it, or narrow its axes.\n";
        return ExitUsage;
    }
    for (const char *option : {"--csv", "--json", "--t4"}) {
        if (const auto output = parser.value(option)) {
            if (const std::string problem = checkWritable(*output); !problem.empty()) {
                return usageError("sweep", std::string(option) + ": " + problem);
            }
        }
    }
    return std::nullopt;
}

// On one worker of this machine (or --worker, --on): the points printed as they are measured,
// the summary, the outputs written.
int sweepOnWorker(const ArgumentParser &parser, const std::string &path, const SweepSpec &spec,
                  const RunRequest &base, const SweepContext &context,
                  const std::optional<ShardSelection> &shard)
{
    const auto workerChoice = workerOptions(parser);
    if (const auto *problem = std::get_if<std::string>(&workerChoice)) {
        return usageError("sweep", *problem);
    }
    WorkerProcess::Options options = std::get<WorkerProcess::Options>(workerChoice);
    options.executable = findOnPath(options.executable);

    WorkerProcess worker(options);
    SweepRunner runner(worker);
    runner.setShard(shard);
    const int status = followSweep(parser, path, runner, spec, base, context,
                                   [](const SweepResult &started) { return started.deviceName; });
    worker.stop();
    return status;
}

} // namespace

int runSweep(const std::vector<std::string> &arguments)
{
    SweepInvocation in;
    if (const std::optional<int> status = parseSweepArguments(in, arguments)) {
        return *status;
    }
    const ArgumentParser &parser = in.parser;
    const std::string &path = parser.positionals().front();
    std::optional<OpenedProject> opened = openProject("sweep", path);
    if (!opened)
        return ExitUsage;
    const Project &project = opened->project;
    const std::variant<SweepSpec, int> chosen = sweepSpecFor(parser, project, path);
    if (const int *status = std::get_if<int>(&chosen)) {
        return *status;
    }
    const SweepSpec &spec = std::get<SweepSpec>(chosen);
    const RunRequest base = projectRunRequest(project, std::move(opened->source));

    if (parser.isSet("--list")) {
        // planSweep expands the sweep itself (and refuses it with the same message); expanding
        // it here as well would hold every point twice.
        return listSweep(path, spec, base, parser.value("--arch").value_or(project.options.arch),
                         parser.value("--json"));
    }
    // Expanded once here with the project's architecture, to refuse what cannot start before
    // a worker is started; the runner expands again with the device's own limits.
    const std::optional<ArchLimits> limits = archLimits(project.options.arch);
    const SweepExpansion expansion = expandSweep(spec, base, limits ? &*limits : nullptr);
    if (!expansion.ok()) {
        std::cerr << "cuwb sweep: " << path << ": sweep: " << expansion.error << '\n';
        return ExitUsage;
    }
    SweepContext context;
    context.projectName = project.name;
    context.throughput = project.measure.throughput;
    const double deadline = base.launch.deadlineSeconds;
    if (in.slurm) {
        return submitSlurmSweep(parser, path, *in.slurm, spec, base, context, expansion);
    }
    if (const std::optional<int> status =
            refuseBeforeStarting(parser, path, spec, expansion, in.shard, deadline)) {
        return *status;
    }
    if (parser.isSet("--devices")) {
        const auto devices = selectedDevices(parser);
        if (const auto *problem = std::get_if<std::string>(&devices)) {
            return usageError("sweep", *problem);
        }
        const auto perDevice = workerOptionsPerDevice(parser);
        if (const auto *problem = std::get_if<std::string>(&perDevice)) {
            return usageError("sweep", *problem);
        }
        return sweepOnDevices(parser, path, spec, base, context,
                              std::get<std::vector<int>>(devices),
                              std::get<WorkerOptionsForDevice>(perDevice));
    }
    return sweepOnWorker(parser, path, spec, base, context, in.shard);
}

} // namespace cuwb::cli
