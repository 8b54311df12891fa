// The folder temporary files go to: $TMPDIR when it is set and not empty, else /tmp; and the
// mkstemp/mkdtemp pattern of a name in it.
#pragma once

#include <cstdlib>
#include <string>

namespace cuwb {

inline std::string temporaryFolder()
{
    const char *tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

// "/tmp/cuwb-inputs-XXXXXX" for "cuwb-inputs": for mkstemp and mkdtemp, which fill in the Xs.
inline std::string temporaryPattern(const std::string &prefix)
{
    return temporaryFolder() + "/" + prefix + "-XXXXXX";
}

} // namespace cuwb
