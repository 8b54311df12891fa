// The worker a cuwb command starts: `cuwb worker [--device N]` from this very executable, the
// command the user gave with --worker ("ssh gpu-host cuwb worker"), split at blanks, or a
// remote worker on the target named with --on (user@host[:port], a name from the targets file,
// or command:WORDS; core/worker/workertarget.h, docs/remote.md). Shared by every command that
// starts a worker, so that they read --on, --worker and --device alike.
#pragma once

#include "argumentparser.h"

#include "worker/workerprocess.h"

#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace cuwb::cli {

// This executable's path, to start `cuwb worker` from.
std::string selfExecutable();

// Declares the options every command that starts a worker reads: --device, --worker and --on.
void addWorkerOptions(ArgumentParser &parser);

// The worker's options from --worker and --device (when the command has them), or the
// sentence of the usage error: "--worker needs a command", "--device needs a GPU number, got
// 'x'", "--device is for the built-in worker; give it in --worker", "--on: <why the target is
// not usable>".
std::variant<WorkerProcess::Options, std::string> workerOptions(const ArgumentParser &parser);

// --devices for the commands that start one worker per GPU (docs/multigpu.md): "all", or GPU
// numbers separated by commas ("0,2"). The GPUs in order, or the sentence of the usage error:
// a word that is not a number, a GPU given twice, --device beside it, a GPU this machine does
// not have (naming those it has), "all" with a worker elsewhere (--on, --worker: name them).
// Only the built-in worker's GPUs are checked here; another worker's hello says whether it has
// the GPU.
std::variant<std::vector<int>, std::string> selectedDevices(const ArgumentParser &parser);

// The worker of GPU N, as workerOptions() makes it with --device N: `cuwb worker --device N`,
// --worker's command with `--device N` after it, or --on's target with its GPU N.
using WorkerOptionsForDevice = std::function<WorkerProcess::Options(int device)>;
std::variant<WorkerOptionsForDevice, std::string>
workerOptionsPerDevice(const ArgumentParser &parser);

} // namespace cuwb::cli
