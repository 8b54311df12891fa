// A source that crashes NVRTC itself, for the tests of the paths that must compile in
// `cuwb compile-server` rather than in the GUI's process: its kernel name is a
// 114,688-character identifier pasted with ##, on which NVRTC corrupts its heap and aborts
// ("malloc(): invalid size"). The same text as tst_compileisolation's pastedIdentifier().
#pragma once

#include <string>

namespace cuwb::hostiletest {

inline std::string pastedIdentifierSource()
{
    std::string source = "#define C_(a, b) a##b\n#define C(a, b) C_(a, b)\n#define D0 abcdefg\n";
    for (int i = 1; i <= 14; ++i)
        source += "#define D" + std::to_string(i) + " C(D" + std::to_string(i - 1) + ", D" +
                  std::to_string(i - 1) + ")\n";
    source += "extern \"C\" __global__ void D14(int *x) { x[0] = 0; }\n";
    return source;
}

} // namespace cuwb::hostiletest
