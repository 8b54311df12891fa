#include "compare/comparedata.h"

#include "inspect/instructioncountersjson.h"
#include "measure/measurejson.h"
#include "measure/roofline.h"
#include "sweep/sweep.h"
#include "sweep/sweephistory.h"

#include <filesystem>
#include <map>
#include <set>

namespace cuwb {

namespace {

// Deltas of named values under compareSides' rule for counters (10 % or more counts): the
// values travel as two metrics passes, in the order of `names`; a name either side lacks is
// left out.
std::vector<Delta> deltasByRule(const std::vector<std::string> &names,
                                const std::map<std::string, double> &a,
                                const std::map<std::string, double> &b)
{
    ComparisonSide sa;
    ComparisonSide sb;
    sa.metrics = MetricsResult{};
    sb.metrics = MetricsResult{};
    sa.metrics->values = a;
    sb.metrics->values = b;
    const Comparison c = compareSides(sa, sb);
    std::vector<Delta> ordered;
    for (const std::string &name : names) {
        for (const Delta &d : c.metrics) {
            if (d.what == name)
                ordered.push_back(d);
        }
    }
    return ordered;
}

std::map<std::string, double> speedOfLightValues(const ComparisonSide &side)
{
    std::map<std::string, double> values;
    if (!side.metrics || !side.metrics->ok())
        return values;
    const SpeedOfLight sol = speedOfLight(side.metrics->values);
    const std::pair<const char *, std::optional<double>> parts[] = {
        {"compute (SM) %", sol.computePercent},
        {"memory %", sol.memoryPercent},
        {"DRAM %", sol.dramPercent},
        {"L2 %", sol.l2Percent},
        {"L1 %", sol.l1Percent},
    };
    for (const auto &[name, value] : parts) {
        if (value)
            values[name] = *value;
    }
    return values;
}

std::string fileName(const std::string &path)
{
    return std::filesystem::path(path).filename().string();
}

// The one source file whose lines the inspection names, or empty (none, or several).
std::string inspectedFile(const InspectSummary &summary)
{
    std::set<std::string> files;
    for (const LineCounters &line : summary.lines) {
        if (line.line > 0)
            files.insert(fileName(line.file));
    }
    return files.size() == 1 ? *files.begin() : std::string();
}

std::string sourceOf(const CompareSideInput &side)
{
    if (!side.sourceFile.empty())
        return fileName(side.sourceFile);
    return side.side.inspection ? inspectedFile(*side.side.inspection) : std::string();
}

void compareLines(CompareData &data)
{
    const ComparisonSide &a = data.a.side;
    const ComparisonSide &b = data.b.side;
    if (!a.inspection || !b.inspection) {
        data.linesSkipped = "Per-line differences need both sides inspected.";
        return;
    }
    const std::string fileA = sourceOf(data.a);
    const std::string fileB = sourceOf(data.b);
    if (fileA.empty() || fileB.empty()) {
        data.linesSkipped = "Per-line differences need the source lines of both kernels: "
                            "compile with -lineinfo.";
        return;
    }
    if (fileA != fileB) {
        data.linesSkipped = "A and B come from different source files (" + fileA + " and " + fileB +
                            "): a line number does not name the same code in both, so the "
                            "lines are not compared.";
        return;
    }
    std::map<int, LineDelta> byLine;
    // One side's lines into the deltas, through that side's members of LineDelta.
    const auto take = [&](const InspectSummary &summary, bool LineDelta::*in,
                          CounterTotals LineDelta::*totals, double LineDelta::*stallShare,
                          std::vector<std::string> LineDelta::*findings) {
        for (const LineCounters &line : summary.lines) {
            if (line.line <= 0)
                continue;
            LineDelta &d = byLine[line.line];
            d.line = line.line;
            d.*in = true;
            d.*totals = line.totals;
            d.*stallShare = line.stallShare;
            for (const Finding &f : line.findings)
                (d.*findings).push_back(f.message);
        }
    };
    take(*a.inspection, &LineDelta::inA, &LineDelta::a, &LineDelta::stallShareA,
         &LineDelta::findingsA);
    take(*b.inspection, &LineDelta::inB, &LineDelta::b, &LineDelta::stallShareB,
         &LineDelta::findingsB);
    for (auto &[line, delta] : byLine) {
        const std::vector<std::string> names{"instructions", "global sectors", "shared wavefronts"};
        const auto values = [](const CounterTotals &t) {
            return std::map<std::string, double>{{"instructions", double(t.instructions)},
                                                 {"global sectors", double(t.globalSectors)},
                                                 {"shared wavefronts", double(t.sharedWavefronts)}};
        };
        for (const Delta &d : deltasByRule(names, values(delta.a), values(delta.b)))
            delta.significant = delta.significant || d.significant;
        data.lines.push_back(std::move(delta));
    }
}

void compareMix(CompareData &data)
{
    for (const CompareSideInput *side : {&data.a, &data.b}) {
        if (!side->mixUnavailable.empty() && !side->mix) {
            data.mixSkipped = "No instruction mix: " + side->mixUnavailable + ".";
            return;
        }
    }
    if (!data.a.mix || !data.b.mix) {
        data.mixSkipped = "The instruction mix needs the SASS of both kernels; "
                          "open the SASS tab of a source that has both.";
        return;
    }
    std::vector<std::string> names;
    std::map<std::string, double> a;
    std::map<std::string, double> b;
    for (int k = 0; k < kSassClassCount; ++k) {
        const auto klass = static_cast<SassClass>(k);
        const int countA = data.a.mix->count(klass);
        const int countB = data.b.mix->count(klass);
        if (countA == 0 && countB == 0)
            continue;
        names.emplace_back(sassClassName(klass));
        a[names.back()] = countA;
        b[names.back()] = countB;
    }
    names.emplace_back("all instructions");
    a[names.back()] = data.a.mix->instructions;
    b[names.back()] = data.b.mix->instructions;
    data.mix = deltasByRule(names, a, b);
}

std::optional<Measurement> readMeasurement(const nlohmann::json &json, std::string &error)
{
    try {
        return json.get<Measurement>();
    } catch (const std::exception &e) {
        error = e.what();
        return std::nullopt;
    }
}

void takeMeasurementDocument(CompareSideInput &side, const nlohmann::json &json)
{
    std::string error;
    side.side.measurement = readMeasurement(json, error);
    if (!side.side.measurement) {
        side.failure = "not a measurement: " + error;
        return;
    }
    if (side.side.name.empty())
        side.side.name = side.side.measurement->provenance.kernel;
    if (json.contains("metrics")) {
        try {
            side.side.metrics = json.at("metrics").get<MetricsResult>();
        } catch (const std::exception &e) {
            side.missing.push_back(std::string("metrics: unreadable (") + e.what() + ")");
        }
    }
}

// Every part a side lacks is said to be absent, once: a loader may have said why already.
void noteAbsentParts(CompareSideInput &side)
{
    if (side.failed())
        return;
    const auto said = [&side](const std::string &part) {
        for (const std::string &m : side.missing) {
            if (m.rfind(part + ":", 0) == 0)
                return true;
        }
        return false;
    };
    const std::pair<const char *, bool> parts[] = {
        {"measurement", side.side.measurement.has_value()},
        {"metrics", side.side.metrics.has_value()},
        {"inspection", side.side.inspection.has_value()},
    };
    for (const auto &[part, present] : parts) {
        if (!present && !said(part))
            side.missing.push_back(std::string(part) + ": not recorded");
    }
    if (side.side.metrics && !side.side.metrics->ok() && !said("metrics"))
        side.missing.push_back("metrics: " + side.side.metrics->error);
}

} // namespace

CompareData buildCompare(CompareSideInput a, CompareSideInput b)
{
    CompareData data;
    data.a = std::move(a);
    data.b = std::move(b);
    noteAbsentParts(data.a);
    noteAbsentParts(data.b);
    data.comparison = compareSides(data.a.side, data.b.side);
    std::vector<std::string> solNames{"compute (SM) %", "memory %", "DRAM %", "L2 %", "L1 %"};
    data.speedOfLight =
        deltasByRule(solNames, speedOfLightValues(data.a.side), speedOfLightValues(data.b.side));
    compareLines(data);
    compareMix(data);
    return data;
}

CompareSideInput sideFromMeasurementJson(const std::string &name, const std::string &origin,
                                         const std::string &json)
{
    CompareSideInput side;
    side.side.name = name;
    side.origin = origin;
    try {
        takeMeasurementDocument(side, nlohmann::json::parse(json));
    } catch (const std::exception &e) {
        side.failure = std::string("not a measurement: ") + e.what();
    }
    if (!side.side.metrics)
        side.missing.emplace_back("metrics: none recorded with this measurement");
    side.missing.emplace_back("inspection: none recorded with this measurement");
    return side;
}

CompareSideInput sideFromHistoryEntry(const std::string &name, const std::string &origin,
                                      const std::string &kind, const std::string &json)
{
    if (kind != "measurement") {
        CompareSideInput side;
        side.side.name = name;
        side.origin = origin;
        side.failure = "a " + kind + " entry is not one variant: compare a measurement entry";
        return side;
    }
    CompareSideInput side;
    side.side.name = name;
    side.origin = origin;
    const HistoryDocument document = readHistoryDocument(kind, json);
    if (!document.measurement) {
        side.failure = document.error.empty() ? "the entry holds no measurement" : document.error;
        return side;
    }
    side.side.measurement = document.measurement;
    if (side.side.name.empty())
        side.side.name = document.measurement->provenance.kernel;
    try {
        const nlohmann::json parsed = nlohmann::json::parse(json);
        if (parsed.contains("metrics"))
            side.side.metrics = parsed.at("metrics").get<MetricsResult>();
    } catch (const std::exception &) {
        // readHistoryDocument read it; a metrics member it cannot read counts as absent.
    }
    if (!side.side.metrics)
        side.missing.emplace_back("metrics: the history entry keeps none");
    side.mixUnavailable = "the history entry keeps no SASS";
    side.missing.emplace_back("inspection: the history entry keeps none");
    return side;
}

CompareSideInput sideFromSweepPoint(const SweepPointResult &point)
{
    CompareSideInput side;
    side.side.name = point.point.label();
    side.origin = "sweep point " + std::to_string(point.point.index + 1);
    side.side.measurement = point.measurement;
    side.side.metrics = point.metrics;
    if (!point.measurement)
        side.failure = point.message.empty() ? "the point was not measured" : point.message;
    if (!point.metrics)
        side.missing.emplace_back("metrics: the sweep did not collect them");
    side.mixUnavailable = "a sweep point's SASS depends on its own compile options";
    side.missing.emplace_back("inspection: a sweep does not inspect its points");
    return side;
}

std::string addRecordedJson(CompareSideInput &side, const std::string &text)
{
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const std::exception &e) {
        return std::string("not JSON: ") + e.what();
    }
    const nlohmann::json &inspected = json.contains("result") ? json.at("result") : json;
    if (inspected.is_object() && inspected.contains("instructions")) {
        try {
            const InspectResult result = inspected.get<InspectResult>();
            if (!result.ok()) {
                side.missing.push_back("inspection: " + result.error);
                return {};
            }
            side.side.inspection = summarise(result);
            if (side.side.name.empty())
                side.side.name = result.kernel;
            if (side.sourceFile.empty())
                side.sourceFile = inspectedFile(*side.side.inspection);
            return {};
        } catch (const std::exception &e) {
            return std::string("not an inspection's result: ") + e.what();
        }
    }
    if (json.contains("statistics")) {
        takeMeasurementDocument(side, json);
        return side.failed() ? side.failure : std::string();
    }
    return "neither a measurement (cuwb measure --json) nor an inspection (cuwb inspect --json)";
}

std::string sidesFromCompareJson(const std::string &text, CompareSideInput &a, CompareSideInput &b)
{
    try {
        const nlohmann::json json = nlohmann::json::parse(text);
        if (!json.contains("measurements") || json.at("measurements").size() != 2)
            return "not the output of cuwb compare --json";
        CompareSideInput *sides[] = {&a, &b};
        const char *keys[] = {"a", "b"};
        for (int k = 0; k < 2; ++k) {
            CompareSideInput &side = *sides[k];
            const std::string path = json.value(keys[k], std::string());
            if (side.side.name.empty())
                side.side.name = std::filesystem::path(path).stem().string();
            if (side.origin.empty())
                side.origin = path;
            std::string error;
            side.side.measurement = readMeasurement(json.at("measurements")[k], error);
            if (!side.side.measurement)
                return "measurement " + std::string(keys[k]) + ": " + error;
        }
    } catch (const std::exception &e) {
        return std::string("not JSON: ") + e.what();
    }
    return {};
}

} // namespace cuwb
