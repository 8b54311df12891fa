// ElementSource: the CUDA C++ of a verification's element-wise kernel, without a GPU, so that
// the worker (elementkernel.h) and `cuwb check` (verificationcheck.h) compile the very same
// source. out[i] = (T)(EXPR) for an expression reference, out[i] = EXPR ? 1 : 0 for a mask.
// Every buffer of the launch is bound by its name (read-only); the module's __constant__ and
// __device__ globals the expression names are bound by their names too (as the launch set
// them: a scalar global as a const reference, an array as a pointer, so `c_scale` and
// `c_table[i % 16]` read as in the kernel's own source); the launch's numbers (scalar
// arguments, variables) are kernel parameters, so one compile serves every configuration of a
// sweep, or constexpr constants for an expression that needs constant expressions.
#pragma once

#include "compiler/kernellookup.h"
#include "launch/launchspec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

// One number the expression may use: a scalar argument or a launch name.
struct ElementValue
{
    std::string name;
    std::string type; // the scalar's own type (float for half types), "long long" or "double"
    double value = 0.0;
    std::vector<unsigned char> bytes; // the value as `type`, for a kernel parameter
};

// A module global the expression reads, bound by its name.
struct ElementGlobal
{
    std::string name;
    std::string type;        // as CUDA C++ spells it: "float", "unsigned int"
    std::uint64_t count = 0; // elements: 1 binds a const reference, more a pointer
};

struct ElementSource
{
    std::string withParameters; // the launch's numbers as kernel parameters
    std::string withConstants;  // the same as constexpr constants
    // The kernel's parameters after cuwb_out and cuwb_n: every buffer of the launch in order,
    // then `globals`, then (withParameters only) `values`.
    std::vector<ElementGlobal> globals;
    std::vector<ElementValue> values;
    // Why the expression cannot be made into a kernel ("`c_params` is a __constant__ of type
    // Params, which an expression cannot read"); the sources are then empty.
    std::string problem;
};

// The element kernel `cuwb_reference` of `expression`. `variables` are the module's globals
// (moduleVariables(ptx, source)); the project's globals in `resolved.globals` give the element
// type of those they set. `condition`: a mask (unsigned char 1 or 0); else `outputType` is
// what each element is converted to.
ElementSource elementSource(std::string_view expression, const char *label, bool condition,
                            const std::string &outputType, const ResolvedLaunch &resolved,
                            const std::vector<ModuleVariable> &variables);

// The identifiers of a C++ expression that are not members (`a.x`, `p->y`) or literals' parts:
// the names it may read.
std::vector<std::string> expressionIdentifiers(std::string_view expression);

} // namespace cuwb
