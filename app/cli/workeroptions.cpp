#include "workeroptions.h"

#include <filesystem>
#include <sstream>
#include <system_error>
#include <vector>

namespace cuwb::cli {

std::string selfExecutable()
{
    std::error_code error;
    const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string("/proc/self/exe") : path.string();
}

void addWorkerOptions(ArgumentParser &parser)
{
    parser.addOption({"--device"});
    parser.addOption({"--worker"});
}

std::variant<WorkerProcess::Options, std::string> workerOptions(const ArgumentParser &parser)
{
    if (parser.isSet("--device") && parser.isSet("--worker")) {
        return std::string("--device is for the built-in worker; give it in --worker");
    }
    WorkerProcess::Options options;
    if (const auto command = parser.value("--worker")) {
        std::istringstream in(*command);
        std::vector<std::string> words;
        for (std::string word; in >> word;) {
            words.push_back(word);
        }
        if (words.empty()) {
            return std::string("--worker needs a command");
        }
        options.executable = words.front();
        options.arguments.assign(words.begin() + 1, words.end());
        return options;
    }
    options.executable = selfExecutable();
    options.arguments = {"worker"};
    if (const auto text = parser.value("--device")) {
        if (!parseCount(*text)) {
            return "--device needs a GPU number, got '" + *text + "'";
        }
        options.arguments.insert(options.arguments.end(), {"--device", *text});
    }
    return options;
}

} // namespace cuwb::cli
