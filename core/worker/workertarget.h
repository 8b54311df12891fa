// WorkerTarget: where `cuwb worker` runs when it is not this machine — an SSH host
// (`user@host[:port]`, through the user's own ssh, its configuration, agent and known_hosts) or
// any local command that carries the worker's stdin/stdout somewhere else (the "command" kind,
// e.g. `srun ... ` or a wrapper that starts a packed cuwb). Both are the same remote path: the
// only difference is the command line that starts the worker. Targets are named on the command
// line (`--on`) or in a targets file (docs/remote.md). Pure values and functions; nothing here
// starts a process. The workbench never asks for or stores a password: ssh runs in BatchMode.
#pragma once

#include "worker/workerprocess.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cuwb {

struct WorkerTarget
{
    enum class Kind { Ssh, Command };
    Kind kind = Kind::Ssh;
    std::string name; // the name in the targets file, or the text given on the command line
    // Ssh
    std::string user; // empty: ssh's own choice (its configuration, then the local user)
    std::string host;
    int port = 0;                        // 0: ssh's own choice
    std::vector<std::string> sshOptions; // extra ssh arguments, e.g. {"-F", "config"}
    std::string cuwb = "cuwb";           // the remote cuwb; empty with a command that names it
    std::vector<std::string> command;    // Command: the transport's argv (before cuwb worker)
    std::optional<int> device;           // the remote GPU; --device overrides it

    // For messages: "alice@gpu1:2222", or the target's name when it has one.
    [[nodiscard]] std::string displayName() const;
    // "alice@gpu1:2222" / "gpu1" for an ssh target, the command's words otherwise.
    [[nodiscard]] std::string address() const;
};

// "user@host[:port]" or "host" (an ssh target), or "command:WORDS" (a command target whose
// words, split at blanks, are followed by "worker"). The sentence of the problem otherwise.
std::variant<WorkerTarget, std::string> parseTargetAddress(const std::string &text);

// The targets file: {"targets": [{"name": ..., "host": ..., ...}, ...]} (docs/remote.md).
// An empty list when the file does not exist; the sentence of the problem when it is malformed.
std::variant<std::vector<WorkerTarget>, std::string> readTargetsFile(const std::string &path);

// $CUWB_TARGETS, else $XDG_CONFIG_HOME/cuda-workbench/targets.json, else
// ~/.config/cuda-workbench/targets.json.
std::string defaultTargetsPath();

// TEXT as a target named in the targets file at `targetsPath`, else as an address.
std::variant<WorkerTarget, std::string> resolveTarget(const std::string &text,
                                                      const std::string &targetsPath);

// The worker's options for a target: `ssh -T -o BatchMode=yes [-p PORT] [options] [user@]host
// -- CUWB worker [--device N]`, or the command's words then `CUWB worker [--device N]`; marked
// remote, so that the client compiles on the host, sends input files along and words failures
// for the link.
WorkerProcess::Options workerOptionsFor(const WorkerTarget &target, std::optional<int> device);

// A worker on a target that could not start or stopped: the sentence that says what happened
// and what to do, from ssh's exit status and the last lines of its stderr. `duringRequest`:
// the worker had answered its hello (then an ssh failure is a lost connection).
std::string describeRemoteFailure(const WorkerProcess::Options &options, int waitStatus,
                                  const std::string &stderrTail, bool duringRequest);

// How to install cuwb on a remote machine, for the messages above and docs/remote.md.
extern const char *const kRemoteInstallHint;

} // namespace cuwb
