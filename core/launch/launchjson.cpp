#include "launch/launchjson.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace cuwb {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &message)
{
    throw json::other_error::create(501, message, static_cast<const json *>(nullptr));
}

std::string typeNameOf(const json &value)
{
    return value.type_name();
}

} // namespace

std::string joinFieldPath(const std::string &field, const std::string &message)
{
    // An inner message that starts with a path ("role: ...", "[2]: ...") extends it.
    const auto colon = message.find(": ");
    const bool isPath = colon != std::string::npos && colon > 0 &&
                        message.substr(0, colon).find(' ') == std::string::npos;
    if (!isPath)
        return field + ": " + message;
    return field + (message.front() == '[' ? "" : ".") + message;
}

namespace {

// Runs `read` and puts `field` in front of the message of any JSON error it throws, so a
// deep error reads "arguments[1].init.kind: ...".
template <typename F> void inField(const std::string &field, F &&read)
{
    try {
        read();
    } catch (const json::exception &error) {
        const std::string inner = plainJsonError(error);
        fail(joinFieldPath(field, inner));
    }
}

void requireObject(const json &value)
{
    if (!value.is_object())
        fail("expected an object, found " + typeNameOf(value));
}

const json *member(const json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return nullptr;
    return &*it;
}

// Expressions may be written as numbers; whole numbers keep their integer form.
std::string expressionText(const json &value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_number_integer() || value.is_number_unsigned())
        return value.dump();
    if (value.is_number_float()) {
        const double number = value.get<double>();
        return formatNumber(number);
    }
    fail("expected an expression (a string or a number), found " + typeNameOf(value));
}

void readExpression(const json &object, const char *key, std::string &value)
{
    if (const json *field = member(object, key))
        inField(key, [&] { value = expressionText(*field); });
}

void readString(const json &object, const char *key, std::string &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (!field->is_string())
                fail("expected a string, found " + typeNameOf(*field));
            value = field->get<std::string>();
        });
    }
}

void readNumber(const json &object, const char *key, double &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (!field->is_number())
                fail("expected a number, found " + typeNameOf(*field));
            value = field->get<double>();
        });
    }
}

void readUnsigned(const json &object, const char *key, std::uint64_t &value)
{
    if (const json *field = member(object, key)) {
        inField(key, [&] {
            if (field->is_number_unsigned() ||
                (field->is_number_integer() && field->get<std::int64_t>() >= 0)) {
                value = field->get<std::uint64_t>();
            } else {
                fail("expected a whole number of 0 or more, found " +
                     (field->is_number() ? field->dump() : typeNameOf(*field)));
            }
        });
    }
}

template <typename Enum, std::size_t N>
void readEnum(const json &object, const char *key, Enum &value, const Enum (&values)[N],
              const char *(*nameOf)(Enum))
{
    const json *field = member(object, key);
    if (!field)
        return;
    inField(key, [&] {
        std::string names;
        for (const Enum candidate : values)
            names += std::string(names.empty() ? "" : ", ") + nameOf(candidate);
        if (!field->is_string())
            fail("expected one of " + names + ", found " + typeNameOf(*field));
        const std::string text = field->get<std::string>();
        for (const Enum candidate : values) {
            if (text == nameOf(candidate)) {
                value = candidate;
                return;
            }
        }
        fail("expected one of " + names + ", found '" + text + "'");
    });
}

constexpr BufferRole kRoles[] = {BufferRole::In, BufferRole::Out, BufferRole::InOut};
constexpr InitKind kInitKinds[] = {InitKind::Zeros,   InitKind::Constant, InitKind::Range,
                                   InitKind::Uniform, InitKind::Normal,   InitKind::File,
                                   InitKind::CopyOf};
constexpr ReferenceKind kReferenceKinds[] = {ReferenceKind::None, ReferenceKind::Expression,
                                             ReferenceKind::Kernel, ReferenceKind::File,
                                             ReferenceKind::Aggregate};
constexpr Reduction kReductions[] = {Reduction::None, Reduction::Sum, Reduction::Min,
                                     Reduction::Max};
constexpr ToleranceKind kToleranceKinds[] = {ToleranceKind::Absolute, ToleranceKind::Relative,
                                             ToleranceKind::Ulp, ToleranceKind::AllClose};

const char *argumentKindName(bool isBuffer)
{
    return isBuffer ? "buffer" : "scalar";
}

} // namespace

std::string plainJsonError(const std::exception &error)
{
    std::string text = error.what();
    if (text.starts_with("[json.exception.")) {
        if (const auto end = text.find("] "); end != std::string::npos)
            text.erase(0, end + 2);
    }
    return text;
}

void to_json(json &j, const KernelParameter &parameter)
{
    j = json{
        {"name", parameter.name},
        {"typeText", parameter.typeText},
        {"pointer", parameter.isPointer},
        {"elementType", parameter.elementTypeKnown ? json(parameter.elementType) : json(nullptr)},
        {"const", parameter.isConst},
        {"restrict", parameter.isRestrict},
        {"sizeBytes", parameter.sizeBytes},
        {"ptxSizeBytes", parameter.ptxSizeBytes},
        {"supported", parameter.supported},
        {"reason", parameter.unsupportedReason},
    };
}

void to_json(json &j, const LaunchIssue &issue)
{
    j = json{{"field", issue.field}, {"message", issue.message}, {"position", issue.position}};
}

void to_json(json &j, const ElementType &type)
{
    j = type.name();
}

void from_json(const json &j, ElementType &type)
{
    if (!j.is_string())
        fail("expected an element type name such as \"float\", found " + typeNameOf(j));
    const std::string text = j.get<std::string>();
    const auto parsed = parseElementType(text);
    if (!parsed)
        fail("unknown element type '" + text + "'");
    type = *parsed;
}

void to_json(json &j, const BufferInit &init)
{
    j = json{{"kind", initKindName(init.kind)}};
    switch (init.kind) {
    case InitKind::Zeros:
        break;
    case InitKind::Constant:
        j["value"] = init.value;
        break;
    case InitKind::Range:
        j["start"] = init.start;
        j["step"] = init.step;
        break;
    case InitKind::Uniform:
        j["low"] = init.low;
        j["high"] = init.high;
        j["seed"] = init.seed;
        break;
    case InitKind::Normal:
        j["mean"] = init.mean;
        j["stddev"] = init.stddev;
        j["seed"] = init.seed;
        break;
    case InitKind::File:
        j["file"] = init.file;
        break;
    case InitKind::CopyOf:
        j["copyOf"] = init.copyOf;
        break;
    }
}

void from_json(const json &j, BufferInit &init)
{
    requireObject(j);
    readEnum(j, "kind", init.kind, kInitKinds, initKindName);
    readExpression(j, "value", init.value);
    readExpression(j, "start", init.start);
    readExpression(j, "step", init.step);
    readExpression(j, "low", init.low);
    readExpression(j, "high", init.high);
    readExpression(j, "mean", init.mean);
    readExpression(j, "stddev", init.stddev);
    readUnsigned(j, "seed", init.seed);
    readString(j, "file", init.file);
    readString(j, "copyOf", init.copyOf);
}

void to_json(json &j, const ArgumentSpec &argument)
{
    if (argument.isBuffer && !argument.buffer.empty()) {
        // Bound to a buffer of the sequence: that buffer says the rest.
        j = json{{"parameter", argument.parameter}, {"buffer", argument.buffer}};
        return;
    }
    j = json{{"parameter", argument.parameter},
             {"kind", argumentKindName(argument.isBuffer)},
             {"elementType", argument.elementType}};
    if (argument.isBuffer) {
        j["count"] = argument.count;
        j["role"] = roleName(argument.role);
        j["init"] = argument.init;
    } else {
        j["value"] = argument.value;
    }
}

void from_json(const json &j, ArgumentSpec &argument)
{
    requireObject(j);
    readString(j, "parameter", argument.parameter);
    if (const json *kind = member(j, "kind")) {
        inField("kind", [&] {
            if (*kind == "buffer") {
                argument.isBuffer = true;
            } else if (*kind == "scalar") {
                argument.isBuffer = false;
            } else {
                fail("expected \"buffer\" or \"scalar\", found " + kind->dump());
            }
        });
    } else if (member(j, "value") && !member(j, "count") && !member(j, "buffer")) {
        argument.isBuffer = false;
    }
    readString(j, "buffer", argument.buffer);
    if (!argument.buffer.empty() && !argument.isBuffer)
        fail("buffer: a value is not bound to a buffer; leave out \"buffer\" or \"kind\"");
    if (const json *type = member(j, "elementType"))
        inField("elementType", [&] { from_json(*type, argument.elementType); });
    readExpression(j, "count", argument.count);
    readEnum(j, "role", argument.role, kRoles, roleName);
    if (const json *init = member(j, "init"))
        inField("init", [&] { from_json(*init, argument.init); });
    readExpression(j, "value", argument.value);
}

void to_json(json &j, const GlobalSpec &global)
{
    j = json{{"name", global.name},
             {"elementType", global.elementType},
             {"count", global.count},
             {"init", global.init}};
}

void from_json(const json &j, GlobalSpec &global)
{
    requireObject(j);
    readString(j, "name", global.name);
    if (global.name.empty())
        fail("name: a global needs the name of a __constant__ or __device__ variable");
    if (const json *type = member(j, "elementType"))
        inField("elementType", [&] { from_json(*type, global.elementType); });
    readExpression(j, "count", global.count);
    if (const json *init = member(j, "init"))
        inField("init", [&] { from_json(*init, global.init); });
    if (global.init.kind == InitKind::CopyOf)
        fail("init: a global cannot be a copy of a buffer; use a file or a generated init");
}

namespace {

bool looksLikeIdentifier(const std::string &name)
{
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

void readDimensions(const json &j, const char *key, std::array<std::string, 3> &target)
{
    const json *dims = member(j, key);
    if (!dims)
        return;
    inField(key, [&] {
        if (!dims->is_array() || dims->empty() || dims->size() > 3)
            fail("expected an array of 1 to 3 expressions (x, y, z), found " +
                 (dims->is_array() ? std::to_string(dims->size()) + " elements"
                                   : typeNameOf(*dims)));
        target = {"1", "1", "1"};
        for (std::size_t i = 0; i < dims->size(); ++i)
            inField("[" + std::to_string(i) + "]", [&] { target[i] = expressionText((*dims)[i]); });
    });
}

void readArguments(const json &j, std::vector<ArgumentSpec> &arguments)
{
    const json *list = member(j, "arguments");
    if (!list)
        return;
    inField("arguments", [&] {
        if (!list->is_array())
            fail("expected an array, found " + typeNameOf(*list));
        arguments.clear();
        for (std::size_t i = 0; i < list->size(); ++i) {
            inField("[" + std::to_string(i) + "]", [&] {
                ArgumentSpec argument;
                from_json((*list)[i], argument);
                arguments.push_back(argument);
            });
        }
    });
}

void to_json(json &j, const KernelStep &step)
{
    j = json{
        {"kernel", step.kernel},
        {"arguments", step.arguments},
        {"grid", step.grid},
        {"block", step.block},
        {"dynamicSharedBytes", step.dynamicSharedBytes},
    };
}

void from_json(const json &j, KernelStep &step)
{
    requireObject(j);
    readString(j, "kernel", step.kernel);
    if (step.kernel.empty())
        fail("kernel: a further kernel of the sequence needs its name");
    readArguments(j, step.arguments);
    readDimensions(j, "grid", step.grid);
    readDimensions(j, "block", step.block);
    readExpression(j, "dynamicSharedBytes", step.dynamicSharedBytes);
}

json namedExpressions(const std::vector<std::pair<std::string, std::string>> &entries)
{
    json list = json::array();
    for (const auto &[name, expression] : entries)
        list.push_back(json{{"name", name}, {"value", expression}});
    return list;
}

void readNamedExpressions(const json &j, const char *key, const char *what,
                          std::vector<std::pair<std::string, std::string>> &entries)
{
    const json *list = member(j, key);
    if (!list)
        return;
    inField(key, [&] {
        if (!list->is_array())
            fail("expected an array of {\"name\", \"value\"}, found " + typeNameOf(*list));
        entries.clear();
        for (std::size_t i = 0; i < list->size(); ++i) {
            inField("[" + std::to_string(i) + "]", [&] {
                const json &entry = (*list)[i];
                requireObject(entry);
                std::string name;
                std::string value = "0";
                readString(entry, "name", name);
                readExpression(entry, "value", value);
                if (name.empty())
                    fail(std::string("name: a ") + what + " needs a name");
                entries.emplace_back(name, value);
            });
        }
    });
}

} // namespace

void to_json(json &j, const LaunchSpec &spec)
{
    j = json{
        {"kernel", spec.kernel},
        {"variables", namedExpressions(spec.variables)},
        {"arguments", spec.arguments},
        {"grid", spec.grid},
        {"block", spec.block},
        {"dynamicSharedBytes", spec.dynamicSharedBytes},
        {"deadlineSeconds", spec.deadlineSeconds},
    };
    // Written only when used, so projects without them keep their shape.
    if (!spec.defines.empty())
        j["defines"] = namedExpressions(spec.defines);
    if (spec.tunerDefines)
        j["tunerDefines"] = true;
    if (!spec.globals.empty())
        j["globals"] = spec.globals;
    if (!spec.then.empty()) {
        json steps = json::array();
        for (const KernelStep &step : spec.then) {
            json entry;
            to_json(entry, step);
            steps.push_back(std::move(entry));
        }
        j["then"] = std::move(steps);
    }
}

void from_json(const json &j, LaunchSpec &spec)
{
    requireObject(j);
    readString(j, "kernel", spec.kernel);
    readNamedExpressions(j, "variables", "variable", spec.variables);
    readNamedExpressions(j, "defines", "define", spec.defines);
    for (const auto &[name, value] : spec.defines) {
        if (!looksLikeIdentifier(name))
            fail("defines: `" + name + "` is not a name a define can have");
    }
    if (const json *tuner = member(j, "tunerDefines")) {
        inField("tunerDefines", [&] {
            if (!tuner->is_boolean())
                fail("expected true or false, found " + typeNameOf(*tuner));
            spec.tunerDefines = tuner->get<bool>();
        });
    }
    if (const json *globals = member(j, "globals")) {
        inField("globals", [&] {
            if (!globals->is_array())
                fail("expected an array, found " + typeNameOf(*globals));
            spec.globals.clear();
            for (std::size_t i = 0; i < globals->size(); ++i) {
                inField("[" + std::to_string(i) + "]", [&] {
                    GlobalSpec global;
                    from_json((*globals)[i], global);
                    spec.globals.push_back(global);
                });
            }
        });
    }
    readArguments(j, spec.arguments);
    readDimensions(j, "grid", spec.grid);
    readDimensions(j, "block", spec.block);
    readExpression(j, "dynamicSharedBytes", spec.dynamicSharedBytes);
    readNumber(j, "deadlineSeconds", spec.deadlineSeconds);
    if (!(spec.deadlineSeconds > 0) || !std::isfinite(spec.deadlineSeconds))
        fail("deadlineSeconds: must be more than 0, found " + formatNumber(spec.deadlineSeconds));
    if (const json *steps = member(j, "then")) {
        inField("then", [&] {
            if (!steps->is_array())
                fail("expected an array of kernels, found " + typeNameOf(*steps));
            spec.then.clear();
            for (std::size_t i = 0; i < steps->size(); ++i) {
                inField("[" + std::to_string(i) + "]", [&] {
                    KernelStep step;
                    from_json((*steps)[i], step);
                    spec.then.push_back(std::move(step));
                });
            }
        });
    }
}

void to_json(json &j, const VerificationSpec &spec)
{
    j = json{{"kind", referenceKindName(spec.kind)}};
    if (spec.kind == ReferenceKind::None)
        return;
    j["output"] = spec.output;
    switch (spec.kind) {
    case ReferenceKind::Expression:
        j["expression"] = spec.expression;
        break;
    case ReferenceKind::Kernel:
        j["referenceKernel"] = spec.referenceKernel;
        break;
    case ReferenceKind::File:
        j["file"] = spec.file;
        break;
    case ReferenceKind::Aggregate:
        if (!spec.of.empty())
            j["of"] = spec.of;
        if (!spec.expected.empty())
            j["expected"] = spec.expected;
        break;
    case ReferenceKind::None:
        break;
    }
    if (spec.reduce != Reduction::None)
        j["reduce"] = reductionName(spec.reduce);
    if (!spec.count.empty())
        j["count"] = spec.count;
    if (!spec.mask.empty())
        j["mask"] = spec.mask;
    j["tolerance"] = toleranceKindName(spec.tolerance);
    if (spec.tolerance == ToleranceKind::AllClose) {
        j["atol"] = spec.atol;
        j["rtol"] = spec.rtol;
    } else {
        j["toleranceValue"] = spec.toleranceValue;
    }
}

void from_json(const json &j, VerificationSpec &spec)
{
    requireObject(j);
    readEnum(j, "kind", spec.kind, kReferenceKinds, referenceKindName);
    readString(j, "output", spec.output);
    readString(j, "expression", spec.expression);
    readString(j, "referenceKernel", spec.referenceKernel);
    readString(j, "file", spec.file);
    readEnum(j, "reduce", spec.reduce, kReductions, reductionName);
    readString(j, "of", spec.of);
    readExpression(j, "expected", spec.expected);
    readExpression(j, "count", spec.count);
    readString(j, "mask", spec.mask);
    if (!spec.mask.empty() &&
        (spec.kind == ReferenceKind::Aggregate || spec.reduce != Reduction::None))
        fail("mask: applies to element-wise checks; a reduction reduces the first \"count\" "
             "elements");
    if (spec.kind == ReferenceKind::Aggregate) {
        if (spec.reduce == Reduction::None)
            fail("reduce: an aggregate check needs \"sum\", \"min\" or \"max\"");
        if (spec.of.empty() == spec.expected.empty())
            fail("an aggregate check compares with either \"of\" (a buffer) or \"expected\" (an "
                 "expression), not both and not neither");
    }
    readEnum(j, "tolerance", spec.tolerance, kToleranceKinds, toleranceKindName);
    readNumber(j, "toleranceValue", spec.toleranceValue);
    if (!(spec.toleranceValue >= 0) || !std::isfinite(spec.toleranceValue))
        fail("toleranceValue: must be 0 or more, found " + formatNumber(spec.toleranceValue));
    if (spec.tolerance == ToleranceKind::AllClose) {
        // numpy's allclose takes both; a check states both rather than rely on its defaults.
        if (!member(j, "atol") || !member(j, "rtol"))
            fail("tolerance: allclose needs both \"atol\" and \"rtol\" (|out - ref| <= atol + "
                 "rtol * |ref|; numpy's defaults are 1e-08 and 1e-05)");
        if (member(j, "toleranceValue"))
            fail("toleranceValue: an allclose tolerance takes \"atol\" and \"rtol\" instead");
    } else {
        for (const char *key : {"atol", "rtol"}) {
            if (member(j, key))
                fail(std::string(key) + ": applies to \"tolerance\": \"allclose\" only");
        }
    }
    readNumber(j, "atol", spec.atol);
    readNumber(j, "rtol", spec.rtol);
    for (const auto &[key, value] : {std::pair{"atol", spec.atol}, std::pair{"rtol", spec.rtol}}) {
        if (!(value >= 0) || !std::isfinite(value))
            fail(std::string(key) + ": must be 0 or more, found " + formatNumber(value));
    }
}

void to_json(json &j, const Verification &verification)
{
    if (!verification.listForm && verification.checks.size() <= 1) {
        j = verification.first();
        return;
    }
    j = json::array();
    for (const VerificationSpec &check : verification.checks)
        j.push_back(check);
}

void from_json(const json &j, Verification &verification)
{
    verification = Verification{};
    if (!j.is_array()) {
        VerificationSpec check;
        from_json(j, check);
        verification = Verification(std::move(check));
        return;
    }
    verification.listForm = true;
    for (std::size_t i = 0; i < j.size(); ++i) {
        inField("[" + std::to_string(i) + "]", [&] {
            VerificationSpec check;
            from_json(j[i], check);
            if (check.kind == ReferenceKind::None)
                fail("kind: a list of checks holds checks; leave out one of kind \"none\"");
            verification.checks.push_back(std::move(check));
        });
    }
}

} // namespace cuwb
