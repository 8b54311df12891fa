// LaunchSpec: how to run one kernel — variables, one argument per parameter (buffers with
// their size, role and initial contents; scalars with a value), grid, block and dynamic shared
// memory as expressions. resolveLaunch() evaluates it into concrete numbers for validation and
// for the worker. Value types, serialisable to JSON (launchjson.h).
#pragma once

#include "kernel/elementtype.h"
#include "kernel/kernelsignature.h"
#include "launch/devicenames.h"
#include "launch/expression.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuwb {

enum class BufferRole { In, Out, InOut };
const char *roleName(BufferRole role); // "in", "out", "inout"

enum class InitKind { Zeros, Constant, Range, Uniform, Normal, File, CopyOf };
const char *
initKindName(InitKind kind); // "zeros", "constant", "range", "uniform", "normal", "file", "copy"

struct BufferInit
{
    InitKind kind = InitKind::Zeros;
    std::string value = "0"; // Constant: an expression
    std::string start = "0"; // Range: start + i * step
    std::string step = "1";
    std::string low = "0"; // Uniform in [low, high)
    std::string high = "1";
    std::string mean = "0"; // Normal
    std::string stddev = "1";
    std::uint64_t seed = 1; // Uniform, Normal
    std::string file;       // File: .bin (raw, element type of the buffer) or .npy
    std::string copyOf;     // CopyOf: the parameter name of another buffer
    bool operator==(const BufferInit &) const = default;
};

struct ArgumentSpec
{
    std::string parameter; // the kernel parameter's name
    bool isBuffer = true;
    // A later kernel of a sequence (LaunchSpec::then): the name of the sequence's buffer this
    // pointer parameter gets, declared by an earlier argument (the first kernel's, or a later
    // kernel's new buffer); the buffer fields below are then not used. Empty: the argument
    // declares a buffer of its own, named by `parameter`.
    std::string buffer;
    // Buffers
    ElementType elementType;
    std::string count = "N"; // element-count expression
    BufferRole role = BufferRole::In;
    BufferInit init;
    // Scalars
    std::string value = "0"; // expression
    bool operator==(const ArgumentSpec &) const = default;
};

// A __constant__ or __device__ variable of the module, initialised before the launch like a
// buffer: `count` elements of `elementType` from `init`. Its size must match the module's.
struct GlobalSpec
{
    std::string name; // as declared, e.g. "c_Kernel"
    ElementType elementType;
    std::string count = "1"; // element-count expression
    BufferInit init;
    bool operator==(const GlobalSpec &) const = default;
};

// A further kernel of a launch sequence: launched after the launch's own kernel and the steps
// before it, from the same module, on the sequence's buffers (docs/projects.md, "then"). Its
// block is evaluated with the launch's names (block and grid there are the first kernel's),
// its grid with `block` its own, its scalars and shared memory with both its own.
struct KernelStep
{
    std::string kernel;                  // named as LaunchSpec::kernel is
    std::vector<ArgumentSpec> arguments; // by parameter: a buffer (bound or new) or a value
    std::array<std::string, 3> grid{"1", "1", "1"};
    std::array<std::string, 3> block{"256", "1", "1"};
    std::string dynamicSharedBytes = "0";
    bool operator==(const KernelStep &) const = default;
};

struct LaunchSpec
{
    // The kernel as the user writes it: "vector_add", "ns::scale", "scale(float*, int)",
    // "scale<float, 4>" or the lowered name (compiler/kernellookup.h).
    std::string kernel;
    std::vector<std::pair<std::string, std::string>> variables; // name, expression
    // Defines whose values are expressions (over variables, block, grid and each other),
    // evaluated per launch and passed as -DNAME=value; their names are visible to every
    // expression (launch/launchenvironment.h).
    std::vector<std::pair<std::string, std::string>> defines;
    // The auto-tuner convention: block_size_x/y/z and grid_size_x/y/z defined from the launch,
    // and kernel_tuner as 1.
    bool tunerDefines = false;
    std::vector<GlobalSpec> globals;     // module variables to initialise
    std::vector<ArgumentSpec> arguments; // in parameter order
    std::array<std::string, 3> grid{"ceil(N / block.x)", "1", "1"};
    std::array<std::string, 3> block{"256", "1", "1"};
    std::string dynamicSharedBytes = "0";
    double deadlineSeconds = 10.0; // each kernel of a sequence has this deadline
    // The kernels launched after `kernel`, in order, sharing its buffers by name; timed as a
    // whole and each, verified after the last. Empty: one kernel.
    std::vector<KernelStep> then;
    bool operator==(const LaunchSpec &) const = default;
};

// Builds a default spec from a signature: a variable N = 1 << 20, every pointer a buffer of N
// elements (role In for const pointees, else Out; inputs get a range or uniform random init),
// every scalar named n/N/count/size... = N, others 1.
LaunchSpec defaultLaunchSpec(const KernelSignature &signature);

struct ResolvedBuffer
{
    std::string parameter;
    ElementType elementType;
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    BufferRole role = BufferRole::In;
    BufferInit init;      // with expressions still as text
    double initA = 0.0;   // evaluated: constant value / range start / low / mean
    double initB = 0.0;   // evaluated: range step / high / stddev
    int copyOfIndex = -1; // CopyOf: index of the source among the buffers
};

struct ResolvedScalar
{
    std::string parameter;
    ElementType elementType;
    double value = 0.0;
    std::vector<unsigned char> bytes; // the value encoded as the parameter's type
};

// A further kernel of the sequence, resolved (LaunchSpec::then[k]).
struct ResolvedStep
{
    std::string kernel;                  // as the user wrote it
    std::vector<ResolvedScalar> scalars; // in parameter order among scalars
    // Per parameter: an index into ResolvedLaunch::buffers, or -(scalar index + 1).
    std::vector<int> parameterSlots;
    std::array<std::uint64_t, 3> grid{1, 1, 1};
    std::array<std::uint64_t, 3> block{1, 1, 1};
    std::uint64_t dynamicSharedBytes = 0;
};

struct LaunchIssue
{
    std::string field;   // "block.x", "argument a: count", "variables: N", "shared memory"
    std::string message; // "block has 2048 threads; sm_90 allows 1024"
    int position = -1;   // character position in the field's expression, -1 when none
    bool operator==(const LaunchIssue &) const = default;
};

struct ResolvedLaunch
{
    Variables variables; // includes N..., and block.x/y/z, grid.x/y/z once known
    // In parameter order among the first kernel's pointers, then the buffers the further
    // kernels of a sequence declare, in order.
    std::vector<ResolvedBuffer> buffers;
    std::vector<ResolvedScalar> scalars; // in parameter order among scalars
    std::vector<int> parameterSlots;     // per parameter: buffer index, or -(scalar index + 1)
    std::vector<ResolvedBuffer> globals; // module variables to initialise (role In)
    std::array<std::uint64_t, 3> grid{1, 1, 1};
    std::array<std::uint64_t, 3> block{1, 1, 1};
    std::uint64_t dynamicSharedBytes = 0;
    // The further kernels of a sequence; resolved only when their signatures were given.
    std::vector<ResolvedStep> steps;
    std::vector<LaunchIssue> issues; // evaluation errors; empty when resolved
    [[nodiscard]] bool ok() const { return issues.empty(); }
    [[nodiscard]] std::uint64_t totalBufferBytes() const;
};

// Shortest readable text of a value: "16777216", "0.5", "1e+30".
std::string formatNumber(double value);

// Encodes `value` as `type` (each component of a vector type gets the value), little-endian,
// half and bfloat16 rounded to nearest even. Returns why it cannot ("does not fit in int (max
// 2147483647)", "is not a whole number, which int needs") or nullopt. typeName is the type
// as the message should name it ("int"); empty: type.name().
std::optional<std::string> encodeScalar(const ElementType &type, double value,
                                        std::vector<unsigned char> &bytes,
                                        const std::string &typeName = {});

// Evaluates every expression (variables first, then block, then grid, which may use block.x).
// "block.x: is 0; it must be at least 1; grid.y: unknown variable 'M'": issues in one line, a
// message that names its own field ("block has 2048 threads ...") without the field again.
std::string joinIssues(const std::vector<LaunchIssue> &issues);

// `compileDefines`: the compile options' defines; numeric ones are names expressions may use.
// `device`: the device.* names (launch/devicenames.h). `stepSignatures`: one per kernel of
// spec.then (launch/launchsequence.h finds them); the steps are resolved only when there are as
// many as steps, else `steps` stays empty (a host check of the first kernel alone).
ResolvedLaunch resolveLaunch(const LaunchSpec &spec, const KernelSignature &signature,
                             const std::vector<std::string> &compileDefines = {},
                             const DeviceNames &device = {},
                             const std::vector<KernelSignature> &stepSignatures = {});

// "then[0] (finish)": how the issues of a further kernel name it.
std::string stepField(const LaunchSpec &spec, std::size_t step);

} // namespace cuwb
