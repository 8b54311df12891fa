#include "launch/launchsession.h"

#include "compiler/kernellookup.h"
#include "launch/launchmerge.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace cuwb {

LaunchSession::Change LaunchSession::setModule(const CompileResult &result, std::string source,
                                               std::string fileName)
{
    const std::string previous = loweredName();
    m_compiled = true;
    m_source = std::move(source);
    m_fileName = std::move(fileName);
    m_ptx = result.ptx;
    m_options = result.options;
    m_kernels = result.kernels;
    if (m_kernels.empty()) {
        clear();
        return {};
    }
    const std::string wanted = m_pendingSpec ? m_pendingSpec->kernel : previous;
    m_kernelIndex = std::max(indexOf(wanted), 0);
    Change change = adoptSignature();
    change.kernelChanged = loweredName() != previous;
    return change;
}

void LaunchSession::clear()
{
    m_kernels.clear();
    m_kernelIndex = -1;
    m_compiled = false;
    m_signature = KernelSignature{};
}

LaunchSession::Change LaunchSession::chooseKernel(int index)
{
    if (index == m_kernelIndex)
        return {};
    m_kernelIndex = index;
    Change change = adoptSignature();
    change.kernelChanged = true;
    return change;
}

LaunchSession::Change LaunchSession::setLaunch(const LaunchSpec &spec,
                                               const Verification &verification)
{
    m_verification = verification;
    m_specsByKernel.clear();
    m_pendingSpec = spec;
    if (m_kernels.empty() || (!spec.kernel.empty() && indexOf(spec.kernel) < 0))
        return {};
    if (spec.kernel.empty())
        m_pendingSpec->kernel =
            preferredName(m_kernels, m_kernels[std::size_t(std::max(0, m_kernelIndex))]);
    m_kernelIndex = indexOf(m_pendingSpec->kernel);
    return adoptSignature();
}

void LaunchSession::setSpec(const LaunchSpec &spec)
{
    m_spec = spec;
    if (const KernelInfo *chosen = kernel())
        m_specsByKernel[chosen->loweredName] = m_spec;
}

void LaunchSession::setDevice(const std::optional<DeviceInfo> &device,
                              std::optional<std::uint64_t> freeMemoryBytes)
{
    m_device = device;
    m_freeMemory = freeMemoryBytes;
}

const KernelInfo *LaunchSession::kernel() const
{
    if (m_kernelIndex < 0 || std::size_t(m_kernelIndex) >= m_kernels.size())
        return nullptr;
    return &m_kernels[std::size_t(m_kernelIndex)];
}

std::string LaunchSession::loweredName() const
{
    const KernelInfo *chosen = kernel();
    return chosen ? chosen->loweredName : std::string();
}

std::vector<std::string> LaunchSession::otherKernelNames() const
{
    std::vector<std::string> names;
    for (const KernelInfo &other : m_kernels) {
        if (&other != kernel())
            names.push_back(preferredName(m_kernels, other));
    }
    return names;
}

LaunchSpec LaunchSession::launchForCompile() const
{
    return m_pendingSpec ? *m_pendingSpec : m_spec;
}

int LaunchSession::indexOf(const std::string &name) const
{
    const KernelLookup lookup = findKernel(m_kernels, name);
    return lookup.found() ? int(lookup.kernel - m_kernels.data()) : -1;
}

LaunchSession::Change LaunchSession::adoptSignature()
{
    const KernelInfo *chosen = kernel();
    if (!chosen)
        return {.adopted = true};
    KernelSignature signature;
    try {
        signature = parseKernelSignature(m_source, m_ptx, *chosen);
    } catch (const std::exception &error) {
        signature.kernelName = chosen->loweredName;
        signature.error = error.what();
    }
    if (signature.kernelName.empty())
        signature.kernelName = chosen->loweredName;

    // The launch to start from: the project's waiting one when it names this kernel, else
    // what the user set up for it before, else the current one when it names this kernel.
    std::optional<LaunchSpec> base;
    const auto names = [&](const std::string &name) {
        return findKernel(m_kernels, name).kernel == chosen;
    };
    if (m_pendingSpec && names(m_pendingSpec->kernel)) {
        base = *m_pendingSpec;
        m_pendingSpec.reset();
    } else if (const auto found = m_specsByKernel.find(chosen->loweredName);
               found != m_specsByKernel.end()) {
        base = found->second;
    } else if (!m_spec.kernel.empty() && names(m_spec.kernel)) {
        base = m_spec;
    }
    LaunchSpec spec;
    try {
        spec = base ? mergeLaunch(*base, signature) : defaultLaunchSpec(signature);
    } catch (const std::exception &) {
        spec = base.value_or(LaunchSpec{});
    }
    // Keep the user's spelling when it names this kernel; else the shortest name that does,
    // which survives a define that changes the kernel's parameter types.
    spec.kernel = base && names(base->kernel) ? base->kernel : preferredName(m_kernels, *chosen);

    Change change{.adopted = true};
    change.specChanged = signature.parameters != m_signature.parameters ||
                         signature.error != m_signature.error || spec != m_spec;
    m_signature = std::move(signature);
    m_spec = std::move(spec);
    m_specsByKernel[chosen->loweredName] = m_spec;
    for (VerificationSpec &check : m_verification.checks) {
        if (!change.specChanged || !check.output.empty())
            continue;
        // A check without an output compares the first buffer the kernel may write.
        const auto output = std::find_if(
            m_spec.arguments.begin(), m_spec.arguments.end(), [](const ArgumentSpec &argument) {
                return argument.isBuffer && argument.role != BufferRole::In;
            });
        if (output != m_spec.arguments.end())
            check.output = output->parameter;
    }
    return change;
}

SequenceKernels LaunchSession::sequenceKernels() const
{
    return findSequenceKernels(m_spec, m_kernels, m_ptx, m_source);
}

KernelStep LaunchSession::newStep(int index) const
{
    if (index < 0 || std::size_t(index) >= m_kernels.size())
        return {};
    const KernelInfo &chosen = m_kernels[std::size_t(index)];
    KernelSignature signature;
    try {
        signature = parseKernelSignature(m_source, m_ptx, chosen);
    } catch (const std::exception &error) {
        signature.error = error.what();
    }
    KernelStep step = defaultStep(signature, m_spec);
    step.kernel = preferredName(m_kernels, chosen);
    return step;
}

DeviceNames LaunchSession::deviceNames() const
{
    return m_device ? deviceNamesOf(*m_device) : deviceNamesForArch(m_options.arch);
}

ValidationContext LaunchSession::validationContext() const
{
    ValidationContext context;
    if (m_device) {
        context.limits = m_device->limits();
        context.limitsName = m_device->name;
        context.freeMemoryBytes = m_freeMemory;
    } else if (const auto limits = archLimits(m_options.arch)) {
        context.limits = *limits;
        context.limitsName = m_options.arch;
    } else {
        context.limitsName = m_options.arch;
    }
    return context;
}

std::string LaunchSession::metricsArchitecture() const
{
    if (m_device)
        return m_device->arch();
    if (const auto limits = archLimits(m_options.arch))
        return limits->name();
    return m_options.arch;
}

std::vector<LaunchIssue> LaunchSession::validate(const std::vector<LaunchIssue> &globalIssues) const
{
    const KernelInfo *chosen = kernel();
    if (!chosen)
        return {};
    std::vector<LaunchIssue> issues;
    ResolvedLaunch resolved;
    try {
        const SequenceKernels sequence = sequenceKernels();
        resolved = resolveLaunch(m_spec, m_signature, m_options.defines, deviceNames(),
                                 sequence.signatures);
        const ValidationContext context = validationContext();
        issues = validateLaunch(resolved, chosen->resources, context);
        for (LaunchIssue &issue : validateSequence(m_spec, resolved, sequence, context))
            issues.push_back(std::move(issue));
    } catch (const std::exception &error) {
        issues.push_back({"launch", error.what(), -1});
    }
    issues.insert(issues.end(), globalIssues.begin(), globalIssues.end());

    // What each check still needs; its expressions are compiled by `cuwb check` and the worker.
    const std::vector<ModuleVariable> variables = moduleVariables(m_ptx, m_source);
    for (std::size_t k = 0; k < m_verification.checks.size(); ++k) {
        const VerificationSpec &verification = m_verification.checks[k];
        const std::string field = m_verification.checks.size() == 1
                                      ? std::string("verification")
                                      : "verification[" + std::to_string(k) + "]";
        const auto need = [&](const char *what) { issues.push_back({field, what, -1}); };
        const bool outputKnown =
            std::any_of(m_spec.arguments.begin(), m_spec.arguments.end(),
                        [&](const ArgumentSpec &argument) {
                            return argument.isBuffer && argument.parameter == verification.output;
                        }) ||
            std::any_of(
                resolved.buffers.begin(), resolved.buffers.end(),
                [&](const ResolvedBuffer &b) { return b.parameter == verification.output; }) ||
            std::any_of(variables.begin(), variables.end(),
                        [&](const ModuleVariable &v) { return v.name == verification.output; });
        if (!outputKnown)
            need("choose the output buffer to check");
        if (verification.kind == ReferenceKind::Expression && verification.expression.empty())
            need("enter the expected value of element i");
        if (verification.kind == ReferenceKind::Kernel && verification.referenceKernel.empty())
            need("choose the reference kernel");
        if (verification.kind == ReferenceKind::File && verification.file.empty())
            need("choose the reference file");
        if (verification.kind == ReferenceKind::Aggregate && verification.of.empty() &&
            verification.expected.empty())
            need("give the expected value, or an input to compare with");
    }
    return issues;
}

} // namespace cuwb
