#include "sweep/sweephostcheck.h"

#include "compiler/compilecache.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "device/occupancy.h"
#include "launch/launchsequence.h"

#include <algorithm>
#include <atomic>
#include <thread>

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
    double compileMs = 0.0; // NVRTC's time; 0 when it came from the compile cache
    bool used = false;      // a point has been checked with it
};

SweepHostCheck::SweepHostCheck(std::string arch, ValidationContext validation, int smCount,
                               CompileFunction compile)
    : m_arch(std::move(arch))
    , m_validation(std::move(validation))
    , m_smCount(smCount)
    , m_compiler(std::make_unique<KernelCompiler>(0)) // variants are kept below
    , m_compile(std::move(compile))
{
    if (const std::optional<std::string> folder = CompileCache::defaultFolder()) {
        auto disk = std::make_shared<CompileCache>(*folder);
        if (m_compile)
            m_diskCache = std::move(disk);
        else
            m_compiler->setDiskCache(std::move(disk));
    }
}

SweepHostCheck::~SweepHostCheck() = default;

std::string SweepHostCheck::variantKey(const RunRequest &request) const
{
    CompileOptions options = request.options;
    options.arch = m_arch;
    return options.canonicalText() + "kernel=" + request.launch.kernel;
}

CompileResult SweepHostCheck::compileVariant(const RunRequest &request,
                                             const CompileOptions &options) const
{
    if (!m_compile)
        return m_compiler->compile(request.source, request.fileName, options);
    // Only NVRTC runs elsewhere: a variant compiled before is read from disk here.
    std::optional<std::string> key;
    if (m_diskCache)
        key = m_diskCache->key(request.source, request.fileName, options);
    if (key) {
        if (std::optional<CompileResult> stored =
                m_diskCache->load(*key, request.source, request.fileName)) {
            stored->options = options;
            return *stored;
        }
    }
    CompileResult result = m_compile(request.source, request.fileName, options);
    if (key && !result.fromCache && CompileCache::storable(result))
        m_diskCache->store(*key, result);
    return result;
}

std::unique_ptr<SweepHostCheck::Variant> SweepHostCheck::build(const RunRequest &request) const
{
    CompileOptions options = request.options;
    options.arch = m_arch;
    auto variant = std::make_unique<Variant>();
    try {
        auto compiled = std::make_shared<CompileResult>(compileVariant(request, options));
        variant->compiled = compiled;
        variant->compileMs = compiled->fromCache ? 0.0 : compiled->compileTimeMs;
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
    return variant;
}

void SweepHostCheck::keep(const std::string &key, std::unique_ptr<Variant> variant)
{
    if (variant->compiled && !variant->compiled->fromCache) {
        ++m_compiles;
        m_compileMs += variant->compileMs;
    }
    m_variants.emplace(key, std::move(variant));
}

const SweepHostCheck::Variant &SweepHostCheck::variantFor(const RunRequest &request, bool &firstUse)
{
    const std::string key = variantKey(request);
    auto found = m_variants.find(key);
    if (found == m_variants.end()) {
        keep(key, build(request));
        found = m_variants.find(key);
    }
    // The first point to use a variant carries its compile time, also when it was compiled
    // ahead (precompile).
    firstUse = !found->second->used;
    found->second->used = true;
    return *found->second;
}

void SweepHostCheck::precompile(const std::vector<const RunRequest *> &requests, unsigned threads)
{
    std::vector<std::pair<std::string, const RunRequest *>> work;
    for (const RunRequest *request : requests) {
        std::string key = variantKey(*request);
        const bool known =
            m_variants.count(key) != 0 ||
            std::any_of(work.begin(), work.end(), [&](const auto &w) { return w.first == key; });
        if (!known)
            work.emplace_back(std::move(key), request);
    }
    std::vector<std::unique_ptr<Variant>> built(work.size());
    std::atomic<std::size_t> next{0};
    const auto compileSome = [&] {
        for (std::size_t k = next++; k < work.size(); k = next++)
            built[k] = build(*work[k].second); // KernelCompiler is thread-safe
    };
    std::vector<std::thread> pool;
    const unsigned count =
        m_compile ? 1u : std::max(1u, std::min<unsigned>(threads, unsigned(work.size())));
    for (unsigned t = 1; t < count; ++t)
        pool.emplace_back(compileSome);
    compileSome();
    for (std::thread &thread : pool)
        thread.join();
    for (std::size_t k = 0; k < work.size(); ++k)
        keep(work[k].first, std::move(built[k]));
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
        result.skip(skipKind, message);
        result.compileFailed = compileFailed; // a kernel that is missing compiled well
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
        out.skipKind = SkipKind::Compile;
        out.message = variant.error;
        return out;
    }
    const KernelResources &resources = variant.kernel->resources;
    out.registersPerThread = resources.registers;
    out.staticSharedBytes = resources.staticSharedBytes;

    // What needs the compiled kernel: registers and static shared memory against the limits,
    // and everything the launch's arguments say (counts, scalars that do not fit, globals).
    // A sequence's further kernels too, each against its own resources.
    const SequenceKernels sequence =
        findSequenceKernels(request.launch, *variant.compiled, request.source);
    const ResolvedLaunch resolved =
        resolveLaunch(request.launch, variant.signature, request.options.defines,
                      deviceNamesForArch(request.options.arch), sequence.signatures);
    // (A further kernel that is not in the module is among the resolved launch's issues.)
    std::vector<LaunchIssue> issues = validateLaunch(resolved, resources, m_validation);
    for (LaunchIssue &issue : validateSequence(request.launch, resolved, sequence, m_validation))
        issues.push_back(std::move(issue));
    if (!issues.empty()) {
        out.skipKind = SkipKind::Resources;
        out.message = joinIssues(issues);
        return out;
    }
    for (const ResolvedBuffer &global : resolved.globals) {
        const std::string problem = moduleVariableMismatch(
            variant.compiled->ptx, global.parameter, global.bytes,
            std::to_string(global.count) + " × " + global.elementType.name());
        if (!problem.empty()) {
            out.skipKind = SkipKind::Compile;
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
        out.skipKind = SkipKind::Resources;
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
    SweepExpansion expansion = expandSweep(spec, base, &*limits);
    if (!expansion.ok()) {
        plan.result.error = expansion.error;
        return plan;
    }
    ValidationContext validation;
    validation.limits = *limits;
    validation.limitsName = arch;
    SweepHostCheck host(arch, validation);
    // Every variant compiled first, on every core: NVRTC is most of a plan's time.
    std::vector<const RunRequest *> runnable;
    for (const SweepPoint &point : expansion.points) {
        if (point.runnable())
            runnable.push_back(&point.request);
    }
    host.precompile(runnable, std::max(1u, std::thread::hardware_concurrency()));
    // Each point moves into its result: a copy would hold every request (source text
    // included) twice.
    plan.result.points.reserve(expansion.points.size());
    for (SweepPoint &point : expansion.points) {
        SweepPointResult r;
        const bool runnable = point.runnable();
        r.point = std::move(point);
        if (!runnable) {
            r.status = PointStatus::Skipped;
            r.message = r.point.skipReason;
        } else {
            host.check(r.point.request).applyTo(r);
        }
        plan.result.points.push_back(std::move(r));
    }
    plan.variants = host.variants();
    plan.compiles = host.compiles();
    plan.compileMs = host.compileMs();
    return plan;
}

} // namespace cuwb
