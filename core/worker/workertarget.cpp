#include "worker/workertarget.h"

#include "launch/launchjson.h"
#include "util/jsonread.h"
#include "util/text.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>

namespace cuwb {

namespace {

bool contains(const std::string &text, const char *what)
{
    return text.find(what) != std::string::npos;
}

// The last non-empty line of ssh's stderr, for a message: what ssh itself said.
std::string lastLine(const std::string &text)
{
    std::size_t end = text.find_last_not_of("\r\n \t");
    if (end == std::string::npos) {
        return {};
    }
    const std::size_t start = text.find_last_of('\n', end);
    std::string line = text.substr(start == std::string::npos ? 0 : start + 1,
                                   end + 1 - (start == std::string::npos ? 0 : start + 1));
    constexpr std::size_t kLimit = 300;
    if (line.size() > kLimit) {
        line = line.substr(0, kLimit) + "...";
    }
    return line;
}

bool validHostText(const std::string &text)
{
    if (text.empty() || text.front() == '-') {
        return false; // never an option to ssh
    }
    for (const char c : text) {
        if (static_cast<unsigned char>(c) <= ' ' || c == '@' || c == '/' || c == '\'' || c == '"' ||
            c == ';' || c == '`' || c == '$') {
            return false;
        }
    }
    return true;
}

} // namespace

const char *const kRemoteInstallHint =
    "install cuwb there: the portable tarball (scripts/make-portable.sh; unpack it and name "
    "its cuwb, e.g. ~/cuda-workbench-0.1.0/cuwb, as the target's \"cuwb\" in the targets "
    "file) or the Debian package (cuda-workbench_VERSION_amd64.deb, /usr/bin/cuwb); "
    "docs/install.md and docs/remote.md say how";

std::string WorkerTarget::address() const
{
    if (kind == Kind::Command) {
        std::string text;
        for (const std::string &word : command) {
            text += (text.empty() ? "" : " ") + word;
        }
        return text;
    }
    std::string text = user.empty() ? host : user + "@" + host;
    if (port != 0) {
        text += ":" + std::to_string(port);
    }
    return text;
}

std::string WorkerTarget::displayName() const
{
    return name.empty() ? address() : name;
}

std::variant<WorkerTarget, std::string> parseTargetAddress(const std::string &text)
{
    WorkerTarget target;
    target.name = text;
    if (text.rfind("command:", 0) == 0) {
        target.kind = WorkerTarget::Kind::Command;
        target.command = splitWords(text.substr(8));
        target.cuwb.clear(); // the words name it
        if (target.command.empty()) {
            return std::string("the target 'command:' needs a command after the colon, e.g. "
                               "'command:/opt/cuwb/bin/cuwb'");
        }
        return target;
    }
    std::string rest = text;
    if (const std::size_t at = rest.find('@'); at != std::string::npos) {
        target.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
        if (target.user.empty() || !validHostText(target.user)) {
            return "the target '" + text + "' has no valid user name before '@'";
        }
    }
    if (const std::size_t colon = rest.rfind(':'); colon != std::string::npos) {
        const std::string portText = rest.substr(colon + 1);
        char *end = nullptr;
        const long port = std::strtol(portText.c_str(), &end, 10);
        if (portText.empty() || *end != '\0' || port < 1 || port > 65535) {
            return "the target '" + text + "' has no valid port after ':' (1 to 65535)";
        }
        target.port = static_cast<int>(port);
        rest = rest.substr(0, colon);
    }
    if (!validHostText(rest)) {
        return "the target '" + text +
               "' is not user@host[:port], a host, a target of the targets file or "
               "command:WORDS";
    }
    target.host = rest;
    return target;
}

std::string defaultTargetsPath()
{
    if (const char *explicitPath = std::getenv("CUWB_TARGETS"); explicitPath && *explicitPath) {
        return explicitPath;
    }
    if (const char *config = std::getenv("XDG_CONFIG_HOME"); config && *config) {
        return std::string(config) + "/cuda-workbench/targets.json";
    }
    const char *home = std::getenv("HOME");
    return std::string(home ? home : "") + "/.config/cuda-workbench/targets.json";
}

std::variant<std::vector<WorkerTarget>, std::string> readTargetsFile(const std::string &path)
{
    std::ifstream in(path);
    if (!in) {
        return std::vector<WorkerTarget>{};
    }
    const nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
    const std::string where = "the targets file " + path;
    if (document.is_discarded()) {
        return where + " is not valid JSON";
    }
    if (!document.is_object() || !document.contains("targets") || !document["targets"].is_array()) {
        return where + " needs an object with a \"targets\" list";
    }
    std::vector<WorkerTarget> targets;
    for (const nlohmann::json &entry : document["targets"]) {
        try {
            if (!entry.is_object()) {
                return where + ": every target must be an object";
            }
            WorkerTarget target;
            entry.at("name").get_to(target.name);
            if (target.name.empty()) {
                return where + ": a target has an empty \"name\"";
            }
            // Without a "kind", a target that names a command and no host is a command one.
            const bool looksLikeCommand = entry.contains("command") && !entry.contains("host");
            const std::string kind =
                entry.value("kind", std::string(looksLikeCommand ? "command" : "ssh"));
            const std::string named = where + ", target '" + target.name + "'";
            if (kind == "ssh") {
                target.kind = WorkerTarget::Kind::Ssh;
                if (!entry.contains("host")) {
                    return named + ": an ssh target needs \"host\" (or give \"kind\": "
                                   "\"command\" and its \"command\")";
                }
                entry.at("host").get_to(target.host);
                jsonread::readIfPresent(entry, "user", target.user);
                jsonread::readIfPresent(entry, "port", target.port);
                jsonread::readIfPresent(entry, "sshOptions", target.sshOptions);
                if (!validHostText(target.host)) {
                    return named + ": \"host\" must be a host name or address";
                }
                if (!target.user.empty() && !validHostText(target.user)) {
                    return named + ": \"user\" is not a valid user name";
                }
                if (target.port < 0 || target.port > 65535) {
                    return named + ": \"port\" must be 1 to 65535";
                }
            } else if (kind == "command") {
                target.kind = WorkerTarget::Kind::Command;
                if (!entry.contains("command")) {
                    return named + ": a command target needs \"command\", the transport's words";
                }
                entry.at("command").get_to(target.command);
                if (target.command.empty()) {
                    return named + ": \"command\" must list the transport's words";
                }
            } else {
                return named + ": unknown \"kind\" '" + kind + "' (ssh or command)";
            }
            jsonread::readIfPresent(entry, "cuwb", target.cuwb);
            if (const auto device = entry.find("device"); device != entry.end()) {
                target.device = device->get<int>();
                if (*target.device < 0) {
                    return named + ": \"device\" must be a GPU number";
                }
            }
            targets.push_back(std::move(target));
        } catch (const nlohmann::json::exception &error) {
            return where + ": " + plainJsonError(error);
        }
    }
    return targets;
}

std::variant<WorkerTarget, std::string> resolveTarget(const std::string &text,
                                                      const std::string &targetsPath)
{
    if (text.empty()) {
        return std::string("--on needs a target: user@host[:port], a host, or a name from ") +
               targetsPath;
    }
    const auto file = readTargetsFile(targetsPath);
    if (const auto *problem = std::get_if<std::string>(&file)) {
        return *problem;
    }
    for (const WorkerTarget &target : std::get<std::vector<WorkerTarget>>(file)) {
        if (target.name == text) {
            return target;
        }
    }
    return parseTargetAddress(text);
}

WorkerProcess::Options workerOptionsFor(const WorkerTarget &target, std::optional<int> device)
{
    WorkerProcess::Options options;
    std::vector<std::string> argv;
    if (target.kind == WorkerTarget::Kind::Ssh) {
        // -T: no terminal (the protocol is lines on a pipe); BatchMode: never a password or
        // passphrase prompt, a refusal instead; the user's own configuration does the rest.
        argv = {"ssh", "-T", "-o", "BatchMode=yes"};
        if (target.port != 0) {
            argv.insert(argv.end(), {"-p", std::to_string(target.port)});
        }
        argv.insert(argv.end(), target.sshOptions.begin(), target.sshOptions.end());
        argv.push_back(target.user.empty() ? target.host : target.user + "@" + target.host);
        argv.push_back("--");
    } else {
        argv = target.command;
    }
    if (!target.cuwb.empty()) {
        argv.push_back(target.cuwb);
    }
    argv.push_back("worker");
    const std::optional<int> gpu = device ? device : target.device;
    if (gpu) {
        argv.insert(argv.end(), {"--device", std::to_string(*gpu)});
    }
    options.executable = argv.front();
    if (options.executable.find('/') == std::string::npos) {
        // execv() does not search PATH: find ssh (or the command) there now.
        const char *path = std::getenv("PATH");
        std::istringstream dirs(path ? path : "/usr/bin:/bin");
        for (std::string dir; std::getline(dirs, dir, ':');) {
            const std::string candidate = (dir.empty() ? "." : dir) + "/" + options.executable;
            if (std::ifstream(candidate).good()) {
                options.executable = candidate;
                break;
            }
        }
    }
    options.arguments.assign(argv.begin() + 1, argv.end());
    options.remoteName =
        target.kind == WorkerTarget::Kind::Ssh ? target.host : target.displayName();
    options.linkSlackSeconds = WorkerProcess::kLinkSlackSeconds;
    return options;
}

std::string describeRemoteFailure(const WorkerProcess::Options &options, int waitStatus,
                                  const std::string &stderrTail, bool duringRequest)
{
    const std::string &host = options.remoteName;
    const std::string said = lastLine(stderrTail);
    const std::string quoted = said.empty() ? std::string() : " (it said: " + said + ")";
    if (contains(stderrTail, "Host key verification failed") ||
        contains(stderrTail, "REMOTE HOST IDENTIFICATION HAS CHANGED") ||
        contains(stderrTail, "No ED25519 host key is known") ||
        contains(stderrTail, "host key is known")) {
        return "ssh does not know the host key of " + host +
               " and will not connect (it never asks in batch mode): connect once with `ssh " +
               host +
               "` and accept the key after checking its fingerprint, or add it with "
               "`ssh-keyscan " +
               host + " >> ~/.ssh/known_hosts`" + quoted;
    }
    if (contains(stderrTail, "Permission denied") ||
        contains(stderrTail, "Too many authentication failures")) {
        return "ssh could not log in to " + host +
               ": the server refused every key (the workbench never asks for a password); add "
               "your public key to ~/.ssh/authorized_keys there, or load it into ssh-agent" +
               quoted;
    }
    if (contains(stderrTail, "Connection refused")) {
        return "ssh could not connect to " + host +
               ": the connection was refused (no ssh server on that port?)" + quoted;
    }
    if (contains(stderrTail, "Could not resolve hostname") ||
        contains(stderrTail, "No route to host") ||
        contains(stderrTail, "Network is unreachable") ||
        contains(stderrTail, "Connection timed out") ||
        contains(stderrTail, "Operation timed out")) {
        return "ssh could not reach " + host + quoted;
    }
    const bool exited = WIFEXITED(waitStatus);
    const int status = exited ? WEXITSTATUS(waitStatus) : -1;
    if (exited && status == 127) {
        return "there is no cuwb on " + host + " (the command was not found)" + quoted + "; " +
               kRemoteInstallHint;
    }
    if (exited && status == 126) {
        return "the cuwb on " + host + " cannot be run (not executable)" + quoted + "; " +
               kRemoteInstallHint;
    }
    // What ssh says when the link itself broke (the server went away, the network dropped).
    if (contains(stderrTail, "closed by remote host") || contains(stderrTail, "Broken pipe") ||
        contains(stderrTail, "Connection reset") || contains(stderrTail, "Connection closed") ||
        contains(stderrTail, "Timeout, server")) {
        if (duringRequest) {
            return "the connection to " + host + " was lost during the run" + quoted +
                   "; the next request connects again";
        }
        return "the connection to " + host + " closed before the worker answered" + quoted;
    }
    // ssh exits 255 for its own failures, and also when the remote command was killed by a
    // signal (it does not pass signals on), so that status alone cannot tell the two apart.
    if (!exited || status == 255) {
        if (duringRequest) {
            return "the worker on " + host +
                   " stopped during the run: it was killed (a crash) or the connection broke "
                   "(ssh exited with status 255)" +
                   quoted + "; the next request connects again";
        }
        return "could not reach the worker on " + host + " (ssh exited with status 255)" + quoted;
    }
    if (status == 0) {
        return "the worker on " + host + " exited without answering" + quoted;
    }
    return "the worker on " + host + " exited with status " + std::to_string(status) +
           " without answering" + quoted;
}

} // namespace cuwb
