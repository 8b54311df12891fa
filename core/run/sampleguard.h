// SampleGuard: what makes a guarded measurement's timings honest (docs/grading.md, "Timings
// that cannot be faked"). A kernel measured many times could do the work once and then coast:
// compute only on its first launch, keep its result in a __device__ global, recognise inputs it
// has seen, stash state in a buffer it was given to read, or return early when the output
// already holds an answer. Before every sample the guard puts the GPU back as the first launch
// found it (every module global restored from a copy taken after preparation, every input
// rewritten from its initial contents, every output poisoned again), and after the sample it
// verifies the output with the project's own checks, against references computed once from the
// initial contents. All of it is queued on the run's stream outside the timed span, before a
// cold sample's L2 flush. The kernel has no memory of an earlier launch, so every timed launch
// must do all the work and is checked for it.
#pragma once

#include "cuda/devicememory.h"
#include "run/preparedlaunch.h"
#include "run/reference.h"
#include "run/verification.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

struct RunRequest;
struct RunnerState;

class SampleGuard
{
public:
    // After prepareLaunch(), before any launch: the references from the initial contents and
    // the copies to restore from. Throws RunFailure (OutOfMemory) when the copies do not fit.
    SampleGuard(RunnerState &runner, Prepared &prepared, const RunRequest &request,
                std::string &phase);
    ~SampleGuard(); // leaks its copies after an overrun, as RunResources does
    SampleGuard(const SampleGuard &) = delete;
    SampleGuard &operator=(const SampleGuard &) = delete;

    // Before a sample: the globals, the inputs and the poisoned outputs, as the first launch
    // found them.
    void restore();
    // After a sample has completed: the checks' combined verdict when it failed, else nullopt.
    [[nodiscard]] std::optional<std::string> wrongOutput();
    [[nodiscard]] bool verifies() const { return !m_references.empty(); }

private:
    struct Saved
    {
        DevicePointer address = 0;
        std::uint64_t bytes = 0;
        DeviceBuffer copy;
    };

    void saveInputs();
    void saveGlobals();

    RunnerState &m_runner;
    Prepared &m_prepared;
    std::string &m_phase;
    std::vector<VerificationResult> m_verdicts; // one per check; the references write them
    std::vector<Reference> m_references;
    std::vector<Saved> m_inputs;
    std::vector<Saved> m_globals;
};

} // namespace cuwb
