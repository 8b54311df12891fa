#include "grading/classreport.h"

#include "measure/comparison.h"
#include "measure/measurejson.h"
#include "sweep/sweepexport.h" // writeTextFile
#include "util/format.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

namespace cuwb {

namespace {

std::string stringField(const nlohmann::json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

// "alice" for "submissions/alice/vector_add.cuwb"; the file's stem when it lies in no folder.
std::string studentOf(const std::string &project)
{
    const std::filesystem::path path(project);
    const std::string folder = path.parent_path().filename().string();
    return folder.empty() || folder == "." ? path.stem().string() : folder;
}

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f %%", fraction * 100.0);
    return text;
}

std::string csvField(std::string text)
{
    // A spreadsheet reads a field that starts with one of these as a formula.
    if (!text.empty() && std::string("=+-@\t\r").find(text.front()) != std::string::npos)
        text.insert(text.begin(), '\'');
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c;
        if (c == '"')
            quoted += '"';
    }
    return quoted + '"';
}

std::string html(const std::string &text)
{
    std::string escaped;
    escaped.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            escaped += "&amp;";
            break;
        case '<':
            escaped += "&lt;";
            break;
        case '>':
            escaped += "&gt;";
            break;
        case '"':
            escaped += "&quot;";
            break;
        case '\'':
            escaped += "&#39;";
            break;
        default:
            escaped += c;
        }
    }
    return escaped;
}

std::string joined(const std::vector<std::string> &names, const char *separator)
{
    std::string text;
    for (const std::string &name : names)
        text += (text.empty() ? "" : separator) + name;
    return text;
}

std::string medianText(const ClassEntry &entry)
{
    return entry.timing ? formatMicroseconds(entry.timing->medianNs) : std::string();
}

std::string rankText(const ClassEntry &entry)
{
    if (entry.rank == 0)
        return {};
    return (entry.tiedWith.empty() ? "" : "=") + std::to_string(entry.rank);
}

// The flag of a measurement faster than the physical floor (ClassEntry::flag), or empty.
std::string physicalFloorFlag(const nlohmann::json &measurement)
{
    const auto settings = measurement.find("settings");
    const auto throughput = measurement.find("throughput");
    if (settings == measurement.end() || !settings->is_object() ||
        throughput == measurement.end() || !throughput->is_object())
        return {};
    // Hot samples may be served by the L2 cache, faster than DRAM: no floor there.
    if (stringField(*settings, "mode") != "cold")
        return {};
    const auto number = [&](const char *key) -> std::optional<double> {
        const auto found = throughput->find(key);
        return found != throughput->end() && found->is_number()
                   ? std::optional(found->get<double>())
                   : std::nullopt;
    };
    const std::optional<double> effective = number("effectiveGBps");
    const std::optional<double> peak = number("theoreticalPeakGBps");
    const std::optional<double> bytes = number("bytes");
    if (!effective || !peak || !bytes || *peak <= 0.0 || *effective <= *peak)
        return {};
    char text[320];
    std::snprintf(text, sizeof text,
                  "faster than the physical floor: %s in the median time is %.0f GB/s, above the "
                  "device's DRAM peak of %.0f GB/s with the L2 cache flushed before every sample; "
                  "the timed launches cannot have done the work the project declares",
                  formatDecimalBytes(*bytes).c_str(), *effective, *peak);
    return text;
}

} // namespace

std::vector<ClassEntry> classEntries(const nlohmann::json &summary)
{
    std::vector<ClassEntry> entries;
    std::map<std::string, std::string> reasons;
    if (const auto failed = summary.find("failed"); failed != summary.end() && failed->is_array()) {
        for (const nlohmann::json &each : *failed) {
            if (each.is_object())
                reasons[stringField(each, "project")] = stringField(each, "reason");
        }
    }
    const auto results = summary.find("results");
    if (results == summary.end() || !results->is_array())
        return entries;
    for (const nlohmann::json &result : *results) {
        ClassEntry entry;
        if (!result.is_object()) {
            entry.reason = "no result";
            entries.push_back(std::move(entry));
            continue;
        }
        entry.project = stringField(result, "project");
        entry.student = studentOf(entry.project);
        entry.result = result;
        const auto passed = result.find("passed");
        entry.passed = passed != result.end() && passed->is_boolean() && passed->get<bool>();
        if (!entry.passed) {
            const auto reason = reasons.find(entry.project);
            entry.reason =
                reason != reasons.end() && !reason->second.empty() ? reason->second : "failed";
        }
        if (const auto run = result.find("result"); run != result.end() && run->is_object()) {
            if (const auto time = run->find("kernelTimeMs");
                time != run->end() && time->is_number() && time->get<double>() > 0.0)
                entry.kernelTimeMs = time->get<double>();
        }
        if (const auto measured = result.find("measurement");
            entry.passed && measured != result.end() && measured->is_object()) {
            if (const auto statistics = measured->find("statistics");
                statistics != measured->end() && statistics->is_object()) {
                try {
                    SampleStatistics timing = statistics->get<SampleStatistics>();
                    if (timing.count > 0 && timing.medianNs > 0.0)
                        entry.timing = timing;
                } catch (const nlohmann::json::exception &) {
                    // Not as the grading writes it: the entry stays unranked.
                }
            }
            entry.flag = physicalFloorFlag(*measured);
        }
        entries.push_back(std::move(entry));
    }
    rankClass(entries);
    return entries;
}

void rankClass(std::vector<ClassEntry> &entries)
{
    std::vector<ClassEntry *> measured;
    for (ClassEntry &entry : entries) {
        entry.rank = 0;
        entry.tiedWith.clear();
        if (entry.passed && entry.timing && entry.flag.empty())
            measured.push_back(&entry);
    }
    std::stable_sort(measured.begin(), measured.end(),
                     [](const ClassEntry *a, const ClassEntry *b) {
                         return a->timing->medianNs < b->timing->medianNs;
                     });
    for (std::size_t first = 0; first < measured.size();) {
        // The group: the fastest not yet ranked, and every later one that does not differ
        // from it (sorted, so they follow it).
        std::size_t end = first + 1;
        while (end < measured.size() &&
               !timesDiffer(*measured[first]->timing, *measured[end]->timing))
            ++end;
        for (std::size_t k = first; k < end; ++k) {
            measured[k]->rank = first + 1;
            for (std::size_t other = first; other < end; ++other) {
                if (other != k)
                    measured[k]->tiedWith.push_back(measured[other]->student);
            }
        }
        first = end;
    }
}

std::string classCsv(const std::vector<ClassEntry> &entries)
{
    std::string csv = "student,project,passed,rank,tied_with,median_us,noise_percent,samples,"
                      "run_kernel_ms,reason,flag\n";
    for (const ClassEntry &entry : entries) {
        char median[32] = "";
        char noise[32] = "";
        char samples[32] = "";
        if (entry.timing) {
            std::snprintf(median, sizeof median, "%.3f", entry.timing->medianNs / 1000.0);
            std::snprintf(noise, sizeof noise, "%.3f", entry.timing->relativeNoise * 100.0);
            std::snprintf(samples, sizeof samples, "%zu", entry.timing->count);
        }
        char kernel[32] = "";
        if (entry.kernelTimeMs)
            std::snprintf(kernel, sizeof kernel, "%.6f", *entry.kernelTimeMs);
        csv += csvField(entry.student) + ',' + csvField(entry.project) + ',' +
               (entry.passed ? "yes" : "no") + ',' +
               (entry.rank > 0 ? std::to_string(entry.rank) : std::string()) + ',' +
               csvField(joined(entry.tiedWith, " ")) + ',' + median + ',' + noise + ',' + samples +
               ',' + kernel + ',' + csvField(entry.reason) + ',' + csvField(entry.flag) + '\n';
    }
    return csv;
}

std::string classHtml(const std::vector<ClassEntry> &entries, const std::string &title)
{
    const std::size_t passed =
        std::count_if(entries.begin(), entries.end(), [](const ClassEntry &e) { return e.passed; });
    std::vector<const ClassEntry *> ranked;
    for (const ClassEntry &entry : entries) {
        if (entry.rank > 0)
            ranked.push_back(&entry);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const ClassEntry *a, const ClassEntry *b) { return a->rank < b->rank; });
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
        << html(title) << "</title>\n<style>\n"
        << "body { font-family: sans-serif; margin: 2em; }\n"
        << "table { border-collapse: collapse; margin-bottom: 2em; }\n"
        << "th, td { border: 1px solid #bbb; padding: 0.3em 0.7em; text-align: left; }\n"
        << "td.number { text-align: right; font-variant-numeric: tabular-nums; }\n"
        << "tr.tie td { background: #f3f3f3; }\n"
        << "</style></head><body>\n<h1>" << html(title) << "</h1>\n<p>"
        << html(plural(entries.size(), "submission")) << ", " << passed << " passed, "
        << entries.size() - passed << " failed.";
    if (!ranked.empty())
        out << " Ranked by the median of the measured kernel time; submissions whose times do "
               "not differ beyond the noise (three times the larger relative noise, and at "
               "least 1 %) share a rank, marked =.";
    out << "</p>\n";
    if (!ranked.empty()) {
        out << "<h2>Ranking</h2>\n<table>\n<tr><th>Rank</th><th>Student</th><th>Median</th>"
               "<th>Noise</th><th>Samples</th><th>Tied with</th></tr>\n";
        for (const ClassEntry *entry : ranked) {
            out << "<tr" << (entry->tiedWith.empty() ? "" : " class=\"tie\"") << "><td>"
                << html(rankText(*entry)) << "</td><td>" << html(entry->student)
                << "</td><td class=\"number\">" << html(medianText(*entry))
                << "</td><td class=\"number\">" << html(percent(entry->timing->relativeNoise))
                << "</td><td class=\"number\">" << entry->timing->count << "</td><td>"
                << html(joined(entry->tiedWith, ", ")) << "</td></tr>\n";
        }
        out << "</table>\n";
    }
    out << "<h2>Every submission</h2>\n<table>\n<tr><th>Student</th><th>Project</th>"
           "<th>Verdict</th><th>Kernel time (one run)</th><th>Reason</th></tr>\n";
    for (const ClassEntry &entry : entries) {
        char kernel[48] = "";
        if (entry.kernelTimeMs)
            std::snprintf(kernel, sizeof kernel, "%.3f ms", *entry.kernelTimeMs);
        out << "<tr><td>" << html(entry.student) << "</td><td>" << html(entry.project)
            << "</td><td>"
            << (!entry.passed        ? "FAILED"
                : entry.flag.empty() ? "passed"
                                     : "FLAGGED")
            << "</td><td class=\"number\">" << kernel << "</td><td>"
            << html(entry.flag.empty() ? entry.reason : entry.flag) << "</td></tr>\n";
    }
    out << "</table>\n</body></html>\n";
    return out.str();
}

std::string studentReport(const ClassEntry &entry, std::size_t rankedCount)
{
    std::ostringstream out;
    out << entry.student << ": " << entry.project << '\n'
        << (entry.passed ? "PASSED" : "FAILED") << '\n';
    if (!entry.passed)
        out << "reason: " << entry.reason << '\n';
    if (!entry.flag.empty())
        out << "FLAGGED, not ranked: " << entry.flag << '\n';
    if (entry.kernelTimeMs) {
        char text[64];
        std::snprintf(text, sizeof text, "%.3f ms", *entry.kernelTimeMs);
        out << "kernel time of the verified run: " << text << '\n';
    }
    if (entry.timing) {
        out << "measured: median " << medianText(entry) << " over "
            << plural(entry.timing->count, "sample") << ", noise "
            << percent(entry.timing->relativeNoise) << '\n';
    }
    if (entry.rank > 0) {
        out << "place: " << entry.rank << " of " << rankedCount;
        if (!entry.tiedWith.empty())
            out << ", tied with " << joined(entry.tiedWith, ", ")
                << " (no difference beyond the noise)";
        out << '\n';
    }
    return out.str();
}

std::string studentFileName(std::size_t number, const std::string &student)
{
    std::string name = student;
    for (char &c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        if (!plain)
            c = '_';
    }
    if (name.empty())
        name = "_";
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%02zu-", number);
    return prefix + name;
}

std::string writeClassReport(const nlohmann::json &summary, const std::string &folder)
{
    namespace fs = std::filesystem;
    std::error_code code;
    fs::create_directories(fs::path(folder) / "students", code);
    if (code) {
        return "cannot create the report folder " + folder + ": " + code.message();
    }
    const std::vector<ClassEntry> entries = classEntries(summary);
    const std::size_t ranked = std::size_t(std::count_if(
        entries.begin(), entries.end(), [](const ClassEntry &e) { return e.rank > 0; }));
    const auto dump = [](const nlohmann::json &json) {
        return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
    };
    const fs::path root(folder);
    std::string problem = writeTextFile((root / "class.json").string(), dump(summary));
    if (problem.empty()) {
        problem = writeTextFile((root / "class.csv").string(), classCsv(entries));
    }
    if (problem.empty()) {
        problem =
            writeTextFile((root / "class.html").string(),
                          classHtml(entries, "Grading of " + plural(entries.size(), "submission")));
    }
    for (std::size_t i = 0; i < entries.size() && problem.empty(); ++i) {
        nlohmann::json own = entries[i].result;
        if (entries[i].rank > 0) {
            own["rank"] = entries[i].rank;
            own["tiedWith"] = entries[i].tiedWith;
        }
        const fs::path base = root / "students" / studentFileName(i + 1, entries[i].student);
        problem = writeTextFile(base.string() + ".txt", studentReport(entries[i], ranked));
        if (problem.empty()) {
            problem = writeTextFile(base.string() + ".json", dump(own));
        }
    }
    return problem;
}

} // namespace cuwb
