// cuwb check: everything `cuwb run` would refuse, found without a GPU: the project file, the
// compile, the kernel's signature, every expression, and the launch against the target
// architecture's limits. It never touches the driver, even on a machine with a GPU, so its
// answer is the same in CI as on the workstation.
#include "argumentparser.h"
#include "commands.h"
#include "diagnostictext.h"

#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "device/archlimits.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"
#include "launch/launchjson.h"
#include "launch/launchsequence.h"
#include "launch/launchvalidation.h"
#include "project/project.h"
#include "run/verificationcheck.h"
#include "sweep/sweephostcheck.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace cuwb::cli {

namespace {

const char *const kCommand = "check";

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
           "Checks a project without a GPU: reads it, compiles its source with NVRTC, reads\n"
           "the kernel's parameters, evaluates every expression and validates the launch\n"
           "against the architecture's limits (threads, block and grid sizes, shared memory,\n"
           "registers). Each problem is printed as\n"
           "  PROJECT.cuwb: FIELD: MESSAGE\n"
           "and compile errors as cuwb compile prints them. The GPU is never used.\n"
           "\n"
           "  --arch sm_XX      check against this architecture instead of the project's\n"
           "  --json            print one JSON document: ok, arch, kernel, parameters,\n"
           "                    diagnostics, issues, resolved grid, block and buffer bytes,\n"
           "                    and the sweep's points that would not run\n"
           "  --no-sweep        check the base launch only, not every point of the sweep\n"
           "\n"
           "A project with a sweep has every point checked too: its expressions, the limits,\n"
           "and a compile of each variant, so what ptxas would reject is listed here.\n"
           "\n"
           "Exit status: 0 the launch would run, 1 it would not (compile errors included),\n"
           "2 usage error, unreadable or malformed project.\n";
}

int runCheck(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--arch", "-arch", "--gpu-architecture"});
    parser.addFlag({"--json"});
    parser.addFlag({"--no-sweep"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments))
        return usageError(kCommand, parser.error());
    if (parser.isSet("--help")) {
        printCheckHelp(std::cout);
        return ExitSuccess;
    }
    if (parser.positionals().size() != 1)
        return usageError(kCommand, parser.positionals().empty() ? "no project file"
                                                                 : "one project file at a time");
    const std::string projectPath = parser.positionals().front();
    const bool asJson = parser.isSet("--json");

    const ProjectLoad load = loadProject(projectPath);
    if (!load.project) {
        std::cerr << projectLoadError(projectPath, load) << '\n';
        return ExitUsage;
    }
    Project project = *load.project;
    resolveProjectPaths(project, projectPath); // files are relative to the project
    CompileOptions options = project.options;
    if (const auto arch = parser.value("--arch"))
        options.arch = *arch;
    const std::optional<ArchLimits> limits = archLimits(options.arch);
    if (!limits) {
        std::string known;
        for (const std::string &arch : knownArchs())
            known += (known.empty() ? "" : ", ") + arch;
        return usageError(kCommand, "unknown architecture '" + options.arch + "'; known: " + known);
    }
    std::string source;
    std::string error;
    if (!readProjectSource(project, projectPath, source, error)) {
        std::cerr << projectPath << ": " << error << "\n";
        return ExitUsage;
    }
    const std::filesystem::path projectFolder =
        std::filesystem::path(projectPath).parent_path().empty()
            ? std::filesystem::path(".")
            : std::filesystem::path(projectPath).parent_path();
    std::string shownSource = projectPath;
    std::string fileName = std::filesystem::path(projectPath).filename().string() + ".cu";
    if (!project.sourcePath.empty()) {
        const std::filesystem::path sourcePath =
            std::filesystem::path(project.sourcePath).is_relative()
                ? projectFolder / project.sourcePath
                : std::filesystem::path(project.sourcePath);
        shownSource = sourcePath.string();
        fileName = sourcePath.filename().string();
        options.includeDirs.push_back(sourcePath.parent_path().empty()
                                          ? std::string(".")
                                          : sourcePath.parent_path().string());
    } else {
        options.includeDirs.push_back(projectFolder.string());
    }
    if (!checkCompileOptions(std::cerr, projectPath, options))
        return ExitUsage;

    // The launch's defines are part of the compile options: evaluated here as the worker will.
    const CompileOptions unboundOptions = options; // each sweep point binds its own defines
    LaunchSpec launch = project.launch;
    const DeviceNames deviceNames = deviceNamesForArch(options.arch);
    std::vector<LaunchIssue> issues = bindLaunchDefines(
        launch, options, launchKernelNames(launch, project.verification), deviceNames);

    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, fileName, options);
    nlohmann::json report{{"project", projectPath}, {"arch", options.arch}};
    if (!result.success) {
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
        return result.counts().errors == 0 && !result.failureMessage.empty() ? ExitUsage
                                                                             : ExitFailure;
    }

    KernelSignature signature;
    ResolvedLaunch resolved;
    const KernelLookup lookup = findKernel(result, launch.kernel);
    const KernelInfo *kernel = lookup.kernel;
    if (!issues.empty()) {
        // The launch's defines did not evaluate; what follows would only repeat that.
    } else if (!kernel) {
        issues.push_back({"launch: kernel", lookup.error, -1});
    } else {
        signature = parseKernelSignature(source, result.ptx, *kernel);
        const SequenceKernels sequence = findSequenceKernels(launch, result, source);
        resolved =
            resolveLaunch(launch, signature, options.defines, deviceNames, sequence.signatures);
        const ValidationContext context{*limits, options.arch, std::nullopt};
        issues = validateLaunch(resolved, kernel->resources, context);
        for (LaunchIssue &issue : validateSequence(launch, resolved, sequence, context))
            issues.push_back(std::move(issue));
        // Every check, its expressions and masks compiled as the worker will compile them
        // (not when the launch's names failed: every check would only repeat that).
        if (!resolved.buffers.empty() || resolved.ok()) {
            for (LaunchIssue &issue :
                 checkVerification(project.verification, {result, source, resolved, &compiler,
                                                          options.arch, true, deviceNames}))
                issues.push_back(std::move(issue));
        }
        for (const ResolvedBuffer &global : resolved.globals) {
            const std::string problem = moduleVariableMismatch(
                result.ptx, global.parameter, global.bytes,
                std::to_string(global.count) + " × " + global.elementType.name());
            if (!problem.empty())
                issues.push_back({"global " + global.parameter, problem, -1});
        }
        for (const ArgumentSpec &argument : project.launch.arguments) {
            if (argument.isBuffer && argument.init.kind == InitKind::File &&
                !std::filesystem::is_regular_file(argument.init.file))
                issues.push_back({"argument " + argument.parameter + ": init file",
                                  "'" + argument.init.file + "' does not exist", -1});
        }
    }

    // Every point of the project's sweep, as the sweep would see it, compiled per variant.
    std::optional<SweepPlan> plan;
    if (project.sweep && !parser.isSet("--no-sweep") && !project.sweep->axes.empty()) {
        RunRequest base;
        base.source = source;
        base.fileName = fileName;
        base.options = unboundOptions;
        base.launch = project.launch;
        base.verification = project.verification;
        plan = planSweep(*project.sweep, base, options.arch);
        if (!plan->result.error.empty())
            issues.push_back({"sweep", plan->result.error, -1});
        else if (plan->runnable() == 0)
            issues.push_back(
                {"sweep",
                 "no point of the sweep would run (" + std::to_string(plan->result.points.size()) +
                     " points, all skipped; the first: " + plan->result.points.front().message +
                     ")",
                 -1});
    }

    if (asJson) {
        report["ok"] = issues.empty();
        if (plan && plan->result.error.empty()) {
            nlohmann::json skipped = nlohmann::json::array();
            for (const SweepPointResult &r : plan->result.points) {
                if (r.status == PointStatus::Skipped)
                    skipped.push_back({{"point", r.point.label()},
                                       {"reason", r.message},
                                       {"compileFailed", r.compileFailed}});
            }
            report["sweep"] = {{"points", plan->result.points.size()},
                               {"runnable", plan->runnable()},
                               {"skipped", skipped},
                               {"variants", plan->variants},
                               {"variantsCompiled", plan->compiles},
                               {"compileMs", plan->compileMs}};
        }
        report["kernel"] = kernel ? kernel->loweredName : std::string();
        report["kernelName"] = kernel ? displayName(*kernel) : std::string();
        report["diagnostics"] = result.diagnostics;
        report["parameters"] = signature.parameters;
        report["issues"] = issues;
        if (kernel && resolved.ok()) {
            report["grid"] = resolved.grid;
            report["block"] = resolved.block;
            report["dynamicSharedBytes"] = resolved.dynamicSharedBytes;
            report["bufferBytes"] = resolved.totalBufferBytes();
            report["needsSharedMemoryOptIn"] =
                needsSharedMemoryOptIn(resolved, kernel->resources, *limits);
        }
        std::cout << report.dump(2) << "\n";
        return issues.empty() ? ExitSuccess : ExitFailure;
    }
    // Warnings are worth seeing here too; they do not stop a run.
    printDiagnostics(std::cout, result.diagnostics, fileName, shownSource, 0);
    for (const LaunchIssue &issue : issues) {
        std::cout << projectPath << ": " << issue.field << ": " << issue.message;
        if (issue.position >= 0)
            std::cout << " (at character " << issue.position + 1 << ")";
        std::cout << "\n";
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
    if (plan) {
        const std::size_t total = plan->result.points.size();
        std::cout << projectPath << ": sweep: " << plan->runnable() << " of " << total
                  << " points would run on " << options.arch << " (" << plan->variants
                  << (plan->variants == 1 ? " variant: " : " variants: ") << plan->compiles
                  << " compiled, " << plan->variants - plan->compiles
                  << " from the compile cache)\n";
        std::size_t shown = 0;
        constexpr std::size_t kShownSkips = 20;
        for (const SweepPointResult &r : plan->result.points) {
            if (r.status != PointStatus::Skipped)
                continue;
            if (shown++ < kShownSkips)
                std::cout << projectPath << ": sweep: " << r.point.label()
                          << ": skipped: " << r.message << "\n";
        }
        if (shown > kShownSkips)
            std::cout << projectPath << ": sweep: ... and " << shown - kShownSkips
                      << " more skipped (cuwb sweep --list shows every point)\n";
    }
    return ExitSuccess;
}

} // namespace cuwb::cli
