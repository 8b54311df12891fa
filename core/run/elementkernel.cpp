#include "run/elementkernel.h"

#include "compiler/compileresult.h"
#include "run/devicefaults.h"
#include "run/elementkernelsource.h"
#include "run/hostelements.h"
#include "run/runnerstate.h"
#include "run/runtext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cuwb {

std::string runElementKernel(RunnerState &runner, Prepared &prepared, const ElementKernel &job,
                             std::unique_ptr<Module> &module, std::string &phase)
{
    const DeviceInfo &device = runner.device;
    phase = std::string("compiling the ") + job.label;
    ElementKernelCompile built =
        compileElementKernel({job.expression, job.label, job.condition, job.outputType},
                             prepared.resolved, device.arch(),
                             [&runner](std::string_view source, std::string_view fileName,
                                       const CompileOptions &options) {
                                 return runner.compiler.compile(source, fileName, options);
                             });
    if (!built.error.empty()) {
        return built.error;
    }
    std::vector<ElementKernelValue> &values = built.parameters;
    module = std::make_unique<Module>(built.compiled.cubin);
    const Function function = module->function("cuwb_reference");
    std::vector<void *> params;
    DevicePointer target = job.target;
    std::uint64_t n = job.count;
    params.push_back(&target);
    params.push_back(&n);
    for (DevicePointer &p : prepared.pointers) {
        params.push_back(&p);
    }
    for (ElementKernelValue &v : values) {
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
