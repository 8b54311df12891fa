// The worker a cuwb command starts: `cuwb worker [--device N]` from this very executable, the
// command the user gave with --worker ("ssh gpu-host cuwb worker"), split at blanks, or a
// remote worker on the target named with --on (user@host[:port], a name from the targets file,
// or command:WORDS; core/worker/workertarget.h, docs/remote.md). Shared by every command that
// starts a worker, so that they read --on, --worker and --device alike.
#pragma once

#include "argumentparser.h"

#include "worker/workerprocess.h"

#include <string>
#include <variant>

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

} // namespace cuwb::cli
