// Placement: where work runs, as one value — the machine (this one, a remote target, or a worker
// command of the user's own), its GPUs (the worker's default, one, several at once, or all of
// this machine's) and whether a Slurm job array hands them out. `cuwb` reads it once from
// --on, --worker, --device, --devices, --per-device and --slurm (app/cli/workeroptions.h) for
// every command that starts a worker; the window's sweep thread chooses its executor from the
// same parts (gui/sweep/sweepjob.h). What cannot go together is a sentence from
// placementProblem(), never a guess: each command takes the parts it offers.
#pragma once

#include "cluster/slurmjob.h"
#include "device/deviceinfo.h"
#include "worker/workerprocess.h"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cuwb {

struct Placement
{
    // A remote target (--on): user@host[:port], a name of the targets file or command:WORDS
    // (worker/workertarget.h); nullopt: not elsewhere through a target.
    std::optional<std::string> target;
    // The user's own worker command (--worker), split at blanks when it is started.
    std::optional<std::string> worker;
    // One GPU (--device N); nullopt: the worker's default, GPU 0.
    std::optional<int> device;
    // Several GPUs at once (--devices), one worker each: the GPUs named, or all of this
    // machine's when `allDevices`.
    std::vector<int> devices;
    bool allDevices = false;
    bool perDevice = false; // --per-device: the whole sweep on each GPU, not the points shared
    std::optional<SlurmOptions> slurm; // a Slurm job array (--slurm and its options)

    [[nodiscard]] bool elsewhere() const { return target.has_value() || worker.has_value(); }
    [[nodiscard]] bool severalDevices() const { return allDevices || !devices.empty(); }
    bool operator==(const Placement &) const = default;
};

// Why the parts of `placement` cannot go together, in the command line's words ("--on and
// --worker both say where the worker runs; give one", "--devices and --slurm exclude each
// other"); empty when they can.
std::string placementProblem(const Placement &placement);

// The worker of a placement on one GPU: `CUWB worker [--device N]`, --worker's command, or the
// target's worker (its GPU N); or why there is none (the target cannot be resolved, an empty
// command). `cuwb` is the executable that runs the built-in worker.
std::variant<WorkerProcess::Options, std::string> placementWorker(const Placement &placement,
                                                                  const std::string &cuwb);

// The worker of GPU N for a placement on several GPUs: the built-in worker, --worker's command
// or the target's, each with `--device N`.
using WorkerOptionsForDevice = std::function<WorkerProcess::Options(int device)>;
std::variant<WorkerOptionsForDevice, std::string>
placementWorkerForDevice(const Placement &placement, const std::string &cuwb);

// The GPUs of a placement on several: those named, or all of this machine's. On this machine
// they are checked against `here` (queryDevices(): a GPU it does not have is named with those
// it has); elsewhere the worker's hello says whether its machine has each, and `here` is not
// read.
std::variant<std::vector<int>, std::string> placementDevices(const Placement &placement,
                                                             const DeviceQuery &here);

} // namespace cuwb
