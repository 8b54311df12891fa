#include "workeroptions.h"

#include "device/deviceinfo.h"
#include "worker/workertarget.h"

#include <algorithm>
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

std::variant<std::vector<int>, std::string> selectedDevices(const ArgumentParser &parser)
{
    const std::string text = parser.value("--devices").value_or(std::string());
    if (parser.isSet("--device")) {
        return std::string("--device and --devices both choose the GPU; give one (--devices 0,1 "
                           "for several)");
    }
    const bool elsewhere = parser.isSet("--worker") || parser.isSet("--on");
    std::vector<int> devices;
    if (text == "all") {
        if (elsewhere) {
            return std::string("--devices all counts the GPUs of this machine; with --on or "
                               "--worker, name them: --devices 0,1");
        }
    } else {
        std::istringstream in(text);
        for (std::string word; std::getline(in, word, ',');) {
            const std::optional<long long> parsed = parseCount(word);
            if (!parsed || *parsed > 1024) {
                return "--devices needs 'all' or GPU numbers such as 0,2, got '" + text + "'";
            }
            if (std::find(devices.begin(), devices.end(), int(*parsed)) != devices.end()) {
                return "--devices names GPU " + word + " twice; each GPU gets one worker";
            }
            devices.push_back(int(*parsed));
        }
        if (devices.empty() || text.back() == ',') {
            return "--devices needs 'all' or GPU numbers such as 0,2, got '" + text + "'";
        }
        if (elsewhere) {
            return devices; // the worker's hello says whether its machine has each
        }
    }
    const DeviceQuery query = queryDevices();
    std::string present;
    for (const DeviceInfo &device : query.devices) {
        present += (present.empty() ? "" : ", ") + ("GPU " + std::to_string(device.ordinal)) +
                   " (" + device.name + ")";
    }
    if (query.devices.empty()) {
        return "--devices: this machine has no GPU (" + query.message + ")";
    }
    if (text == "all") {
        for (const DeviceInfo &device : query.devices) {
            devices.push_back(device.ordinal);
        }
        return devices;
    }
    for (const int device : devices) {
        if (device >= int(query.devices.size())) {
            return "--devices: there is no GPU " + std::to_string(device) + "; this machine has " +
                   present;
        }
    }
    return devices;
}

std::variant<WorkerOptionsForDevice, std::string>
workerOptionsPerDevice(const ArgumentParser &parser)
{
    if (parser.isSet("--on") && parser.isSet("--worker")) {
        return std::string("--on and --worker both say where the worker runs; give one");
    }
    if (const auto text = parser.value("--on")) {
        const auto target = resolveTarget(*text, defaultTargetsPath());
        if (const auto *problem = std::get_if<std::string>(&target)) {
            return "--on: " + *problem;
        }
        const WorkerTarget chosen = std::get<WorkerTarget>(target);
        return WorkerOptionsForDevice(
            [chosen](int device) { return workerOptionsFor(chosen, device); });
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
    } else {
        options.executable = selfExecutable();
        options.arguments = {"worker"};
    }
    return WorkerOptionsForDevice([options](int device) {
        WorkerProcess::Options forDevice = options;
        forDevice.arguments.insert(forDevice.arguments.end(), {"--device", std::to_string(device)});
        return forDevice;
    });
}

} // namespace cuwb::cli
