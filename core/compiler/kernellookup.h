// Kernel lookup: the one place that turns the name a user wrote for a kernel into the kernel
// of a compiled module. Users name kernels as they wrote them — `vector_add`, `ns::scale`,
// an overload by its signature `scale(float*, int)`, a template instantiation
// `scale<float, 4>` — while the module knows lowered (mangled) names that change whenever a
// define changes a parameter type. Every path (check, run, measure, sweep, the GUI) resolves
// names here, per compiled variant, so they cannot drift apart.
#pragma once

#include "compiler/compileresult.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct KernelLookup
{
    const KernelInfo *kernel = nullptr; // into the CompileResult; null when not found
    // Why not: "the source has no kernel `scal` (it has: vector_add, scale(float*, int))",
    // "`scale` is overloaded; name one by its signature: scale(float*, int), scale(double*,
    // int)". Empty when found.
    std::string error;
    [[nodiscard]] bool found() const { return kernel != nullptr; }
};

// Finds `name` among the compiled kernels. Accepted, most specific first: the lowered name;
// the readable (demangled) name with or without its namespace and return type; the NVRTC name
// expression it was instantiated by; the qualified or plain name without a parameter list.
// Whitespace is not significant. An empty name picks the only kernel. A name that matches
// several kernels at its level is ambiguous and names the candidates.
KernelLookup findKernel(const std::vector<KernelInfo> &kernels, std::string_view name);
KernelLookup findKernel(const CompileResult &compiled, std::string_view name);

// The shortest name that findKernel() resolves to `kernel` among `kernels`: the plain name
// when it is unique, else the qualified name, the name with template arguments, with the
// signature, and the lowered name last. What a project should store: it survives a define
// that changes a parameter type, where the lowered name would not.
std::string preferredName(const std::vector<KernelInfo> &kernels, const KernelInfo &kernel);

// The user's spelling of a kernel for lists and messages: "scale<float, 4>(float*, int)" for
// C++ kernels (without return type), the symbol for extern "C" ones.
std::string displayName(const KernelInfo &kernel);

// "vector_add, ns::scale<float>(float*, int)": every kernel of the module in display form.
std::string kernelList(const std::vector<KernelInfo> &kernels);

// A __constant__ or __device__ variable of a module, read from its PTX; the element type as
// declared comes from the source when it is given.
struct ModuleVariable
{
    std::string name;      // as in the module: the source name unless it is in a namespace
    bool constant = false; // __constant__ (else __device__)
    std::uint64_t bytes = 0;
    std::string type; // "float", "unsigned int" as declared; empty when unknown
};
std::vector<ModuleVariable> moduleVariables(std::string_view ptx, std::string_view source = {});
// The type a __constant__ or __device__ variable `name` is declared with in `source`
// ("static __constant__ unsigned int table[64];" -> "unsigned int"); empty when not found.
std::string declaredVariableType(std::string_view source, const std::string &name);
// "c_Kernel (__constant__, 68 bytes), d_count (__device__, 4 bytes)"
std::string moduleVariableList(std::string_view ptx);
// Why initialising module variable `name` with `bytes` bytes (`what`: "5 × float") does not
// fit the module compiled to `ptx` — no such variable, or another size; empty when it fits.
std::string moduleVariableMismatch(std::string_view ptx, const std::string &name,
                                   std::uint64_t bytes, const std::string &what);

// `options` with the name expressions that `kernelNames` need added (once each), so that a
// kernel named as a template instantiation is compiled into the module.
CompileOptions withKernelNameExpressions(CompileOptions options,
                                         const std::vector<std::string> &kernelNames);

} // namespace cuwb
