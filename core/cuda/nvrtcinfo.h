// Version and supported architectures of the NVRTC library this program was linked with.
#pragma once

#include <string>
#include <vector>

namespace cuwb {

std::string nvrtcVersion();                            // "13.0"
const std::vector<std::string> &nvrtcSupportedArchs(); // "sm_75", ..., ascending
std::string cudaIncludeDir(); // the toolkit include folder passed by default

} // namespace cuwb
