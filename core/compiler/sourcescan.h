// Source scan: what a CUDA file holds besides its kernels, read from its text without a
// compiler, for the notes a compile adds ("host code set aside: main(), checkCuda()") and for
// placing a missing header on its #include line. A reading of the text, not a parse: it sees
// through comments and strings, not through macros or #if.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

// The names of the functions defined at namespace scope that run only on the host: neither
// __global__ nor __device__ (a __host__ __device__ function is not listed). In source order,
// each once ("main", "checkCuda", "ns::init").
std::vector<std::string> hostFunctionNames(std::string_view source);

struct IncludeLine
{
    int line = 0;     // 1-based
    std::string name; // as written between the quotes or angle brackets
    bool angled = false;
};

// Every `#include "x"` and `#include <x>` of the text, in order (also those inside #if).
std::vector<IncludeLine> includeLines(std::string_view source);

// A __global__ function template of the source: what a user must name to instantiate it.
struct KernelTemplate
{
    std::string name;                            // qualified: "ns::scale"
    std::vector<std::string> templateParameters; // as written: "typename T", "int BLOCK = 256"
    std::vector<std::string> parameterNames;     // "T", "BLOCK" (empty for an unnamed one)
    std::string parameters;                      // the function's parameter list, as written
    int line = 0;                                // 1-based line of the kernel's name

    // "ns::scale<T, BLOCK>": the name with its template parameters' names, which a user
    // replaces by arguments (or defines as macros, as Kernel Launcher's tuners do).
    [[nodiscard]] std::string placeholder() const;
};

std::vector<KernelTemplate> kernelTemplates(std::string_view source);

} // namespace cuwb
