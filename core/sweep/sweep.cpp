#include "sweep/sweep.h"

#include <algorithm>
#include <cmath>

namespace cuwb {

SampleSettings SweepSpec::defaultSweepSettings()
{
    SampleSettings s;
    s.mode = SampleMode::Hot;
    s.fixedSamples = 20;
    return s;
}

const std::vector<SweepPreset> &sweepPresets()
{
    static const std::vector<SweepPreset> presets = [] {
        SweepAxis step32;
        step32.target = "block.x";
        step32.kind = AxisValues::Range;
        step32.from = 32;
        step32.to = 1024;
        step32.step = 32;
        SweepAxis pow2;
        pow2.target = "block.x";
        pow2.kind = AxisValues::PowersOfTwo;
        pow2.from = 32;
        pow2.to = 1024;
        std::vector<SweepPreset> all(2);
        all[0].id = "block-32-step-32";
        all[0].title = "Block sizes 32–1024, step 32";
        all[0].spec.axes = {step32};
        all[1].id = "block-pow2";
        all[1].title = "Powers of two 32–1024";
        all[1].spec.axes = {pow2};
        return all;
    }();
    return presets;
}

std::string axisName(std::string_view target)
{
    if (const std::optional<AxisTargetInfo> info = parseAxisTarget(target)) {
        return info->kind == AxisTarget::Block ? "block." + info->name : info->name;
    }
    return std::string(target);
}

const std::string *SweepPoint::valueOf(const std::string &target) const
{
    for (const auto &[t, v] : values) {
        if (t == target)
            return &v;
    }
    return nullptr;
}

std::string SweepPoint::label() const
{
    std::string text;
    for (const auto &[target, value] : values) {
        if (!text.empty()) {
            text += ' ';
        }
        text += axisName(target) + "=" + value;
    }
    return text;
}

const char *axisCombinationName(AxisCombination combination)
{
    return combination == AxisCombination::Zip ? "zip" : "cartesian";
}

const char *axisValuesName(AxisValues kind)
{
    switch (kind) {
    case AxisValues::List:
        return "list";
    case AxisValues::Range:
        return "range";
    case AxisValues::PowersOfTwo:
        return "powersOfTwo";
    }
    return "list";
}

std::size_t SweepExpansion::runnableCount() const
{
    return std::size_t(std::count_if(points.begin(), points.end(),
                                     [](const SweepPoint &p) { return p.runnable(); }));
}

CompileOptions SweepPoint::appliedTo(const CompileOptions &user) const
{
    CompileOptions options = user;
    const CompileOptions &swept = request.options;
    options.defines = swept.defines;
    options.maxRegisters = swept.maxRegisters;
    options.fastMath = swept.fastMath;
    options.nameExpressions = swept.nameExpressions;
    return options;
}

const char *skipKindName(SkipKind kind)
{
    switch (kind) {
    case SkipKind::None:
        return "";
    case SkipKind::Compile:
        return "compile";
    case SkipKind::Resources:
        return "resources";
    case SkipKind::Limits:
        return "limits";
    case SkipKind::Expression:
        return "expression";
    case SkipKind::Constraint:
        return "constraint";
    }
    return "";
}

std::optional<SkipKind> skipKindFromName(std::string_view name)
{
    for (const SkipKind kind : {SkipKind::None, SkipKind::Compile, SkipKind::Resources,
                                SkipKind::Limits, SkipKind::Expression, SkipKind::Constraint}) {
        if (name == skipKindName(kind))
            return kind;
    }
    return std::nullopt;
}

void SweepPointResult::skip(SkipKind kind, const std::string &reason)
{
    status = PointStatus::Skipped;
    message = reason;
    point.skipReason = reason;
    point.skipKind = kind;
    compileFailed = kind == SkipKind::Compile;
}

bool namesEachPoint(SkipKind kind)
{
    return kind == SkipKind::Compile || kind == SkipKind::Resources || kind == SkipKind::Limits;
}

std::vector<SkipGroup> groupSkips(const std::vector<SweepPointResult> &points)
{
    std::vector<SkipGroup> groups;
    for (std::size_t k = 0; k < points.size(); ++k) {
        const SweepPointResult &r = points[k];
        if (r.status != PointStatus::Skipped)
            continue;
        // A point skipped by a worker of an older version may have no kind: by what it says.
        SkipKind kind = r.point.skipKind;
        if (kind == SkipKind::None && r.compileFailed)
            kind = SkipKind::Compile;
        const std::string &reason = r.message.empty() ? r.point.skipReason : r.message;
        const auto group = std::find_if(groups.begin(), groups.end(), [&](const SkipGroup &g) {
            return g.kind == kind && g.reason == reason;
        });
        if (group == groups.end())
            groups.push_back(SkipGroup{kind, reason, {k}});
        else
            group->points.push_back(k);
    }
    // By kind, those of no known kind last; within a kind, in the order of their first point.
    const auto rank = [](SkipKind kind) {
        return kind == SkipKind::None ? int(SkipKind::Constraint) + 1 : int(kind);
    };
    std::stable_sort(groups.begin(), groups.end(), [&](const SkipGroup &a, const SkipGroup &b) {
        return rank(a.kind) < rank(b.kind);
    });
    return groups;
}

const char *pointStatusName(PointStatus status)
{
    switch (status) {
    case PointStatus::Pending:
        return "pending";
    case PointStatus::Measured:
        return "measured";
    case PointStatus::Skipped:
        return "skipped";
    case PointStatus::Failed:
        return "failed";
    case PointStatus::Wrong:
        return "wrong";
    }
    return "pending";
}

namespace {

bool canBeBest(const SweepPointResult &r)
{
    return r.status == PointStatus::Measured && r.measurement &&
           r.measurement->statistics.count > 0 && r.measurement->faultStatus.empty();
}

} // namespace

std::size_t SweepResult::count(PointStatus status) const
{
    return std::size_t(std::count_if(points.begin(), points.end(), [&](const SweepPointResult &p) {
        return p.status == status;
    }));
}

SweepTimeBreakdown SweepResult::timeBreakdown() const
{
    SweepTimeBreakdown t;
    t.wallMs = wallSeconds * 1e3;
    std::vector<double> overheads;
    for (const SweepPointResult &p : points) {
        t.hostCompileMs += p.compileMs;
        t.workerCompileMs += p.workerCompileMs;
        t.verifyMs += p.verifyMs;
        t.measureMs += p.measureMs;
        if (p.measurement) {
            const double samplesMs = p.measurement->statistics.totalNs / 1e6;
            const MeasurementPhases &phases = p.measurement->phases;
            t.gpuSampleMs += samplesMs;
            t.prepareMs += phases.prepareMs;
            t.setupMs += phases.setupMs;
            t.warmupMs += phases.warmupMs;
            t.samplingMs += phases.samplingMs;
            overheads.push_back(std::max(0.0, p.wallSeconds * 1e3 - samplesMs - p.compileMs));
            ++t.measuredPoints;
        }
    }
    t.otherMs = std::max(0.0, t.wallMs - t.hostCompileMs - t.verifyMs - t.measureMs);
    if (t.measuredPoints > 0) {
        t.overheadPerPointMs =
            std::max(0.0, t.wallMs - t.gpuSampleMs - t.hostCompileMs) / double(t.measuredPoints);
        const auto middle = overheads.begin() + std::ptrdiff_t(overheads.size() / 2);
        std::nth_element(overheads.begin(), middle, overheads.end());
        t.medianOverheadMs = *middle;
        if (overheads.size() % 2 == 0) {
            t.medianOverheadMs =
                (t.medianOverheadMs + *std::max_element(overheads.begin(), middle)) / 2.0;
        }
    }
    return t;
}

bool SweepResult::mixedModels() const
{
    for (const DeviceInfo &device : devices) {
        const DeviceInfo &first = devices.front();
        if (device.name != first.name || device.major != first.major ||
            device.minor != first.minor) {
            return true;
        }
    }
    return false;
}

std::vector<std::pair<int, std::size_t>> SweepResult::bestPointPerDevice() const
{
    std::vector<std::pair<int, std::size_t>> best;
    for (const DeviceInfo &device : devices) {
        std::optional<std::size_t> fastest;
        for (std::size_t k = 0; k < points.size(); ++k) {
            if (points[k].deviceIndex != device.ordinal || !canBeBest(points[k])) {
                continue;
            }
            if (!fastest || points[k].measurement->statistics.medianNs <
                                points[*fastest].measurement->statistics.medianNs) {
                fastest = k;
            }
        }
        if (fastest) {
            best.emplace_back(device.ordinal, *fastest);
        }
    }
    return best;
}

std::optional<std::size_t> SweepResult::bestPoint() const
{
    std::optional<std::size_t> best;
    if (mixedModels()) {
        return best;
    }
    for (std::size_t k = 0; k < points.size(); ++k) {
        if (!canBeBest(points[k])) {
            continue;
        }
        if (!best || points[k].measurement->statistics.medianNs <
                         points[*best].measurement->statistics.medianNs) {
            best = k;
        }
    }
    return best;
}

std::vector<std::size_t> SweepResult::pointsTiedWithBest() const
{
    std::vector<std::size_t> tied;
    const std::optional<std::size_t> best = bestPoint();
    if (!best) {
        return tied;
    }
    const SampleStatistics &b = points[*best].measurement->statistics;
    for (std::size_t k = 0; k < points.size(); ++k) {
        if (k == *best || !canBeBest(points[k])) {
            continue;
        }
        const SampleStatistics &s = points[k].measurement->statistics;
        const double noise = std::max({s.stddevNs, b.stddevNs, 2.0 * b.relativeNoise * b.medianNs});
        if (s.medianNs - b.medianNs < noise) {
            tied.push_back(k);
        }
    }
    return tied;
}

} // namespace cuwb
