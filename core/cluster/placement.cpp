#include "cluster/placement.h"

#include "util/text.h"
#include "worker/workertarget.h"

#include <utility>

namespace cuwb {

namespace {

// The worker without a GPU chosen, or why there is none; `target` set when it is a target's.
std::variant<WorkerProcess::Options, std::string>
baseWorker(const Placement &placement, const std::string &cuwb, std::optional<WorkerTarget> &target)
{
    if (const std::string problem = placementProblem(placement); !problem.empty())
        return problem;
    if (placement.target) {
        auto resolved = resolveTarget(*placement.target, defaultTargetsPath());
        if (const auto *problem = std::get_if<std::string>(&resolved))
            return "--on: " + *problem;
        target = std::get<WorkerTarget>(std::move(resolved));
        return workerOptionsFor(*target, std::nullopt);
    }
    WorkerProcess::Options options;
    if (placement.worker) {
        const std::vector<std::string> words = splitWords(*placement.worker);
        options.executable = words.front(); // placementProblem refuses an empty command
        options.arguments.assign(words.begin() + 1, words.end());
        return options;
    }
    options.executable = cuwb;
    options.arguments = {"worker"};
    return options;
}

} // namespace

std::string placementProblem(const Placement &placement)
{
    if (placement.target && placement.worker)
        return "--on and --worker both say where the worker runs; give one";
    if (placement.worker && splitWords(*placement.worker).empty())
        return "--worker needs a command";
    if (placement.device && placement.worker)
        return "--device is for the built-in worker; give it in --worker";
    if (placement.device && placement.severalDevices())
        return "--device and --devices both choose the GPU; give one (--devices 0,1 for several)";
    if (placement.allDevices && !placement.devices.empty())
        return "--devices is 'all' or GPU numbers, not both";
    for (std::size_t i = 0; i < placement.devices.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (placement.devices[i] == placement.devices[j])
                return "--devices names GPU " + std::to_string(placement.devices[i]) +
                       " twice; each GPU gets one worker";
        }
    }
    if (placement.allDevices && placement.elsewhere())
        return "--devices all counts the GPUs of this machine; with --on or --worker, name them: "
               "--devices 0,1";
    if (placement.perDevice && !placement.severalDevices())
        return "--per-device goes with --devices: it runs the whole sweep on each of them";
    if (placement.slurm) {
        if (placement.severalDevices())
            return "--devices and --slurm exclude each other";
        if (std::string problem = slurmOptionsProblem(*placement.slurm); !problem.empty())
            return problem;
    }
    return {};
}

std::variant<WorkerProcess::Options, std::string> placementWorker(const Placement &placement,
                                                                  const std::string &cuwb)
{
    std::optional<WorkerTarget> target;
    auto chosen = baseWorker(placement, cuwb, target);
    auto *options = std::get_if<WorkerProcess::Options>(&chosen);
    if (!options || !placement.device)
        return chosen;
    if (target)
        return workerOptionsFor(*target, placement.device);
    options->arguments.insert(options->arguments.end(),
                              {"--device", std::to_string(*placement.device)});
    return chosen;
}

std::variant<WorkerOptionsForDevice, std::string>
placementWorkerForDevice(const Placement &placement, const std::string &cuwb)
{
    std::optional<WorkerTarget> target;
    auto chosen = baseWorker(placement, cuwb, target);
    if (auto *problem = std::get_if<std::string>(&chosen))
        return std::move(*problem);
    if (target) {
        return WorkerOptionsForDevice(
            [chosen = *target](int device) { return workerOptionsFor(chosen, device); });
    }
    return WorkerOptionsForDevice([options = std::get<WorkerProcess::Options>(chosen)](int device) {
        WorkerProcess::Options forDevice = options;
        forDevice.arguments.insert(forDevice.arguments.end(), {"--device", std::to_string(device)});
        return forDevice;
    });
}

std::variant<std::vector<int>, std::string> placementDevices(const Placement &placement,
                                                             const DeviceQuery &here)
{
    if (const std::string problem = placementProblem(placement); !problem.empty())
        return problem;
    if (placement.elsewhere())
        return placement.devices; // the worker's hello says whether its machine has each
    if (here.devices.empty())
        return "--devices: this machine has no GPU (" + here.message + ")";
    std::vector<int> devices = placement.devices;
    if (placement.allDevices) {
        for (const DeviceInfo &device : here.devices)
            devices.push_back(device.ordinal);
        return devices;
    }
    std::string present;
    for (const DeviceInfo &device : here.devices) {
        present += (present.empty() ? "" : ", ") + ("GPU " + std::to_string(device.ordinal)) +
                   " (" + device.name + ")";
    }
    for (const int device : devices) {
        if (device >= int(here.devices.size()))
            return "--devices: there is no GPU " + std::to_string(device) + "; this machine has " +
                   present;
    }
    return devices;
}

} // namespace cuwb
