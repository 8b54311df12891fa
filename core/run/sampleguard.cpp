#include "run/sampleguard.h"

#include "compiler/kernellookup.h"
#include "cuda/apierror.h"
#include "run/devicefaults.h"
#include "run/gpuhelpers.h"
#include "run/runnerstate.h"
#include "run/runrequest.h"
#include "run/runtext.h"

namespace cuwb {

SampleGuard::SampleGuard(RunnerState &runner, Prepared &prepared, const RunRequest &request,
                         std::string &phase)
    : m_runner(runner)
    , m_prepared(prepared)
    , m_phase(phase)
{
    // The references first, from the initial contents, exactly as a run computes them.
    const std::vector<VerificationSpec> &checks = request.verification.checks;
    prepared.resources->checks.resize(checks.size());
    m_verdicts.resize(checks.size());
    m_references.reserve(checks.size());
    for (std::size_t k = 0; k < checks.size(); ++k) {
        m_references.emplace_back(runner, prepared, checks[k], prepared.resources->checks[k],
                                  m_verdicts[k], phase);
        m_references.back().prepare();
    }
    for (std::size_t k = 0; k < checks.size(); ++k) {
        if (!m_verdicts[k].message.empty()) { // "cannot verify: ..." before any launch
            throw RunFailure{RunStatus::InvalidLaunch,
                             "a guarded measurement verifies every sample, and " +
                                 m_verdicts[k].message};
        }
    }
    saveInputs();
    saveGlobals();
    runner.stream->synchronize();
}

SampleGuard::~SampleGuard()
{
    if (m_runner.contextLost) { // cuMemFree would wait for the kernel that overran
        for (std::vector<Saved> *saved : {&m_inputs, &m_globals}) {
            for (Saved &s : *saved) {
                s.copy.abandon();
            }
        }
    }
}

// Every buffer a kernel reads (role in or inout), as it is before the first launch. A buffer
// declared `in` is no promise: a kernel can write it, to keep state for its next launch.
void SampleGuard::saveInputs()
{
    for (const Allocation &a : m_prepared.resources->buffers) {
        if (a.role == BufferRole::Out || a.bytes == 0) {
            continue;
        }
        m_phase = "keeping the initial contents of `" + a.parameter + "` (" + formatBytes(a.bytes) +
                  ") to restore before every sample";
        Saved saved{a.data(), a.bytes, {}};
        try {
            saved.copy = DeviceBuffer(a.bytes);
        } catch (const ApiError &error) {
            if (error.status() == "CUDA_ERROR_OUT_OF_MEMORY") {
                throw RunFailure{RunStatus::OutOfMemory,
                                 "a guarded measurement keeps a copy of every input to restore "
                                 "before each sample, and the GPU has not enough free memory "
                                 "for the copy of `" +
                                     a.parameter + "` (" + formatBytes(a.bytes) + "; " +
                                     formatBytes(deviceMemoryInfo().freeBytes) + " free)"};
            }
            throw;
        }
        copyDeviceToDevice(saved.copy.pointer(), a.data(), a.bytes, *m_runner.stream);
        m_inputs.push_back(std::move(saved));
    }
}

// Every __device__ and __constant__ variable of the module, the ones the project never names
// included: a kernel's own `__device__ bool done` is what a first-launch-only kernel keeps.
void SampleGuard::saveGlobals()
{
    const Module &module = *m_prepared.resources->module;
    for (const ModuleVariable &variable :
         moduleVariables(m_prepared.compiled.ptx, m_prepared.source)) {
        const std::optional<Module::Global> global = module.global(variable.name);
        if (!global || global->bytes == 0) {
            continue;
        }
        m_phase = "keeping the initial value of the global `" + variable.name + "`";
        Saved saved{global->address, global->bytes, DeviceBuffer(global->bytes)};
        copyDeviceToDevice(saved.copy.pointer(), saved.address, saved.bytes, *m_runner.stream);
        m_globals.push_back(std::move(saved));
    }
}

void SampleGuard::restore()
{
    m_phase = "restoring the globals, inputs and outputs before a sample";
    const Stream &gpu = *m_runner.stream;
    for (const std::vector<Saved> *saved : {&m_globals, &m_inputs}) {
        for (const Saved &s : *saved) {
            copyDeviceToDevice(s.address, s.copy.pointer(), s.bytes, gpu);
        }
    }
    for (const Allocation &a : m_prepared.resources->buffers) {
        if (a.role == BufferRole::Out) {
            m_runner.gpuHelpers().pattern(a.data(), a.bytes, poisonPattern(a.type.scalar), gpu);
        }
    }
}

std::optional<std::string> SampleGuard::wrongOutput()
{
    if (m_references.empty()) {
        return std::nullopt;
    }
    m_phase = "verifying a sample's output";
    for (Reference &reference : m_references) {
        reference.check(Reference::Keep::Reference);
    }
    const VerificationResult combined = combineChecks(m_verdicts);
    if (combined.passed) {
        return std::nullopt;
    }
    return combined.message;
}

} // namespace cuwb
