#include "measure/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace cuwb {

namespace {

constexpr double kNoiseFactor = 3.0;
constexpr double kMinTimeChange = 0.01;
constexpr double kCounterChange = 0.10;

bool counterDiffers(double a, double b)
{
    if (a == b) {
        return false;
    }
    const double larger = std::max(std::abs(a), std::abs(b));
    return larger > 0.0 && std::abs(a - b) / larger >= kCounterChange;
}

std::string milliseconds(double ns)
{
    char text[32];
    if (ns >= 1e6) {
        std::snprintf(text, sizeof text, "%.3g ms", ns * 1e-6);
    } else {
        std::snprintf(text, sizeof text, "%.3g µs", ns * 1e-3);
    }
    return text;
}

std::vector<Delta> counterDeltas(const CounterTotals &a, const CounterTotals &b)
{
    const std::pair<const char *, std::pair<double, double>> rows[] = {
        {"warp instructions executed", {double(a.instructions), double(b.instructions)}},
        {"global requests", {double(a.globalRequests), double(b.globalRequests)}},
        {"global sectors", {double(a.globalSectors), double(b.globalSectors)}},
        {"global sectors per request", {a.sectorsPerRequest(), b.sectorsPerRequest()}},
        {"shared requests", {double(a.sharedRequests), double(b.sharedRequests)}},
        {"shared wavefronts", {double(a.sharedWavefronts), double(b.sharedWavefronts)}},
        {"local sectors", {double(a.localSectors), double(b.localSectors)}},
        {"divergent branches", {double(a.divergentBranches), double(b.divergentBranches)}},
    };
    std::vector<Delta> deltas;
    for (const auto &[what, values] : rows) {
        if (values.first == 0.0 && values.second == 0.0) {
            continue;
        }
        deltas.push_back(
            {what, values.first, values.second, counterDiffers(values.first, values.second)});
    }
    return deltas;
}

} // namespace

std::optional<double> Delta::ratio() const
{
    return a != 0.0 ? std::optional<double>(b / a) : std::nullopt;
}

bool timesDiffer(const SampleStatistics &a, const SampleStatistics &b)
{
    if (a.medianNs <= 0.0)
        return b.medianNs > 0.0;
    const double noise = std::max(a.relativeNoise, b.relativeNoise);
    const double change = std::abs(b.medianNs - a.medianNs) / a.medianNs;
    return change > std::max(kNoiseFactor * noise, kMinTimeChange);
}

Comparison compareSides(const ComparisonSide &a, const ComparisonSide &b)
{
    Comparison c;
    const auto measured = [](const ComparisonSide &side) {
        return side.measurement && side.measurement->faultStatus.empty() &&
               side.measurement->statistics.count > 0;
    };
    if (measured(a) && measured(b)) {
        const SampleStatistics &sa = a.measurement->statistics;
        const SampleStatistics &sb = b.measurement->statistics;
        const double noise = std::max(sa.relativeNoise, sb.relativeNoise);
        Delta time{"median time (ns)", sa.medianNs, sb.medianNs, timesDiffer(sa, sb)};
        char text[200];
        if (!time.significant) {
            std::snprintf(text, sizeof text,
                          "no difference beyond the noise (median %s against %s, noise %.2f %%)",
                          milliseconds(sb.medianNs).c_str(), milliseconds(sa.medianNs).c_str(),
                          noise * 100.0);
        } else {
            const bool faster = sb.medianNs < sa.medianNs;
            std::snprintf(text, sizeof text, "%s is %.2f× %s than %s (median %s against %s)",
                          b.name.c_str(),
                          faster ? sa.medianNs / sb.medianNs : sb.medianNs / sa.medianNs,
                          faster ? "faster" : "slower", a.name.c_str(),
                          milliseconds(sb.medianNs).c_str(), milliseconds(sa.medianNs).c_str());
        }
        c.verdict = text;
        c.time = time;
    } else {
        c.notes.push_back("no time to compare: " + std::string(measured(a) ? b.name : a.name) +
                          " was not measured");
    }

    if (a.metrics && b.metrics && a.metrics->ok() && b.metrics->ok()) {
        for (const auto &[name, value] : a.metrics->values) {
            const auto other = b.metrics->values.find(name);
            if (other != b.metrics->values.end()) {
                c.metrics.push_back(
                    {name, value, other->second, counterDiffers(value, other->second)});
            }
        }
    } else if (a.metrics || b.metrics) {
        c.notes.push_back("the metrics could not be compared: one side has none");
    }

    if (a.inspection && b.inspection) {
        c.counters = counterDeltas(a.inspection->totals, b.inspection->totals);
        // A finding is "the same" on both sides when its line and words match.
        std::set<std::pair<int, std::string>> inA;
        std::set<std::pair<int, std::string>> inB;
        for (const LineCounters &line : a.inspection->lines) {
            for (const Finding &f : line.findings) {
                inA.insert({line.line, f.message});
            }
        }
        for (const LineCounters &line : b.inspection->lines) {
            for (const Finding &f : line.findings) {
                inB.insert({line.line, f.message});
            }
        }
        for (const auto &[line, message] : inA) {
            if (!inB.count({line, message})) {
                c.findings.push_back({line, message, true});
            }
        }
        for (const auto &[line, message] : inB) {
            if (!inA.count({line, message})) {
                c.findings.push_back({line, message, false});
            }
        }
    } else if (a.inspection || b.inspection) {
        c.notes.push_back("the instructions could not be compared: one side was not inspected");
    }
    return c;
}

} // namespace cuwb
