#include "launch/launchenvironment.h"

#include "compiler/kernellookup.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace cuwb {

namespace {

// One name to evaluate: its expression and the field its problems are reported under.
struct Item
{
    std::string name;
    std::string expression;
    std::string field;
    enum class State { Pending, Done, Failed } state = State::Pending;
    std::string waitingFor; // the pending name it needed in the last pass
};

// The value as a define's text: exact for whole numbers, round-trip precision otherwise.
std::string defineText(double value)
{
    char text[64];
    if (value == std::trunc(value) && std::fabs(value) < 9.2e18)
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
    else
        std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

std::optional<double> plainNumber(std::string_view text)
{
    const std::string value(trimmed(text));
    if (value.empty())
        return std::nullopt;
    char *end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end != value.c_str() + value.size() || !std::isfinite(number))
        return std::nullopt;
    return number;
}

class Evaluator
{
public:
    Evaluator(LaunchEnvironment &out, const DeviceNames &device)
        : m_out(out)
        , m_device(device)
    {}

    void add(std::string name, std::string expression, std::string field)
    {
        m_index[name] = m_items.size();
        Item item;
        item.name = std::move(name);
        item.expression = std::move(expression);
        item.field = std::move(field);
        m_items.push_back(std::move(item));
    }
    bool has(const std::string &name) const { return m_index.count(name) != 0; }

    void run()
    {
        // Passes in declaration order: a chain written in order settles in one pass.
        for (bool progress = true; progress;) {
            progress = false;
            for (Item &item : m_items) {
                if (item.state == Item::State::Pending && evaluate(item))
                    progress = true;
            }
        }
        // What is left waits on a cycle, or on a name that waits on one: report each cycle
        // once, and what merely depends on it not at all.
        for (bool pending = true; pending;) {
            pending = false;
            for (bool settled = true; settled;) {
                settled = false;
                for (Item &item : m_items) {
                    if (item.state == Item::State::Pending &&
                        m_items[m_index.at(item.waitingFor)].state == Item::State::Failed) {
                        item.state = Item::State::Failed;
                        settled = true;
                    }
                }
            }
            for (Item &item : m_items) {
                if (item.state == Item::State::Pending) {
                    reportCycle(item);
                    pending = true;
                    break;
                }
            }
        }
    }

private:
    // True when the item settled (evaluated or failed) in this pass.
    bool evaluate(Item &item)
    {
        const ExpressionValue value = evaluateExpression(item.expression, m_out.values);
        if (value.ok()) {
            item.state = Item::State::Done;
            m_out.values[item.name] = value.value;
            return true;
        }
        const std::string &unknown = value.error->unknownName;
        if (const auto it = m_index.find(unknown); it != m_index.end()) {
            const Item &needed = m_items[it->second];
            if (needed.state == Item::State::Pending) {
                item.waitingFor = unknown;
                return false;
            }
            if (needed.state == Item::State::Failed) {
                item.state = Item::State::Failed; // its own cause is reported already
                return true;
            }
        }
        item.state = Item::State::Failed;
        m_out.issues.push_back(LaunchIssue{
            item.field, explainExpressionError(*value.error, m_device), value.error->position});
        return true;
    }

    // Follows what `start` waits on to the cycle it ends in, and reports that cycle once, at
    // its member first reached: "depends on itself: TILE → block.x → TILE".
    void reportCycle(const Item &start)
    {
        std::set<std::string> seen{start.name};
        const Item *item = &start;
        while (seen.insert(item->waitingFor).second)
            item = &m_items[m_index.at(item->waitingFor)];
        Item &member = m_items[m_index.at(item->waitingFor)];
        std::string text = member.name;
        for (const Item *next = &member;;) {
            next = &m_items[m_index.at(next->waitingFor)];
            text += " → " + next->name;
            if (next == &member)
                break;
        }
        for (const Item *next = &member;;) {
            Item &inCycle = m_items[m_index.at(next->waitingFor)];
            inCycle.state = Item::State::Failed;
            if (&inCycle == &member)
                break;
            next = &inCycle;
        }
        m_out.issues.push_back(LaunchIssue{member.field, "depends on itself: " + text, -1});
    }

    LaunchEnvironment &m_out;
    const DeviceNames &m_device;
    std::vector<Item> m_items;
    std::map<std::string, std::size_t> m_index;
};

} // namespace

std::string defineName(const std::string &define)
{
    return std::string(trimmed(std::string_view(define).substr(0, define.find('='))));
}

const std::vector<std::pair<std::string, std::string>> &tunerDefineExpressions()
{
    // Kernel Tuner also defines kernel_tuner as 1 in every compile, which sources test to
    // choose their tuning path (`#ifdef kernel_tuner`).
    static const std::vector<std::pair<std::string, std::string>> defines = {
        {"block_size_x", "block.x"}, {"block_size_y", "block.y"}, {"block_size_z", "block.z"},
        {"grid_size_x", "grid.x"},   {"grid_size_y", "grid.y"},   {"grid_size_z", "grid.z"},
        {"kernel_tuner", "1"},
    };
    return defines;
}

LaunchEnvironment evaluateLaunchEnvironment(const LaunchSpec &spec,
                                            const std::vector<std::string> &compileDefines,
                                            const DeviceNames &device)
{
    LaunchEnvironment out;
    Evaluator evaluator(out, device);
    std::set<std::string> defined;
    for (const auto &[name, expression] : spec.variables) {
        if (!defined.insert(name).second) {
            out.issues.push_back({"variables: " + name, "is defined twice", -1});
            continue;
        }
        evaluator.add(name, expression, "variables: " + name);
    }
    std::vector<std::string> defineNames;
    for (const auto &[name, expression] : spec.defines) {
        if (!defined.insert(name).second) {
            out.issues.push_back(
                {"defines: " + name, "the name is also a variable or another define; use one", -1});
            continue;
        }
        evaluator.add(name, expression, "defines: " + name);
        defineNames.push_back(name);
    }
    static const char *const kAxes[] = {"x", "y", "z"};
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const std::string name = std::string("block.") + kAxes[axis];
        evaluator.add(name, spec.block[axis], name);
    }
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const std::string name = std::string("grid.") + kAxes[axis];
        evaluator.add(name, spec.grid[axis], name);
    }
    if (spec.tunerDefines) {
        // A launch define of the same name is the user's explicit choice and wins; a variable
        // would not reach the source, so it is a conflict.
        for (const auto &[name, expression] : tunerDefineExpressions()) {
            const bool isDefine =
                std::find(defineNames.begin(), defineNames.end(), name) != defineNames.end();
            if (isDefine)
                continue;
            if (defined.count(name)) {
                out.issues.push_back({"variables: " + name,
                                      "tunerDefines defines " + name + " as " + expression +
                                          "; rename the variable or make it a define",
                                      -1});
                continue;
            }
            evaluator.add(name, expression, "tuner define " + name);
            defineNames.push_back(name);
        }
    }
    // Numeric compile-option defines are constants every expression may read.
    for (const std::string &define : compileDefines) {
        const std::string name = defineName(define);
        const std::size_t equals = define.find('=');
        if (equals == std::string::npos || evaluator.has(name))
            continue;
        if (const auto number = plainNumber(std::string_view(define).substr(equals + 1)))
            out.values[name] = *number;
    }
    // The device's attributes are constants too, below anything the project names itself.
    for (const auto &[name, value] : device.values) {
        if (!evaluator.has(name) && out.values.count(name) == 0)
            out.values[name] = value;
    }
    evaluator.run();
    for (const std::string &name : defineNames) {
        if (const auto it = out.values.find(name); it != out.values.end())
            out.defines.emplace_back(name, defineText(it->second));
    }
    return out;
}

std::vector<LaunchIssue> bindLaunchDefines(LaunchSpec &launch, CompileOptions &options,
                                           const std::vector<std::string> &kernelNames,
                                           const DeviceNames &device)
{
    options = withKernelNameExpressions(std::move(options), kernelNames);
    if (launch.defines.empty() && !launch.tunerDefines)
        return {};
    LaunchEnvironment environment = evaluateLaunchEnvironment(launch, options.defines, device);
    if (!environment.ok())
        return environment.issues;
    std::vector<std::pair<std::string, std::string>> variables;
    for (const auto &[name, value] : environment.defines) {
        auto &defines = options.defines;
        // Clang before 16 cannot capture a structured binding in a lambda.
        const std::string &replaced = name;
        defines.erase(
            std::remove_if(defines.begin(), defines.end(),
                           [&](const std::string &d) { return defineName(d) == replaced; }),
            defines.end());
        defines.push_back(name + "=" + value);
        variables.emplace_back(name, value);
    }
    // The values go first: literal numbers need nothing, and the variables may use them.
    variables.insert(variables.end(), launch.variables.begin(), launch.variables.end());
    launch.variables = std::move(variables);
    launch.defines.clear();
    launch.tunerDefines = false;
    return {};
}

} // namespace cuwb
