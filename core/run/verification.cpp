#include "run/verification.h"

#include <cstdio>
#include <utility>

namespace cuwb {

namespace {

std::string shortText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

} // namespace

VerificationResult combineChecks(const std::vector<VerificationResult> &checks)
{
    if (checks.size() == 1) {
        return checks.front();
    }
    VerificationResult overall;
    if (checks.empty()) {
        return overall;
    }
    std::size_t ran = 0;
    std::size_t passed = 0;
    const VerificationResult *shown = nullptr; // the first failed, else the first
    for (const VerificationResult &check : checks) {
        ran += check.ran ? 1 : 0;
        passed += check.ran && check.passed ? 1 : 0;
        overall.checked += check.checked;
        overall.mismatches += check.mismatches;
        if (!shown && check.ran && !check.passed) {
            shown = &check;
        }
    }
    overall.ran = ran > 0;
    overall.passed = passed == checks.size();
    if (!shown) {
        shown = &checks.front();
    }
    overall.maxError = shown->maxError;
    overall.maxErrorIndex = shown->maxErrorIndex;
    overall.firstMismatches = shown->firstMismatches;
    overall.maxAbsError = shown->maxAbsError;
    overall.maxAbsErrorIndex = shown->maxAbsErrorIndex;
    overall.maxRelError = shown->maxRelError;
    overall.maxRelErrorIndex = shown->maxRelErrorIndex;
    // The first line is what a one-line reason shows: the first check that failed.
    if (overall.passed) {
        overall.message = "all " + std::to_string(checks.size()) + " checks passed";
    } else if (!shown->message.empty() && !(shown->ran && shown->passed)) {
        overall.message = shown->message + " (" + std::to_string(passed) + " of " +
                          std::to_string(checks.size()) + " checks passed)";
    } else {
        overall.message =
            std::to_string(passed) + " of " + std::to_string(checks.size()) + " checks passed";
    }
    for (const VerificationResult &check : checks) {
        overall.message += "\n" + (check.label.empty() ? "`" + check.output + "`" : check.label) +
                           ": " +
                           (!check.ran     ? "did not run"
                            : check.passed ? "passed"
                                           : "FAILED") +
                           (check.message.empty() ? "" : ": " + check.message);
    }
    return overall;
}

std::string largestErrorText(const VerificationResult &check)
{
    const bool aggregate = check.aggregateActual.has_value();
    const auto where = [&](std::uint64_t index) {
        if (aggregate || check.output.empty()) {
            return std::string();
        }
        return " at " + check.output + "[" + std::to_string(index) + "]";
    };
    std::string text;
    if (check.maxAbsError) {
        text = "abs " + shortText(*check.maxAbsError) + where(check.maxAbsErrorIndex);
    }
    if (check.maxRelError) {
        text += (text.empty() ? "rel " : ", rel ") + shortText(*check.maxRelError) +
                where(check.maxRelErrorIndex);
    }
    return text;
}

const VerificationResult *worstCheck(const std::vector<VerificationResult> &checks)
{
    const VerificationResult *worst = nullptr;
    const auto rank = [](const VerificationResult &check) {
        return std::pair(check.ran && !check.passed,
                         check.maxRelError.value_or(check.maxAbsError.value_or(-1.0)));
    };
    for (const VerificationResult &check : checks) {
        if (!check.maxAbsError && !check.maxRelError) {
            continue;
        }
        if (!worst || rank(check) > rank(*worst)) {
            worst = &check;
        }
    }
    return worst;
}

} // namespace cuwb
