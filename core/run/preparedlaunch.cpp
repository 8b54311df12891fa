#include "run/preparedlaunch.h"

#include "compiler/kernellookup.h"
#include "cuda/apierror.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"
#include "launch/launchsequence.h"
#include "launch/launchvalidation.h"
#include "measure/measurement.h"
#include "run/bufferfiles.h"
#include "run/devicefaults.h"
#include "run/gpuhelpers.h"
#include "run/runnerstate.h"
#include "run/runrequest.h"
#include "run/runtext.h"

#include <algorithm>
#include <cstdlib>

namespace cuwb {

namespace {

constexpr unsigned char kGuardByte = 0xA5;
constexpr std::uint64_t kMinGuardBytes = 64u << 10;
constexpr std::uint64_t kMinGuardElements = 4096;

std::uint64_t guardBytesFor(std::size_t elementBytes)
{
    // A whole number of elements (so indices before the start are integers) that keeps the
    // data 256-byte aligned, at least 64 KiB and 4096 elements.
    std::uint64_t elements = std::max<std::uint64_t>(
        kMinGuardElements, (kMinGuardBytes + elementBytes - 1) / elementBytes);
    std::uint64_t step = 256;
    for (std::uint64_t g = elementBytes; g != 0;) { // step = 256 / gcd(256, elementBytes)
        const std::uint64_t r = step % g;
        step = g;
        g = r;
    }
    step = 256 / step;
    elements = (elements + step - 1) / step * step;
    return elements * elementBytes;
}

// A buffer's allocation: its elements between two guard bands.
std::uint64_t totalBytesWithGuards(const ResolvedBuffer &buffer)
{
    return guardBytesFor(buffer.elementType.sizeBytes()) * 2 + buffer.bytes;
}

// Writes the initial contents `r.init` asks for into `count` elements at `data` (not copies).
void initialiseElements(GpuHelpers &helpers, const Stream &gpu, DevicePointer data,
                        const ElementType &type, std::uint64_t count, const ResolvedBuffer &r,
                        const std::string &field)
{
    const std::uint64_t scalars = count * std::uint64_t(type.lanes);
    switch (r.init.kind) {
    case InitKind::Zeros:
        fillBytesAsync(data, 0, count * type.sizeBytes(), gpu);
        break;
    case InitKind::Constant:
        helpers.fill(data, scalars, type.scalar, FillMode::Constant, r.initA, 0, 0, gpu);
        break;
    case InitKind::Range:
        helpers.fill(data, scalars, type.scalar, FillMode::Range, r.initA, r.initB, 0, gpu);
        break;
    case InitKind::Uniform:
        helpers.fill(data, scalars, type.scalar, FillMode::Uniform, r.initA, r.initB, r.init.seed,
                     gpu);
        break;
    case InitKind::Normal:
        helpers.fill(data, scalars, type.scalar, FillMode::Normal, r.initA, r.initB, r.init.seed,
                     gpu);
        break;
    case InitKind::File:
        try {
            loadFileToDevice(r.init.file, type, count, data, gpu, "`" + r.parameter + "`");
        } catch (const FileProblem &problem) {
            throw RunFailure{RunStatus::InvalidLaunch, field + ": " + problem.what()};
        }
        break;
    case InitKind::CopyOf:
        break;
    }
}

BufferStats bufferStats(const ScalarStats &stats)
{
    BufferStats b;
    b.valid = true;
    b.min = stats.min;
    b.max = stats.max;
    b.mean = stats.finite > 0 ? stats.sum / double(stats.finite) : 0.0;
    b.nanCount = stats.nan;
    b.infCount = stats.inf;
    return b;
}

// The compiled image's module: the one a previous request loaded when the image is the same
// and it has no module variables, else a fresh one (kept for the next request when it could
// be reused). Up to eight are kept, the least recently used dropped first.
std::shared_ptr<Module> loadModule(RunnerState &runner, const CompileResult &compiled)
{
    constexpr std::size_t kKeptModules = 8;
    // No cubin: a host's image for another architecture, whose PTX the driver JIT-compiles.
    const std::string &binary = compiled.cubin.empty() ? compiled.ptx : compiled.cubin;
    if (!moduleVariables(compiled.ptx).empty()) {
        return std::make_shared<Module>(binary);
    }
    const std::string key = sourceHashFnv1a64(binary) + ":" + std::to_string(binary.size());
    auto &modules = runner.modules;
    const auto found = std::find_if(modules.begin(), modules.end(),
                                    [&](const auto &entry) { return entry.first == key; });
    std::shared_ptr<Module> module;
    if (found != modules.end()) {
        module = found->second;
        modules.erase(found);
    } else {
        module = std::make_shared<Module>(binary);
    }
    modules.emplace_back(key, module);
    if (modules.size() > kKeptModules) {
        modules.erase(modules.begin());
    }
    return module;
}

} // namespace

void recycleResources(RunnerState &runner, std::unique_ptr<RunResources> &resources)
{
    if (!resources || runner.contextLost) {
        return; // after an overrun nothing may be freed: LeakOnLoss leaks it
    }
    runner.spareBuffers.clear();
    for (Allocation &allocation : resources->buffers) {
        runner.spareBuffers.push_back(std::move(allocation.memory));
    }
    resources.reset();
}

// The number of "sm_90a" or "compute_80": 90, 80; 0 when there is none.
static int archNumber(const std::string &arch)
{
    const std::size_t digits = arch.find_first_of("0123456789");
    return digits == std::string::npos ? 0 : std::atoi(arch.c_str() + digits);
}

// The same options but for the architecture, an older one: an image whose PTX the driver can
// JIT-compile for this device (PTX runs on its own architecture and every later one).
static bool ptxServes(CompileOptions image, const CompileOptions &wanted)
{
    const int imageArch = archNumber(image.arch);
    if (imageArch == 0 || imageArch > archNumber(wanted.arch)) {
        return false;
    }
    image.arch = wanted.arch;
    return image == wanted;
}

namespace {

// The kernels a launch runs, found in its module: the first and the further kernels of its
// sequence, with their signatures.
struct LaunchKernels
{
    const KernelInfo *kernel = nullptr;
    KernelSignature signature;
    SequenceKernels sequence;
};

// The launch's defines become -D options and plain variables; template instantiations the
// kernel names need become name expressions. Returns the options to compile with.
CompileOptions bindDefines(const DeviceInfo &device, const RunRequest &request, Prepared &p)
{
    p.launch = request.launch;
    p.source = request.source;
    p.deviceNames = deviceNamesOf(device);
    CompileOptions options = request.options;
    if (const std::vector<LaunchIssue> issues = bindLaunchDefines(
            p.launch, options, launchKernelNames(request.launch, request.verification),
            p.deviceNames);
        !issues.empty()) {
        throw RunFailure{RunStatus::InvalidLaunch, joinIssues(issues)};
    }
    p.compileDefines = options.defines;
    return options;
}

// The image the host sent, as the compiler's cache entry for `options`.
CompileResult imageAsCompiled(const RunRequest &request, const CompileOptions &options,
                              bool withCubin)
{
    CompileResult image;
    image.success = true;
    image.fileName = request.fileName;
    image.options = options;
    image.ptx = request.image->ptx;
    if (withCubin)
        image.cubin = request.image->cubin;
    image.kernels = request.image->kernels;
    image.compileTimeMs = request.image->compileTimeMs;
    image.compiledBy = request.image->compiledBy;
    return image;
}

// Compiles for this device, whatever the request was written for: the host's image when it
// serves (a sweep's variant compiled there already, or its PTX for an older architecture),
// else the worker's own compile.
void compileForDevice(RunnerState &runner, const RunRequest &request, CompileOptions options,
                      Prepared &p)
{
    const DeviceInfo &device = runner.device;
    KernelCompiler &compiler = runner.compiler;
    if (options.arch != device.arch()) {
        p.note = "compiled for " + device.arch() + " (the device's architecture) instead of " +
                 options.arch;
        options.arch = device.arch();
    }
    if (request.image && request.image->options == options) {
        compiler.store(request.source, request.fileName, options,
                       imageAsCompiled(request, options, true));
    } else if (request.image && !request.image->ptx.empty() &&
               ptxServes(request.image->options, options)) {
        // The host compiled for another architecture (its NVRTC does not know this GPU, or
        // the request was written for another): the driver JIT-compiles the image's PTX for
        // this device, as it does for any PTX, and no compiler is needed here.
        p.note = "loaded the PTX compiled for " + request.image->options.arch +
                 " through the driver's JIT (the device is " + device.arch() + ")";
        compiler.store(request.source, request.fileName, options,
                       imageAsCompiled(request, options, false));
    }
    p.compiled = compiler.compile(request.source, request.fileName, options);
    p.workerCompileMs = p.compiled.fromCache ? 0.0 : p.compiled.compileTimeMs;
    if (!p.compiled.success) {
        throw RunFailure{RunStatus::CompileFailed,
                         "the source did not compile: " + firstErrors(p.compiled, 3)};
    }
}

// The kernel (the one named, or the only one) and the sequence's further kernels, each of
// which the launch can drive.
LaunchKernels findLaunchKernels(const RunRequest &request, const Prepared &p)
{
    LaunchKernels found;
    const KernelLookup lookup = findKernel(p.compiled, p.launch.kernel);
    if (!lookup.found())
        throw RunFailure{RunStatus::InvalidLaunch, lookup.error};
    found.kernel = lookup.kernel;
    found.signature = parseKernelSignature(request.source, p.compiled.ptx, *found.kernel);
    found.sequence = findSequenceKernels(p.launch, p.compiled, request.source);
    if (!found.sequence.ok()) {
        throw RunFailure{RunStatus::InvalidLaunch, joinIssues(found.sequence.issues)};
    }
    for (std::size_t k = 0; k <= found.sequence.signatures.size(); ++k) {
        const KernelSignature &each = k == 0 ? found.signature : found.sequence.signatures[k - 1];
        if (each.drivable()) {
            continue;
        }
        std::string why = each.error;
        for (const KernelParameter &parameter : each.parameters) {
            if (!parameter.supported) {
                why += (why.empty() ? "" : "; ") + ("parameter `" + parameter.name + "`: ") +
                       parameter.unsupportedReason;
            }
        }
        const std::string name =
            k == 0 ? found.kernel->loweredName : found.sequence.kernels[k - 1]->loweredName;
        throw RunFailure{RunStatus::InvalidLaunch,
                         "the kernel `" + name + "` cannot be run: " + why};
    }
    return found;
}

// The free memory the launch is checked against. The previous request's spare buffers are
// reused or freed: they count as free. When each buffer has a spare of its size (a sweep's next
// point), nothing is allocated and the driver is not asked (cuMemGetInfo took 70 µs on an
// H200).
std::uint64_t freeMemoryFor(const RunnerState &runner, const ResolvedLaunch &resolved)
{
    std::uint64_t spareBytes = 0;
    std::vector<std::uint64_t> spareSizes;
    for (const DeviceBuffer &spare : runner.spareBuffers) {
        spareBytes += spare.bytes();
        spareSizes.push_back(spare.bytes());
    }
    const bool allReused = std::all_of(
        resolved.buffers.begin(), resolved.buffers.end(), [&](const ResolvedBuffer &buffer) {
            const auto match =
                std::find(spareSizes.begin(), spareSizes.end(), totalBytesWithGuards(buffer));
            if (match == spareSizes.end()) {
                return false;
            }
            spareSizes.erase(match);
            return true;
        });
    return allReused ? spareBytes : deviceMemoryInfo().freeBytes + spareBytes;
}

// A buffer that starts as a copy of another needs one of this launch of the same type and size.
void checkCopies(const ResolvedLaunch &resolved)
{
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        if (buffer.role == BufferRole::Out || buffer.init.kind != InitKind::CopyOf)
            continue;
        const int from = buffer.copyOfIndex;
        if (from < 0 || from >= int(resolved.buffers.size())) {
            throw RunFailure{RunStatus::InvalidLaunch, "argument " + buffer.parameter + ": `" +
                                                           buffer.init.copyOf +
                                                           "` is not a buffer of this kernel"};
        }
        const ResolvedBuffer &source = resolved.buffers[std::size_t(from)];
        if (!(source.elementType == buffer.elementType) || source.count != buffer.count) {
            throw RunFailure{RunStatus::InvalidLaunch,
                             "argument " + buffer.parameter + ": a copy of `" + source.parameter +
                                 "` needs the same element type and count (" +
                                 std::to_string(source.count) + " × " + source.elementType.name() +
                                 ")"};
        }
    }
}

// Resolves the launch and validates it against the device before anything touches the GPU.
void resolveAndValidate(const RunnerState &runner, const LaunchKernels &kernels, Prepared &p)
{
    p.resolved = resolveLaunch(p.launch, kernels.signature, p.compileDefines, p.deviceNames,
                               kernels.sequence.signatures);
    ValidationContext validation;
    validation.limits = runner.device.limits();
    validation.limitsName = runner.device.name;
    validation.freeMemoryBytes = freeMemoryFor(runner, p.resolved);
    std::vector<LaunchIssue> issues =
        validateLaunch(p.resolved, kernels.kernel->resources, validation);
    for (LaunchIssue &issue :
         validateSequence(p.launch, p.resolved, kernels.sequence, validation)) {
        issues.push_back(std::move(issue));
    }
    if (!issues.empty()) {
        throw RunFailure{RunStatus::InvalidLaunch, joinIssues(issues)};
    }
    checkCopies(p.resolved);
}

// Allocates every buffer with guard bands: the previous request's buffers of the same size
// first, the rest of them freed before anything new is allocated.
void allocateBuffers(RunnerState &runner, Prepared &p, std::string &phase)
{
    const ResolvedLaunch &resolved = p.resolved;
    std::vector<DeviceBuffer> reused(resolved.buffers.size());
    for (std::size_t k = 0; k < resolved.buffers.size(); ++k) {
        const std::uint64_t total = totalBytesWithGuards(resolved.buffers[k]);
        std::vector<DeviceBuffer> &spare = runner.spareBuffers;
        const auto match = std::find_if(spare.begin(), spare.end(),
                                        [&](const DeviceBuffer &b) { return b.bytes() == total; });
        if (match != spare.end()) {
            reused[k] = std::move(*match);
            spare.erase(match);
        }
    }
    runner.spareBuffers.clear();
    for (std::size_t k = 0; k < resolved.buffers.size(); ++k) {
        const ResolvedBuffer &buffer = resolved.buffers[k];
        Allocation allocation;
        allocation.parameter = buffer.parameter;
        allocation.type = buffer.elementType;
        allocation.count = buffer.count;
        allocation.bytes = buffer.bytes;
        allocation.role = buffer.role;
        allocation.guardBytes = guardBytesFor(buffer.elementType.sizeBytes());
        const std::uint64_t total = allocation.guardBytes * 2 + allocation.bytes;
        phase =
            "allocating `" + buffer.parameter + "` (" + formatBytes(total) + " with guard bands)";
        try {
            allocation.memory = reused[k].empty() ? DeviceBuffer(total) : std::move(reused[k]);
        } catch (const ApiError &error) {
            if (error.status() == "CUDA_ERROR_OUT_OF_MEMORY") {
                throw RunFailure{RunStatus::OutOfMemory,
                                 "the GPU has not enough free memory for `" + buffer.parameter +
                                     "` (" + formatBytes(total) + " with guard bands; " +
                                     formatBytes(deviceMemoryInfo().freeBytes) + " free)"};
            }
            throw;
        }
        p.resources->buffers.push_back(std::move(allocation));
    }
}

// Initialises the buffers on the GPU: bands, poisoned outputs, generated inputs and files, then
// the copies, each once its source is ready.
void initialiseBuffers(RunnerState &runner, Prepared &p, std::string &phase)
{
    GpuHelpers &helpers = runner.gpuHelpers();
    const Stream &gpu = *runner.stream;
    std::vector<Allocation> &buffers = p.resources->buffers;
    const ResolvedLaunch &resolved = p.resolved;
    std::vector<bool> ready(buffers.size(), false);
    for (std::size_t k = 0; k < buffers.size(); ++k) {
        const Allocation &a = buffers[k];
        const ResolvedBuffer &r = resolved.buffers[k];
        phase = "initialising `" + a.parameter + "`";
        fillBytesAsync(a.memory.pointer(), kGuardByte, a.guardBytes, gpu);
        fillBytesAsync(a.data() + a.bytes, kGuardByte, a.guardBytes, gpu);
        if (a.role == BufferRole::Out) {
            helpers.pattern(a.data(), a.bytes, poisonPattern(a.type.scalar), gpu);
            ready[k] = true;
            continue;
        }
        if (r.init.kind == InitKind::CopyOf)
            continue; // below, once its source is ready
        initialiseElements(helpers, gpu, a.data(), a.type, a.count, r, "argument " + a.parameter);
        ready[k] = true;
    }
    gpu.synchronize();
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t k = 0; k < buffers.size(); ++k) {
            const int from = resolved.buffers[k].copyOfIndex;
            if (ready[k] || from < 0 || !ready[std::size_t(from)]) {
                continue;
            }
            const Allocation &a = buffers[k];
            phase = "initialising `" + a.parameter + "`";
            copyDeviceToDevice(a.data(), buffers[std::size_t(from)].data(), a.bytes, gpu);
            ready[k] = progress = true;
        }
    }
    if (std::find(ready.begin(), ready.end(), false) != ready.end()) {
        throw RunFailure{RunStatus::InvalidLaunch,
                         "buffers that are copies of each other in a circle cannot be initialised"};
    }
}

// Module variables (__constant__, __device__): generated in a scratch buffer, then copied as
// cuMemcpyToSymbol would, since constant memory is not for kernels to write.
void initialiseGlobals(RunnerState &runner, Prepared &p, std::string &phase)
{
    GpuHelpers &helpers = runner.gpuHelpers();
    const Stream &gpu = *runner.stream;
    for (const ResolvedBuffer &g : p.resolved.globals) {
        phase = "initialising the global `" + g.parameter + "`";
        const std::string problem =
            moduleVariableMismatch(p.compiled.ptx, g.parameter, g.bytes,
                                   std::to_string(g.count) + " × " + g.elementType.name());
        const std::optional<Module::Global> global = p.resources->module->global(g.parameter);
        if (!problem.empty() || !global) {
            throw RunFailure{
                RunStatus::InvalidLaunch,
                "global " + g.parameter + ": " +
                    (problem.empty() ? "the driver does not find it in the module" : problem)};
        }
        DeviceBuffer scratch(std::max<std::uint64_t>(g.bytes, 1));
        initialiseElements(helpers, gpu, scratch.pointer(), g.elementType, g.count, g,
                           "global " + g.parameter);
        copyDeviceToDevice(global->address, scratch.pointer(), g.bytes, gpu);
        gpu.synchronize(); // before `scratch` is freed
    }
}

// The launches' dimensions, shared memory and parameter arrays, the first kernel's and each
// further kernel's of the sequence.
void bindLaunches(const LaunchKernels &kernels, Prepared &p)
{
    const ResolvedLaunch &resolved = p.resolved;
    for (const Allocation &a : p.resources->buffers) {
        p.pointers.push_back(a.data());
    }
    p.grid = {unsigned(resolved.grid[0]), unsigned(resolved.grid[1]), unsigned(resolved.grid[2])};
    p.block = {unsigned(resolved.block[0]), unsigned(resolved.block[1]),
               unsigned(resolved.block[2])};
    p.dynamicShared = unsigned(resolved.dynamicSharedBytes);
    p.deadlineSeconds = p.launch.deadlineSeconds > 0 ? p.launch.deadlineSeconds : 10.0;
    if (p.dynamicShared > 48u * 1024u) {
        p.function->setMaxDynamicSharedBytes(int(p.dynamicShared));
    }
    p.params = parameterPointers(resolved.parameterSlots, resolved.scalars, p.pointers);
    for (std::size_t k = 0; k < resolved.steps.size(); ++k) {
        const ResolvedStep &r = resolved.steps[k];
        PreparedStep step;
        step.kernel = r.kernel;
        step.function = p.resources->module->function(kernels.sequence.kernels[k]->loweredName);
        step.grid = {unsigned(r.grid[0]), unsigned(r.grid[1]), unsigned(r.grid[2])};
        step.block = {unsigned(r.block[0]), unsigned(r.block[1]), unsigned(r.block[2])};
        step.dynamicShared = unsigned(r.dynamicSharedBytes);
        if (step.dynamicShared > 48u * 1024u) {
            step.function->setMaxDynamicSharedBytes(int(step.dynamicShared));
        }
        step.params = parameterPointers(r.parameterSlots, r.scalars, p.pointers);
        p.steps.push_back(std::move(step));
    }
}

} // namespace

void prepareLaunch(RunnerState &runner, const RunRequest &request, Prepared &p, std::string &phase)
{
    phase = "evaluating the launch";
    const CompileOptions options = bindDefines(runner.device, request, p);
    phase = "compiling";
    compileForDevice(runner, request, options, p);
    const LaunchKernels kernels = findLaunchKernels(request, p);
    phase = "validating the launch";
    resolveAndValidate(runner, kernels, p);

    p.resources = std::make_unique<RunResources>();
    phase = "loading the module";
    p.resources->module = loadModule(runner, p.compiled);
    p.function = p.resources->module->function(kernels.kernel->loweredName);
    allocateBuffers(runner, p, phase);
    initialiseBuffers(runner, p, phase);
    initialiseGlobals(runner, p, phase);
    bindLaunches(kernels, p);
}

void launchSequence(Prepared &prepared, const Stream &gpu,
                    const std::function<void(std::size_t)> &between)
{
    prepared.function->launch(prepared.grid, prepared.block, prepared.dynamicShared, gpu,
                              prepared.params.data());
    if (between) {
        between(0);
    }
    for (std::size_t k = 0; k < prepared.steps.size(); ++k) {
        PreparedStep &step = prepared.steps[k];
        step.function->launch(step.grid, step.block, step.dynamicShared, gpu, step.params.data());
        if (between) {
            between(k + 1);
        }
    }
}

std::vector<std::string> sequenceKernelNames(const Prepared &prepared)
{
    std::vector<std::string> names{prepared.launch.kernel};
    for (const PreparedStep &step : prepared.steps) {
        names.push_back(step.kernel);
    }
    return names;
}

BufferReport checkBuffer(const Allocation &a, const std::string &handle, GpuHelpers &helpers,
                         const Stream &gpu)
{
    BufferReport report;
    report.parameter = a.parameter;
    report.count = a.count;
    report.bytes = a.bytes;
    report.handle = handle;
    const std::size_t elementBytes = a.type.sizeBytes();
    const std::uint64_t bandElements = a.guardBytes / elementBytes;
    std::vector<unsigned char> band(a.guardBytes);
    for (const bool before : {true, false}) {
        copyToHost(band.data(), before ? a.memory.pointer() : a.data() + a.bytes, a.guardBytes,
                   gpu);
        std::uint64_t changed = 0;
        std::int64_t first = 0;
        for (std::uint64_t e = 0; e < bandElements; ++e) {
            const unsigned char *p = band.data() + e * elementBytes;
            if (std::any_of(p, p + elementBytes, [](unsigned char b) { return b != kGuardByte; })) {
                if (changed++ == 0) {
                    first = before ? std::int64_t(e) - std::int64_t(bandElements)
                                   : std::int64_t(a.count + e);
                }
            }
        }
        if (changed > 0) {
            GuardViolation violation;
            violation.before = before;
            violation.elements = changed;
            violation.firstIndex = first;
            violation.message = "wrote " + plural(changed, "element") +
                                (before ? " before the start of `" : " past the end of `") +
                                a.parameter + "`, first at index " + std::to_string(first);
            report.guardViolations.push_back(violation);
        }
    }
    if (a.role == BufferRole::Out) {
        const PatternCount poisoned = helpers.countPattern(a.data(), a.count, elementBytes,
                                                           poisonPattern(a.type.scalar), gpu);
        report.unwritten = poisoned.count;
        report.firstUnwritten = poisoned.first;
    }
    report.stats = bufferStats(helpers.stats(a.data(), a.scalars(), a.type.scalar, gpu));
    return report;
}

BufferReport readGlobal(const ResolvedBuffer &g, const Module &module, GpuHelpers &helpers,
                        const Stream &gpu)
{
    const std::optional<Module::Global> global = module.global(g.parameter);
    BufferReport report;
    report.parameter = g.parameter;
    report.count = g.count;
    report.bytes = g.bytes;
    if (global) {
        report.stats =
            bufferStats(helpers.stats(global->address, g.count * std::uint64_t(g.elementType.lanes),
                                      g.elementType.scalar, gpu));
    }
    return report;
}

// Kernel parameters: the buffers' device pointers and the scalars' encoded bytes.
std::vector<void *> parameterPointerList(const ResolvedLaunch &resolved,
                                         const std::vector<DevicePointer> &pointers)
{
    return parameterPointers(resolved.parameterSlots, resolved.scalars, pointers);
}

std::vector<void *> parameterPointers(const std::vector<int> &slots,
                                      const std::vector<ResolvedScalar> &scalars,
                                      const std::vector<DevicePointer> &pointers)
{
    std::vector<void *> params;
    for (const int slot : slots) {
        if (slot >= 0) {
            params.push_back(const_cast<DevicePointer *>(&pointers[std::size_t(slot)]));
        } else {
            params.push_back(
                const_cast<unsigned char *>(scalars[std::size_t(-slot - 1)].bytes.data()));
        }
    }
    return params;
}

} // namespace cuwb
