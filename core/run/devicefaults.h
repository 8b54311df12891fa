// DeviceFaults: how trouble on the GPU becomes the failure of a run, a measurement or a metrics
// pass. RunFailure is the status and plain sentence the runner reports; classifyApiError() turns
// a failed CUDA call into one through the table of the errors a kernel can cause, and says
// whether the context is lost (the worker then exits after answering); waitOrThrow() turns a
// launch that runs past its deadline into a Timeout.
#pragma once

#include "cuda/apierror.h"
#include "cuda/devicememory.h"
#include "run/runresult.h"

#include <string>

namespace cuwb {

// A failure of the user's work found on the way; becomes the run's status and message.
struct RunFailure
{
    RunStatus status;
    std::string message;
};

// The status and message of a CUDA call that failed while `phase` ("running the user's
// kernel", "allocating `a` ..."); sets `contextLost` when the error leaves the context unusable:
// a sticky fault, or one the table does not know.
RunFailure classifyApiError(const ApiError &error, const std::string &phase, bool &contextLost);

// Waits for `done`, yielding then sleeping, and throws a Timeout RunFailure ("`what` ran past
// the 10 s deadline") once `deadlineSeconds` have passed. On overrun the context is marked lost
// before the throw, so that the unwinding leaks the run's resources instead of freeing them
// (which would wait for the kernel forever). `expectedSeconds`, when the wait's length is known
// (a sample after the warm-up), keeps yielding until a quarter past it: a sleep costs at least
// the kernel's timer slack, and a measurement's samples would each pay it.
void waitOrThrow(const Event &done, double deadlineSeconds, const std::string &what,
                 bool &contextLost, double expectedSeconds = 0.0);

} // namespace cuwb
