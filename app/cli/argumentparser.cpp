#include "argumentparser.h"

#include <charconv>

namespace cuwb::cli {

void ArgumentParser::addFlag(std::vector<std::string> names)
{
    for (const std::string &name : names) {
        m_specs[name] = Spec{names.front(), false};
    }
}

void ArgumentParser::addOption(std::vector<std::string> names)
{
    for (const std::string &name : names) {
        m_specs[name] = Spec{names.front(), true};
    }
}

const ArgumentParser::Spec *ArgumentParser::find(const std::string &name) const
{
    const auto it = m_specs.find(name);
    return it == m_specs.end() ? nullptr : &it->second;
}

bool ArgumentParser::parse(const std::vector<std::string> &arguments)
{
    bool optionsEnded = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string &argument = arguments[i];
        if (optionsEnded || argument.size() < 2 || argument.front() != '-') {
            m_positionals.push_back(argument);
            continue;
        }
        if (argument == "--") {
            optionsEnded = true;
            continue;
        }
        if (const Spec *spec = find(argument)) {
            if (!spec->takesValue) {
                m_values[spec->key].emplace_back();
                continue;
            }
            if (i + 1 >= arguments.size()) {
                m_error = "option " + argument + " needs a value";
                return false;
            }
            m_values[spec->key].push_back(arguments[++i]);
            continue;
        }
        // "--arch=sm_90", "-std=c++17"
        if (const auto equals = argument.find('='); equals != std::string::npos) {
            const Spec *spec = find(argument.substr(0, equals));
            if (spec && spec->takesValue) {
                m_values[spec->key].push_back(argument.substr(equals + 1));
                continue;
            }
        }
        // "-DNAME=1", "-Iinclude", "-O3": a one-letter option with its value attached.
        if (argument[1] != '-') {
            const Spec *spec = find(argument.substr(0, 2));
            if (spec && spec->takesValue) {
                m_values[spec->key].push_back(argument.substr(2));
                continue;
            }
        }
        m_error = "unknown option " + argument;
        return false;
    }
    return true;
}

bool ArgumentParser::isSet(const std::string &key) const
{
    return m_values.contains(key);
}

std::optional<std::string> ArgumentParser::value(const std::string &key) const
{
    const auto it = m_values.find(key);
    if (it == m_values.end() || it->second.empty()) {
        return std::nullopt;
    }
    return it->second.back();
}

std::vector<std::string> ArgumentParser::values(const std::string &key) const
{
    const auto it = m_values.find(key);
    return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

std::optional<long long> parseCount(const std::string &text)
{
    long long value = 0;
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value < 0) {
        return std::nullopt;
    }
    return value;
}

} // namespace cuwb::cli
