// KernelInfo: one __global__ function of a compiled module, with the resources ptxas reported.
#pragma once

#include <string>
#include <vector>

namespace cuwb {

struct KernelResources
{
    bool reported = false; // false when ptxas printed nothing for this kernel
    int registers = 0;
    int staticSharedBytes = 0;
    int constantBytes = 0; // cmem[0] (parameters)
    int stackFrameBytes = 0;
    int spillStoreBytes = 0;
    int spillLoadBytes = 0;
    int barriers = 0;
    // __launch_bounds__ (the PTX's .maxntid, or .reqntid): the most threads a block of this
    // kernel may have; 0 when the kernel sets no bound. A larger block fails to launch.
    int maxThreadsPerBlock = 0;
    bool operator==(const KernelResources &) const = default;
};

struct KernelInfo
{
    std::string loweredName;    // symbol name in the module (mangled unless extern "C")
    std::string readableName;   // demangled, e.g. "scale<float>(float*, int)"
    std::string nameExpression; // the name expression it was requested with, if any
    bool externC = false;
    int sourceLine = 0; // 1-based line of its declaration in the main source; 0 if unknown
    // A kernel declared in a header the main source includes (runner.cu including kernels.cuh):
    // that header's path, the line of the declaration and the text around it, so that its
    // parameters can be read as for one of the main source. Empty for the main source's.
    std::string declaringFile;
    int declaringLine = 0;
    std::string declaration;
    KernelResources resources;

    [[nodiscard]] bool spills() const
    {
        return resources.spillStoreBytes > 0 || resources.spillLoadBytes > 0;
    }
};

} // namespace cuwb
