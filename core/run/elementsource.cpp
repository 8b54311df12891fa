#include "run/elementsource.h"

#include "kernel/elementtype.h"
#include "run/hostelements.h"

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

bool contains(const std::vector<std::string> &names, const std::string &name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

std::vector<std::string> expressionIdentifiers(std::string_view expression)
{
    std::vector<std::string> names;
    for (std::size_t k = 0; k < expression.size();) {
        const char c = expression[k];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            // A number, with its suffixes and exponent (1e5f, 0x1Fu): no names inside.
            while (k < expression.size() &&
                   (std::isalnum(static_cast<unsigned char>(expression[k])) ||
                    expression[k] == '.' || expression[k] == '_')) {
                ++k;
            }
            continue;
        }
        if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
            ++k;
            continue;
        }
        std::size_t end = k;
        while (
            end < expression.size() &&
            (std::isalnum(static_cast<unsigned char>(expression[end])) || expression[end] == '_'))
            ++end;
        std::size_t before = k;
        while (before > 0 && std::isspace(static_cast<unsigned char>(expression[before - 1])))
            --before;
        const bool member =
            before > 0 &&
            (expression[before - 1] == '.' ||
             (before > 1 && expression[before - 1] == '>' && expression[before - 2] == '-'));
        std::string name(expression.substr(k, end - k));
        if (!member && !contains(names, name)) {
            names.push_back(std::move(name));
        }
        k = end;
    }
    return names;
}

ElementSource elementSource(std::string_view expression, const char *label, bool condition,
                            const std::string &outputType, const ResolvedLaunch &resolved,
                            const std::vector<ModuleVariable> &variables)
{
    ElementSource out;
    std::vector<std::string> taken{"i", "cuwb_out", "cuwb_n"};
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        taken.push_back(buffer.parameter);
    }
    // The globals the expression names, with the type the project sets them with, else the
    // type the source declares them with.
    const std::vector<std::string> named = expressionIdentifiers(expression);
    for (const ModuleVariable &variable : variables) {
        if (!contains(named, variable.name) || contains(taken, variable.name) ||
            !isIdentifier(variable.name)) {
            continue;
        }
        std::optional<ElementType> type;
        const auto set =
            std::find_if(resolved.globals.begin(), resolved.globals.end(),
                         [&](const ResolvedBuffer &g) { return g.parameter == variable.name; });
        if (set != resolved.globals.end()) {
            type = set->elementType;
        } else {
            type = parseElementType(variable.type);
        }
        const char *what = variable.constant ? "__constant__" : "__device__";
        if (!type || type->sizeBytes() == 0 || variable.bytes % type->sizeBytes() != 0) {
            out.problem =
                "`" + variable.name + "` is a " + what + " of type " +
                (variable.type.empty() ? std::string("unknown to CUDA Workbench") : variable.type) +
                ", which a verification expression cannot read (only globals of an "
                "element type such as float or int4, or arrays of one)";
            return out;
        }
        out.globals.push_back(
            {variable.name, cudaTypeName(*type), variable.bytes / type->sizeBytes()});
        taken.push_back(variable.name);
    }
    for (const ResolvedScalar &scalar : resolved.scalars) {
        if (!isIdentifier(scalar.parameter) || contains(taken, scalar.parameter)) {
            continue;
        }
        ElementValue v{scalar.parameter, cudaTypeName(scalar.elementType), scalar.value,
                       scalar.bytes};
        const ScalarKind kind = scalar.elementType.scalar;
        if (kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16) {
            const float asFloat = float(scalar.value);
            v.type = "float";
            v.bytes.assign(sizeof asFloat, 0);
            std::memcpy(v.bytes.data(), &asFloat, sizeof asFloat);
        }
        out.values.push_back(v);
        taken.push_back(scalar.parameter);
    }
    for (const auto &[name, value] : resolved.variables) {
        if (!isIdentifier(name) || contains(taken, name)) {
            continue;
        }
        ElementValue v{name, "double", value, std::vector<unsigned char>(8)};
        if (value == std::floor(value) && std::fabs(value) < 9.0e18) {
            v.type = "long long";
            const long long whole = static_cast<long long>(value);
            std::memcpy(v.bytes.data(), &whole, sizeof whole);
        } else {
            std::memcpy(v.bytes.data(), &value, sizeof value);
        }
        out.values.push_back(v);
    }

    std::string parameters;
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        parameters +=
            ", const " + cudaTypeName(buffer.elementType) + " *__restrict__ " + buffer.parameter;
    }
    std::string bindings;
    for (const ElementGlobal &global : out.globals) {
        parameters += ", const " + global.type + " *__restrict__ cuwb_global_" + global.name;
        bindings += global.count == 1 ? "    const " + global.type + " &" + global.name +
                                            " = *cuwb_global_" + global.name + ";\n"
                                      : "    const " + global.type + " *const " + global.name +
                                            " = cuwb_global_" + global.name + ";\n";
    }
    const std::string open =
        condition ? "        cuwb_out[i] = (" : "        cuwb_out[i] = (" + outputType + ")(";
    const std::string close = condition ? "\n        ) ? 1 : 0;\n" : "\n        );\n";
    const std::string body = bindings +
                             "    for (unsigned long long i = blockIdx.x * (unsigned long "
                             "long)blockDim.x + threadIdx.x; i < cuwb_n;\n         i += "
                             "(unsigned long long)gridDim.x * blockDim.x) {\n" +
                             open + "\n#line 1 \"" + label + "\"\n" + std::string(expression) +
                             close + "    }\n}\n";
    const std::string head = "extern \"C\" __global__ void cuwb_reference(" + outputType +
                             " *__restrict__ cuwb_out, unsigned long long cuwb_n" + parameters;
    const std::string includes = "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";

    std::string valueParameters;
    std::string constants;
    for (const ElementValue &v : out.values) {
        valueParameters += ", const " + v.type + " " + v.name;
        if (v.type == "long long") {
            constants += "constexpr long long " + v.name + " = " +
                         std::to_string(static_cast<long long>(v.value)) + "LL;\n";
        } else {
            constants += "constexpr " + v.type + " " + v.name + " = static_cast<" + v.type + ">(" +
                         literal(v.value) + ");\n";
        }
    }
    out.withParameters = includes + head + valueParameters + ")\n{\n" + body;
    out.withConstants = includes + constants + head + ")\n{\n" + body;
    return out;
}

} // namespace cuwb
