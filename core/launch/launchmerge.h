// LaunchMerge: what becomes of a launch when its kernel's signature changes (an edit renames a
// parameter, adds one, or changes a buffer's element type). Every argument whose parameter
// remains the same kind (name, buffer or scalar, element type) keeps what the user set up; the
// others, and the variables they need, come from defaultLaunchSpec. Block, grid, variables,
// defines and globals stay as they were.
#pragma once

#include "kernel/kernelsignature.h"
#include "launch/launchspec.h"

namespace cuwb {

LaunchSpec mergeLaunch(const LaunchSpec &previous, const KernelSignature &signature);

} // namespace cuwb
