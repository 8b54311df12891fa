#include "run/elementkernel.h"

#include "compiler/compileresult.h"
#include "compiler/kernellookup.h"
#include "run/devicefaults.h"
#include "run/elementsource.h"
#include "run/runnerstate.h"
#include "run/runtext.h"

#include <algorithm>
#include <vector>

namespace cuwb {

std::string runElementKernel(RunnerState &runner, Prepared &prepared, const ElementKernel &job,
                             std::unique_ptr<Module> &module, std::string &phase)
{
    const DeviceInfo &device = runner.device;
    phase = std::string("compiling the ") + job.label;
    CompileOptions options;
    options.arch = device.arch();
    options.lineInfo = false;
    // The workbench's own kernel, not the user's: NVRTC builds it in a tenth of nvcc's time.
    options.compiler = "nvrtc";
    ElementSource source =
        elementSource(job.expression, job.label, job.condition, job.outputType, prepared.resolved,
                      moduleVariables(prepared.compiled.ptx, prepared.source));
    if (!source.problem.empty()) {
        return std::string("the ") + job.label + " cannot be made: " + source.problem;
    }
    // The launch's numbers as parameters: one compile serves every point of a sweep. An
    // expression that needs them as constant expressions gets constexpr constants.
    CompileResult compiled =
        runner.compiler.compile(source.withParameters, "reference.cu", options);
    if (!compiled.success) {
        compiled = runner.compiler.compile(source.withConstants, "reference.cu", options);
        if (compiled.success) {
            source.values.clear();
        }
    }
    if (!compiled.success) {
        return std::string("the ") + job.label + " did not compile: " + firstErrors(compiled, 2);
    }
    // The globals' addresses in the launch's own module, as the launch set them.
    std::vector<DevicePointer> globals;
    for (const ElementGlobal &global : source.globals) {
        const std::optional<Module::Global> found = prepared.resources->module->global(global.name);
        if (!found) {
            return std::string("the ") + job.label + " reads `" + global.name +
                   "`, which the driver does not find in the module";
        }
        globals.push_back(found->address);
    }
    module = std::make_unique<Module>(compiled.cubin);
    const Function function = module->function("cuwb_reference");
    std::vector<void *> params;
    DevicePointer target = job.target;
    std::uint64_t n = job.count;
    params.push_back(&target);
    params.push_back(&n);
    for (DevicePointer &p : prepared.pointers) {
        params.push_back(&p);
    }
    for (DevicePointer &p : globals) {
        params.push_back(&p);
    }
    for (ElementValue &v : source.values) {
        params.push_back(v.bytes.data());
    }
    phase = std::string("computing the ") + job.label;
    const unsigned blocks = unsigned(std::clamp<std::uint64_t>(
        (n + 255) / 256, 1, std::uint64_t(std::max(1, device.smCount)) * 8));
    const Stream &gpu = *runner.stream;
    const Event done;
    function.launch({blocks, 1, 1}, {256, 1, 1}, 0, gpu, params.data());
    done.record(gpu);
    waitOrThrow(done, prepared.deadlineSeconds, std::string("the ") + job.label,
                runner.contextLost);
    return {};
}

} // namespace cuwb
