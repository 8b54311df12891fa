#include "run/runoutcome.h"

#include "util/format.h"

namespace cuwb {

namespace {

std::string firstLine(const std::string &text)
{
    const std::size_t start = text.find_first_not_of(" \n");
    if (start == std::string::npos) {
        return {};
    }
    return text.substr(start, text.find('\n', start) - start);
}

KernelOutcome kernelOutcomeOf(RunStatus status)
{
    switch (status) {
    case RunStatus::Succeeded:
        return KernelOutcome::Ran;
    case RunStatus::Fault:
    case RunStatus::WorkerCrashed:
        return KernelOutcome::Faulted;
    case RunStatus::Timeout:
        return KernelOutcome::TimedOut;
    case RunStatus::InvalidLaunch:
    case RunStatus::CompileFailed:
    case RunStatus::OutOfMemory:
    case RunStatus::NoDevice:
        return KernelOutcome::NotStarted;
    }
    return KernelOutcome::NotStarted;
}

// "the kernel faulted (CUDA_ERROR_ILLEGAL_ADDRESS): an illegal memory access…"
std::string kernelReason(const RunResult &result, KernelOutcome kernel)
{
    std::string reason;
    switch (kernel) {
    case KernelOutcome::Ran:
        return {};
    case KernelOutcome::Faulted:
        reason = result.status == RunStatus::WorkerCrashed ? "the worker died during the run"
                                                           : "the kernel faulted";
        break;
    case KernelOutcome::TimedOut:
        reason = "the kernel timed out";
        break;
    case KernelOutcome::NotStarted:
        reason = std::string("the kernel could not start (") + runStatusName(result.status) + ")";
        break;
    }
    if (!result.deviceError.empty()) {
        reason += " [" + result.deviceError + "]";
    }
    const std::string message = firstLine(result.message);
    if (!message.empty()) {
        reason += ": " + message;
    }
    return reason;
}

std::string joinNames(const std::vector<std::string> &names)
{
    std::string text;
    for (std::size_t k = 0; k < names.size(); ++k) {
        text += (k == 0 ? "`" : ", `") + names[k] + "`";
    }
    return text;
}

} // namespace

const char *kernelOutcomeName(KernelOutcome outcome)
{
    switch (outcome) {
    case KernelOutcome::Ran:
        return "ran";
    case KernelOutcome::Faulted:
        return "faulted";
    case KernelOutcome::TimedOut:
        return "timed-out";
    case KernelOutcome::NotStarted:
        return "not-started";
    }
    return "not-started";
}

const char *verificationOutcomeName(VerificationOutcome outcome)
{
    switch (outcome) {
    case VerificationOutcome::Passed:
        return "passed";
    case VerificationOutcome::Failed:
        return "failed";
    case VerificationOutcome::NotConfigured:
        return "not-configured";
    case VerificationOutcome::NotRun:
        return "not-run";
    }
    return "not-run";
}

std::string RunOutcome::headline() const
{
    if (passed) {
        return "PASSED";
    }
    std::string text = "FAILED";
    for (std::size_t k = 0; k < reasons.size(); ++k) {
        text += (k == 0 ? ": " : "; ") + reasons[k];
    }
    return text;
}

std::string RunOutcome::checksLine() const
{
    if (kernel != KernelOutcome::Ran) {
        return {};
    }
    std::string text;
    switch (verification) {
    case VerificationOutcome::Passed:
        text = "verification passed";
        break;
    case VerificationOutcome::Failed:
        text = "verification FAILED";
        break;
    case VerificationOutcome::NotConfigured:
        text = "verification not configured";
        break;
    case VerificationOutcome::NotRun:
        text = "verification did not run";
        break;
    }
    if (!checks.empty()) {
        std::size_t failed = 0;
        std::size_t notRun = 0;
        for (const CheckOutcome &check : checks) {
            failed += check.verification == VerificationOutcome::Failed ? 1 : 0;
            notRun += check.verification == VerificationOutcome::NotRun ? 1 : 0;
        }
        const std::string of = " of " + std::to_string(checks.size()) + " checks";
        if (failed == 0 && notRun == 0) {
            text += " (" + std::to_string(checks.size()) + " checks)";
        } else {
            text += " (";
            if (failed > 0) {
                text += std::to_string(failed) + of + " failed";
            }
            if (notRun > 0) {
                text += (failed > 0 ? ", " : "") + std::to_string(notRun) + of + " did not run";
            }
            text += ")";
        }
    }
    text += outOfBoundsElements == 0
                ? std::string("; no out-of-bounds writes")
                : "; out-of-bounds writes FOUND (" + plural(outOfBoundsElements, "element") +
                      " in the guard bands of " + joinNames(outOfBoundsBuffers) + ")";
    text += unwrittenElements == 0
                ? std::string("; every output element written")
                : "; " + plural(unwrittenElements, "output element") + " never written";
    return text;
}

RunOutcome describeRun(const RunResult &result, std::optional<bool> verificationConfigured)
{
    RunOutcome outcome;
    outcome.kernel = kernelOutcomeOf(result.status);
    for (const BufferReport &buffer : result.buffers) {
        std::uint64_t changed = 0;
        for (const GuardViolation &violation : buffer.guardViolations) {
            changed += violation.elements;
        }
        if (!buffer.guardViolations.empty()) {
            outcome.outOfBoundsElements += changed;
            outcome.outOfBoundsBuffers.push_back(buffer.parameter);
        }
        outcome.unwrittenElements += buffer.unwritten;
    }

    const VerificationResult &verification = result.verification;
    const auto outcomeOf = [](const VerificationResult &check) {
        if (!check.ran) {
            return VerificationOutcome::NotRun;
        }
        return check.passed ? VerificationOutcome::Passed : VerificationOutcome::Failed;
    };
    if (result.checks.size() > 1) {
        // Several: failed when any failed, else not run when any did not run.
        bool failed = false;
        bool notRun = false;
        for (const VerificationResult &check : result.checks) {
            const VerificationOutcome each = outcomeOf(check);
            outcome.checks.push_back({check.output, check.label, each});
            failed = failed || each == VerificationOutcome::Failed;
            notRun = notRun || each == VerificationOutcome::NotRun;
        }
        outcome.verification = failed   ? VerificationOutcome::Failed
                               : notRun ? VerificationOutcome::NotRun
                                        : VerificationOutcome::Passed;
    } else if (verification.ran) {
        outcome.verification =
            verification.passed ? VerificationOutcome::Passed : VerificationOutcome::Failed;
    } else if (verificationConfigured.value_or(outcome.kernel != KernelOutcome::Ran)) {
        outcome.verification = VerificationOutcome::NotRun;
    } else {
        outcome.verification = VerificationOutcome::NotConfigured;
    }

    if (outcome.kernel != KernelOutcome::Ran) {
        outcome.reasons.push_back(kernelReason(result, outcome.kernel));
        return outcome;
    }
    if (!outcome.outOfBoundsBuffers.empty()) {
        std::string reason = "out-of-bounds writes: ";
        bool first = true;
        for (const BufferReport &buffer : result.buffers) {
            for (const GuardViolation &violation : buffer.guardViolations) {
                reason += (first ? "" : ", ") + violation.message;
                first = false;
            }
        }
        outcome.reasons.push_back(reason);
    }
    const auto addReason = [&](VerificationOutcome each, const VerificationResult &check) {
        const std::string message = firstLine(check.message);
        if (each == VerificationOutcome::Failed) {
            outcome.reasons.push_back(message.empty() ? "verification failed"
                                                      : "verification failed: " + message);
        } else if (each == VerificationOutcome::NotRun) {
            outcome.reasons.push_back(message.empty() ? "verification did not run"
                                                      : "verification did not run: " + message);
        }
    };
    if (!outcome.checks.empty()) {
        // One reason for each check that did not pass, in the project's order.
        for (std::size_t k = 0; k < outcome.checks.size(); ++k) {
            addReason(outcome.checks[k].verification, result.checks[k]);
        }
    } else {
        addReason(outcome.verification, verification);
    }
    outcome.passed = outcome.reasons.empty();
    return outcome;
}

} // namespace cuwb
