#include "launch/launchmerge.h"

#include <algorithm>

namespace cuwb {

namespace {

bool sameKind(const ArgumentSpec &argument, const KernelParameter &parameter)
{
    return argument.parameter == parameter.name && argument.isBuffer == parameter.isPointer &&
           (!argument.isBuffer || argument.elementType == parameter.elementType);
}

} // namespace

LaunchSpec mergeLaunch(const LaunchSpec &previous, const KernelSignature &signature)
{
    const LaunchSpec defaults = defaultLaunchSpec(signature);
    LaunchSpec merged = previous;
    merged.kernel = signature.kernelName;
    merged.arguments.clear();
    bool usedDefaults = false;
    for (const KernelParameter &parameter : signature.parameters) {
        const auto kept = std::find_if(
            previous.arguments.begin(), previous.arguments.end(),
            [&](const ArgumentSpec &argument) { return sameKind(argument, parameter); });
        if (kept != previous.arguments.end()) {
            merged.arguments.push_back(*kept);
            continue;
        }
        const auto fallback = std::find_if(
            defaults.arguments.begin(), defaults.arguments.end(),
            [&](const ArgumentSpec &argument) { return argument.parameter == parameter.name; });
        if (fallback != defaults.arguments.end())
            merged.arguments.push_back(*fallback);
        usedDefaults = true;
    }
    if (usedDefaults) {
        for (const auto &variable : defaults.variables) {
            const bool known =
                std::any_of(merged.variables.begin(), merged.variables.end(),
                            [&](const auto &v) { return v.first == variable.first; });
            if (!known)
                merged.variables.push_back(variable);
        }
    }
    return merged;
}

} // namespace cuwb
