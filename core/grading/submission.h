// Submission: reading one graded project (a student's folder) as the grader needs it — the
// project file refused when it leads out of its folder, parsed within its limits, every path
// it names and every #include it spells checked against its folder (grading/confinement.h),
// and its source read. `cuwb run DIR` does this in a process of its own that the kernel
// confines to the submission's folder (`cuwb read-submission`, docs/grading.md), so that a
// file that crashes, hangs or exhausts the reader fails that submission alone and nothing
// outside the folder can be read on its say-so; what comes back is this value as JSON.
#pragma once

#include "project/project.h"

#include <optional>
#include <string>
#include <string_view>

namespace cuwb {

struct SubmissionRead
{
    std::string refused;            // why it is refused (confinement); nothing was run
    std::string error;              // why it could not be read (a parse error, a missing file)
    std::optional<Project> project; // as written, its paths not yet resolved
    std::string source;             // the kernel source: inline or its file's text

    [[nodiscard]] bool ok() const { return project.has_value(); }
};

// Reads the graded project at `projectPath` (absolute). In-process: the caller confines it.
SubmissionRead readSubmission(const std::string &projectPath);

// The reply of `cuwb read-submission`, and back. A reply that is no such JSON (too deep, too
// large, malformed, missing fields) gives a SubmissionRead whose error says so.
std::string submissionReadToJson(const SubmissionRead &read);
SubmissionRead submissionReadFromJson(std::string_view text);

} // namespace cuwb
