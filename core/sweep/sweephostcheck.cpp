#include "sweep/sweephostcheck.h"

#include "compiler/compilecache.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "device/occupancy.h"

#include <algorithm>

namespace cuwb {

namespace {

std::string firstCompileError(const CompileResult &compiled)
{
    if (!compiled.failureMessage.empty()) {
        return compiled.failureMessage;
    }
    for (const Diagnostic &d : compiled.diagnostics) {
        if (d.severity == Severity::Error) {
            if (d.file.empty() || d.line <= 0)
                return d.message; // ptxas and other tools name no place in the source
            return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
                   d.message;
        }
    }
    std::string log = compiled.log.substr(0, compiled.log.find('\n'));
    return log.empty() ? std::string("the source did not compile") : log;
}

} // namespace

// One compiled variant: the module and, when the kernel was found and can be driven, its
// signature. Shared by every point with the same options and kernel name.
struct SweepHostCheck::Variant
{
    std::shared_ptr<const CompileResult> compiled;
    const KernelInfo *kernel = nullptr; // into *compiled
    KernelSignature signature;
    std::string error; // compile error, or why the kernel cannot be found or driven
    bool compileError = false;
    double compileMs = 0.0;
};

SweepHostCheck::SweepHostCheck(std::string arch, ValidationContext validation, int smCount)
    : m_arch(std::move(arch))
    , m_validation(std::move(validation))
    , m_smCount(smCount)
    , m_compiler(std::make_unique<KernelCompiler>(0)) // variants are kept below
{
    if (const std::optional<std::string> folder = CompileCache::defaultFolder())
        m_compiler->setDiskCache(std::make_shared<CompileCache>(*folder));
}

SweepHostCheck::~SweepHostCheck() = default;

const SweepHostCheck::Variant &SweepHostCheck::variantFor(const RunRequest &request, bool &firstUse)
{
    CompileOptions options = request.options;
    options.arch = m_arch;
    const std::string key = options.canonicalText() + "kernel=" + request.launch.kernel;
    firstUse = false;
    if (const auto found = m_variants.find(key); found != m_variants.end()) {
        return *found->second;
    }
    firstUse = true;
    auto variant = std::make_unique<Variant>();
    try {
        auto compiled = std::make_shared<CompileResult>(
            m_compiler->compile(request.source, request.fileName, options));
        if (!compiled->fromCache) {
            variant->compileMs = compiled->compileTimeMs;
            ++m_compiles;
            m_compileMs += compiled->compileTimeMs;
        }
        variant->compiled = compiled;
        if (!compiled->success) {
            variant->compileError = true;
            variant->error = "does not compile: " + firstCompileError(*compiled);
        } else if (const KernelLookup lookup = findKernel(*compiled, request.launch.kernel);
                   !lookup.found()) {
            variant->error = lookup.error;
        } else {
            variant->kernel = lookup.kernel;
            variant->signature =
                parseKernelSignature(request.source, compiled->ptx, *lookup.kernel);
            if (!variant->signature.drivable()) {
                std::string why = variant->signature.error;
                for (const KernelParameter &p : variant->signature.parameters) {
                    if (!p.supported) {
                        why += (why.empty() ? "" : "; ") + ("parameter `" + p.name + "`: ") +
                               p.unsupportedReason;
                    }
                }
                variant->error = "the kernel `" + displayName(*lookup.kernel) +
                                 "` cannot be run: " +
                                 (why.empty() ? std::string("a parameter is not supported") : why);
            }
        }
    } catch (const std::exception &error) {
        variant->error = std::string("could not be compiled on the host: ") + error.what();
    }
    return *m_variants.emplace(key, std::move(variant)).first->second;
}

void HostPointCheck::applyTo(SweepPointResult &result) const
{
    result.compileMs = compileMs;
    result.registersPerThread = registersPerThread;
    result.staticSharedBytes = staticSharedBytes;
    result.theoreticalOccupancy = theoreticalOccupancy;
    result.occupancyLimiter = occupancyLimiter;
    result.waves = waves;
    if (!runnable) {
        result.status = PointStatus::Skipped;
        result.compileFailed = compileFailed;
        result.message = message;
    }
}

HostPointCheck SweepHostCheck::check(const RunRequest &request)
{
    HostPointCheck out;
    bool firstUse = false;
    const Variant &variant = variantFor(request, firstUse);
    out.firstCompile = firstUse;
    out.compileMs = firstUse ? variant.compileMs : 0.0;
    out.compiled = variant.compiled;
    if (!variant.error.empty()) {
        out.compileFailed = variant.compileError;
        out.message = variant.error;
        return out;
    }
    const KernelResources &resources = variant.kernel->resources;
    out.registersPerThread = resources.registers;
    out.staticSharedBytes = resources.staticSharedBytes;

    // What needs the compiled kernel: registers and static shared memory against the limits,
    // and everything the launch's arguments say (counts, scalars that do not fit, globals).
    const ResolvedLaunch resolved =
        resolveLaunch(request.launch, variant.signature, request.options.defines);
    if (const std::vector<LaunchIssue> issues = validateLaunch(resolved, resources, m_validation);
        !issues.empty()) {
        out.message = joinIssues(issues);
        return out;
    }
    for (const ResolvedBuffer &global : resolved.globals) {
        const std::string problem = moduleVariableMismatch(
            variant.compiled->ptx, global.parameter, global.bytes,
            std::to_string(global.count) + " × " + global.elementType.name());
        if (!problem.empty()) {
            out.message = "global " + global.parameter + ": " + problem;
            return out;
        }
    }
    OccupancyInput input;
    input.registersPerThread = resources.registers;
    input.staticSharedBytes = std::size_t(std::max(resources.staticSharedBytes, 0));
    input.dynamicSharedBytes = std::size_t(resolved.dynamicSharedBytes);
    input.blockSize = int(resolved.block[0] * resolved.block[1] * resolved.block[2]);
    const OccupancyResult occupancy = computeOccupancy(m_validation.limits, input);
    if (!occupancy.valid) {
        out.message = "cannot run: " + occupancy.error;
        return out;
    }
    out.theoreticalOccupancy = occupancy.occupancy;
    out.occupancyLimiter = limiterName(occupancy.limiter);
    if (m_smCount > 0) {
        const long long blocks =
            (long long)(resolved.grid[0] * resolved.grid[1] * resolved.grid[2]);
        out.waves = occupancyWaves(occupancy, blocks, m_smCount);
    }
    out.runnable = true;
    return out;
}

SweepPlan planSweep(const SweepSpec &spec, const RunRequest &base, const std::string &arch)
{
    SweepPlan plan;
    plan.result.kernel = base.launch.kernel;
    plan.result.spec = spec;
    const std::optional<ArchLimits> limits = archLimits(arch);
    if (!limits) {
        plan.result.error = "unknown architecture `" + arch + "`";
        return plan;
    }
    plan.result.deviceName = arch + " (planned on the host, no GPU)";
    const SweepExpansion expansion = expandSweep(spec, base, &*limits);
    if (!expansion.ok()) {
        plan.result.error = expansion.error;
        return plan;
    }
    ValidationContext validation;
    validation.limits = *limits;
    validation.limitsName = arch;
    SweepHostCheck host(arch, validation);
    for (const SweepPoint &point : expansion.points) {
        SweepPointResult r;
        r.point = point;
        if (!point.runnable()) {
            r.status = PointStatus::Skipped;
            r.message = point.skipReason;
        } else {
            host.check(point.request).applyTo(r);
        }
        plan.result.points.push_back(std::move(r));
    }
    plan.variants = host.variants();
    plan.compiles = host.compiles();
    plan.compileMs = host.compileMs();
    return plan;
}

} // namespace cuwb
