#include "runreport.h"

#include "measure/measurejson.h"
#include "run/runjson.h"
#include "util/format.h"

#include <cmath>
#include <cstdio>

namespace cuwb::cli {

namespace {

std::string valueText(double value)
{
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    char text[48];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string milliseconds(double value)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.4g ms", value);
    return text;
}

void printIndented(std::ostream &out, const std::string &text, const char *indent)
{
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        out << indent << line << '\n';
    }
}

std::string firstLine(const std::string &text)
{
    const std::size_t start = text.find_first_not_of(" \n");
    if (start == std::string::npos) {
        return {};
    }
    return text.substr(start, text.find('\n', start) - start);
}

} // namespace

namespace {

// "  kernel k: ran in 1.5 ms (whole run 2 ms) on NVIDIA H200 (sm_90)", and for a kernel that
// did not run, the rest of its message.
void printKernelLine(std::ostream &out, const Outcome &outcome, const Project &project)
{
    const RunResult &result = outcome.result;
    const RunOutcome &verdict = outcome.verdict;
    if (project.launch.then.empty()) {
        out << "  kernel " << project.launch.kernel << ": ";
    } else {
        out << "  kernels " << project.launch.kernel;
        for (const KernelStep &step : project.launch.then) {
            out << ", " << step.kernel;
        }
        out << ": ";
    }
    switch (verdict.kernel) {
    case KernelOutcome::Ran:
        out << "ran in " << milliseconds(result.kernelTimeMs) << " (whole run "
            << milliseconds(result.wallTimeMs) << ")";
        break;
    case KernelOutcome::Faulted:
        out << "faulted";
        break;
    case KernelOutcome::TimedOut:
        out << "timed out";
        break;
    case KernelOutcome::NotStarted:
        out << "could not start (" << runStatusName(result.status) << ")";
        break;
    }
    if (!result.device.empty()) {
        out << " on " << result.device;
    }
    if (outcome.gpu) {
        out << " (GPU " << *outcome.gpu << ")";
    }
    out << '\n';
    if (verdict.kernel != KernelOutcome::Ran) {
        // The headline carries the message's first line; the rest follows here.
        const std::size_t firstBreak = result.message.find('\n');
        if (firstBreak != std::string::npos) {
            printIndented(out, result.message.substr(firstBreak + 1), "    ");
        }
        if (!result.deviceError.empty()) {
            out << "    device error: " << result.deviceError << '\n';
        }
    }
}

void printSizeAndStats(std::ostream &out, const char *what, const BufferReport &buffer)
{
    out << "  " << what << ' ' << buffer.parameter << ": " << buffer.count << " elements, "
        << buffer.bytes << " bytes";
    if (buffer.stats.valid) {
        out << "; min " << valueText(buffer.stats.min) << ", max " << valueText(buffer.stats.max)
            << ", mean " << valueText(buffer.stats.mean);
        if (buffer.stats.nanCount > 0 || buffer.stats.infCount > 0) {
            out << "; " << buffer.stats.nanCount << " NaN, " << buffer.stats.infCount << " Inf";
        }
    }
    out << '\n';
}

// The buffers and globals with their statistics, guard violations and unwritten elements,
// then a sequence's kernel times.
void printBuffers(std::ostream &out, const RunResult &result)
{
    for (const BufferReport &buffer : result.buffers) {
        printSizeAndStats(out, "buffer", buffer);
        for (const GuardViolation &violation : buffer.guardViolations) {
            out << "    " << violation.message << '\n';
        }
        if (buffer.unwritten > 0) {
            out << "    " << buffer.unwritten << " elements never written, first at index "
                << buffer.firstUnwritten << '\n';
        }
    }
    for (const BufferReport &global : result.globals) {
        printSizeAndStats(out, "global", global);
    }
    // A sequence: each kernel's time, as the events between them measured it.
    for (const KernelRunTime &time : result.kernelTimes) {
        out << "    " << time.kernel << ": " << milliseconds(time.timeMs) << '\n';
    }
}

// Each check, in the project's order (one result with an older worker), with its first
// mismatches.
void printChecks(std::ostream &out, const RunResult &result, const Project &project)
{
    std::vector<VerificationResult> checks = result.checks;
    if (checks.empty() && (project.verification.configured() || result.verification.ran)) {
        checks.push_back(result.verification);
        if (checks.back().output.empty() && project.verification.configured()) {
            checks.back().output = project.verification.checks.front().output;
        }
    }
    for (const VerificationResult &verification : checks) {
        out << "  verification of " << verification.output << ": ";
        if (!verification.ran) {
            out << "did not run";
        } else {
            out << (verification.passed ? "passed" : "FAILED") << " (" << verification.checked
                << " elements checked, largest error " << valueText(verification.maxError)
                << " at index " << verification.maxErrorIndex;
            if (const std::string errors = largestErrorText(verification); !errors.empty()) {
                out << "; " << errors;
            }
            out << ")";
        }
        out << '\n';
        if (!verification.message.empty()) {
            printIndented(out, verification.message, "    ");
        }
        for (const Mismatch &mismatch : verification.firstMismatches) {
            out << "    index " << mismatch.index << " (block " << mismatch.block[0] << ","
                << mismatch.block[1] << "," << mismatch.block[2] << ", thread "
                << mismatch.thread[0] << "," << mismatch.thread[1] << "," << mismatch.thread[2]
                << "): got " << valueText(mismatch.actual) << ", expected "
                << valueText(mismatch.expected) << ", error " << valueText(mismatch.error) << '\n';
        }
    }
}

// With --measure: the median, samples and noise, or why the measurement failed.
void printMeasurement(std::ostream &out, const Measurement &m)
{
    if (!m.faultStatus.empty()) {
        out << "  measured: failed (" << m.faultStatus << "): " << m.faultMessage << '\n';
        return;
    }
    char noise[32];
    std::snprintf(noise, sizeof noise, "%.2f %%", m.statistics.relativeNoise * 100.0);
    out << "  measured: median " << formatMicroseconds(m.statistics.medianNs) << " over "
        << plural(m.statistics.count, "sample") << ", noise " << noise << " (" << m.stop.message
        << ")\n";
    if (m.settings.guarded && m.wrongSample.empty()) {
        out << "  guarded: " << plural(m.verifiedSamples, "timed launch")
            << " verified, each from the state the first one found\n";
    }
}

} // namespace

void printReport(std::ostream &out, const Outcome &outcome, const Project &project)
{
    out << outcome.project << ": " << outcome.verdict.headline() << '\n';
    printKernelLine(out, outcome, project);
    if (outcome.verdict.kernel != KernelOutcome::Ran) {
        return;
    }
    printBuffers(out, outcome.result);
    printChecks(out, outcome.result, project);
    out << "  checks: " << outcome.verdict.checksLine() << '\n';
    if (outcome.measurement) {
        printMeasurement(out, *outcome.measurement);
    }
}

nlohmann::json outcomeJson(const Outcome &outcome)
{
    nlohmann::json entry{{"project", outcome.project}, {"passed", outcome.passed}};
    if (!outcome.refused.empty()) {
        entry["refused"] = outcome.refused;
    } else if (!outcome.error.empty()) {
        entry["error"] = outcome.error;
    } else {
        entry["result"] = outcome.result;
        // Read knowing whether the project asks for a verification, which the result alone
        // cannot tell: a requested one that did not run reads "not-run" and fails.
        entry["result"]["outcome"] = outcome.verdict;
    }
    if (outcome.gpu) {
        entry["device"] = *outcome.gpu;
    }
    if (outcome.measurement) {
        entry["measurement"] = *outcome.measurement;
    }
    return entry;
}

std::string failureReason(const Outcome &outcome)
{
    if (!outcome.refused.empty()) {
        return "refused: " + outcome.refused;
    }
    if (!outcome.error.empty()) {
        return "cannot be read: " + firstLine(outcome.error);
    }
    std::string reason;
    for (const std::string &each : outcome.verdict.reasons) {
        reason += (reason.empty() ? "" : "; ") + each;
    }
    return reason.empty() ? std::string("failed") : reason;
}

nlohmann::json summaryJson(const std::vector<GradedOutcome> &graded)
{
    nlohmann::json failed = nlohmann::json::array();
    std::size_t passed = 0;
    for (const GradedOutcome &entry : graded) {
        if (entry.outcome.passed) {
            ++passed;
        } else {
            failed.push_back({{"project", entry.outcome.project}, {"reason", entry.reason}});
        }
    }
    return {{"projects", graded.size()}, {"passed", passed}, {"failed", std::move(failed)}};
}

void printSummary(std::ostream &out, const std::vector<GradedOutcome> &graded)
{
    std::size_t passed = 0;
    for (const GradedOutcome &entry : graded) {
        passed += entry.outcome.passed ? 1 : 0;
    }
    out << "summary: " << graded.size() << (graded.size() == 1 ? " project, " : " projects, ")
        << passed << " passed, " << graded.size() - passed << " failed\n";
    for (const GradedOutcome &entry : graded) {
        if (!entry.outcome.passed) {
            out << "  FAILED " << entry.outcome.project << ": " << entry.reason << '\n';
        }
    }
}

} // namespace cuwb::cli
