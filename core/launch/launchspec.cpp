#include "launch/launchspec.h"

#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace cuwb {

const char *roleName(BufferRole role)
{
    switch (role) {
    case BufferRole::In:
        return "in";
    case BufferRole::Out:
        return "out";
    case BufferRole::InOut:
        return "inout";
    }
    return "?";
}

const char *initKindName(InitKind kind)
{
    switch (kind) {
    case InitKind::Zeros:
        return "zeros";
    case InitKind::Constant:
        return "constant";
    case InitKind::Range:
        return "range";
    case InitKind::Uniform:
        return "uniform";
    case InitKind::Normal:
        return "normal";
    case InitKind::File:
        return "file";
    case InitKind::CopyOf:
        return "copy";
    }
    return "?";
}

namespace {

std::string lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// Scalars that conventionally carry the problem size get N by default.
bool isSizeName(const std::string &name)
{
    static const char *const kSizeNames[] = {
        "n",     "count",  "size",     "len",          "length",     "num",   "numelements",
        "nelem", "nelems", "elements", "num_elements", "n_elements", "numel", "total"};
    const std::string lower = lowercase(name);
    return std::any_of(std::begin(kSizeNames), std::end(kSizeNames),
                       [&](const char *candidate) { return lower == candidate; });
}

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

} // namespace

std::string formatNumber(double value)
{
    char text[64];
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 1e19) {
        std::snprintf(text, sizeof text, "%.0f", value);
    } else {
        std::snprintf(text, sizeof text, "%.9g", value);
    }
    return text;
}

LaunchSpec defaultLaunchSpec(const KernelSignature &signature)
{
    LaunchSpec spec;
    spec.kernel = signature.kernelName;
    spec.variables = {{"N", "1 << 20"}};
    std::uint64_t seed = 1;
    for (const KernelParameter &parameter : signature.parameters) {
        ArgumentSpec argument;
        argument.parameter = parameter.name;
        argument.isBuffer = parameter.isPointer;
        argument.elementType = parameter.elementType;
        if (parameter.isPointer) {
            argument.count = "N";
            argument.role = parameter.isConst ? BufferRole::In : BufferRole::Out;
            if (argument.role == BufferRole::In) {
                if (parameter.elementType.isFloating()) {
                    argument.init.kind = InitKind::Uniform;
                    argument.init.seed = seed++;
                } else {
                    argument.init.kind = InitKind::Range;
                }
            }
        } else {
            argument.value = isSizeName(parameter.name) ? "N" : "1";
        }
        spec.arguments.push_back(argument);
    }
    return spec;
}

std::uint64_t ResolvedLaunch::totalBufferBytes() const
{
    std::uint64_t total = 0;
    for (const ResolvedBuffer &buffer : buffers) {
        if (buffer.bytes > std::numeric_limits<std::uint64_t>::max() - total)
            return std::numeric_limits<std::uint64_t>::max();
        total += buffer.bytes;
    }
    return total;
}

namespace {

std::uint16_t floatToHalfBits(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const int biased = int((bits >> 23) & 0xffu);
    std::uint32_t mantissa = bits & 0x7fffffu;
    if (biased == 0xff) // Inf, NaN
        return std::uint16_t(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
    const int exponent = biased - 127 + 15;
    if (exponent >= 31)
        return std::uint16_t(sign | 0x7c00u);
    if (exponent <= 0) {
        if (exponent < -10)
            return std::uint16_t(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - exponent;
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
        const std::uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u)))
            ++half;
        return std::uint16_t(sign | half);
    }
    std::uint32_t half = sign | (std::uint32_t(exponent) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
        ++half; // a carry into the exponent is the right rounding
    return std::uint16_t(half);
}

std::uint16_t floatToBFloat16Bits(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    if (std::isnan(value))
        return std::uint16_t(((bits >> 16) & 0x8000u) | 0x7fc0u);
    bits += 0x7fffu + ((bits >> 16) & 1u); // round to nearest even
    return std::uint16_t(bits >> 16);
}

template <typename T> void appendBytes(std::vector<unsigned char> &bytes, T value)
{
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

struct Range
{
    double min;
    double max;
};

Range rangeOf(ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Bool:
        return {0, 1};
    case ScalarKind::Int8:
        return {-128, 127};
    case ScalarKind::UInt8:
        return {0, 255};
    case ScalarKind::Int16:
        return {-32768, 32767};
    case ScalarKind::UInt16:
        return {0, 65535};
    case ScalarKind::Int32:
        return {-2147483648.0, 2147483647.0};
    case ScalarKind::UInt32:
        return {0, 4294967295.0};
    case ScalarKind::Int64:
        return {-9223372036854775808.0, 9223372036854775807.0};
    case ScalarKind::UInt64:
        return {0, 18446744073709551615.0};
    case ScalarKind::Float16:
        return {-65504.0, 65504.0};
    case ScalarKind::BFloat16:
        return {-3.3895313892515355e38, 3.3895313892515355e38};
    case ScalarKind::Float32:
        return {-double(std::numeric_limits<float>::max()),
                double(std::numeric_limits<float>::max())};
    case ScalarKind::Float64:
        return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
    }
    return {0, 0};
}

std::string limitText(ScalarKind kind, bool below)
{
    // The 64-bit limits are not exact as doubles; print them as C++ knows them.
    if (kind == ScalarKind::Int64)
        return below ? "min -9223372036854775808" : "max 9223372036854775807";
    if (kind == ScalarKind::UInt64)
        return below ? "min 0" : "max 18446744073709551615";
    const Range range = rangeOf(kind);
    return below ? "min " + formatNumber(range.min) : "max " + formatNumber(range.max);
}

void encodeComponent(ScalarKind kind, double value, std::vector<unsigned char> &bytes)
{
    switch (kind) {
    case ScalarKind::Bool:
        bytes.push_back(value != 0.0 ? 1 : 0);
        break;
    case ScalarKind::Int8:
        appendBytes(bytes, std::int8_t(value));
        break;
    case ScalarKind::UInt8:
        appendBytes(bytes, std::uint8_t(value));
        break;
    case ScalarKind::Int16:
        appendBytes(bytes, std::int16_t(value));
        break;
    case ScalarKind::UInt16:
        appendBytes(bytes, std::uint16_t(value));
        break;
    case ScalarKind::Int32:
        appendBytes(bytes, std::int32_t(value));
        break;
    case ScalarKind::UInt32:
        appendBytes(bytes, std::uint32_t(value));
        break;
    case ScalarKind::Int64:
        appendBytes(bytes, std::int64_t(value));
        break;
    case ScalarKind::UInt64:
        appendBytes(bytes, std::uint64_t(value));
        break;
    case ScalarKind::Float16:
        appendBytes(bytes, floatToHalfBits(float(value)));
        break;
    case ScalarKind::BFloat16:
        appendBytes(bytes, floatToBFloat16Bits(float(value)));
        break;
    case ScalarKind::Float32:
        appendBytes(bytes, float(value));
        break;
    case ScalarKind::Float64:
        appendBytes(bytes, value);
        break;
    }
}

} // namespace

std::optional<std::string> encodeScalar(const ElementType &type, double value,
                                        std::vector<unsigned char> &bytes,
                                        const std::string &typeName)
{
    const std::string name = typeName.empty() ? type.name() : typeName;
    if (!std::isfinite(value) && !type.isFloating())
        return "is not a number " + name + " can hold";
    if (type.scalar == ScalarKind::Bool) {
        if (value != 0.0 && value != 1.0)
            return "is not a bool (use 0 or 1)";
    } else if (!type.isFloating()) {
        if (value != std::trunc(value))
            return "is not a whole number, which " + name + " needs";
        const Range range = rangeOf(type.scalar);
        // The upper 64-bit limits round up to 2^63 and 2^64 as doubles: those are outside.
        const bool wide = type.scalar == ScalarKind::Int64 || type.scalar == ScalarKind::UInt64;
        const bool tooLarge = wide ? value >= range.max : value > range.max;
        if (value < range.min || tooLarge)
            return "does not fit in " + name + " (" + limitText(type.scalar, value < range.min) +
                   ")";
    } else if (std::isfinite(value)) {
        const Range range = rangeOf(type.scalar);
        if (value < range.min || value > range.max)
            return "does not fit in " + name + " (" + limitText(type.scalar, value < range.min) +
                   ")";
    }
    bytes.clear();
    // A vector type gets the value in every component. 3-component types are aligned to
    // their component (vector_types.h), so they never need padding.
    for (int lane = 0; lane < std::max(type.lanes, 1); ++lane)
        encodeComponent(type.scalar, value, bytes);
    return std::nullopt;
}

namespace {

class Resolver
{
public:
    Resolver(const LaunchSpec &spec, const KernelSignature &signature,
             const std::vector<std::string> &compileDefines, const DeviceNames &device,
             const std::vector<KernelSignature> &stepSignatures, ResolvedLaunch &out)
        : m_spec(spec)
        , m_signature(signature)
        , m_compileDefines(compileDefines)
        , m_device(device)
        , m_stepSignatures(stepSignatures)
        , m_out(out)
        , m_names(&out.variables)
    {}

    void run()
    {
        if (!m_signature.error.empty()) {
            issue("kernel", m_signature.error);
            return;
        }
        LaunchEnvironment environment =
            evaluateLaunchEnvironment(m_spec, m_compileDefines, m_device);
        m_out.variables = std::move(environment.values);
        // A variable or define that fails would only be repeated as "unknown variable" below.
        bool namesFailed = false;
        for (const LaunchIssue &problem : environment.issues) {
            if (problem.field.find('.') == std::string::npos) {
                m_out.issues.push_back(problem);
                namesFailed = true;
            }
        }
        if (namesFailed)
            return;
        static const char *const kAxes[] = {"x", "y", "z"};
        bool blockOk = true;
        for (const char *prefix : {"block.", "grid."}) {
            if (prefix[0] == 'g' && !blockOk)
                break; // the grid follows the block; its errors would mislead
            for (int axis = 0; axis < 3; ++axis) {
                const std::string field = prefix + std::string(kAxes[axis]);
                const auto problem =
                    std::find_if(environment.issues.begin(), environment.issues.end(),
                                 [&](const LaunchIssue &i) { return i.field == field; });
                const auto value = m_out.variables.find(field);
                if (problem != environment.issues.end() || value == m_out.variables.end()) {
                    if (problem != environment.issues.end())
                        m_out.issues.push_back(*problem);
                    blockOk = blockOk && prefix[0] != 'b';
                    continue;
                }
                const std::string &expression = prefix[0] == 'b' ? m_spec.block[std::size_t(axis)]
                                                                 : m_spec.grid[std::size_t(axis)];
                auto &target = prefix[0] == 'b' ? m_out.block : m_out.grid;
                if (const auto whole = countOf(field, expression, value->second)) {
                    target[std::size_t(axis)] = *whole;
                } else {
                    m_out.variables.erase(value);
                    blockOk = blockOk && prefix[0] != 'b';
                }
            }
        }
        if (const auto value = evaluate("dynamic shared memory", m_spec.dynamicSharedBytes)) {
            if (*value < 0 || *value != std::trunc(*value) || *value >= 18446744073709551615.0) {
                issue("dynamic shared memory",
                      "is " + formatNumber(*value) +
                          "; it must be a whole number of bytes, 0 or more");
            } else {
                m_out.dynamicSharedBytes = std::uint64_t(*value);
            }
        }
        resolveArguments();
        if (!m_spec.then.empty() && m_stepSignatures.size() == m_spec.then.size()) {
            for (std::size_t k = 0; k < m_spec.then.size(); ++k)
                resolveStep(k);
        }
        resolveCopies();
    }

private:
    void issue(std::string field, std::string message, int position = -1)
    {
        m_out.issues.push_back(LaunchIssue{std::move(field), std::move(message), position});
    }

    std::optional<double> evaluate(const std::string &field, const std::string &expression)
    {
        const ExpressionValue value = evaluateExpression(expression, *m_names);
        if (!value.ok()) {
            issue(field, explainExpressionError(*value.error, m_device), value.error->position);
            return std::nullopt;
        }
        return value.value;
    }

    // A positive whole number: block and grid sizes, element counts.
    std::optional<std::uint64_t> count(const std::string &field, const std::string &expression)
    {
        const auto value = evaluate(field, expression);
        if (!value)
            return std::nullopt;
        return countOf(field, expression, *value);
    }

    std::optional<std::uint64_t> countOf(const std::string &field, const std::string &expression,
                                         double value)
    {
        const std::string shown = describe(expression, value);
        if (value != std::trunc(value)) {
            issue(field, shown + "; it must be a whole number");
            return std::nullopt;
        }
        if (value < 1) {
            issue(field, shown + "; it must be at least 1");
            return std::nullopt;
        }
        if (value >= 18446744073709551615.0) {
            issue(field, shown + ", which is too large to count");
            return std::nullopt;
        }
        return std::uint64_t(value);
    }

    // "is 0" or "is N / 2 = 0": the value with the expression when it is not a plain number.
    static std::string describe(const std::string &expression, double value)
    {
        const std::string text = trimmed(expression);
        const std::string number = formatNumber(value);
        if (text == number)
            return "is " + number;
        return "is " + text + " = " + number;
    }

    const ArgumentSpec *argumentFor(const std::string &name) const
    {
        for (const ArgumentSpec &argument : m_spec.arguments) {
            if (argument.parameter == name)
                return &argument;
        }
        return nullptr;
    }

    void resolveArguments()
    {
        for (const KernelParameter &parameter : m_signature.parameters) {
            const std::string field = "argument " + parameter.name;
            const ArgumentSpec *argument = argumentFor(parameter.name);
            if (!parameter.supported) {
                issue(field,
                      parameter.unsupportedReason.empty()
                          ? std::string("this parameter cannot be driven from CUDA Workbench")
                          : parameter.unsupportedReason);
            }
            if (parameter.isPointer) {
                m_out.parameterSlots.push_back(int(m_out.buffers.size()));
                ResolvedBuffer buffer;
                buffer.parameter = parameter.name;
                buffer.elementType = parameter.elementType;
                if (!argument) {
                    issue(field, "no argument is given for this pointer parameter");
                } else if (!argument->isBuffer) {
                    issue(field, "the parameter is a pointer; it needs a buffer, not a value");
                } else if (!argument->buffer.empty()) {
                    issue(field, "the first kernel's buffers are its own; \"buffer\" binds a "
                                 "parameter of a later kernel of the sequence to one of them");
                } else {
                    resolveBuffer(*argument, field, buffer);
                }
                m_declared.push_back(argument && argument->isBuffer && argument->buffer.empty());
                m_out.buffers.push_back(std::move(buffer));
            } else {
                m_out.parameterSlots.push_back(-int(m_out.scalars.size()) - 1);
                m_out.scalars.push_back(scalarFor(argument, parameter, field));
            }
        }
        for (const GlobalSpec &global : m_spec.globals) {
            ArgumentSpec asBuffer;
            asBuffer.parameter = global.name;
            asBuffer.elementType = global.elementType;
            asBuffer.count = global.count;
            asBuffer.role = BufferRole::In;
            asBuffer.init = global.init;
            ResolvedBuffer resolved;
            resolved.parameter = global.name;
            resolveBuffer(asBuffer, "global " + global.name, resolved);
            if (global.init.kind == InitKind::CopyOf)
                issue("global " + global.name + ": init",
                      "a global cannot be a copy of a buffer; use a file or a generated init");
            m_out.globals.push_back(std::move(resolved));
        }
        for (const ArgumentSpec &argument : m_spec.arguments) {
            const bool known =
                std::any_of(m_signature.parameters.begin(), m_signature.parameters.end(),
                            [&](const KernelParameter &p) { return p.name == argument.parameter; });
            if (!known)
                issue("argument " + argument.parameter,
                      "the kernel has no parameter named '" + argument.parameter + "'");
        }
    }

    // Copies refer to other buffers by name; resolved once all are known, those a further
    // kernel of a sequence declares included.
    void resolveCopies()
    {
        for (std::size_t i = 0; i < m_out.buffers.size(); ++i) {
            ResolvedBuffer &buffer = m_out.buffers[i];
            if (!m_declared[i] || buffer.init.kind != InitKind::CopyOf)
                continue;
            const std::string field = "argument " + buffer.parameter + ": init";
            const auto source = std::find_if(
                m_out.buffers.begin(), m_out.buffers.end(),
                [&](const ResolvedBuffer &other) { return other.parameter == buffer.init.copyOf; });
            if (buffer.init.copyOf.empty()) {
                issue(field, "a copy needs the name of the buffer to copy");
            } else if (source == m_out.buffers.end()) {
                issue(field, "there is no buffer named '" + buffer.init.copyOf + "' to copy");
            } else if (std::size_t(source - m_out.buffers.begin()) == i) {
                issue(field, "a buffer cannot be a copy of itself");
            } else if (source->init.kind == InitKind::CopyOf) {
                issue(field, "'" + buffer.init.copyOf + "' is itself a copy; copy its source");
            } else if (source->bytes != buffer.bytes && source->bytes != 0 && buffer.bytes != 0) {
                issue(field, "'" + buffer.init.copyOf + "' has " + std::to_string(source->bytes) +
                                 " bytes and this buffer " + std::to_string(buffer.bytes) +
                                 "; a copy needs the same size");
            } else {
                buffer.copyOfIndex = int(source - m_out.buffers.begin());
            }
        }
    }

    void resolveBuffer(const ArgumentSpec &argument, const std::string &field,
                       ResolvedBuffer &buffer)
    {
        buffer.elementType = argument.elementType;
        buffer.role = argument.role;
        buffer.init = argument.init;
        if (const auto elements = count(field + ": count", argument.count)) {
            buffer.count = *elements;
            const std::uint64_t size = argument.elementType.sizeBytes();
            if (size != 0 && buffer.count > std::numeric_limits<std::uint64_t>::max() / size) {
                issue(field + ": count", std::to_string(buffer.count) + " elements of " +
                                             std::to_string(size) +
                                             " bytes overflow a 64-bit byte count");
            } else {
                buffer.bytes = buffer.count * size;
            }
        }
        const BufferInit &init = argument.init;
        const std::string initField = field + ": init";
        switch (init.kind) {
        case InitKind::Zeros:
        case InitKind::CopyOf:
            break;
        case InitKind::Constant:
            if (const auto value = evaluate(initField + " value", init.value))
                buffer.initA = *value;
            break;
        case InitKind::Range:
            if (const auto value = evaluate(initField + " start", init.start))
                buffer.initA = *value;
            if (const auto value = evaluate(initField + " step", init.step))
                buffer.initB = *value;
            break;
        case InitKind::Uniform: {
            const auto low = evaluate(initField + " low", init.low);
            const auto high = evaluate(initField + " high", init.high);
            if (low && high) {
                buffer.initA = *low;
                buffer.initB = *high;
                if (!(*low < *high))
                    issue(initField, "uniform random needs low < high (low is " +
                                         formatNumber(*low) + ", high " + formatNumber(*high) +
                                         ")");
            }
            break;
        }
        case InitKind::Normal: {
            const auto mean = evaluate(initField + " mean", init.mean);
            const auto stddev = evaluate(initField + " stddev", init.stddev);
            if (mean && stddev) {
                buffer.initA = *mean;
                buffer.initB = *stddev;
                if (*stddev < 0)
                    issue(initField + " stddev", "the standard deviation is " +
                                                     formatNumber(*stddev) +
                                                     "; it cannot be negative");
            }
            break;
        }
        case InitKind::File:
            if (trimmed(init.file).empty())
                issue(initField, "no file is named to read the initial contents from");
            break;
        }
    }

    void resolveScalar(const ArgumentSpec &argument, const KernelParameter &parameter,
                       const std::string &field, ResolvedScalar &scalar)
    {
        const auto value = evaluate(field, argument.value);
        if (!value)
            return;
        scalar.value = *value;
        std::string typeName = parameter.typeText;
        for (const std::string_view qualifier : {"const ", " const"}) {
            if (const auto at = typeName.find(qualifier); at != std::string::npos)
                typeName.erase(at, qualifier.size());
        }
        if (const auto problem =
                encodeScalar(parameter.elementType, *value, scalar.bytes, trimmed(typeName))) {
            issue(field,
                  parameter.name + " = " + shownValue(argument.value, *value) + " " + *problem);
        }
    }

    // "5e9" as written when it is a plain number, else "N * 4 = 8589934592".
    // A scalar parameter's value from its argument, of the first kernel or a later one; an
    // issue when none is given or the argument is a buffer.
    ResolvedScalar scalarFor(const ArgumentSpec *argument, const KernelParameter &parameter,
                             const std::string &field)
    {
        ResolvedScalar scalar;
        scalar.parameter = parameter.name;
        scalar.elementType = parameter.elementType;
        if (!argument) {
            issue(field, "no value is given for this parameter");
        } else if (argument->isBuffer) {
            issue(field, "the parameter is a " + parameter.elementType.name() +
                             " value, not a pointer; it needs a value, not a buffer");
        } else if (parameter.supported) {
            resolveScalar(*argument, parameter, field, scalar);
        }
        return scalar;
    }

    static std::string shownValue(const std::string &expression, double value)
    {
        const std::string text = trimmed(expression);
        char *end = nullptr;
        std::strtod(text.c_str(), &end);
        if (!text.empty() && end == text.c_str() + text.size())
            return text;
        return text + " = " + formatNumber(value);
    }

    const LaunchSpec &m_spec;
    const KernelSignature &m_signature;
    // A further kernel of the sequence: its block with the launch's names, its grid with its
    // own block, then its scalars, new buffers and shared memory with its own block and grid.
    void resolveStep(std::size_t index)
    {
        const KernelStep &step = m_spec.then[index];
        const KernelSignature &signature = m_stepSignatures[index];
        const std::string prefix = stepField(m_spec, index);
        ResolvedStep resolved;
        resolved.kernel = step.kernel;
        if (!signature.error.empty()) {
            issue(prefix + ": kernel", signature.error);
            m_out.steps.push_back(std::move(resolved));
            return;
        }
        Variables names = m_out.variables;
        m_names = &names;
        static const char *const kAxes[] = {"x", "y", "z"};
        bool dimensionsOk = true;
        for (const char *dimension : {"block", "grid"}) {
            const bool isBlock = dimension[0] == 'b';
            std::array<std::uint64_t, 3> values{1, 1, 1};
            for (std::size_t axis = 0; axis < 3; ++axis) {
                const std::string field = prefix + ": " + dimension + "." + kAxes[axis];
                const std::string &expression = isBlock ? step.block[axis] : step.grid[axis];
                if (const auto value = count(field, expression))
                    values[axis] = *value;
                else
                    dimensionsOk = false;
            }
            // From here on the dimension is the step's own.
            for (std::size_t axis = 0; axis < 3; ++axis)
                names[std::string(dimension) + "." + kAxes[axis]] = double(values[axis]);
            (isBlock ? resolved.block : resolved.grid) = values;
            if (!dimensionsOk)
                break; // the grid follows the block; its errors would mislead
        }
        if (dimensionsOk) {
            const std::string field = prefix + ": dynamic shared memory";
            if (const auto value = evaluate(field, step.dynamicSharedBytes)) {
                if (*value < 0 || *value != std::trunc(*value) ||
                    *value >= 18446744073709551615.0) {
                    issue(field, "is " + formatNumber(*value) +
                                     "; it must be a whole number of bytes, 0 or more");
                } else {
                    resolved.dynamicSharedBytes = std::uint64_t(*value);
                }
            }
        }
        for (const KernelParameter &parameter : signature.parameters) {
            const std::string field = prefix + ": argument " + parameter.name;
            const auto argument =
                std::find_if(step.arguments.begin(), step.arguments.end(),
                             [&](const ArgumentSpec &a) { return a.parameter == parameter.name; });
            const bool given = argument != step.arguments.end();
            if (!parameter.supported) {
                issue(field,
                      parameter.unsupportedReason.empty()
                          ? std::string("this parameter cannot be driven from CUDA Workbench")
                          : parameter.unsupportedReason);
            }
            if (parameter.isPointer) {
                resolved.parameterSlots.push_back(
                    bufferFor(given ? &*argument : nullptr, parameter, field));
                continue;
            }
            resolved.parameterSlots.push_back(-int(resolved.scalars.size()) - 1);
            resolved.scalars.push_back(scalarFor(given ? &*argument : nullptr, parameter, field));
        }
        for (const ArgumentSpec &argument : step.arguments) {
            const bool known =
                std::any_of(signature.parameters.begin(), signature.parameters.end(),
                            [&](const KernelParameter &p) { return p.name == argument.parameter; });
            if (!known)
                issue(prefix + ": argument " + argument.parameter,
                      "the kernel `" + step.kernel + "` has no parameter named '" +
                          argument.parameter + "'");
        }
        m_names = &m_out.variables;
        m_out.steps.push_back(std::move(resolved));
    }

    // The buffer a further kernel's pointer parameter gets: the one it names in "buffer", or a
    // new one it declares; its index among the buffers, or -1 (with the issue) when none.
    int bufferFor(const ArgumentSpec *argument, const KernelParameter &parameter,
                  const std::string &field)
    {
        const auto named = [&](const std::string &name) {
            const auto found =
                std::find_if(m_out.buffers.begin(), m_out.buffers.end(),
                             [&](const ResolvedBuffer &b) { return b.parameter == name; });
            return found == m_out.buffers.end() ? -1 : int(found - m_out.buffers.begin());
        };
        if (!argument) {
            issue(field, "no buffer is given for this pointer parameter (name one of the "
                         "sequence's buffers in \"buffer\": " +
                             bufferNames() + ")");
            return -1;
        }
        if (!argument->isBuffer) {
            issue(field, "the parameter is a pointer; it needs a buffer, not a value");
            return -1;
        }
        if (!argument->buffer.empty()) {
            const int index = named(argument->buffer);
            if (index < 0) {
                issue(field, "there is no buffer named '" + argument->buffer +
                                 "' before this kernel (the sequence's buffers: " + bufferNames() +
                                 ")");
                return -1;
            }
            const ResolvedBuffer &buffer = m_out.buffers[std::size_t(index)];
            if (parameter.elementTypeKnown && buffer.elementType.scalar != ScalarKind::Bool &&
                parameter.elementType.scalar != buffer.elementType.scalar) {
                issue(field, "points to " + parameter.elementType.name() + ", but the buffer `" +
                                 buffer.parameter + "` holds " + buffer.elementType.name());
            }
            return index;
        }
        if (named(argument->parameter) >= 0) {
            issue(field, "declares a buffer `" + argument->parameter +
                             "`, which the sequence has already; bind it with \"buffer\": \"" +
                             argument->parameter + "\"");
            return -1;
        }
        ResolvedBuffer buffer;
        buffer.parameter = argument->parameter;
        resolveBuffer(*argument, field, buffer);
        m_declared.push_back(true);
        m_out.buffers.push_back(std::move(buffer));
        return int(m_out.buffers.size()) - 1;
    }

    std::string bufferNames() const
    {
        std::string names;
        for (const ResolvedBuffer &buffer : m_out.buffers)
            names += (names.empty() ? "" : ", ") + buffer.parameter;
        return names.empty() ? std::string("none") : names;
    }

    const std::vector<std::string> &m_compileDefines;
    const DeviceNames &m_device;
    const std::vector<KernelSignature> &m_stepSignatures;
    ResolvedLaunch &m_out;
    const Variables *m_names;     // what expressions see: the launch's, or a further kernel's
    std::vector<bool> m_declared; // per buffer: declared by an argument (not bound to another)
};

} // namespace

std::string joinIssues(const std::vector<LaunchIssue> &issues)
{
    std::string text;
    for (const LaunchIssue &issue : issues) {
        const std::string head = issue.field.substr(0, issue.field.find('.'));
        text +=
            (text.empty() ? "" : "; ") +
            (issue.message.starts_with(head) ? issue.message : issue.field + ": " + issue.message);
    }
    return text;
}

ResolvedLaunch resolveLaunch(const LaunchSpec &spec, const KernelSignature &signature,
                             const std::vector<std::string> &compileDefines,
                             const DeviceNames &device,
                             const std::vector<KernelSignature> &stepSignatures)
{
    ResolvedLaunch resolved;
    Resolver(spec, signature, compileDefines, device, stepSignatures, resolved).run();
    return resolved;
}

std::string stepField(const LaunchSpec &spec, std::size_t step)
{
    std::string field = "then[" + std::to_string(step) + "]";
    if (step < spec.then.size() && !spec.then[step].kernel.empty())
        field += " (" + spec.then[step].kernel + ")";
    return field;
}

} // namespace cuwb
