#include "run/runhostcheck.h"

#include "compiler/kernellookup.h"
#include "launch/expression.h"
#include "run/bufferfiles.h"
#include "run/elementkernelsource.h"
#include "run/hostelements.h"
#include "run/runtext.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace cuwb {

namespace {

const ResolvedBuffer *bufferNamed(const ResolvedLaunch &resolved, const std::string &name)
{
    const auto found =
        std::find_if(resolved.buffers.begin(), resolved.buffers.end(),
                     [&](const ResolvedBuffer &buffer) { return buffer.parameter == name; });
    return found == resolved.buffers.end() ? nullptr : &*found;
}

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

std::vector<LaunchIssue> compileElementKernelIssues(const std::string &field,
                                                    const ElementKernelJob &job,
                                                    const RunHostContext &context)
{
    if (!context.compile)
        return {};
    const ElementKernelCompile built =
        compileElementKernel(job, context.resolved, context.arch, context.compile);
    if (built.error.empty())
        return {};
    return {{field, built.error, -1}};
}

void append(std::vector<LaunchIssue> &to, std::vector<LaunchIssue> more)
{
    to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

bool elementWise(const VerificationSpec &verification)
{
    return verification.kind != ReferenceKind::Aggregate &&
           !(verification.kind == ReferenceKind::Kernel && verification.reduce != Reduction::None);
}

} // namespace

std::vector<LaunchIssue> checkVerificationOutput(const VerificationSpec &verification,
                                                 const ResolvedLaunch &resolved)
{
    if (verification.output.empty())
        return {{"verification: output", "names no buffer to check", -1}};
    if (!bufferNamed(resolved, verification.output))
        return {{"verification: output",
                 "the kernel has no pointer parameter named '" + verification.output + "'", -1}};
    return {};
}

std::vector<LaunchIssue> checkVerificationCount(const VerificationSpec &verification,
                                                const ResolvedLaunch &resolved)
{
    const ResolvedBuffer *out = bufferNamed(resolved, verification.output);
    if (verification.count.empty() || !out)
        return {};
    const ExpressionValue count = evaluateExpression(verification.count, resolved.variables);
    if (!count.ok())
        return {{"verification: count", count.error->message, count.error->position}};
    if (count.value < 1 || count.value != std::trunc(count.value) ||
        count.value > double(out->count))
        return {{"verification: count",
                 "`" + verification.count + "` is " + shortNumber(count.value) + "; `" +
                     out->parameter + "` has " + plural(out->count, "element") +
                     ", so it must be a whole number from 1 to " + std::to_string(out->count),
                 -1}};
    return {};
}

std::vector<LaunchIssue> checkVerificationExpression(const VerificationSpec &verification,
                                                     const RunHostContext &context)
{
    const ResolvedBuffer *out = bufferNamed(context.resolved, verification.output);
    if (verification.kind != ReferenceKind::Expression || !out)
        return {};
    if (verification.expression.empty())
        return {{"verification: expression", "the reference expression is empty", -1}};
    if (out->elementType.lanes > 1)
        return {{"verification: expression",
                 "cannot verify `" + out->parameter +
                     "` with an expression: vector element types need a reference kernel or a "
                     "file",
                 -1}};
    return compileElementKernelIssues(
        "verification: expression",
        {verification.expression, "verification expression", false, cudaTypeName(out->elementType)},
        context);
}

std::vector<LaunchIssue> checkVerificationMask(const VerificationSpec &verification,
                                               const RunHostContext &context)
{
    if (verification.mask.empty() || !bufferNamed(context.resolved, verification.output))
        return {};
    if (!elementWise(verification))
        return {{"verification: mask", "a reduction takes no mask; only elements are masked", -1}};
    return compileElementKernelIssues(
        "verification: mask", {verification.mask, "verification mask", true, "unsigned char"},
        context);
}

std::vector<LaunchIssue> checkReferenceKernel(const VerificationSpec &verification,
                                              const std::vector<KernelInfo> &kernels)
{
    if (verification.kind != ReferenceKind::Kernel)
        return {};
    if (verification.referenceKernel.empty())
        return {{"verification: referenceKernel", "names no reference kernel", -1}};
    if (const KernelLookup reference = findKernel(kernels, verification.referenceKernel);
        !reference.found())
        return {{"verification: referenceKernel", reference.error, -1}};
    return {};
}

std::vector<LaunchIssue> checkReferenceFile(const VerificationSpec &verification,
                                            const ResolvedLaunch &resolved)
{
    if (verification.kind != ReferenceKind::File)
        return {};
    if (verification.file.empty())
        return {{"verification: file", "names no reference file", -1}};
    const ResolvedBuffer *out = bufferNamed(resolved, verification.output);
    if (!out) {
        std::error_code error;
        if (!std::filesystem::is_regular_file(verification.file, error))
            return {{"verification: file", "'" + verification.file + "' does not exist", -1}};
        return {};
    }
    return checkFile("verification: file", verification.file, out->elementType, out->count,
                     "the reference of `" + out->parameter + "`", resolved.ok());
}

std::vector<LaunchIssue> checkAggregate(const VerificationSpec &verification,
                                        const ResolvedLaunch &resolved)
{
    if (verification.kind != ReferenceKind::Aggregate)
        return {};
    if (!verification.of.empty()) {
        if (!bufferNamed(resolved, verification.of))
            return {{"verification: of", "`" + verification.of + "` is not a buffer of the kernel",
                     -1}};
        return {};
    }
    if (verification.expected.empty())
        return {{"verification: expected",
                 "an aggregate needs `of` (a buffer) or `expected` (a value)", -1}};
    const ExpressionValue expected = evaluateExpression(verification.expected, resolved.variables);
    if (!expected.ok())
        return {{"verification: expected", expected.error->message, expected.error->position}};
    return {};
}

std::vector<LaunchIssue> checkVerification(const VerificationSpec &verification,
                                           const RunHostContext &context)
{
    if (verification.kind == ReferenceKind::None)
        return {};
    std::vector<LaunchIssue> issues = checkVerificationOutput(verification, context.resolved);
    append(issues, checkReferenceKernel(verification, context.kernels));
    append(issues, checkReferenceFile(verification, context.resolved));
    // The rest evaluates the launch's names or compiles with them: a launch that did not
    // resolve has its own issues, which these would only repeat.
    if (!context.resolved.ok())
        return issues;
    append(issues, checkVerificationCount(verification, context.resolved));
    append(issues, checkVerificationExpression(verification, context));
    append(issues, checkVerificationMask(verification, context));
    append(issues, checkAggregate(verification, context.resolved));
    return issues;
}

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

std::vector<LaunchIssue> checkRunOnHost(const VerificationSpec &verification,
                                        const RunHostContext &context)
{
    std::vector<LaunchIssue> issues = checkVerification(verification, context);
    append(issues, checkInputFiles(context.resolved));
    return issues;
}

std::vector<LaunchIssue> checkRunOnHost(const RunHostInput &input, const CompileFunction &compile)
{
    return checkRunOnHost(input.verification,
                          RunHostContext{input.resolved, input.kernels, input.arch, compile});
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
           resolved.variables == other.resolved.variables &&
           resolved.issues.size() == other.resolved.issues.size() &&
           sameBuffers(resolved.buffers, other.resolved.buffers) &&
           sameBuffers(resolved.globals, other.resolved.globals) &&
           sameScalars(resolved.scalars, other.resolved.scalars) &&
           sameKernels(kernels, other.kernels);
}

std::optional<RunHostInput> runHostInput(const LaunchSession &session)
{
    if (!session.hasKernel() || !session.compiled())
        return std::nullopt;
    RunHostInput input;
    try {
        input.resolved =
            resolveLaunch(session.spec(), session.signature(), session.options().defines);
    } catch (const std::exception &error) {
        input.resolved.issues.push_back({"launch", error.what(), -1});
    }
    input.kernels = session.kernels();
    input.verification = session.verification();
    input.arch = session.device() ? session.device()->arch() : session.options().arch;
    return input;
}

} // namespace cuwb
