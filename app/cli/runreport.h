// How `cuwb run` reports a project: the text report (the verdict first, then what the kernel
// did, the buffers, the checks and the measurement), the same as JSON, the one-line reason a
// project did not pass, and the grading summary in text and JSON. Local runs and the merge of a
// Slurm grading report through these.
#pragma once

#include "measure/measurement.h"
#include "project/project.h"
#include "run/runoutcome.h"
#include "run/runresult.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cuwb::cli {

// One project's outcome: a RunResult, or why the project could not even be sent.
struct Outcome
{
    std::string project;
    std::string error;   // malformed or unreadable project: exit status 2
    std::string refused; // a graded project that names a file outside its folder: exit 1
    RunResult result;
    RunOutcome verdict;     // what the result means, knowing whether the project verifies
    std::optional<int> gpu; // with --devices: the GPU it ran on
    bool passed = false;
    std::optional<Measurement> measurement; // with --measure, of a run that passed
};

struct GradedOutcome
{
    Outcome outcome;
    std::string reason; // empty when it passed
};

// The verdict first, with its reasons, then what the kernel did, the buffers and the checks,
// in the words of run/runoutcome.h.
void printReport(std::ostream &out, const Outcome &outcome, const Project &project);
// {"project", "passed", and "refused", "error" or "result"; "device", "measurement"}.
nlohmann::json outcomeJson(const Outcome &outcome);
// Why a project did not pass, in one line, for the grading summary.
std::string failureReason(const Outcome &outcome);
// {"projects", "passed", "failed": [{"project", "reason"}...]}.
nlohmann::json summaryJson(const std::vector<GradedOutcome> &graded);
// "summary: N projects, K passed, M failed" and a FAILED line per failure.
void printSummary(std::ostream &out, const std::vector<GradedOutcome> &graded);

} // namespace cuwb::cli
