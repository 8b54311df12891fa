// Where a cuwb command's work runs, read once: --on, --worker, --device, --devices, --per-device
// and the --slurm options, whichever the command declares, into the core's Placement
// (cluster/placement.h), which says what cannot go together. The worker a command starts follows
// from it: `cuwb worker [--device N]` from this very executable, the command the user gave with
// --worker ("ssh gpu-host cuwb worker"), split at blanks, or a remote worker on the target named
// with --on (user@host[:port], a name from the targets file, or command:WORDS;
// core/worker/workertarget.h, docs/remote.md).
#pragma once

#include "argumentparser.h"

#include "cluster/placement.h"
#include "worker/workerprocess.h"

#include <string>
#include <variant>
#include <vector>

namespace cuwb::cli {

// This executable's path, to start `cuwb worker` from.
std::string selfExecutable();

// Declares the options every command that starts a worker reads: --device, --worker and --on.
void addWorkerOptions(ArgumentParser &parser);

// The placement the options say, or the sentence of the usage error: "--device needs a GPU
// number, got 'x'", "--devices needs 'all' or GPU numbers such as 0,2, got '0,'", and every
// combination placementProblem() refuses.
std::variant<Placement, std::string> placementOf(const ArgumentParser &parser);

// The worker's options (placementWorker), or the sentence of the usage error.
std::variant<WorkerProcess::Options, std::string> workerOptions(const ArgumentParser &parser);

// --devices for the commands that start one worker per GPU (docs/multigpu.md): "all", or GPU
// numbers separated by commas ("0,2"). The GPUs in order (placementDevices, checked against this
// machine's when the worker is here), or the sentence of the usage error.
std::variant<std::vector<int>, std::string> selectedDevices(const ArgumentParser &parser);

// The worker of GPU N, as workerOptions() makes it with --device N: `cuwb worker --device N`,
// --worker's command with `--device N` after it, or --on's target with its GPU N.
std::variant<WorkerOptionsForDevice, std::string>
workerOptionsPerDevice(const ArgumentParser &parser);

} // namespace cuwb::cli
