#include "workeroptions.h"

#include "slurmarguments.h"

#include <filesystem>
#include <sstream>
#include <system_error>

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

namespace {

// --devices' text into the placement: "all", or GPU numbers separated by commas.
std::string readDevices(const std::string &text, Placement &placement)
{
    if (text == "all") {
        placement.allDevices = true;
        return {};
    }
    const std::string wrong =
        "--devices needs 'all' or GPU numbers such as 0,2, got '" + text + "'";
    std::istringstream in(text);
    for (std::string word; std::getline(in, word, ',');) {
        const std::optional<long long> parsed = parseCount(word);
        if (!parsed || *parsed > 1024)
            return wrong;
        placement.devices.push_back(int(*parsed));
    }
    if (placement.devices.empty() || text.back() == ',')
        return wrong;
    return {};
}

} // namespace

std::variant<Placement, std::string> placementOf(const ArgumentParser &parser)
{
    Placement placement;
    placement.target = parser.value("--on");
    placement.worker = parser.isSet("--worker") ? parser.value("--worker").value_or(std::string())
                                                : std::optional<std::string>();
    if (const auto text = parser.value("--device")) {
        const std::optional<long long> parsed = parseCount(*text);
        if (!parsed || *parsed > 1024)
            return "--device needs a GPU number, got '" + *text + "'";
        placement.device = int(*parsed);
    }
    if (parser.isSet("--devices")) {
        if (std::string problem =
                readDevices(parser.value("--devices").value_or(std::string()), placement);
            !problem.empty())
            return problem;
    }
    placement.perDevice = parser.isSet("--per-device");
    auto slurm = slurmOptions(parser);
    if (auto *problem = std::get_if<std::string>(&slurm))
        return std::move(*problem);
    placement.slurm = std::get<std::optional<SlurmOptions>>(std::move(slurm));
    if (std::string problem = placementProblem(placement); !problem.empty())
        return problem;
    return placement;
}

std::variant<WorkerProcess::Options, std::string> workerOptions(const ArgumentParser &parser)
{
    auto placement = placementOf(parser);
    if (auto *problem = std::get_if<std::string>(&placement))
        return std::move(*problem);
    return placementWorker(std::get<Placement>(placement), selfExecutable());
}

std::variant<std::vector<int>, std::string> selectedDevices(const ArgumentParser &parser)
{
    auto chosen = placementOf(parser);
    if (auto *problem = std::get_if<std::string>(&chosen))
        return std::move(*problem);
    const Placement &placement = std::get<Placement>(chosen);
    // Only this machine's GPUs are listed, and only when the workers run here.
    return placementDevices(placement, placement.elsewhere() ? DeviceQuery{} : queryDevices());
}

std::variant<WorkerOptionsForDevice, std::string>
workerOptionsPerDevice(const ArgumentParser &parser)
{
    auto placement = placementOf(parser);
    if (auto *problem = std::get_if<std::string>(&placement))
        return std::move(*problem);
    return placementWorkerForDevice(std::get<Placement>(placement), selfExecutable());
}

} // namespace cuwb::cli
