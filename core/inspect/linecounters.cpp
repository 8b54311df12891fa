#include "inspect/linecounters.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace cuwb {

namespace {

// Findings are raised only where they cost something: more than 25 % over the ideal sectors
// or wavefronts, any local memory, divergence in over 5 % of branch executions, and fewer
// than half the threads active on lines that execute at least 1 % of the kernel.
constexpr double kExcessRatio = 1.25;
constexpr double kDivergentShare = 0.05;
constexpr double kIdleThreadsShare = 0.5;
constexpr double kLineShareForIdle = 0.01;

std::uint64_t value(const SassInstructionCounters &i, const char *metric)
{
    const auto found = i.values.find(metric);
    return found == i.values.end() ? 0 : found->second;
}

double ratio(std::uint64_t a, std::uint64_t b)
{
    return b == 0 ? 0.0 : double(a) / double(b);
}

std::string formatFinding(const char *pattern, double a, double b = 0.0)
{
    char text[160];
    std::snprintf(text, sizeof text, pattern, a, b);
    return text;
}

void findOn(LineCounters &line)
{
    const CounterTotals &t = line.totals;
    // Loads and stores apart: a line that reads well and writes badly says which.
    const struct
    {
        const char *what;
        std::uint64_t requests, sectors, ideal;
    } accesses[] = {
        {"uncoalesced load", t.globalRequests - t.globalStoreRequests,
         t.globalSectors - t.globalStoreSectors, t.globalSectorsIdeal - t.globalStoreSectorsIdeal},
        {"uncoalesced store", t.globalStoreRequests, t.globalStoreSectors,
         t.globalStoreSectorsIdeal},
    };
    for (const auto &a : accesses) {
        if (a.requests > 0 && double(a.sectors) > double(a.ideal) * kExcessRatio) {
            line.findings.push_back(
                {FindingKind::Uncoalesced,
                 a.what + formatFinding(": %.1f sectors per request, %.1f ideal",
                                        ratio(a.sectors, a.requests), ratio(a.ideal, a.requests))});
        }
    }
    if (t.sharedRequests > 0 &&
        double(t.sharedWavefronts) > double(t.sharedWavefrontsIdeal) * kExcessRatio) {
        line.findings.push_back(
            {FindingKind::BankConflict,
             formatFinding("%.0f-way bank conflict", std::round(t.bankConflictWays())) +
                 formatFinding(": %.0f shared-memory wavefronts, %.0f ideal",
                               double(t.sharedWavefronts), double(t.sharedWavefrontsIdeal))});
    }
    if (t.localSectors > 0 || t.localRequests > 0) {
        line.findings.push_back(
            {FindingKind::LocalMemory,
             formatFinding("local memory: %.0f requests, %.0f sectors (register "
                           "spills or a local array)",
                           double(t.localRequests), double(t.localSectors))});
    }
    const std::uint64_t branches = t.divergentBranches + t.uniformBranches;
    if (branches > 0 && ratio(t.divergentBranches, branches) > kDivergentShare) {
        line.findings.push_back(
            {FindingKind::Divergence,
             formatFinding("divergent branch: %.0f %% of its executions split the warp",
                           100.0 * ratio(t.divergentBranches, branches))});
    }
    if (line.share >= kLineShareForIdle && t.instructions > 0 &&
        ratio(t.predicatedOnThreads, t.instructions * 32) < kIdleThreadsShare) {
        line.findings.push_back(
            {FindingKind::IdleThreads,
             formatFinding("%.0f %% of the warp's threads do work here (the rest are inactive or "
                           "predicated off)",
                           100.0 * ratio(t.predicatedOnThreads, t.instructions * 32))});
    }
}

} // namespace

void CounterTotals::add(const SassInstructionCounters &i)
{
    instructions += value(i, "smsp__sass_inst_executed");
    threadInstructions += value(i, "smsp__sass_thread_inst_executed");
    predicatedOnThreads += value(i, "smsp__sass_thread_inst_executed_pred_on");
    globalRequests += value(i, "smsp__sass_inst_executed_op_global");
    globalTagLookups += value(i, "smsp__sass_l1tex_tags_mem_global");
    globalSectors += value(i, "smsp__sass_sectors_mem_global");
    globalSectorsIdeal += value(i, "smsp__sass_sectors_mem_global_ideal");
    if (value(i, "smsp__sass_inst_executed_op_global_st") > 0) {
        globalStoreRequests += value(i, "smsp__sass_inst_executed_op_global");
        globalStoreSectors += value(i, "smsp__sass_sectors_mem_global");
        globalStoreSectorsIdeal += value(i, "smsp__sass_sectors_mem_global_ideal");
    }
    sharedRequests += value(i, "smsp__sass_inst_executed_op_shared");
    sharedWavefronts += value(i, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared");
    sharedWavefrontsIdeal += value(i, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal");
    localRequests += value(i, "smsp__sass_inst_executed_op_local");
    localSectors += value(i, "smsp__sass_sectors_mem_local");
    divergentBranches += value(i, "smsp__sass_branch_targets_threads_divergent");
    uniformBranches += value(i, "smsp__sass_branch_targets_threads_uniform");
}

double CounterTotals::sectorsPerRequest() const
{
    return ratio(globalSectors, globalRequests);
}

double CounterTotals::idealSectorsPerRequest() const
{
    return ratio(globalSectorsIdeal, globalRequests);
}

double CounterTotals::bankConflictWays() const
{
    return sharedWavefrontsIdeal == 0 ? 0.0 : ratio(sharedWavefronts, sharedWavefrontsIdeal);
}

const char *findingKindName(FindingKind kind)
{
    switch (kind) {
    case FindingKind::Uncoalesced:
        return "uncoalesced";
    case FindingKind::BankConflict:
        return "bank-conflict";
    case FindingKind::LocalMemory:
        return "local-memory";
    case FindingKind::Divergence:
        return "divergence";
    case FindingKind::IdleThreads:
        return "idle-threads";
    }
    return "";
}

InspectSummary summarise(const InspectResult &result)
{
    InspectSummary summary;
    summary.kernel = result.kernel;
    std::map<std::pair<std::string, int>, LineCounters> byLine;
    for (const SassInstructionCounters &i : result.instructions) {
        summary.totals.add(i);
        if (i.line == 0) {
            summary.unplacedInstructions += value(i, "smsp__sass_inst_executed");
            continue;
        }
        LineCounters &line = byLine[{i.file, int(i.line)}];
        line.file = i.file;
        line.line = int(i.line);
        line.totals.add(i);
        line.offsets.push_back(i.pcOffset);
    }
    for (const PcStallSamples &pc : result.stalls) {
        summary.stallSamples += pc.samples;
        for (const auto &[reason, samples] : pc.reasons) {
            summary.stallReasons[reason] += samples;
        }
        if (pc.line == 0) {
            continue;
        }
        LineCounters &line = byLine[{pc.file, int(pc.line)}];
        line.file = pc.file;
        line.line = int(pc.line);
        line.stallSamples += pc.samples;
        for (const auto &[reason, samples] : pc.reasons) {
            line.stallReasons[reason] += samples;
        }
    }
    for (auto &[key, line] : byLine) {
        line.share = ratio(line.totals.instructions, summary.totals.instructions);
        line.stallShare = ratio(line.stallSamples, summary.stallSamples);
        findOn(line);
        summary.lines.push_back(std::move(line));
    }
    if (!result.lineInfo && !result.instructions.empty()) {
        summary.notes.push_back("the kernel was compiled without line information, so the "
                                "counters cannot be placed on source lines: turn on -lineinfo "
                                "(compile option \"lineInfo\": true) and inspect again");
    } else if (summary.unplacedInstructions > 0) {
        summary.notes.push_back(formatFinding(
            "%.1f %% of the executed instructions have no source line (code the "
            "compiler added)",
            100.0 * ratio(summary.unplacedInstructions, summary.totals.instructions)));
    }
    if (!result.stallError.empty()) {
        summary.notes.push_back("no PC samples (where the warps waited): " + result.stallError);
    } else if (result.droppedStallSamples > 0) {
        summary.notes.push_back(
            formatFinding("%.1f %% of the PC samples were dropped by the GPU",
                          100.0 * ratio(result.droppedStallSamples, result.stallSamples)));
    }
    if (result.droppedRecords > 0) {
        summary.notes.push_back(std::to_string(result.droppedRecords) +
                                " of CUPTI's instruction records were dropped");
    }
    return summary;
}

namespace {

template <typename Key>
std::vector<const LineCounters *> linesBy(const InspectSummary &summary, std::size_t count, Key key)
{
    std::vector<const LineCounters *> lines;
    for (const LineCounters &line : summary.lines) {
        if (key(line) > 0) {
            lines.push_back(&line);
        }
    }
    std::stable_sort(lines.begin(), lines.end(), [&](const LineCounters *a, const LineCounters *b) {
        return key(*a) > key(*b);
    });
    if (lines.size() > count) {
        lines.resize(count);
    }
    return lines;
}

} // namespace

std::vector<const LineCounters *> hottestLines(const InspectSummary &summary, std::size_t count)
{
    return linesBy(summary, count, [](const LineCounters &l) { return l.totals.instructions; });
}

std::vector<const LineCounters *> stalledLines(const InspectSummary &summary, std::size_t count)
{
    return linesBy(summary, count, [](const LineCounters &l) { return l.stallSamples; });
}

std::string topReasons(const std::map<std::string, std::uint64_t> &reasons, std::size_t count)
{
    std::vector<std::pair<std::string, std::uint64_t>> sorted(reasons.begin(), reasons.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    std::uint64_t total = 0;
    for (const auto &[reason, samples] : sorted) {
        total += samples;
    }
    std::string text;
    for (std::size_t k = 0; k < std::min(count, sorted.size()); ++k) {
        text += (k == 0 ? "" : ", ") + sorted[k].first +
                formatFinding(" %.0f %%", 100.0 * ratio(sorted[k].second, total));
    }
    return text;
}

} // namespace cuwb
