// The worker a cuwb command starts: `cuwb worker [--device N]` from this very executable, or
// the command the user gave with --worker ("ssh gpu-host cuwb worker"), split at blanks. Shared
// by `cuwb run`, `measure` and `sweep`, so that they read --worker and --device alike.
#pragma once

#include "argumentparser.h"

#include "worker/workerprocess.h"

#include <string>
#include <variant>

namespace cuwb::cli {

// This executable's path, to start `cuwb worker` from.
std::string selfExecutable();

// Declares the options every command that starts a worker reads: --device and --worker.
void addWorkerOptions(ArgumentParser &parser);

// The worker's options from --worker and --device (when the command has them), or the
// sentence of the usage error: "--worker needs a command", "--device needs a GPU number, got
// 'x'", "--device is for the built-in worker; give it in --worker".
std::variant<WorkerProcess::Options, std::string> workerOptions(const ArgumentParser &parser);

} // namespace cuwb::cli
