// ClassReport: what an instructor keeps of a graded class — one entry per submission (its
// verdict, the reason it failed, its kernel's time), ranked by measured time where
// submissions differ beyond the noise and tied where they do not, written as CSV, as one
// self-contained HTML page, and as a short text report per student. Made from the summary
// document of `cuwb run DIR --json --summary` (a local run's or a Slurm array's merged one),
// so that every way of grading gives the same report. Pure and Qt-free.
#pragma once

#include "measure/measurement.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct ClassEntry
{
    std::string project; // as the grading named it
    std::string student; // the folder the project lies in ("alice")
    bool passed = false;
    std::string reason;                     // why it did not pass; empty when it did
    std::optional<double> kernelTimeMs;     // the verified run's one launch
    std::optional<SampleStatistics> timing; // measured (cuwb run --measure), when it passed
    // Why its time cannot be what the timed launches did, when it cannot: in a cold-L2
    // measurement (every sample starts with the L2 flushed) the bytes the project declares,
    // over the median time, exceed the device's theoretical DRAM peak. Flagged, not ranked.
    std::string flag;
    // 1-based among the measured submissions that passed and are not flagged, fastest first;
    // submissions whose times do not differ beyond the noise (measure/comparison.h, timesDiffer)
    // share the rank of the fastest of them, and the next rank counts them all ("1, 1, 3"). 0: not
    // ranked.
    std::size_t rank = 0;
    std::vector<std::string> tiedWith; // the students sharing the rank
    nlohmann::json result;             // the submission's whole entry of the document
};

// The entries of a summary document, in its order, ranked. An entry the document does not
// describe as the grading writes it is kept with its project name and "no result" as reason.
std::vector<ClassEntry> classEntries(const nlohmann::json &summary);

// Ranks `entries` in place (see ClassEntry::rank): a tie group starts at the fastest submission
// not yet ranked and takes every later one whose time does not differ from it.
void rankClass(std::vector<ClassEntry> &entries);

// One header line, then a line per submission in the grading's order: student, project,
// passed, rank, tied with, median and noise of the measured time, the run's kernel time,
// reason, flag. Fields quoted as RFC 4180 says; a leading =, +, - or @ is escaped with a quote so
// that a spreadsheet does not take a student's text for a formula.
std::string classCsv(const std::vector<ClassEntry> &entries);

// One HTML page, no scripts and nothing loaded from elsewhere: the class summary, then the
// ranked submissions, then the ones that failed with their reasons. Every text is escaped.
std::string classHtml(const std::vector<ClassEntry> &entries, const std::string &title);

// What one student is told: the verdict, the reasons, the time and the place among the
// `rankedCount` ranked submissions.
std::string studentReport(const ClassEntry &entry, std::size_t rankedCount);

// The whole report in `folder` (made when missing): class.json (the summary document as it
// is), class.csv, class.html, and students/NN-NAME.txt and .json (the student's result with
// "rank" and "tiedWith"). Empty, or what could not be written.
std::string writeClassReport(const nlohmann::json &summary, const std::string &folder);

// A file name for a student's report: "07-alice", from its place in the grading and the
// student's folder, with anything but letters, digits, '-', '_' and '.' replaced by '_' (so
// no '/'; the number in front keeps it from being "." or "..").
std::string studentFileName(std::size_t number, const std::string &student);

} // namespace cuwb
