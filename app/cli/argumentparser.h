// ArgumentParser: the small option parser of the cuwb commands. It knows flags ("--json"),
// options with a value in every spelling compilers accept ("--arch sm_90", "--arch=sm_90",
// "-DNAME", "-D NAME", "-O3", "-std=c++17"), repeated options and positional arguments, and
// reports the first problem as a sentence for the user.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuwb::cli {

class ArgumentParser
{
public:
    // names: the spellings of one option; the first is its key for isSet()/values().
    void addFlag(std::vector<std::string> names);
    void addOption(std::vector<std::string> names);

    // false on an unknown option or a missing value; error() says which.
    bool parse(const std::vector<std::string> &arguments);

    [[nodiscard]] const std::string &error() const { return m_error; }
    [[nodiscard]] bool isSet(const std::string &key) const;
    [[nodiscard]] std::optional<std::string> value(const std::string &key) const; // last given
    [[nodiscard]] std::vector<std::string> values(const std::string &key) const;
    [[nodiscard]] const std::vector<std::string> &positionals() const { return m_positionals; }

private:
    struct Spec
    {
        std::string key;
        bool takesValue = false;
    };
    const Spec *find(const std::string &name) const;

    std::map<std::string, Spec> m_specs;                      // by every spelling
    std::map<std::string, std::vector<std::string>> m_values; // by key; flags get ""
    std::vector<std::string> m_positionals;
    std::string m_error;
};

// Parses a whole non-negative decimal number that fits in long long; nullopt otherwise.
std::optional<long long> parseCount(const std::string &text);

} // namespace cuwb::cli
