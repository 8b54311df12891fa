// Parses ptxas' `-v` report (as NVRTC appends it to the program log) into KernelResources
// keyed by the kernel's lowered name.
#pragma once

#include "compiler/kernelinfo.h"

#include <map>
#include <string>
#include <string_view>

namespace cuwb {

std::map<std::string, KernelResources> parsePtxasReport(std::string_view log);

} // namespace cuwb
