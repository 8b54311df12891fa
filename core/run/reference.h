// Reference: the verification of one run, in two phases around the launch. Before it
// (prepare()), from the buffers' initial contents: the output to check, the elements that count
// (the spec's `count`) and those its mask selects, and the reference itself: an element-wise
// expression compiled into a kernel, another kernel of the source run on copies of the buffers,
// a file, or the expected value of an aggregate. After it (check()): the output compared with
// the reference on the GPU, and the first mismatches located by block and thread. A check that
// cannot be made says why in the verdict ("cannot verify: ..."); it never fails the run.
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
    // All five are borrowed until check() has returned. What the reference needs on the GPU
    // goes into the prepared launch's RunResources.
    Reference(RunnerState &runner, Prepared &prepared, const VerificationSpec &verify,
              VerificationResult &verdict, std::string &phase);

    void prepare(); // before the launch
    void check();   // after the launch: writes the verdict

private:
    void findOutput();
    void countElements();
    void applyMask();
    void computeReference();
    void referenceFromExpression(const Allocation &out);
    void referenceFromKernel();
    void expectAggregate();
    void referenceFromFile(const Allocation &out);
    void checkAggregate();
    void checkElements();

    RunnerState &m_runner;
    Prepared &m_prepared;
    const VerificationSpec &m_verify;
    VerificationResult &m_verdict;
    std::string &m_phase;
    int m_outputIndex = -1; // among the buffers; back to -1 when the check cannot be made
    bool m_referenceReady = false;
    std::uint64_t m_checkedElements = 0; // all of the output, or the first `count` of them
    std::uint64_t m_maskedElements = 0;  // of those, the ones the mask selects
    std::optional<double> m_expectedAggregate;
};

} // namespace cuwb
