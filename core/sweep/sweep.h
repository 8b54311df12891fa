// Sweeps: one kernel measured across launch configurations. A SweepSpec (part of the project
// file, "sweep" section) names axes — block dimensions, launch variables, -D defines, template
// arguments of the kernel's name expression, compile flags — each with a list of values, a
// range with a step or the powers of two between two bounds; the axes combine as a cartesian
// product or zipped; constraint expressions drop points. expandSweep() turns the spec into
// points, each a complete RunRequest, or a skip with its reason; the sweep runner measures the
// points one by one and streams a SweepPointResult for each. Everything here is Qt-free and
// needs no GPU.
#pragma once

#include "device/archlimits.h"
#include "device/deviceinfo.h"
#include "launch/devicenames.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "worker/protocol.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuwb {

// What an axis varies, from its target text:
//   "block.x" "block.y" "block.z"   a block dimension (the grid follows its own expression)
//   "N"                             a launch variable of the project (must exist)
//   "-DTILE"                        a preprocessor define, passed as -DTILE=value
//   "<TILE>"                        a template argument: the identifier TILE in the project's
//                                   name expressions is replaced by the value
//   "-maxrregcount"                 --maxrregcount=value (0 = no limit)
//   "--use_fast_math"               fast math on (value 1) or off (value 0)
enum class AxisTarget { Block, Variable, Define, Template, MaxRegisters, FastMath };

// A target text read: what it varies and the name it varies ("x" for block.x, "TILE" for
// "-DTILE" and "<TILE>", "N", "maxrregcount", "use_fast_math"). Accepted spellings: "-D TILE",
// "--maxrregcount", "-use_fast_math" too. nullopt when the text is none of the above; whether
// a variable exists is checked by expandSweep, which knows the project.
struct AxisTargetInfo
{
    AxisTarget kind = AxisTarget::Block;
    std::string name;
    int blockIndex = -1; // 0, 1, 2 for Block
};
std::optional<AxisTargetInfo> parseAxisTarget(std::string_view target);
// The name of a target in labels, exports and T4 configurations: "block.x", "TILE", "N",
// "maxrregcount", "use_fast_math"; the text itself when it is not a target.
std::string axisName(std::string_view target);

// The values of an axis. List: the values as written (numbers or expressions over the
// project's variables for Block and Variable axes, any text for Define and Template).
// Range: from, from + step, ... up to and including `to`. PowersOfTwo: every power of two in
// [from, to].
enum class AxisValues { List, Range, PowersOfTwo };

struct SweepAxis
{
    std::string target; // as written: "block.x", "N", "-DTILE", "<TILE>", ...
    AxisValues kind = AxisValues::List;
    std::vector<std::string> values; // List
    double from = 0.0;               // Range, PowersOfTwo
    double to = 0.0;
    double step = 1.0; // Range
    // Axes that name the same group are zipped (the n-th values together, so they need the
    // same number of values); groups, and axes without one, combine as a cartesian product.
    std::string group;
    bool operator==(const SweepAxis &) const = default;
};

// The values of one axis as text ("32", "64", ...; numbers in their shortest form), or why
// there are none: an empty list, a zero or wrongly signed step, no power of two in the bounds,
// more than kMaxSweepPoints values (counted before any value is made).
struct AxisValueList
{
    std::vector<std::string> values;
    std::string error;
};
AxisValueList axisValues(const SweepAxis &axis);

// Cartesian: the groups (see SweepAxis::group) combine as a product, the first varying
// slowest. Zip: every axis in one group.
enum class AxisCombination { Cartesian, Zip };
const char *axisCombinationName(AxisCombination combination); // "cartesian", "zip"
const char *axisValuesName(AxisValues kind);                  // "list", "range", "powersOfTwo"

// Above this many points expandSweep refuses the spec, before it makes a single point, with
// sweepPointLimitMessage(); the CLI asks for --yes well below it. Every point of a sweep is
// expanded into a request and checked on the host before anything runs (`cuwb sweep --list`,
// `cuwb check`, the runner), at about a quarter of a millisecond and ten kilobytes a point
// (docs/benchmarks.md, "Sweep point limit"): 10,000 points list in seconds and a few hundred
// MB, where 1,000,000 took three minutes and 13 GB. At a second or more of GPU time a point,
// 10,000 points are hours of measurement already; a larger study is several sweeps.
inline constexpr std::size_t kMaxSweepPoints = 10000;

// "the sweep has 1,000,000 points (1000 × 1000); the limit is 10,000 points: narrow an axis,
// or split the study into several sweeps". `product` (the group sizes) may be empty.
std::string sweepPointLimitMessage(std::size_t points, const std::string &product);

struct SweepSpec
{
    std::vector<SweepAxis> axes;
    AxisCombination combination = AxisCombination::Cartesian;
    // Expressions over block.x/y/z, grid.x/y/z and the variables (after the point's values are
    // applied); a point is kept where every one is non-zero, e.g. "block.x*block.y <= 1024".
    std::vector<std::string> constraints;
    // Sampling at every point. Defaults for sweeps: 20 hot samples (fixed), so a 32-point sweep
    // of a copy takes about a second; the user can ask for adaptive or cold sampling.
    SampleSettings settings = defaultSweepSettings();
    bool verify = false;  // run and verify the output at every point before measuring it
    bool metrics = false; // the metrics pass at every point (achieved occupancy, DRAM bytes)
    // The metrics pass also collects rooflineMetrics() (speed of light and the roofline of
    // every point); implies the pass.
    bool roofline = false;
    static SampleSettings defaultSweepSettings();
    bool operator==(const SweepSpec &) const = default;
};

// The presets of the sweep dialog and the Samples menu.
struct SweepPreset
{
    std::string id;    // "block-32-step-32", "block-pow2"
    std::string title; // "Block sizes 32–1024, step 32"
    SweepSpec spec;
};
const std::vector<SweepPreset> &sweepPresets();

// Why a point is skipped, so that skips can be grouped (groupSkips) and told apart in exports:
//   Compile     its source and options do not compile (ptxas' "uses too much shared data"
//               included), or the module lacks what the project needs (a kernel it can run,
//               a global of the size it sets)
//   Resources   the compiled kernel cannot launch with the point's block: registers, shared
//               memory, __launch_bounds__ (Kernel Tuner finds these at launch: "runtime")
//   Limits      the block or grid is over the architecture's limits, before any compile
//   Expression  an expression of the point has no usable value (a division by zero, a grid
//               that is no whole number)
//   Constraint  a constraint of the sweep excludes it
enum class SkipKind { None, Compile, Resources, Limits, Expression, Constraint };
const char *skipKindName(SkipKind kind); // "", "compile", "resources", "limits", ...
std::optional<SkipKind> skipKindFromName(std::string_view name);

// One point of an expanded sweep: the axis values (in axis order, as text), the request that
// measures it (block, variables, options and name expressions already applied), or why it
// cannot run.
struct SweepPoint
{
    std::size_t index = 0;                                   // in expansion order
    std::vector<std::pair<std::string, std::string>> values; // target, value
    RunRequest request;
    std::string skipReason; // empty: runnable; else "block has 2048 threads; sm_90 allows 1024"
    SkipKind skipKind = SkipKind::None; // with a skipReason: what kind of reason it is
    // The block and grid the point's expressions give; 0 where they could not be evaluated.
    std::array<std::uint64_t, 3> block{0, 0, 0};
    std::array<std::uint64_t, 3> grid{0, 0, 0};
    std::uint64_t dynamicSharedBytes = 0; // the launch's dynamic shared memory at this point
    [[nodiscard]] bool runnable() const { return skipReason.empty(); }
    // "block.x=256", "block.x=32 block.y=8", "TILE=16 N=1<<20"
    [[nodiscard]] std::string label() const;
    // The value this point gives `target` ("block.x", "TILE"); null when it gives none.
    [[nodiscard]] const std::string *valueOf(const std::string &target) const;
    // The user's compile options with the flags a sweep varies taken from this point (defines,
    // -maxrregcount, --use_fast_math, template name expressions); the rest (architecture,
    // include folders, line info...) stays the user's. For "apply this point to the editor".
    [[nodiscard]] CompileOptions appliedTo(const CompileOptions &user) const;
};

struct SweepExpansion
{
    std::vector<SweepPoint> points; // runnable and skipped, in order
    std::string error; // an unusable spec: "axis 2: `M` is not a variable of the project"
    [[nodiscard]] bool ok() const { return error.empty(); }
    [[nodiscard]] std::size_t runnableCount() const;
};

// Expands `spec` against the project's base request. Points the architecture cannot run (too
// many threads per block, a block or grid dimension over its limit) are kept with a skip reason
// when `limits` are given; what needs the compiled kernel (registers, static shared memory) and
// compile failures of a define or template value are found when the point is measured.
// `device`: the device.* names the points' expressions see (launch/devicenames.h); null: the
// catalogue's device of base.options.arch.
SweepExpansion expandSweep(const SweepSpec &spec, const RunRequest &base,
                           const ArchLimits *limits = nullptr, const DeviceNames *device = nullptr);

enum class PointStatus {
    Pending,  // not measured yet
    Measured, // measured (and verified, when asked)
    Skipped,  // could not run: skipReason, or a compile error of this point's values
    Failed,   // the launch faulted, timed out or the worker died at this point
    Wrong,    // measured, but its output did not verify: never "best"
};
const char *pointStatusName(PointStatus status); // "pending", "measured", "skipped", ...

struct SweepPointResult
{
    SweepPoint point;
    PointStatus status = PointStatus::Pending;
    std::string message; // skip or failure reason, or the verification's summary
    std::optional<Measurement> measurement;
    std::optional<MetricsResult> metrics; // when the spec asked for the metrics pass
    // Theoretical occupancy from the compiled kernel's resources and the point's block size
    // (computed on the host), with its limiter and the waves; absent when unknown.
    std::optional<double> theoreticalOccupancy; // 0..1
    std::string occupancyLimiter;
    std::optional<double> waves;
    double wallSeconds = 0.0; // the point's wall time, compile to result
    // Skipped because this point's source and options did not compile (T4: "compile").
    bool compileFailed = false;
    // From the host compile of the point's options (ptxas), when it compiled.
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    double compileMs = 0.0; // host compile of this point; 0 when an earlier point's was reused
    double verifyMs = 0.0;  // the verification run's wall time, when the spec asked for one
    // When the point was verified: each check's verdict with its largest absolute and relative
    // errors and where they are (without the mismatches themselves); empty otherwise.
    std::vector<VerificationResult> checks;
    double measureMs = 0.0;       // the measurement request's wall time (setup, warm-up, samples)
    double workerCompileMs = 0.0; // NVRTC in the worker (0 when it got the host's compile)
    std::string measuredAt;       // ISO 8601, UTC, when the point was finished; empty when pending
    // The GPU that measured the point, in a sweep over several (multidevicesweep.h): its index
    // (as `--device N` names it) and name; absent in a sweep on one GPU.
    std::optional<int> deviceIndex;
    std::string deviceName;

    // Marks the point skipped for `reason`: status, message, the point's skipReason and kind,
    // and compileFailed for a Compile skip.
    void skip(SkipKind kind, const std::string &reason);
};

// Skipped points grouped by what stopped them: one group per kind and reason, the kinds in the
// order of SkipKind (what the compiler and the launch reject first, then what the expressions
// and constraints exclude), each group's points in sweep order. `points` are indices into the
// result's points.
struct SkipGroup
{
    SkipKind kind = SkipKind::None;
    std::string reason;
    std::vector<std::size_t> points;
};
std::vector<SkipGroup> groupSkips(const std::vector<SweepPointResult> &points);
// Whether the points of a kind are worth naming one by one (compile, resources, limits: a few
// points that fail for a reason of their own) rather than counted (expressions, constraints).
bool namesEachPoint(SkipKind kind);

// The version of SweepResult's JSON form (sweepjson.h); a file of another version is refused
// with both versions named.
inline constexpr int kSweepResultFormatVersion = 1;

// Where a sweep's wall time went, from its points (milliseconds). The worker's part of a
// measurement is split by MeasurementPhases; what no part accounts for is the worker's start
// (the first point's), the host's checks and the requests' round trips.
struct SweepTimeBreakdown
{
    double wallMs = 0.0;
    double hostCompileMs = 0.0;   // NVRTC on the host, once per variant
    double workerCompileMs = 0.0; // NVRTC in the worker (0 when it got the host's compile)
    double verifyMs = 0.0;        // verification runs, whole requests
    double measureMs = 0.0;       // measurement requests, whole
    double gpuSampleMs = 0.0;     // of which the timed kernels themselves
    double otherMs = 0.0;         // the rest: worker start, device query, copy ceiling, bookkeeping
    // The measurements' phases in the worker, summed (MeasurementPhases).
    double prepareMs = 0.0;  // module load, buffers allocated and initialised, copy ceiling once
    double setupMs = 0.0;    // kernel timer (CUPTI's start on the first point), flush buffer, NVML
    double warmupMs = 0.0;   // the untimed launches
    double samplingMs = 0.0; // the sampling loops, gpuSampleMs included
    std::size_t measuredPoints = 0;
    // (wall - GPU sample time - host compiles) per measured point: what a point costs beyond
    // its kernels and its compile; the mean, the first point's worker start included...
    double overheadPerPointMs = 0.0;
    // ...and the median over the measured points, which a warm worker pays at each point.
    double medianOverheadMs = 0.0;
};

// Which part of a sweep a result holds when it was run as one of several shards
// (`cuwb sweep --shard K/N`, sweepshard.h): shard `index` of `count` (1-based), out of
// `totalPoints` points of the whole sweep. A whole sweep has none.
struct SweepShard
{
    int index = 1;
    int count = 1;
    std::size_t totalPoints = 0;
    bool operator==(const SweepShard &) const = default;
};

struct SweepResult
{
    int formatVersion = kSweepResultFormatVersion;
    std::string projectName;
    std::string kernel;
    std::string sourceHash; // as in Provenance
    std::string deviceName;
    // The worker's device, for the roofline's ceilings (devicePeaks); absent in files written
    // before it was recorded.
    std::optional<DeviceInfo> device;
    SweepSpec spec;
    std::vector<SweepPointResult> points;
    std::optional<double> theoreticalPeakGBps;
    std::optional<double> copyCeilingGBps;
    std::string startedAt; // ISO 8601, UTC
    double wallSeconds = 0.0;
    bool cancelled = false;
    // Why the sweep could not start at all (no GPU, the worker could not start, an unusable
    // spec); the points are then all pending or skipped. Empty otherwise.
    std::string error;
    // What the user should know about the whole sweep ("the project has no verification, so
    // --verify only checks that each point runs cleanly").
    std::vector<std::string> notes;
    // Set when the result is one shard of a sweep; its points are then that shard's only, each
    // with its index in the whole sweep's expansion order.
    std::optional<SweepShard> shard;
    // A sweep over several GPUs (multidevicesweep.h): every GPU whose worker started, with
    // `ordinal` its index. Empty for a sweep on one GPU.
    std::vector<DeviceInfo> devices;

    [[nodiscard]] std::size_t count(PointStatus status) const;
    // The GPUs of `devices` are of more than one model (name or compute capability differ):
    // their times are not comparable, so there is no single best point.
    [[nodiscard]] bool mixedModels() const;
    // For a sweep over several GPUs: the best point of each GPU among the points it measured,
    // as (device index, point index), by device index; empty otherwise.
    [[nodiscard]] std::vector<std::pair<int, std::size_t>> bestPointPerDevice() const;
    [[nodiscard]] SweepTimeBreakdown timeBreakdown() const;
    // The fastest measured point that verified (or was not verified) by median time; absent
    // when none, and when the points come from GPUs of different models (mixedModels()).
    // Wrong, failed and skipped points are never best.
    [[nodiscard]] std::optional<std::size_t> bestPoint() const;
    // Points whose median differs from the best by less than the measured noise (the larger of
    // the two points' standard deviations, and at least 2 × the best's relative noise × its
    // median): statistically indistinguishable from the best.
    [[nodiscard]] std::vector<std::size_t> pointsTiedWithBest() const;
};

} // namespace cuwb
