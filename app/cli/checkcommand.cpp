// cuwb check: everything `cuwb run` would refuse or fail on, found without a GPU: the project
// file, the compile, the kernel's signature, every expression, the launch against the target
// architecture's limits, the verification compiled as the worker compiles it (its expression
// and mask), the files the run reads checked against their buffers (.npy headers, raw sizes),
// each launched kernel's resources and theoretical occupancy, and every point of the sweep.
// It never touches the driver, even on a machine with a GPU, so its answer is the same in CI as
// on the workstation. Compiles go through the compile cache on disk that `cuwb sweep --list`
// and `cuwb sweep` share (compiler/compilecache.h).
#include "argumentparser.h"
#include "commands.h"
#include "diagnostictext.h"
#include "sweepreport.h"

#include "compiler/compilecache.h"
#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "device/archlimits.h"
#include "device/devicejson.h"
#include "device/occupancy.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"
#include "launch/launchjson.h"
#include "launch/launchsequence.h"
#include "launch/launchvalidation.h"
#include "project/project.h"
#include "run/runhostcheck.h"
#include "run/verificationcheck.h"
#include "sweep/sweephostcheck.h"
#include "util/format.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace cuwb::cli {

namespace {

const char *const kCheckCommand = "check";

// A kernel the project launches (its own, a sequence's further kernels, and the reference
// kernels that run with the first kernel's launch), with its resources and theoretical
// occupancy at its block.
struct LaunchedKernel
{
    std::string role; // "kernel", "then[0]", "reference kernel"
    const KernelInfo *kernel;
    OccupancyResult occupancy;
    std::uint64_t threads = 0; // its block's
    std::uint64_t dynamicSharedBytes = 0;
};

// Resources and theoretical occupancy of `kernel` at a block of `threads` threads.
OccupancyResult occupancyOf(const KernelInfo &kernel, std::uint64_t threads,
                            std::uint64_t dynamicSharedBytes, const ArchLimits &limits)
{
    OccupancyInput input;
    input.registersPerThread = kernel.resources.registers;
    input.staticSharedBytes = std::size_t(std::max(kernel.resources.staticSharedBytes, 0));
    input.dynamicSharedBytes = std::size_t(dynamicSharedBytes);
    input.blockSize = int(std::min<std::uint64_t>(threads, 1u << 30));
    return computeOccupancy(limits, input);
}

std::uint64_t threadsOf(const std::array<std::uint64_t, 3> &block)
{
    return block[0] * block[1] * block[2];
}

// The kernel, each further kernel of its sequence at its own block, and each check's reference
// kernel (which runs with the first kernel's launch).
std::vector<LaunchedKernel> launchedKernels(const CompileResult &compiled, const KernelInfo &kernel,
                                            const SequenceKernels &sequence,
                                            const Verification &verification,
                                            const ResolvedLaunch &resolved,
                                            const ArchLimits &limits)
{
    const std::uint64_t threads = threadsOf(resolved.block);
    std::vector<LaunchedKernel> kernels{
        {"kernel", &kernel, occupancyOf(kernel, threads, resolved.dynamicSharedBytes, limits),
         threads, resolved.dynamicSharedBytes}};
    for (std::size_t k = 0; k < sequence.kernels.size() && k < resolved.steps.size(); ++k) {
        if (!sequence.kernels[k])
            continue;
        const ResolvedStep &step = resolved.steps[k];
        const std::uint64_t stepThreads = threadsOf(step.block);
        kernels.push_back(
            {"then[" + std::to_string(k) + "]", sequence.kernels[k],
             occupancyOf(*sequence.kernels[k], stepThreads, step.dynamicSharedBytes, limits),
             stepThreads, step.dynamicSharedBytes});
    }
    for (const VerificationSpec &check : verification.checks) {
        if (check.kind != ReferenceKind::Kernel || check.referenceKernel.empty())
            continue;
        const KernelLookup reference = findKernel(compiled, check.referenceKernel);
        const bool listed = std::any_of(kernels.begin(), kernels.end(), [&](const auto &k) {
            return k.kernel == reference.kernel;
        });
        if (reference.found() && !listed)
            kernels.push_back(
                {"reference kernel", reference.kernel,
                 occupancyOf(*reference.kernel, threads, resolved.dynamicSharedBytes, limits),
                 threads, resolved.dynamicSharedBytes});
    }
    return kernels;
}

// "vector_add: 16 registers, 0 bytes static + 0 bytes dynamic shared memory, no stack, no
// spills; theoretical occupancy 100% (8 blocks of 256 threads an SM; limited by warps)".
std::string kernelReport(const LaunchedKernel &launched)
{
    const KernelResources &r = launched.kernel->resources;
    std::string text = displayName(*launched.kernel) + ": ";
    if (!r.reported)
        text += "ptxas reported no resources; ";
    text += plural(std::uint64_t(std::max(r.registers, 0)), "register") + ", " +
            formatBytes(std::uint64_t(std::max(r.staticSharedBytes, 0))) + " static + " +
            formatBytes(launched.dynamicSharedBytes) + " dynamic shared memory, ";
    text += r.stackFrameBytes > 0 ? formatBytes(std::uint64_t(r.stackFrameBytes)) + " stack, "
                                  : std::string("no stack, ");
    if (r.spillStoreBytes > 0 || r.spillLoadBytes > 0)
        text += "SPILLS " + formatBytes(std::uint64_t(r.spillStoreBytes)) + " stored and " +
                formatBytes(std::uint64_t(r.spillLoadBytes)) + " loaded";
    else
        text += "no spills";
    const OccupancyResult &o = launched.occupancy;
    if (!o.valid)
        return text + "; occupancy: cannot run: " + o.error;
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.0f%%", o.occupancy * 100.0);
    return text + "; theoretical occupancy " + percent + " (" +
           plural(std::uint64_t(o.activeBlocksPerSm), "block") + " of " +
           std::to_string(launched.threads) + " threads an SM; limited by " +
           limiterName(o.limiter) + ")";
}

std::string dims(const std::array<std::uint64_t, 3> &values)
{
    return "(" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + ", " +
           std::to_string(values[2]) + ")";
}

} // namespace

void printCheckHelp(std::ostream &out)
{
    out << "Usage: cuwb check [OPTIONS] PROJECT.cuwb\n"
           "\n"
           "Checks a project without a GPU: reads it, compiles its source, reads the kernel's\n"
           "parameters, evaluates every expression and validates the launch against the\n"
           "architecture's limits (threads, block and grid sizes, shared memory, registers).\n"
           "The verification is compiled as the worker compiles it (its expression and its\n"
           "mask), its count, reference kernel and aggregate are checked, and every file the\n"
           "run reads (buffer and global inits, the reference) is checked against its buffer:\n"
           "a .npy's dtype, order and number of values, a raw file's size. Each kernel the\n"
           "project launches is printed with its registers, shared memory, stack and spills\n"
           "and its theoretical occupancy at the project's block. Each problem is printed as\n"
           "  PROJECT.cuwb: FIELD: MESSAGE\n"
           "and compile errors as cuwb compile prints them. The GPU is never used.\n"
           "\n"
           "  --arch sm_XX      check against this architecture instead of the project's\n"
           "  --json            print one JSON document: ok, arch, kernel, parameters,\n"
           "                    diagnostics, issues, kernels (resources and occupancy),\n"
           "                    resolved grid, block and buffer bytes, and the sweep's\n"
           "                    points that would not run, also grouped by reason\n"
           "  --no-sweep        check the base launch only, not every point of the sweep\n"
           "\n"
           "A project with a sweep has every point checked too: its expressions, the limits,\n"
           "and a compile of each variant. Points that do not compile (ptxas included) or\n"
           "cannot launch are named one by one; points excluded by a constraint or whose\n"
           "expressions have no value are counted by reason. Compiles are kept in the compile\n"
           "cache on disk that cuwb sweep --list and cuwb sweep use too (a failed compile\n"
           "included); CUWB_CACHE_DIR=off turns it off.\n"
           "\n"
           "Exit status: 0 the launch would run, 1 it would not (compile errors included),\n"
           "2 usage error, unreadable or malformed project.\n";
}

namespace {

// What `cuwb check` found beyond the compile: the kernel, its launch resolved and validated,
// every kernel it launches, the problems, and the sweep's plan.
struct CheckFindings
{
    const KernelInfo *kernel = nullptr;
    KernelSignature signature;
    ResolvedLaunch resolved;
    std::vector<LaunchedKernel> kernels;
    std::vector<LaunchIssue> issues;
    std::optional<SweepPlan> plan;
};

// The launch as the worker would resolve and validate it, its globals, its checks compiled as
// the worker compiles them, and the files the run reads against the buffers they fill.
void checkLaunch(const Project &project, const LaunchSpec &launch, const std::string &source,
                 const CompileResult &result, const CompileOptions &options,
                 const DeviceNames &deviceNames, const ArchLimits &limits, KernelCompiler &compiler,
                 CheckFindings &f)
{
    const KernelLookup lookup = findKernel(result, launch.kernel);
    f.kernel = lookup.kernel;
    if (!f.issues.empty()) {
        return; // the launch's defines did not evaluate; what follows would only repeat that
    }
    if (!f.kernel) {
        f.issues.push_back({"launch: kernel", lookup.error, -1});
        return;
    }
    const KernelInfo *kernel = f.kernel;
    KernelSignature &signature = f.signature;
    ResolvedLaunch &resolved = f.resolved;
    std::vector<LaunchIssue> &issues = f.issues;
    std::vector<LaunchedKernel> &kernels = f.kernels;
    signature = parseKernelSignature(source, result.ptx, *kernel);
    const SequenceKernels sequence = findSequenceKernels(launch, result, source);
    resolved = resolveLaunch(launch, signature, options.defines, deviceNames, sequence.signatures);
    const ValidationContext context{limits, options.arch, std::nullopt};
    issues = validateLaunch(resolved, kernel->resources, context);
    for (LaunchIssue &issue : validateSequence(launch, resolved, sequence, context))
        issues.push_back(std::move(issue));
    if (resolved.ok())
        kernels =
            launchedKernels(result, *kernel, sequence, project.verification, resolved, limits);
    for (const ResolvedBuffer &global : resolved.globals) {
        const std::string problem = moduleVariableMismatch(
            result.ptx, global.parameter, global.bytes,
            std::to_string(global.count) + " × " + global.elementType.name());
        if (!problem.empty())
            issues.push_back({"global " + global.parameter, problem, -1});
    }
    // Every check, its expressions and masks compiled as the worker will compile them (not
    // when the launch's names failed: every check would only repeat that), and the files
    // the run reads, against the buffers they fill.
    if (!resolved.buffers.empty() || resolved.ok()) {
        const CompileFunction compile = [&compiler](std::string_view text, std::string_view name,
                                                    const CompileOptions &with) {
            return compiler.compile(text, name, with);
        };
        for (LaunchIssue &issue :
             checkVerification(project.verification, {result, source, resolved, compile,
                                                      options.arch, true, deviceNames}))
            issues.push_back(std::move(issue));
    }
    for (LaunchIssue &issue : checkInputFiles(resolved))
        issues.push_back(std::move(issue));
}

// Every point of the project's sweep, as the sweep would see it, compiled per variant.
void checkSweep(const Project &project, const RunRequest &base, const std::string &arch,
                CheckFindings &f)
{
    if (!project.sweep || project.sweep->axes.empty()) {
        return;
    }
    f.plan = planSweep(*project.sweep, base, arch);
    if (!f.plan->result.error.empty())
        f.issues.push_back({"sweep", f.plan->result.error, -1});
    else if (f.plan->runnable() == 0)
        f.issues.push_back(
            {"sweep",
             "no point of the sweep would run (" + std::to_string(f.plan->result.points.size()) +
                 " points, all skipped; the first: " + f.plan->result.points.front().message + ")",
             -1});
}

// A compile that failed: its diagnostics and the launch's problems; the exit status.
int reportCompileFailure(bool asJson, nlohmann::json &report, const CompileResult &result,
                         const std::vector<LaunchIssue> &issues, const std::string &projectPath,
                         const std::string &fileName, const std::string &shownSource,
                         const CompileOptions &options)
{
    if (asJson) {
        report["ok"] = false;
        report["diagnostics"] = result.diagnostics;
        report["failureMessage"] = result.failureMessage;
        report["issues"] = issues;
        std::cout << report.dump(2) << "\n";
    } else {
        printDiagnostics(std::cout, result.diagnostics, fileName, shownSource, 0);
        for (const LaunchIssue &issue : issues)
            std::cout << projectPath << ": " << issue.field << ": " << issue.message << "\n";
        if (!result.failureMessage.empty())
            std::cout << projectPath << ": compile: " << result.failureMessage << "\n";
        std::cout << projectPath << ": compile: " << shownSource << " does not compile for "
                  << options.arch << "\n";
    }
    return result.counts().errors == 0 && !result.failureMessage.empty() ? ExitUsage : ExitFailure;
}

void printCheckJson(nlohmann::json &report, const CompileResult &result, const CheckFindings &f,
                    const ArchLimits &limits)
{
    const KernelInfo *kernel = f.kernel;
    const std::vector<LaunchIssue> &issues = f.issues;
    const std::optional<SweepPlan> &plan = f.plan;
    const ResolvedLaunch &resolved = f.resolved;
    report["ok"] = issues.empty();
    if (plan && plan->result.error.empty()) {
        nlohmann::json skipped = nlohmann::json::array();
        for (const SweepPointResult &r : plan->result.points) {
            if (r.status == PointStatus::Skipped)
                skipped.push_back({{"point", r.point.label()},
                                   {"reason", r.message},
                                   {"kind", skipKindName(r.point.skipKind)},
                                   {"compileFailed", r.compileFailed}});
        }
        nlohmann::json groups = nlohmann::json::array();
        for (const SkipGroup &group : groupSkips(plan->result.points)) {
            nlohmann::json points = nlohmann::json::array();
            for (const std::size_t k : group.points)
                points.push_back(plan->result.points[k].point.label());
            groups.push_back({{"kind", skipKindName(group.kind)},
                              {"reason", group.reason},
                              {"count", group.points.size()},
                              {"points", points}});
        }
        report["sweep"] = {{"points", plan->result.points.size()},
                           {"runnable", plan->runnable()},
                           {"skipped", skipped},
                           {"skipGroups", groups},
                           {"variants", plan->variants},
                           {"variantsCompiled", plan->compiles},
                           {"compileMs", plan->compileMs}};
    }
    report["kernel"] = kernel ? kernel->loweredName : std::string();
    report["kernelName"] = kernel ? displayName(*kernel) : std::string();
    report["diagnostics"] = result.diagnostics;
    report["notes"] = result.notes;
    report["parameters"] = f.signature.parameters;
    report["issues"] = issues;
    nlohmann::json launched = nlohmann::json::array();
    for (const LaunchedKernel &k : f.kernels) {
        nlohmann::json entry{{"role", k.role},
                             {"kernel", k.kernel->loweredName},
                             {"kernelName", displayName(*k.kernel)},
                             {"resources", k.kernel->resources},
                             {"spills", k.kernel->spills()},
                             {"occupancy", k.occupancy}};
        launched.push_back(std::move(entry));
    }
    report["kernels"] = launched;
    if (kernel && resolved.ok()) {
        report["grid"] = resolved.grid;
        report["block"] = resolved.block;
        report["dynamicSharedBytes"] = resolved.dynamicSharedBytes;
        report["bufferBytes"] = resolved.totalBufferBytes();
        report["needsSharedMemoryOptIn"] =
            needsSharedMemoryOptIn(resolved, kernel->resources, limits);
    }
    std::cout << report.dump(2) << "\n";
}

int printCheckText(const std::string &projectPath, const std::string &fileName,
                   const std::string &shownSource, const CompileResult &result,
                   const CompileOptions &options, const CheckFindings &f)
{
    const KernelInfo *kernel = f.kernel;
    const std::vector<LaunchIssue> &issues = f.issues;
    const std::optional<SweepPlan> &plan = f.plan;
    const ResolvedLaunch &resolved = f.resolved;
    const std::vector<LaunchedKernel> &kernels = f.kernels;
    // Warnings are worth seeing here too; they do not stop a run. So is what the compile did
    // besides compiling (Kernel Tuner's conventions, host code set aside).
    printDiagnostics(std::cout, result.diagnostics, fileName, shownSource, 0);
    for (const std::string &note : result.notes)
        std::cout << projectPath << ": compile: note: " << note << "\n";
    for (const LaunchedKernel &k : kernels)
        std::cout << projectPath << ": " << k.role << " " << kernelReport(k) << "\n";
    for (const LaunchIssue &issue : issues) {
        std::cout << projectPath << ": " << issue.field << ": " << issue.message;
        if (issue.position >= 0)
            std::cout << " (at character " << issue.position + 1 << ")";
        std::cout << "\n";
    }
    if (plan && plan->result.error.empty()) {
        const std::size_t total = plan->result.points.size();
        std::cout << projectPath << ": sweep: " << plan->runnable() << " of " << total
                  << " points would run on " << options.arch << " (" << plan->variants
                  << (plan->variants == 1 ? " variant: " : " variants: ") << plan->compiles
                  << " compiled, " << plan->variants - plan->compiles
                  << " from the compile cache)\n";
        // What the compiler or the launch rejects first, point by point; what the expressions
        // and constraints exclude after it, counted.
        printSkipGroups(std::cout, projectPath + ": sweep: ", plan->result, true);
    }
    if (!issues.empty()) {
        std::cout << projectPath << ": would not run: " << issues.size()
                  << (issues.size() == 1 ? " problem" : " problems") << "\n";
        return ExitFailure;
    }
    std::cout << projectPath << ": " << displayName(*kernel) << " would run on " << options.arch
              << ": grid " << dims(resolved.grid) << ", block " << dims(resolved.block) << ", "
              << resolved.buffers.size() << (resolved.buffers.size() == 1 ? " buffer" : " buffers")
              << " of " << resolved.totalBufferBytes() << " bytes\n";
    return ExitSuccess;
}

} // namespace

int runCheck(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--arch", "-arch", "--gpu-architecture"});
    parser.addFlag({"--json"});
    parser.addFlag({"--no-sweep"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments))
        return usageError(kCheckCommand, parser.error());
    if (parser.isSet("--help")) {
        printCheckHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1)
        return usageError(kCheckCommand, parser.positionals().empty()
                                             ? "no project file"
                                             : "one project file at a time");
    const std::string projectPath = parser.positionals().front();
    const bool asJson = parser.isSet("--json");

    const ProjectLoad load = loadProject(projectPath);
    if (!load.project) {
        std::cerr << projectLoadError(projectPath, load) << '\n';
        return ExitUsage;
    }
    Project project = *load.project;
    // Files are relative to the project, and the source's folder is an include folder.
    resolveProjectPaths(project, projectPath);
    std::string source;
    std::string error;
    if (!readProjectSource(project, projectPath, source, error)) {
        std::cerr << projectPath << ": " << error << "\n";
        return ExitUsage;
    }
    // The request `cuwb sweep` and `cuwb sweep --list` make of the project: the same file name
    // and options, so that the compile cache serves all three.
    RunRequest base = projectRunRequest(project, source);
    CompileOptions options = base.options;
    if (const auto arch = parser.value("--arch"))
        options.arch = *arch;
    const std::optional<ArchLimits> limits = archLimits(options.arch);
    if (!limits) {
        std::string known;
        for (const std::string &arch : knownArchs())
            known += (known.empty() ? "" : ", ") + arch;
        return usageError(kCheckCommand,
                          "unknown architecture '" + options.arch + "'; known: " + known);
    }
    std::string shownSource = projectPath;
    if (!project.sourcePath.empty()) {
        const std::filesystem::path folder = std::filesystem::path(projectPath).parent_path();
        const std::filesystem::path sourcePath = std::filesystem::path(project.sourcePath);
        shownSource =
            (sourcePath.is_relative() && !folder.empty() ? folder / sourcePath : sourcePath)
                .string();
    }
    const std::string &fileName = base.fileName;
    if (!checkCompileOptions(std::cerr, projectPath, options))
        return ExitUsage;

    // The launch's defines are part of the compile options: evaluated here as the worker will.
    LaunchSpec launch = project.launch;
    const DeviceNames deviceNames = deviceNamesForArch(options.arch);
    std::vector<LaunchIssue> issues = bindLaunchDefines(
        launch, options, launchKernelNames(launch, project.verification), deviceNames);

    KernelCompiler compiler;
    if (const std::optional<std::string> folder = CompileCache::defaultFolder())
        compiler.setDiskCache(std::make_shared<CompileCache>(*folder));
    const CompileResult result = compiler.compile(source, fileName, options);
    nlohmann::json report{{"project", projectPath}, {"arch", options.arch}};
    if (!result.success) {
        return reportCompileFailure(asJson, report, result, issues, projectPath, fileName,
                                    shownSource, options);
    }
    CheckFindings findings;
    findings.issues = std::move(issues);
    checkLaunch(project, launch, source, result, options, deviceNames, *limits, compiler, findings);
    if (!parser.isSet("--no-sweep")) {
        checkSweep(project, base, options.arch, findings);
    }
    if (asJson) {
        printCheckJson(report, result, findings, *limits);
        return findings.issues.empty() ? ExitSuccess : ExitFailure;
    }
    return printCheckText(projectPath, fileName, shownSource, result, options, findings);
}

} // namespace cuwb::cli
