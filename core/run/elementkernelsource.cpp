#include "run/elementkernelsource.h"

#include "run/hostelements.h"
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

} // namespace

std::vector<ElementKernelValue> elementKernelValues(const ResolvedLaunch &resolved)
{
    std::vector<ElementKernelValue> values;
    std::vector<std::string> taken{"i"};
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        taken.push_back(buffer.parameter);
    }
    for (const ResolvedScalar &scalar : resolved.scalars) {
        if (!isIdentifier(scalar.parameter)) {
            continue;
        }
        ElementKernelValue v{scalar.parameter, cudaTypeName(scalar.elementType), scalar.value,
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
        ElementKernelValue v{name, "double", value, std::vector<unsigned char>(8)};
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

std::string elementKernelSource(const ElementKernelJob &job, const ResolvedLaunch &resolved,
                                const std::vector<ElementKernelValue> &values, bool asParameters)
{
    std::string constants;
    std::string valueParameters;
    for (const ElementKernelValue &v : values) {
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
    const std::string open = job.condition ? "        cuwb_out[i] = ("
                                           : "        cuwb_out[i] = (" + job.outputType + ")(";
    const std::string close = job.condition ? "\n        ) ? 1 : 0;\n" : "\n        );\n";
    return "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" + constants +
           "extern \"C\" __global__ void cuwb_reference(" + job.outputType +
           " *__restrict__ cuwb_out, unsigned long long cuwb_n" + parameters + valueParameters +
           ")\n{\n"
           "    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + "
           "threadIdx.x; i < cuwb_n;\n         i += (unsigned long long)gridDim.x * blockDim.x) "
           "{\n" +
           open + "\n#line 1 \"" + job.label + "\"\n" + job.expression + close + "    }\n}\n";
}

ElementKernelCompile compileElementKernel(const ElementKernelJob &job,
                                          const ResolvedLaunch &resolved, const std::string &arch,
                                          const CompileFunction &compile)
{
    CompileOptions options;
    options.arch = arch;
    options.lineInfo = false;
    ElementKernelCompile out;
    out.parameters = elementKernelValues(resolved);
    out.compiled =
        compile(elementKernelSource(job, resolved, out.parameters, true), "reference.cu", options);
    if (!out.compiled.success) {
        out.compiled = compile(elementKernelSource(job, resolved, out.parameters, false),
                               "reference.cu", options);
        if (out.compiled.success) {
            out.parameters.clear();
        }
    }
    if (!out.compiled.success) {
        out.error = "the " + job.label + " did not compile: " + firstErrors(out.compiled, 2);
    }
    return out;
}

} // namespace cuwb
