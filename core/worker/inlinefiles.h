// Input files that travel inside a request to a remote worker: a buffer initialised from a
// file ("init": "file") and a reference read from one ("reference": "file") name paths on the
// client's machine, which the worker on another machine cannot open. The client reads them and
// sends their bytes along (base64 in the request's "files"); the worker writes them to a
// private temporary folder for the request and reads them from there. Used by WorkerClient
// (client side) and WorkerServer (worker side); nothing else changes for the runner.
#pragma once

#include "run/runrequest.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace cuwb {

struct InlineFile
{
    std::string path;  // as the request names it, on the client's machine
    std::string bytes; // its contents
};

// The most bytes of files one request carries (before base64): the link carries a request as
// one line, and a bigger input belongs on the remote machine (docs/remote.md).
inline constexpr std::uint64_t kMaxInlineFileBytes = std::uint64_t(64) << 20;

// The files a request reads, each once, read from this machine; the sentence of the problem
// when one cannot be read or they are larger together than kMaxInlineFileBytes.
std::variant<std::vector<InlineFile>, std::string> collectInputFiles(const RunRequest &request);

// The worker's side: writes the files to a fresh private folder and points the request's paths
// at the copies; removes the folder when it goes. Throws std::runtime_error when it cannot.
class InlineFileFolder
{
public:
    InlineFileFolder(const std::vector<InlineFile> &files, RunRequest &request);
    ~InlineFileFolder();
    InlineFileFolder(const InlineFileFolder &) = delete;
    InlineFileFolder &operator=(const InlineFileFolder &) = delete;

private:
    std::string m_folder;
};

} // namespace cuwb
