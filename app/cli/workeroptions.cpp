#include "workeroptions.h"

#include "worker/workertarget.h"

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
    parser.addOption({"--on"});
}

std::variant<WorkerProcess::Options, std::string> workerOptions(const ArgumentParser &parser)
{
    if (parser.isSet("--device") && parser.isSet("--worker")) {
        return std::string("--device is for the built-in worker; give it in --worker");
    }
    if (parser.isSet("--on") && parser.isSet("--worker")) {
        return std::string("--on and --worker both say where the worker runs; give one");
    }
    std::optional<int> device;
    if (const auto text = parser.value("--device")) {
        const std::optional<long long> parsed = parseCount(*text);
        if (!parsed || *parsed > 1024) {
            return "--device needs a GPU number, got '" + *text + "'";
        }
        device = static_cast<int>(*parsed);
    }
    if (const auto text = parser.value("--on")) {
        const auto target = resolveTarget(*text, defaultTargetsPath());
        if (const auto *problem = std::get_if<std::string>(&target)) {
            return "--on: " + *problem;
        }
        return workerOptionsFor(std::get<WorkerTarget>(target), device);
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
    if (device) {
        options.arguments.insert(options.arguments.end(), {"--device", std::to_string(*device)});
    }
    return options;
}

} // namespace cuwb::cli
