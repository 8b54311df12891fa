#include "run/elementkernel.h"

#include "compiler/compileresult.h"
#include "run/devicefaults.h"
#include "run/hostelements.h"
#include "run/runnerstate.h"
#include "run/runtext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cuwb {

namespace {

bool isIdentifier(const std::string &name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

std::string literal(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", value);
    std::string s = text;
    if (s.find_first_of(".eEn") == std::string::npos) {
        s += ".0";
    }
    return s;
}

// The reference kernel for an Expression verification: out[i] = (T)(EXPR), with every buffer
// bound by name (read-only), every scalar argument and variable as a constant.
// One number the verification expression may use: a scalar argument or a launch name.
struct ReferenceValue
{
    std::string name;
    std::string type; // the scalar's own type (float for half types), "long long" or "double"
    double value = 0.0;
    std::vector<unsigned char> bytes; // the value as `type`, for a kernel parameter
};

std::vector<ReferenceValue> referenceValues(const ResolvedLaunch &resolved)
{
    std::vector<ReferenceValue> values;
    std::vector<std::string> taken{"i"};
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        taken.push_back(buffer.parameter);
    }
    for (const ResolvedScalar &scalar : resolved.scalars) {
        if (!isIdentifier(scalar.parameter)) {
            continue;
        }
        ReferenceValue v{scalar.parameter, cudaTypeName(scalar.elementType), scalar.value,
                         scalar.bytes};
        const ScalarKind kind = scalar.elementType.scalar;
        if (kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16) {
            const float asFloat = float(scalar.value);
            v.type = "float";
            v.bytes.assign(sizeof asFloat, 0);
            std::memcpy(v.bytes.data(), &asFloat, sizeof asFloat);
        }
        values.push_back(v);
        taken.push_back(scalar.parameter);
    }
    for (const auto &[name, value] : resolved.variables) {
        if (!isIdentifier(name) || std::find(taken.begin(), taken.end(), name) != taken.end()) {
            continue;
        }
        ReferenceValue v{name, "double", value, std::vector<unsigned char>(8)};
        if (value == std::floor(value) && std::fabs(value) < 9.0e18) {
            v.type = "long long";
            const long long whole = static_cast<long long>(value);
            std::memcpy(v.bytes.data(), &whole, sizeof whole);
        } else {
            std::memcpy(v.bytes.data(), &value, sizeof value);
        }
        values.push_back(v);
    }
    return values;
}

// The element-wise kernel of a verification expression: out[i] = (T)(EXPR), or for a
// condition (a mask) out[i] = EXPR ? 1 : 0, with every buffer bound by name (read-only). With
// `asParameters`, the launch's numbers are kernel parameters, so the source (and its compile)
// is the same for every configuration of a sweep; without, they are constexpr constants, for
// expressions that need constant expressions.
std::string elementKernelSource(const std::string &expression, const char *label, bool condition,
                                const ResolvedLaunch &resolved, const std::string &outputType,
                                const std::vector<ReferenceValue> &values, bool asParameters)
{
    std::string constants;
    std::string valueParameters;
    for (const ReferenceValue &v : values) {
        if (asParameters) {
            valueParameters += ", const " + v.type + " " + v.name;
        } else if (v.type == "long long") {
            constants += "constexpr long long " + v.name + " = " +
                         std::to_string(static_cast<long long>(v.value)) + "LL;\n";
        } else {
            constants += "constexpr " + v.type + " " + v.name + " = static_cast<" + v.type + ">(" +
                         literal(v.value) + ");\n";
        }
    }
    std::string parameters;
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        parameters +=
            ", const " + cudaTypeName(buffer.elementType) + " *__restrict__ " + buffer.parameter;
    }
    const std::string open =
        condition ? "        cuwb_out[i] = (" : "        cuwb_out[i] = (" + outputType + ")(";
    const std::string close = condition ? "\n        ) ? 1 : 0;\n" : "\n        );\n";
    return "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" + constants +
           "extern \"C\" __global__ void cuwb_reference(" + outputType +
           " *__restrict__ cuwb_out, unsigned long long cuwb_n" + parameters + valueParameters +
           ")\n{\n"
           "    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + "
           "threadIdx.x; i < cuwb_n;\n         i += (unsigned long long)gridDim.x * blockDim.x) "
           "{\n" +
           open + "\n#line 1 \"" + label + "\"\n" + expression + close + "    }\n}\n";
}

} // namespace

std::string runElementKernel(RunnerState &runner, Prepared &prepared, const ElementKernel &job,
                             std::unique_ptr<Module> &module, std::string &phase)
{
    const DeviceInfo &device = runner.device;
    phase = std::string("compiling the ") + job.label;
    CompileOptions options;
    options.arch = device.arch();
    options.lineInfo = false;
    // The launch's numbers as parameters: one compile serves every point of a sweep. An
    // expression that needs them as constant expressions gets constexpr constants.
    std::vector<ReferenceValue> values = referenceValues(prepared.resolved);
    const auto source = [&](bool asParameters) {
        return elementKernelSource(job.expression, job.label, job.condition, prepared.resolved,
                                   job.outputType, values, asParameters);
    };
    CompileResult compiled = runner.compiler.compile(source(true), "reference.cu", options);
    if (!compiled.success) {
        compiled = runner.compiler.compile(source(false), "reference.cu", options);
        if (compiled.success) {
            values.clear();
        }
    }
    if (!compiled.success) {
        return std::string("the ") + job.label + " did not compile: " + firstErrors(compiled, 2);
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
    for (ReferenceValue &v : values) {
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
