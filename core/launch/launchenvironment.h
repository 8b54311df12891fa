// The launch environment: every name an expression of a launch may use, evaluated together —
// the variables, the defines whose values are expressions, block.x/y/z, grid.x/y/z, the
// tuner defines (block_size_x = block.x, ...), and the compile options' defines whose values
// are plain numbers. Any of them may use any other, in any order (a grid of
// `N / (block.x * tile_size_x)`, a define `block_size_x = block.x`); a name that depends on
// itself is an error naming the cycle. This is how auto-tuners treat their tunable
// parameters: each is at once a -D define of the source and a name in the launch's formulas.
#pragma once

#include "compiler/compileoptions.h"
#include "launch/devicenames.h"
#include "launch/launchspec.h"

#include <string>
#include <utility>
#include <vector>

namespace cuwb {

struct LaunchEnvironment
{
    Variables values; // every name that evaluated, block.x ... grid.z included
    // The -D defines the launch adds to the compile options, in order: NAME, value text.
    std::vector<std::pair<std::string, std::string>> defines;
    // Problems, with the field they belong to: "variables: N", "defines: TILE", "block.x",
    // "grid.y". A name that could not be evaluated because another failed is not repeated.
    std::vector<LaunchIssue> issues;
    [[nodiscard]] bool ok() const { return issues.empty(); }
};

// The tuner defines' names and expressions when LaunchSpec::tunerDefines is on: block_size_x/y/z,
// grid_size_x/y/z and kernel_tuner (1), as Kernel Tuner defines them.
const std::vector<std::pair<std::string, std::string>> &tunerDefineExpressions();

// Evaluates the environment of `spec`. `compileDefines` are the compile options' defines
// ("NAME=16", "USE_FAST"): those with a numeric value are visible as names unless a variable
// or launch define of the same name takes precedence. `device`: the device.* names
// (launch/devicenames.h), likewise below a variable or define of the same name.
LaunchEnvironment evaluateLaunchEnvironment(const LaunchSpec &spec,
                                            const std::vector<std::string> &compileDefines = {},
                                            const DeviceNames &device = {});

// Prepares a launch and its compile options for compiling and running one configuration:
// the launch defines (and tuner defines) are evaluated and appended to `options.defines` as
// -DNAME=value (replacing a definition of the same name), and become plain variables of
// `launch` so the worker sees the same numbers; the name expressions that `kernelNames` need
// (template instantiations) are added. Returns the environment's issues; on issues nothing is
// changed but the name expressions. Binding a bound launch changes nothing.
std::vector<LaunchIssue> bindLaunchDefines(LaunchSpec &launch, CompileOptions &options,
                                           const std::vector<std::string> &kernelNames,
                                           const DeviceNames &device = {});

// "TILE" for "TILE=16" and "TILE".
std::string defineName(const std::string &define);

} // namespace cuwb
