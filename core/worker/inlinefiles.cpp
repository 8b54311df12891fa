#include "worker/inlinefiles.h"

#include "util/tempfolder.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <stdexcept>
#include <system_error>

namespace cuwb {

namespace {

// Every path a request reads a file from, as a reference the caller may rewrite.
void forEachInputPath(RunRequest &request, const std::function<void(std::string &)> &visit)
{
    for (ArgumentSpec &argument : request.launch.arguments) {
        if (argument.isBuffer && argument.init.kind == InitKind::File) {
            visit(argument.init.file);
        }
    }
    for (GlobalSpec &global : request.launch.globals) {
        if (global.init.kind == InitKind::File) {
            visit(global.init.file);
        }
    }
    for (KernelStep &step : request.launch.then) {
        for (ArgumentSpec &argument : step.arguments) {
            if (argument.isBuffer && argument.buffer.empty() &&
                argument.init.kind == InitKind::File) {
                visit(argument.init.file);
            }
        }
    }
    for (VerificationSpec &check : request.verification.checks) {
        if (check.kind == ReferenceKind::File) {
            visit(check.file);
        }
    }
}

std::string mebibytes(std::uint64_t bytes)
{
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

} // namespace

std::variant<std::vector<InlineFile>, std::string> collectInputFiles(const RunRequest &request)
{
    RunRequest copy = request;
    std::vector<std::string> paths;
    forEachInputPath(copy, [&](std::string &path) {
        if (std::find(paths.begin(), paths.end(), path) == paths.end()) {
            paths.push_back(path);
        }
    });
    std::vector<InlineFile> files;
    std::uint64_t total = 0;
    for (const std::string &path : paths) {
        std::error_code error;
        const std::uintmax_t size = std::filesystem::file_size(path, error);
        if (error) {
            return "cannot read the input file " + path + ": " + error.message();
        }
        total += size;
        if (total > kMaxInlineFileBytes) {
            return "the input files of this run are " + mebibytes(total) +
                   " or more, but a run on a remote GPU carries at most " +
                   mebibytes(kMaxInlineFileBytes) + " of files in its request (" + path + " is " +
                   mebibytes(size) +
                   "); generate the input instead (init uniform, range...) or run on this "
                   "machine";
        }
        std::ifstream in(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            return "cannot read the input file " + path;
        }
        files.push_back({path, std::move(bytes)});
    }
    return files;
}

InlineFileFolder::InlineFileFolder(const std::vector<InlineFile> &files, RunRequest &request)
{
    if (files.empty()) {
        return;
    }
    std::string pattern = temporaryPattern("cuwb-inputs");
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot make a folder for the request's input files in " +
                                 temporaryFolder());
    }
    m_folder = pattern;
    std::map<std::string, std::string> copies;
    for (std::size_t i = 0; i < files.size(); ++i) {
        // The extension tells .npy from raw bytes to the reader; the name is ours.
        const std::string extension = std::filesystem::path(files[i].path).extension().string();
        const std::string copy = m_folder + "/input" + std::to_string(i) + extension;
        std::ofstream out(copy, std::ios::binary);
        out.write(files[i].bytes.data(), static_cast<std::streamsize>(files[i].bytes.size()));
        if (!out) {
            throw std::runtime_error("cannot write the request's input file " + copy);
        }
        copies[files[i].path] = copy;
    }
    forEachInputPath(request, [&](std::string &path) {
        if (const auto found = copies.find(path); found != copies.end()) {
            path = found->second;
        }
    });
}

InlineFileFolder::~InlineFileFolder()
{
    if (!m_folder.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(m_folder, ignored);
    }
}

} // namespace cuwb
