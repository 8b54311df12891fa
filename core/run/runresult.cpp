#include "run/runresult.h"

#include <algorithm>

namespace cuwb {

const char *runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Succeeded:
        return "succeeded";
    case RunStatus::InvalidLaunch:
        return "invalid-launch";
    case RunStatus::CompileFailed:
        return "compile-failed";
    case RunStatus::Fault:
        return "fault";
    case RunStatus::OutOfMemory:
        return "out-of-memory";
    case RunStatus::Timeout:
        return "timeout";
    case RunStatus::WorkerCrashed:
        return "worker-crashed";
    case RunStatus::NoDevice:
        return "no-device";
    }
    return "unknown";
}

bool RunResult::passed() const
{
    if (status != RunStatus::Succeeded) {
        return false;
    }
    const bool guardsIntact = std::all_of(buffers.begin(), buffers.end(), [](const auto &buffer) {
        return buffer.guardViolations.empty();
    });
    // A verification that did not run was not asked for; the runner sets ran (and a message)
    // whenever one was asked for, even when the reference could not be computed.
    return guardsIntact && (!verification.ran || verification.passed);
}

} // namespace cuwb
