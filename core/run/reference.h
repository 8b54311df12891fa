// Reference: one check of a run's verification, in two phases around the launch. Before it
// (prepare()), from the buffers' initial contents: the output to check (a buffer, or a module
// global as the launch will leave it), the elements that count (the spec's `count`) and those
// its mask selects, and the reference itself: an element-wise expression compiled into a
// kernel, another kernel of the source run on copies of the buffers, a file, or the expected
// value of an aggregate. After the launch's last kernel (check()): the output compared with the
// reference on the GPU, the largest absolute and relative errors, and the first mismatches
// located by block and thread. A check that cannot be made says why in the verdict ("cannot
// verify: ..."); it never fails the run. A run makes one Reference per check, in order.
#pragma once

#include "cuda/devicememory.h"
#include "cuda/driverwrappers.h"
#include "run/preparedlaunch.h"
#include "run/verification.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace cuwb {

struct RunnerState;

class Reference
{
public:
    // All are borrowed until check() has returned. What the reference needs on the GPU goes
    // into `resources` (one of the prepared launch's RunResources::checks).
    Reference(RunnerState &runner, Prepared &prepared, const VerificationSpec &verify,
              CheckResources &resources, VerificationResult &verdict, std::string &phase);

    // What check() keeps: nothing (a run checks once), or the reference, for a guarded
    // measurement that checks every sample against it (run/sampleguard.h).
    enum class Keep { Nothing, Reference };

    void prepare();                        // before the launch
    void check(Keep keep = Keep::Nothing); // after the launch's last kernel: writes the verdict

private:
    // What the check compares: a buffer of the launch or a module global.
    struct Output
    {
        std::string name;
        ElementType type;
        std::uint64_t count = 0;
        std::uint64_t bytes = 0;
        DevicePointer data = 0;
        int bufferIndex = -1; // among the buffers; -1 for a global
    };

    void findOutput();
    bool findGlobal();
    void countElements();
    void applyMask();
    void computeReference();
    void referenceFromExpression();
    void referenceFromKernel();
    void expectAggregate();
    void referenceFromFile();
    void checkAggregate();
    void checkElements();
    void cannotVerify(std::string why);

    RunnerState &m_runner;
    Prepared &m_prepared;
    const VerificationSpec &m_verify;
    CheckResources &m_resources;
    VerificationResult &m_verdict;
    std::string &m_phase;
    std::optional<Output> m_out; // reset when the check cannot be made
    bool m_referenceReady = false;
    std::uint64_t m_checkedElements = 0; // all of the output, or the first `count` of them
    std::uint64_t m_maskedElements = 0;  // of those, the ones the mask selects
    std::optional<double> m_expectedAggregate;
};

} // namespace cuwb
