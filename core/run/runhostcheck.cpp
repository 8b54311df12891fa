#include "run/runhostcheck.h"

#include "run/bufferfiles.h"
#include "run/verificationcheck.h"

#include <algorithm>
#include <filesystem>

namespace cuwb {

namespace {

// A file the run reads for `forWhat`, as the worker will read it; only whether it exists when
// the launch did not resolve (the buffer's count is then unknown).
std::vector<LaunchIssue> checkFile(const std::string &field, const std::string &path,
                                   const ElementType &type, std::uint64_t count,
                                   const std::string &forWhat, bool resolved)
{
    if (path.empty())
        return {{field, "names no file", -1}};
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return {{field, "'" + path + "' does not exist", -1}};
    if (!resolved)
        return {};
    try {
        (void)checkBufferFile(path, type, count, forWhat);
    } catch (const FileProblem &problem) {
        return {{field, problem.what(), -1}};
    }
    return {};
}

void append(std::vector<LaunchIssue> &to, std::vector<LaunchIssue> more)
{
    to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

} // namespace

std::vector<LaunchIssue> checkInputFiles(const ResolvedLaunch &resolved)
{
    std::vector<LaunchIssue> issues;
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        // An output starts as poison, whatever its init says; the worker reads no file for it.
        if (buffer.init.kind != InitKind::File || buffer.role == BufferRole::Out)
            continue;
        append(issues, checkFile("argument " + buffer.parameter + ": init file", buffer.init.file,
                                 buffer.elementType, buffer.count, "`" + buffer.parameter + "`",
                                 resolved.ok()));
    }
    for (const ResolvedBuffer &global : resolved.globals) {
        if (global.init.kind != InitKind::File)
            continue;
        append(issues, checkFile("global " + global.parameter + ": init file", global.init.file,
                                 global.elementType, global.count, "`" + global.parameter + "`",
                                 resolved.ok()));
    }
    return issues;
}

std::vector<LaunchIssue> checkRunOnHost(const RunHostInput &input, const CompileFunction &compile)
{
    std::vector<LaunchIssue> issues;
    // A launch whose names did not resolve has its own issues; the checks would repeat them.
    if (input.resolved.ok() || !input.resolved.buffers.empty()) {
        issues =
            checkVerification(input.verification, {input.module, input.source, input.resolved,
                                                   compile, input.arch, true, input.deviceNames});
    }
    append(issues, checkInputFiles(input.resolved));
    return issues;
}

bool RunHostInput::operator==(const RunHostInput &other) const
{
    const auto sameBuffers = [](const std::vector<ResolvedBuffer> &a,
                                const std::vector<ResolvedBuffer> &b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](const ResolvedBuffer &x, const ResolvedBuffer &y) {
                              return x.parameter == y.parameter && x.elementType == y.elementType &&
                                     x.count == y.count && x.role == y.role && x.init == y.init;
                          });
    };
    const auto sameScalars = [](const std::vector<ResolvedScalar> &a,
                                const std::vector<ResolvedScalar> &b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](const ResolvedScalar &x, const ResolvedScalar &y) {
                              return x.parameter == y.parameter && x.elementType == y.elementType &&
                                     x.bytes == y.bytes;
                          });
    };
    const auto sameKernels = [](const std::vector<KernelInfo> &a,
                                const std::vector<KernelInfo> &b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](const KernelInfo &x, const KernelInfo &y) {
                              return x.loweredName == y.loweredName;
                          });
    };
    return arch == other.arch && verification == other.verification &&
           deviceNames == other.deviceNames && source == other.source &&
           module.ptx == other.module.ptx && resolved.variables == other.resolved.variables &&
           resolved.issues.size() == other.resolved.issues.size() &&
           sameBuffers(resolved.buffers, other.resolved.buffers) &&
           sameBuffers(resolved.globals, other.resolved.globals) &&
           sameScalars(resolved.scalars, other.resolved.scalars) &&
           sameKernels(module.kernels, other.module.kernels);
}

std::optional<RunHostInput> runHostInput(const LaunchSession &session)
{
    if (!session.hasKernel() || !session.compiled())
        return std::nullopt;
    RunHostInput input;
    input.deviceNames = session.deviceNames();
    try {
        input.resolved =
            resolveLaunch(session.spec(), session.signature(), session.options().defines,
                          input.deviceNames, session.sequenceKernels().signatures);
    } catch (const std::exception &error) {
        input.resolved.issues.push_back({"launch", error.what(), -1});
    }
    input.module.kernels = session.kernels();
    input.module.ptx = session.ptx();
    input.source = session.source();
    input.verification = session.verification();
    input.arch = session.device() ? session.device()->arch() : session.options().arch;
    return input;
}

} // namespace cuwb
