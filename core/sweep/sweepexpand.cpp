// expandSweep(): axes → values → points. Each point is the base request with the point's
// values applied (block expressions, variable expressions, -D defines, template arguments in
// the name expressions, --maxrregcount, --use_fast_math), then checked on the host: its
// expressions evaluate, the constraints hold, and the block and grid fit the architecture.
// What needs the compiled kernel (registers, static shared memory, compile errors of a value)
// is the sweep runner's part.
#include "sweep/sweep.h"
#include "util/text.h"

#include "compiler/kernelinfo.h"
#include "launch/expression.h"
#include "launch/launchenvironment.h"
#include "launch/launchsequence.h"
#include "launch/launchspec.h"
#include "launch/launchvalidation.h"
#include "util/format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace cuwb {

namespace {

std::string trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

bool isIdentifier(std::string_view name)
{
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front())) &&
           std::all_of(name.begin(), name.end(), isIdentifierChar);
}

// Replaces every whole identifier `name` in `text` (not part of a longer identifier).
std::string replaceIdentifier(const std::string &text, const std::string &name,
                              const std::string &value)
{
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!isIdentifierChar(text[i])) {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && isIdentifierChar(text[end])) {
            ++end;
        }
        const std::string_view token(text.data() + i, end - i);
        out += token == name ? value : std::string(token);
        i = end;
    }
    return out;
}

bool containsIdentifier(const std::string &text, const std::string &name)
{
    return replaceIdentifier(text, name, name + "#") != text;
}

// 1e-9 of a step absorbs the rounding of from + k * step without admitting a value past `to`.
constexpr double kRangeSlack = 1e-9;

std::optional<bool> parseSwitch(const std::string &text)
{
    std::string lower = trim(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (lower == "1" || lower == "on" || lower == "true" || lower == "yes") {
        return true;
    }
    if (lower == "0" || lower == "off" || lower == "false" || lower == "no") {
        return false;
    }
    return std::nullopt;
}

std::optional<int> parseWholeNumber(const std::string &text)
{
    const std::string value = trim(text);
    char *end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(number) || number != std::trunc(number) ||
        std::fabs(number) > 1e9) {
        return std::nullopt;
    }
    return int(number);
}

struct PreparedAxis
{
    AxisTargetInfo info;
    std::string target; // as written, trimmed
    std::vector<std::string> values;
    std::string group; // axes of one group are zipped; groups combine as a product
    // A define whose values are numbers or expressions over known names: it becomes a launch
    // define, evaluated per point and visible to every expression.
    bool numericDefine = false;
};

// A group of zipped axes: the axes' indices and the number of values they share.
struct AxisGroup
{
    std::string name;
    std::vector<std::size_t> axes;
    std::size_t size = 0;
};

// The names an expression uses, functions (a name followed by '(') left out.
std::vector<std::string> namesIn(std::string_view expression)
{
    std::vector<std::string> names;
    std::size_t i = 0;
    while (i < expression.size()) {
        const char c = expression[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            // A number, hexadecimal and exponents included: skip its letters too.
            while (
                i < expression.size() &&
                (std::isalnum(static_cast<unsigned char>(expression[i])) || expression[i] == '.'))
                ++i;
            continue;
        }
        if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < expression.size() &&
               (isIdentifierChar(expression[end]) || expression[end] == '.'))
            ++end;
        std::size_t next = end;
        while (next < expression.size() &&
               std::isspace(static_cast<unsigned char>(expression[next])))
            ++next;
        if (next >= expression.size() || expression[next] != '(')
            names.emplace_back(expression.substr(i, end - i));
        i = end;
    }
    return names;
}

// Messages of expression errors that depend on the values (division by zero at one point)
// rather than on the text (a typo, an unknown name).
bool isValueError(const ExpressionError &error)
{
    return error.message == "division by zero" || error.message == "the result is not a number" ||
           error.message.starts_with("the result is infinite");
}

// The expression behind an environment field: "variables: N", "defines: TILE", "block.x",
// "grid.y", "tuner define block_size_x".
std::string expressionOf(const LaunchSpec &launch, const std::string &field)
{
    static const char *const kAxes[] = {"x", "y", "z"};
    for (std::size_t i = 0; i < 3; ++i) {
        if (field == std::string("block.") + kAxes[i])
            return trim(launch.block[i]);
        if (field == std::string("grid.") + kAxes[i])
            return trim(launch.grid[i]);
    }
    const auto named = [&](const auto &list, std::string_view prefix) -> std::string {
        if (!field.starts_with(prefix))
            return {};
        const std::string name = field.substr(prefix.size());
        for (const auto &[n, expression] : list) {
            if (n == name)
                return trim(expression);
        }
        return {};
    };
    if (std::string e = named(launch.variables, "variables: "); !e.empty())
        return e;
    if (std::string e = named(launch.defines, "defines: "); !e.empty())
        return e;
    return named(tunerDefineExpressions(), "tuner define ");
}

// A positive whole number, or a skip reason.
std::optional<std::uint64_t> checkedCount(const std::string &field, const std::string &expression,
                                          double value, std::string &reason)
{
    const std::string shown = expression == formatNumber(value)
                                  ? formatNumber(value)
                                  : expression + " = " + formatNumber(value);
    if (value != std::trunc(value)) {
        reason = field + " is " + shown + "; it must be a whole number";
        return std::nullopt;
    }
    if (value < 1) {
        reason = field + " is " + shown + "; it must be at least 1";
        return std::nullopt;
    }
    if (value >= 18446744073709551615.0) {
        reason = field + " is " + shown + ", which is too large to count";
        return std::nullopt;
    }
    return std::uint64_t(value);
}

class Expander
{
public:
    Expander(const SweepSpec &spec, const RunRequest &base, const ArchLimits *limits,
             const DeviceNames *device)
        : m_spec(spec)
        , m_base(base)
        , m_limits(limits)
        , m_device(device ? *device : deviceNamesForArch(base.options.arch))
    {}

    SweepExpansion run()
    {
        SweepExpansion out;
        out.error = prepare();
        if (!out.error.empty()) {
            return out;
        }
        out.points.reserve(m_count);
        for (std::size_t index = 0; index < m_count; ++index) {
            out.points.push_back(point(index));
        }
        return out;
    }

private:
    std::string prepare()
    {
        if (m_spec.axes.empty()) {
            return "the sweep has no axes; add one, such as block.x from 32 to 1024 in steps "
                   "of 32";
        }
        for (std::size_t i = 0; i < m_spec.axes.size(); ++i) {
            const SweepAxis &axis = m_spec.axes[i];
            PreparedAxis prepared;
            prepared.target = trim(axis.target);
            const std::string where =
                "axis " + std::to_string(i + 1) +
                (prepared.target.empty() ? std::string() : " (" + prepared.target + ")");
            if (prepared.target.empty()) {
                return where + ": the target is empty; name what the axis varies, such as "
                               "block.x, N, -DTILE or <TILE>";
            }
            const std::optional<AxisTargetInfo> info = parseAxisTarget(prepared.target);
            if (!info) {
                return where + ": `" + prepared.target +
                       "` is not something a sweep can vary; use block.x, block.y, block.z, a "
                       "variable of the project, -DNAME, <NAME>, -maxrregcount or "
                       "--use_fast_math";
            }
            prepared.info = *info;
            if (const std::string problem = checkTarget(*info); !problem.empty()) {
                return where + ": " + problem;
            }
            for (std::size_t j = 0; j < m_axes.size(); ++j) {
                if (m_axes[j].info.kind == info->kind && m_axes[j].info.name == info->name) {
                    return where + ": axis " + std::to_string(j + 1) +
                           " already varies the same thing";
                }
            }
            AxisValueList values = axisValues(axis);
            if (!values.error.empty()) {
                return where + ": " + values.error;
            }
            for (const std::string &value : values.values) {
                if (info->kind == AxisTarget::MaxRegisters && !parseWholeNumber(value)) {
                    return where + ": `" + value + "` is not a whole number of registers";
                }
                if (info->kind == AxisTarget::FastMath && !parseSwitch(value)) {
                    return where + ": `" + value + "` is not 1 or 0 (on or off)";
                }
                if (info->kind == AxisTarget::Define &&
                    value.find_first_of("\r\n") != std::string::npos) {
                    return where + ": a define's value cannot span lines";
                }
            }
            prepared.values = std::move(values.values);
            prepared.group =
                m_spec.combination == AxisCombination::Zip ? std::string("zip") : trim(axis.group);
            m_axes.push_back(std::move(prepared));
        }
        classifyDefines();
        if (const std::string problem = countPoints(); !problem.empty()) {
            return problem;
        }
        return checkConstraints();
    }

    std::string checkTarget(const AxisTargetInfo &info) const
    {
        if (info.kind == AxisTarget::Variable) {
            const auto &variables = m_base.launch.variables;
            const bool known =
                std::any_of(variables.begin(), variables.end(),
                            [&](const auto &variable) { return variable.first == info.name; });
            if (!known) {
                std::string names;
                for (const auto &variable : variables) {
                    names += (names.empty() ? "" : ", ") + variable.first;
                }
                return "`" + info.name + "` is not a variable of the project (" +
                       (names.empty() ? std::string("it has none") : "it has " + names) + ")";
            }
        }
        if (info.kind == AxisTarget::Template) {
            const auto &expressions = m_base.options.nameExpressions;
            const bool used =
                containsIdentifier(m_base.launch.kernel, info.name) ||
                std::any_of(expressions.begin(), expressions.end(),
                            [&](const std::string &e) { return containsIdentifier(e, info.name); });
            if (!used) {
                return "<" + info.name +
                       "> appears in no name expression of the project (compile options), "
                       "so it has nothing to replace";
            }
        }
        return {};
    }

    // The names every point's expressions may use, whatever the values.
    std::vector<std::string> knownNames() const
    {
        std::vector<std::string> names = {"block.x", "block.y", "block.z",
                                          "grid.x",  "grid.y",  "grid.z"};
        const LaunchSpec &launch = m_base.launch;
        for (const auto &variable : launch.variables)
            names.push_back(variable.first);
        for (const auto &define : launch.defines)
            names.push_back(define.first);
        if (launch.tunerDefines) {
            for (const auto &define : tunerDefineExpressions())
                names.push_back(define.first);
        }
        for (const std::string &define : m_base.options.defines) {
            const std::size_t equals = define.find('=');
            char *end = nullptr;
            const std::string value =
                equals == std::string::npos ? std::string() : trim(define.substr(equals + 1));
            std::strtod(value.c_str(), &end);
            if (!value.empty() && *end == '\0')
                names.push_back(defineName(define));
        }
        return names;
    }

    // A -D axis is numeric when every value is a number or an expression over known names
    // (other numeric define axes included); then its name is visible to every expression.
    void classifyDefines()
    {
        std::vector<std::string> known = knownNames();
        for (PreparedAxis &axis : m_axes) {
            if (axis.info.kind == AxisTarget::Define)
                known.push_back(axis.info.name);
        }
        for (PreparedAxis &axis : m_axes) {
            if (axis.info.kind != AxisTarget::Define)
                continue;
            axis.numericDefine =
                std::all_of(axis.values.begin(), axis.values.end(), [&](const std::string &value) {
                    const std::vector<std::string> names = namesIn(value);
                    return std::all_of(names.begin(), names.end(), [&](const std::string &n) {
                        return std::find(known.begin(), known.end(), n) != known.end();
                    });
                });
        }
    }

    // Groups in order of their first axis; an axis without a group is a group of its own.
    std::string countPoints()
    {
        m_groups.clear();
        for (std::size_t i = 0; i < m_axes.size(); ++i) {
            const std::string &name = m_axes[i].group;
            auto group = name.empty()
                             ? m_groups.end()
                             : std::find_if(m_groups.begin(), m_groups.end(),
                                            [&](const AxisGroup &g) { return g.name == name; });
            if (group == m_groups.end()) {
                m_groups.push_back(AxisGroup{name, {i}, m_axes[i].values.size()});
                continue;
            }
            if (m_axes[i].values.size() != group->size) {
                std::string sizes;
                for (const std::size_t a : group->axes) {
                    sizes += "axis " + std::to_string(a + 1) + " (" + m_axes[a].target + ") has " +
                             std::to_string(m_axes[a].values.size()) + ", ";
                }
                sizes += "axis " + std::to_string(i + 1) + " (" + m_axes[i].target + ") has " +
                         std::to_string(m_axes[i].values.size());
                return (name == "zip" && m_spec.combination == AxisCombination::Zip
                            ? std::string("zipped axes")
                            : "the axes of group `" + name + "`") +
                       " need the same number of values: " + sizes;
            }
            group->axes.push_back(i);
        }
        // The exact count, for the message; it saturates where it would overflow.
        std::size_t count = 1;
        std::string product;
        for (const AxisGroup &group : m_groups) {
            product += (product.empty() ? "" : " × ") + std::to_string(group.size);
            if (count > std::numeric_limits<std::size_t>::max() / group.size) {
                count = std::numeric_limits<std::size_t>::max();
            } else {
                count *= group.size;
            }
        }
        if (count > kMaxSweepPoints) {
            return sweepPointLimitMessage(count, m_groups.size() > 1 ? product : std::string());
        }
        m_count = count;
        return {};
    }

    // A constraint must at least parse and name only known things; checked once with every
    // name set to 1, so that a typo is one error rather than a skip at every point.
    std::string checkConstraints() const
    {
        Variables names;
        for (const std::string &name : knownNames()) {
            names[name] = 1.0;
        }
        for (const PreparedAxis &axis : m_axes) {
            if (axis.numericDefine) {
                names[axis.info.name] = 1.0;
            }
        }
        for (std::size_t i = 0; i < m_spec.constraints.size(); ++i) {
            const std::string &constraint = m_spec.constraints[i];
            const std::string where = "constraint " + std::to_string(i + 1);
            if (trim(constraint).empty()) {
                return where + " is empty";
            }
            const ExpressionValue value = evaluateExpression(constraint, names);
            if (!value.ok() && !isValueError(*value.error)) {
                return where + " (`" + trim(constraint) + "`): " + value.error->message;
            }
        }
        return {};
    }

    // The value index of each axis at point `index`: the first axis varies slowest.
    std::vector<std::size_t> valueIndices(std::size_t index) const
    {
        std::vector<std::size_t> indices(m_axes.size(), 0);
        for (std::size_t g = m_groups.size(); g-- > 0;) {
            const AxisGroup &group = m_groups[g];
            for (const std::size_t axis : group.axes) {
                indices[axis] = index % group.size;
            }
            index /= group.size;
        }
        return indices;
    }

    SweepPoint point(std::size_t index) const
    {
        SweepPoint point;
        point.index = index;
        point.request = m_base;
        const std::vector<std::size_t> indices = valueIndices(index);
        bool templated = false;
        for (std::size_t i = 0; i < m_axes.size(); ++i) {
            const PreparedAxis &axis = m_axes[i];
            const std::string &value = axis.values[indices[i]];
            point.values.emplace_back(axis.target, value);
            apply(axis, value, point.request);
            templated = templated || axis.info.kind == AxisTarget::Template;
        }
        if (templated) {
            followTemplate(point.request);
        }
        point.skipReason = check(point);
        if (point.skipReason.empty()) {
            // The point's request is what runs: its defines evaluated into -D options.
            const std::vector<LaunchIssue> issues = bindLaunchDefines(
                point.request.launch, point.request.options,
                launchKernelNames(point.request.launch, point.request.verification), m_device);
            point.skipReason = joinIssues(issues);
            if (!issues.empty())
                point.skipKind = SkipKind::Expression;
        }
        return point;
    }

    static void apply(const PreparedAxis &axis, const std::string &value, RunRequest &request)
    {
        const AxisTargetInfo &info = axis.info;
        switch (info.kind) {
        case AxisTarget::Block:
            request.launch.block[std::size_t(info.blockIndex)] = value;
            break;
        case AxisTarget::Variable:
            for (auto &variable : request.launch.variables) {
                if (variable.first == info.name) {
                    variable.second = value;
                }
            }
            break;
        case AxisTarget::Define: {
            // The point's value replaces the project's own definition of the name.
            auto &defines = request.options.defines;
            defines.erase(std::remove_if(defines.begin(), defines.end(),
                                         [&](const std::string &define) {
                                             return defineName(define) == info.name;
                                         }),
                          defines.end());
            auto &launchDefines = request.launch.defines;
            launchDefines.erase(std::remove_if(launchDefines.begin(), launchDefines.end(),
                                               [&](const auto &d) { return d.first == info.name; }),
                                launchDefines.end());
            if (axis.numericDefine) {
                launchDefines.emplace_back(info.name, value);
            } else {
                defines.push_back(info.name + "=" + value);
            }
            break;
        }
        case AxisTarget::Template:
            for (std::string &expression : request.options.nameExpressions) {
                expression = replaceIdentifier(expression, info.name, trim(value));
            }
            request.launch.kernel =
                replaceIdentifier(request.launch.kernel, info.name, trim(value));
            break;
        case AxisTarget::MaxRegisters:
            request.options.maxRegisters = parseWholeNumber(value).value_or(0);
            break;
        case AxisTarget::FastMath:
            request.options.fastMath = parseSwitch(value).value_or(false);
            break;
        }
    }

    // When the project names its kernel by a lowered name (or not at all) the instantiation a
    // template axis selects is the one to run: the one name expression the axes changed.
    void followTemplate(RunRequest &request) const
    {
        if (request.launch.kernel != m_base.launch.kernel) {
            return; // the kernel named a template argument itself and was substituted
        }
        const auto &before = m_base.options.nameExpressions;
        const auto &after = request.options.nameExpressions;
        std::optional<std::size_t> changed;
        for (std::size_t i = 0; i < before.size() && i < after.size(); ++i) {
            if (before[i] != after[i]) {
                if (changed) {
                    return; // several instantiations change; the project's kernel stays
                }
                changed = i;
            }
        }
        if (changed) {
            request.launch.kernel = after[*changed];
        }
    }

    // Why the point cannot run (and point.skipKind), or empty; fills its block, grid and
    // dynamic shared memory as far as they evaluate.
    std::string check(SweepPoint &point) const
    {
        std::string reason = checkLaunch(point);
        if (!reason.empty() && point.skipKind == SkipKind::None)
            point.skipKind = SkipKind::Expression;
        return reason;
    }

    std::string checkLaunch(SweepPoint &point) const
    {
        const RunRequest &request = point.request;
        const LaunchEnvironment environment =
            evaluateLaunchEnvironment(request.launch, request.options.defines, m_device);
        const Variables &values = environment.values;
        static const char *const kAxes[] = {"x", "y", "z"};
        std::string reason;
        // The block first: a grid that divides by a block of 0 is the block's fault.
        for (std::size_t i = 0; i < 3; ++i) {
            const std::string field = std::string("block.") + kAxes[i];
            if (const auto value = values.find(field); value != values.end()) {
                const auto count =
                    checkedCount(field, expressionOf(request.launch, field), value->second, reason);
                if (!count) {
                    return reason;
                }
                point.block[i] = *count;
            }
        }
        if (!environment.ok()) {
            const LaunchIssue &first = environment.issues.front();
            const std::string expression = expressionOf(request.launch, first.field);
            const std::string name =
                first.field.starts_with("variables: ") ? first.field.substr(11) : first.field;
            return name + (expression.empty() ? "" : " = " + elided(expression)) + ": " +
                   first.message;
        }
        for (std::size_t i = 0; i < 3; ++i) {
            const std::string field = std::string("grid.") + kAxes[i];
            const auto count =
                checkedCount(field, expressionOf(request.launch, field), values.at(field), reason);
            if (!count) {
                return reason;
            }
            point.grid[i] = *count;
        }
        const ExpressionValue shared =
            evaluateExpression(request.launch.dynamicSharedBytes, values);
        if (shared.ok() && shared.value >= 0 && shared.value == std::trunc(shared.value) &&
            shared.value < 1.8e19) {
            point.dynamicSharedBytes = std::uint64_t(shared.value);
        }
        for (const std::string &constraint : m_spec.constraints) {
            const ExpressionValue holds = evaluateExpression(constraint, values);
            if (!holds.ok()) {
                point.skipKind = SkipKind::Constraint;
                return "constraint `" + trim(constraint) + "`: " + holds.error->message;
            }
            if (holds.value == 0.0) {
                point.skipKind = SkipKind::Constraint;
                return "excluded by the constraint `" + trim(constraint) + "`";
            }
        }
        const int registers = request.options.maxRegisters;
        if (registers != 0 && (registers < 16 || registers > 255)) {
            point.skipKind = SkipKind::Compile;
            return "maxrregcount " + std::to_string(registers) +
                   " is out of range; use 0 (no limit) or 16 to 255";
        }
        if (!m_limits) {
            return {};
        }
        ResolvedLaunch resolved;
        resolved.block = point.block;
        resolved.grid = point.grid;
        resolved.dynamicSharedBytes = point.dynamicSharedBytes;
        ValidationContext context;
        context.limits = *m_limits;
        context.limitsName = m_limits->name();
        std::string limits = joinIssues(validateLaunch(resolved, KernelResources{}, context));
        if (!limits.empty())
            point.skipKind = SkipKind::Limits;
        return limits;
    }

    const SweepSpec &m_spec;
    const RunRequest &m_base;
    const ArchLimits *m_limits;
    DeviceNames m_device; // the device.* names the points' expressions see
    std::vector<PreparedAxis> m_axes;
    std::vector<AxisGroup> m_groups;
    std::size_t m_count = 0;
};

} // namespace

std::optional<AxisTargetInfo> parseAxisTarget(std::string_view target)
{
    const std::string text = trim(target);
    AxisTargetInfo info;
    for (int axis = 0; axis < 3; ++axis) {
        static const char *const kNames[] = {"block.x", "block.y", "block.z"};
        if (text == kNames[axis]) {
            info.kind = AxisTarget::Block;
            info.name = text.substr(6);
            info.blockIndex = axis;
            return info;
        }
    }
    if (text.starts_with("-D")) {
        info.kind = AxisTarget::Define;
        info.name = trim(std::string_view(text).substr(2));
        return isIdentifier(info.name) ? std::optional(info) : std::nullopt;
    }
    if (text.size() > 2 && text.front() == '<' && text.back() == '>') {
        info.kind = AxisTarget::Template;
        info.name = trim(std::string_view(text).substr(1, text.size() - 2));
        return isIdentifier(info.name) ? std::optional(info) : std::nullopt;
    }
    if (text.starts_with("-")) {
        const std::string flag = text.substr(text.starts_with("--") ? 2 : 1);
        if (flag == "maxrregcount") {
            info.kind = AxisTarget::MaxRegisters;
            info.name = flag;
            return info;
        }
        if (flag == "use_fast_math") {
            info.kind = AxisTarget::FastMath;
            info.name = flag;
            return info;
        }
        return std::nullopt;
    }
    if (isIdentifier(text)) {
        info.kind = AxisTarget::Variable;
        info.name = text;
        return info;
    }
    return std::nullopt;
}

AxisValueList axisValues(const SweepAxis &axis)
{
    AxisValueList out;
    switch (axis.kind) {
    case AxisValues::List:
        if (axis.values.empty()) {
            out.error = "the list of values is empty";
            return out;
        }
        if (axis.values.size() > kMaxSweepPoints) {
            out.error = "the list has " + formatCount(axis.values.size()) +
                        " values; the limit is " + formatCount(kMaxSweepPoints) + " points a sweep";
            return out;
        }
        for (std::size_t i = 0; i < axis.values.size(); ++i) {
            const std::string value = trim(axis.values[i]);
            if (value.empty()) {
                out.error = "value " + std::to_string(i + 1) + " of the list is empty";
                out.values.clear();
                return out;
            }
            out.values.push_back(value);
        }
        return out;
    case AxisValues::Range: {
        const std::string bounds =
            "from " + formatNumber(axis.from) + " to " + formatNumber(axis.to);
        if (!std::isfinite(axis.from) || !std::isfinite(axis.to) || !std::isfinite(axis.step)) {
            out.error = "the range's from, to and step must be numbers";
            return out;
        }
        if (axis.step == 0.0) {
            out.error = "the range " + bounds + " has step 0, so it never ends";
            return out;
        }
        if ((axis.to - axis.from) * axis.step < 0.0) {
            out.error = "the range " + bounds + " needs a " +
                        (axis.to < axis.from ? "negative" : "positive") + " step, found " +
                        formatNumber(axis.step);
            return out;
        }
        const double steps = std::floor((axis.to - axis.from) / axis.step + kRangeSlack);
        if (steps + 1 > double(kMaxSweepPoints)) {
            out.error = "the range " + bounds + " in steps of " + formatNumber(axis.step) +
                        " has " +
                        (steps + 1 < 1e18 ? formatCount(std::size_t(steps + 1))
                                          : "more than " + formatCount(std::size_t(1e18))) +
                        " values; the limit is " + formatCount(kMaxSweepPoints) + " points a sweep";
            return out;
        }
        for (double k = 0; k <= steps; ++k) {
            out.values.push_back(formatNumber(axis.from + k * axis.step));
        }
        return out;
    }
    case AxisValues::PowersOfTwo: {
        const std::string bounds = formatNumber(axis.from) + " and " + formatNumber(axis.to);
        if (!std::isfinite(axis.from) || !std::isfinite(axis.to) || axis.from <= 0.0) {
            out.error = "powers of two need bounds above 0, found " + bounds;
            return out;
        }
        if (axis.from > axis.to) {
            out.error = "powers of two from " + formatNumber(axis.from) + " to " +
                        formatNumber(axis.to) + ": from is above to";
            return out;
        }
        for (int exponent = int(std::floor(std::log2(axis.from))) - 1;
             exponent <= int(std::ceil(std::log2(axis.to))) + 1; ++exponent) {
            const double value = std::ldexp(1.0, exponent);
            if (value >= axis.from && value <= axis.to) {
                out.values.push_back(formatNumber(value));
            }
        }
        if (out.values.empty()) {
            out.error = "there is no power of two between " + bounds;
        }
        return out;
    }
    }
    return out;
}

std::string sweepPointLimitMessage(std::size_t points, const std::string &product)
{
    const bool saturated = points == std::numeric_limits<std::size_t>::max();
    return "the sweep has " + std::string(saturated ? "more than " : "") + formatCount(points) +
           " points" + (product.empty() ? std::string() : " (" + product + ")") +
           "; the limit is " + formatCount(kMaxSweepPoints) +
           " points: narrow an axis, or split the study into several sweeps";
}

SweepExpansion expandSweep(const SweepSpec &spec, const RunRequest &base, const ArchLimits *limits,
                           const DeviceNames *device)
{
    return Expander(spec, base, limits, device).run();
}

} // namespace cuwb
