#include "launch/launchsequence.h"

#include "compiler/kernellookup.h"

#include <algorithm>

namespace cuwb {

SequenceKernels findSequenceKernels(const LaunchSpec &launch, const CompileResult &compiled,
                                    std::string_view source)
{
    return findSequenceKernels(launch, compiled.kernels, compiled.ptx, source);
}

SequenceKernels findSequenceKernels(const LaunchSpec &launch,
                                    const std::vector<KernelInfo> &kernels, std::string_view ptx,
                                    std::string_view source)
{
    SequenceKernels found;
    for (std::size_t k = 0; k < launch.then.size(); ++k) {
        const KernelStep &step = launch.then[k];
        const KernelLookup lookup = findKernel(kernels, step.kernel);
        found.kernels.push_back(lookup.kernel);
        if (!lookup.found()) {
            KernelSignature missing;
            missing.error = lookup.error;
            found.signatures.push_back(std::move(missing));
            found.issues.push_back({stepField(launch, k) + ": kernel", lookup.error, -1});
            continue;
        }
        found.signatures.push_back(parseKernelSignature(source, ptx, *lookup.kernel));
    }
    return found;
}

std::vector<LaunchIssue> validateSequence(const LaunchSpec &launch, const ResolvedLaunch &resolved,
                                          const SequenceKernels &kernels,
                                          const ValidationContext &context)
{
    std::vector<LaunchIssue> issues;
    for (std::size_t k = 0; k < resolved.steps.size() && k < kernels.kernels.size(); ++k) {
        if (!kernels.kernels[k])
            continue; // said by findSequenceKernels
        const ResolvedStep &step = resolved.steps[k];
        ResolvedLaunch alone; // the step's dimensions only: the buffers are counted once
        alone.grid = step.grid;
        alone.block = step.block;
        alone.dynamicSharedBytes = step.dynamicSharedBytes;
        ValidationContext withoutMemory = context;
        withoutMemory.freeMemoryBytes.reset();
        for (LaunchIssue issue :
             validateLaunch(alone, kernels.kernels[k]->resources, withoutMemory)) {
            issue.field = stepField(launch, k) + ": " + issue.field;
            issues.push_back(std::move(issue));
        }
    }
    return issues;
}

namespace {

bool countLike(const std::string &name)
{
    for (const char *word : {"n", "N", "count", "size", "len", "length", "num", "elements"}) {
        if (name == word)
            return true;
    }
    return false;
}

} // namespace

KernelStep defaultStep(const KernelSignature &signature, const LaunchSpec &launch)
{
    KernelStep step;
    step.block = {"block.x", "block.y", "block.z"};
    // The sequence's buffers so far, by name: the first kernel's, then the steps' new ones.
    std::vector<const ArgumentSpec *> buffers;
    for (const ArgumentSpec &argument : launch.arguments) {
        if (argument.isBuffer)
            buffers.push_back(&argument);
    }
    for (const KernelStep &earlier : launch.then) {
        for (const ArgumentSpec &argument : earlier.arguments) {
            if (argument.isBuffer && argument.buffer.empty())
                buffers.push_back(&argument);
        }
    }
    std::string gridCount;
    for (const KernelParameter &parameter : signature.parameters) {
        ArgumentSpec argument;
        argument.parameter = parameter.name;
        if (!parameter.isPointer) {
            argument.isBuffer = false;
            argument.elementType = parameter.elementType;
            const bool isVariable =
                std::any_of(launch.variables.begin(), launch.variables.end(),
                            [&](const auto &v) { return v.first == parameter.name; });
            argument.value = isVariable                  ? parameter.name
                             : countLike(parameter.name) ? std::string("N")
                                                         : std::string("1");
            step.arguments.push_back(std::move(argument));
            continue;
        }
        const auto sameName = std::find_if(buffers.begin(), buffers.end(), [&](const auto *b) {
            return b->parameter == parameter.name;
        });
        // An input with no buffer of its name takes the only one of its type not bound yet;
        // an output with none gets a buffer of its own rather than overwrite an input.
        std::vector<const ArgumentSpec *> sameType;
        for (const ArgumentSpec *buffer : buffers) {
            const bool taken = std::any_of(
                step.arguments.begin(), step.arguments.end(),
                [&](const ArgumentSpec &earlier) { return earlier.buffer == buffer->parameter; });
            if (buffer->elementType.scalar == parameter.elementType.scalar && !taken)
                sameType.push_back(buffer);
        }
        const ArgumentSpec *bound = nullptr;
        if (sameName != buffers.end())
            bound = *sameName;
        else if (parameter.isConst && sameType.size() == 1)
            bound = sameType.front();
        if (bound) {
            argument.buffer = bound->parameter;
            if (gridCount.empty() && !parameter.isConst)
                gridCount = bound->count;
        } else {
            argument.elementType = parameter.elementType;
            argument.role = parameter.isConst ? BufferRole::In : BufferRole::Out;
            argument.count = buffers.empty() ? std::string("N") : buffers.front()->count;
            if (gridCount.empty() && !parameter.isConst)
                gridCount = argument.count;
        }
        step.arguments.push_back(std::move(argument));
    }
    step.grid = {"ceil((" + (gridCount.empty() ? std::string("N") : gridCount) + ") / block.x)",
                 "1", "1"};
    return step;
}

std::vector<std::string> launchKernelNames(const LaunchSpec &launch,
                                           const Verification &verification)
{
    std::vector<std::string> names{launch.kernel};
    for (const KernelStep &step : launch.then)
        names.push_back(step.kernel);
    for (const std::string &name : verification.referenceKernels())
        names.push_back(name);
    return names;
}

} // namespace cuwb
