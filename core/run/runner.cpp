#include "run/runner.h"

#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "compiler/nvrtcinfo.h"
#include "cuda/apierror.h"
#include "cuda/cuptiactivity.h"
#include "cuda/cuptiprofiler.h"
#include "cuda/devicememory.h"
#include "cuda/driverapi.h"
#include "cuda/driverwrappers.h"
#include "cuda/nvml.h"
#include "device/archlimits.h"
#include "device/occupancy.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"
#include "launch/launchvalidation.h"
#include "measure/statistics.h"
#include "measure/stoppingcriterion.h"
#include "measure/throughput.h"
#include "run/bufferfiles.h"
#include "run/devicefaults.h"
#include "run/gpuhelpers.h"
#include "run/hostelements.h"
#include "run/preparedlaunch.h"
#include "run/runnerstate.h"
#include "run/runtext.h"

#include <cuda.h> // CUDA_VERSION only: the toolkit this worker was built with

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

namespace cuwb {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxMismatches = 10;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The error of one value against its reference, as the compare kernel computes it.
double hostError(const unsigned char *actual, const unsigned char *expected, ScalarKind kind,
                 ToleranceKind tolerance)
{
    const double a = scalarToDouble(actual, kind);
    const double e = scalarToDouble(expected, kind);
    if (std::isnan(a) || std::isnan(e)) {
        return (std::isnan(a) && std::isnan(e)) ? 0.0 : HUGE_VAL;
    }
    if (a == e) {
        return 0.0;
    }
    if (std::isinf(a) || std::isinf(e)) {
        return HUGE_VAL;
    }
    switch (tolerance) {
    case ToleranceKind::Absolute:
        return std::fabs(a - e);
    case ToleranceKind::Relative:
        return std::fabs(a - e) / std::fabs(e);
    case ToleranceKind::Ulp:
        break;
    }
    const auto ordered = [kind](const unsigned char *bytes) -> double {
        switch (kind) {
        case ScalarKind::Float16:
        case ScalarKind::BFloat16: {
            std::uint16_t b;
            std::memcpy(&b, bytes, 2);
            return (b & 0x8000) ? -double(b & 0x7fff) : double(b);
        }
        case ScalarKind::Float32: {
            std::uint32_t b;
            std::memcpy(&b, bytes, 4);
            return (b & 0x80000000u) ? -double(b & 0x7fffffffu) : double(b);
        }
        case ScalarKind::Float64: {
            std::uint64_t b;
            std::memcpy(&b, bytes, 8);
            return (b >> 63) ? -double(b & 0x7fffffffffffffffull) : double(b);
        }
        default:
            return scalarToDouble(bytes, kind);
        }
    };
    return std::fabs(ordered(actual) - ordered(expected));
}

int toleranceCode(ToleranceKind kind)
{
    switch (kind) {
    case ToleranceKind::Absolute:
        return 0;
    case ToleranceKind::Relative:
        return 1;
    case ToleranceKind::Ulp:
        return 2;
    }
    return 1;
}

bool isIdentifier(const std::string &name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

std::string literal(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", value);
    std::string s = text;
    if (s.find_first_of(".eEn") == std::string::npos) {
        s += ".0";
    }
    return s;
}

// The reference kernel for an Expression verification: out[i] = (T)(EXPR), with every buffer
// bound by name (read-only), every scalar argument and variable as a constant.
// One number the verification expression may use: a scalar argument or a launch name.
struct ReferenceValue
{
    std::string name;
    std::string type; // the scalar's own type (float for half types), "long long" or "double"
    double value = 0.0;
    std::vector<unsigned char> bytes; // the value as `type`, for a kernel parameter
};

std::vector<ReferenceValue> referenceValues(const ResolvedLaunch &resolved)
{
    std::vector<ReferenceValue> values;
    std::vector<std::string> taken{"i"};
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        taken.push_back(buffer.parameter);
    }
    for (const ResolvedScalar &scalar : resolved.scalars) {
        if (!isIdentifier(scalar.parameter)) {
            continue;
        }
        ReferenceValue v{scalar.parameter, cudaTypeName(scalar.elementType), scalar.value,
                         scalar.bytes};
        const ScalarKind kind = scalar.elementType.scalar;
        if (kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16) {
            const float asFloat = float(scalar.value);
            v.type = "float";
            v.bytes.assign(sizeof asFloat, 0);
            std::memcpy(v.bytes.data(), &asFloat, sizeof asFloat);
        }
        values.push_back(v);
        taken.push_back(scalar.parameter);
    }
    for (const auto &[name, value] : resolved.variables) {
        if (!isIdentifier(name) || std::find(taken.begin(), taken.end(), name) != taken.end()) {
            continue;
        }
        ReferenceValue v{name, "double", value, std::vector<unsigned char>(8)};
        if (value == std::floor(value) && std::fabs(value) < 9.0e18) {
            v.type = "long long";
            const long long whole = static_cast<long long>(value);
            std::memcpy(v.bytes.data(), &whole, sizeof whole);
        } else {
            std::memcpy(v.bytes.data(), &value, sizeof value);
        }
        values.push_back(v);
    }
    return values;
}

// The element-wise kernel of a verification expression: out[i] = (T)(EXPR), or for a
// condition (a mask) out[i] = EXPR ? 1 : 0, with every buffer bound by name (read-only). With
// `asParameters`, the launch's numbers are kernel parameters, so the source (and its compile)
// is the same for every configuration of a sweep; without, they are constexpr constants, for
// expressions that need constant expressions.
std::string elementKernelSource(const std::string &expression, const char *label, bool condition,
                                const ResolvedLaunch &resolved, const std::string &outputType,
                                const std::vector<ReferenceValue> &values, bool asParameters)
{
    std::string constants;
    std::string valueParameters;
    for (const ReferenceValue &v : values) {
        if (asParameters) {
            valueParameters += ", const " + v.type + " " + v.name;
        } else if (v.type == "long long") {
            constants += "constexpr long long " + v.name + " = " +
                         std::to_string(static_cast<long long>(v.value)) + "LL;\n";
        } else {
            constants += "constexpr " + v.type + " " + v.name + " = static_cast<" + v.type + ">(" +
                         literal(v.value) + ");\n";
        }
    }
    std::string parameters;
    for (const ResolvedBuffer &buffer : resolved.buffers) {
        parameters +=
            ", const " + cudaTypeName(buffer.elementType) + " *__restrict__ " + buffer.parameter;
    }
    const std::string open =
        condition ? "        cuwb_out[i] = (" : "        cuwb_out[i] = (" + outputType + ")(";
    const std::string close = condition ? "\n        ) ? 1 : 0;\n" : "\n        );\n";
    return "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" + constants +
           "extern \"C\" __global__ void cuwb_reference(" + outputType +
           " *__restrict__ cuwb_out, unsigned long long cuwb_n" + parameters + valueParameters +
           ")\n{\n"
           "    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + "
           "threadIdx.x; i < cuwb_n;\n         i += (unsigned long long)gridDim.x * blockDim.x) "
           "{\n" +
           open + "\n#line 1 \"" + label + "\"\n" + expression + close + "    }\n}\n";
}

// How long the blocking kernel holds a stream at most: far longer than the host needs to queue
// one sample (microseconds), short enough that a stalled host costs one slow sample, not a hang.
constexpr std::uint64_t kHoldTimeoutNs = 1'000'000'000;

// What a cuEvent pair adds to a kernel's time even with the launch held (docs/measurement.md).
constexpr const char *kEventCaveat =
    ", which read about 3 µs more than the kernel ran on an H200 (the records' own cost)";

double reduced(const ScalarStats &stats, Reduction reduction)
{
    switch (reduction) {
    case Reduction::Min:
        return stats.min;
    case Reduction::Max:
        return stats.max;
    case Reduction::Sum:
    case Reduction::None:
        break;
    }
    return stats.sum;
}

// An aggregate check: reduce the first `scalars` values of `out` on the GPU (one pass) and
// compare with `expected`, or with the same reduction of `reference` (a reference kernel's
// output) when no value is given.
void verifyAggregate(VerificationResult &verdict, const VerificationSpec &verify,
                     const Allocation &out, std::uint64_t scalars, std::uint64_t elements,
                     std::optional<double> expected, DevicePointer reference, GpuHelpers &helpers,
                     const Stream &gpu)
{
    const char *how =
        reductionName(verify.reduce == Reduction::None ? Reduction::Sum : verify.reduce);
    const Reduction reduction = verify.reduce == Reduction::None ? Reduction::Sum : verify.reduce;
    const ScalarStats actualStats = helpers.stats(out.data(), scalars, out.type.scalar, gpu);
    verdict.checked = elements;
    if (actualStats.nan + actualStats.inf > 0) {
        verdict.passed = false;
        verdict.mismatches = actualStats.nan + actualStats.inf;
        verdict.message = "`" + out.parameter + "` holds " +
                          plural(actualStats.nan + actualStats.inf, "value") +
                          " that are not finite, so its " + how + " is meaningless";
        return;
    }
    const double actual = reduced(actualStats, reduction);
    if (!expected)
        expected = reduced(helpers.stats(reference, scalars, out.type.scalar, gpu), reduction);
    verdict.aggregateActual = actual;
    verdict.aggregateExpected = *expected;
    const double difference = std::fabs(actual - *expected);
    double error = difference;
    if (verify.tolerance != ToleranceKind::Absolute)
        error = *expected == 0.0 ? difference : difference / std::fabs(*expected);
    verdict.maxError = error;
    verdict.passed = error <= verify.toleranceValue;
    verdict.mismatches = verdict.passed ? 0 : 1;
    const std::string unit = verify.tolerance == ToleranceKind::Absolute ? "abs" : "rel";
    const std::string part =
        elements == out.count ? std::string() : " (the first " + std::to_string(elements) + ")";
    verdict.message = std::string("the ") + how + " of `" + out.parameter + "`" + part + " is " +
                      shortNumber(actual) + (verdict.passed ? ", as expected " : ", expected ") +
                      shortNumber(*expected) + " (" + unit + " error " + shortNumber(error) +
                      (verdict.passed ? " ≤ " : " > ") + shortNumber(verify.toleranceValue) + ")";
}

} // namespace

// The runner's state lives in runnerstate.h, where the files of its phases can name it.
struct Runner::State : RunnerState
{};

Runner::Runner(int deviceOrdinal)
    : m_state(std::make_unique<State>())
{
    initDriver();
    const Device device(deviceOrdinal);
    m_state->ordinal = deviceOrdinal;
    m_state->context = std::make_unique<PrimaryContext>(device);
    const DeviceQuery query = queryDevices();
    const auto found =
        std::find_if(query.devices.begin(), query.devices.end(),
                     [&](const DeviceInfo &d) { return d.ordinal == deviceOrdinal; });
    if (found == query.devices.end()) {
        throw std::runtime_error("device " + std::to_string(deviceOrdinal) +
                                 " is not in the device list: " + query.message);
    }
    m_state->device = *found;
    m_state->context->makeCurrent();
    m_state->stream = std::make_unique<Stream>();
}

Runner::~Runner()
{
    if (m_state && m_state->contextLost) {
        // A kernel may still be running: freeing would wait for it. The process is exiting.
        (void)m_state.release();
    }
}

const DeviceInfo &Runner::device() const
{
    return m_state->device;
}

std::uint64_t Runner::freeMemoryBytes() const
{
    m_state->context->makeCurrent();
    return deviceMemoryInfo().freeBytes;
}

bool Runner::contextLost() const
{
    return m_state->contextLost;
}

RunResult Runner::run(const RunRequest &request)
{
    const auto start = Clock::now();
    RunResult result;
    State &s = *m_state;
    result.device = s.device.name + " (" + s.device.arch() + ")";
    if (s.contextLost) {
        result.status = RunStatus::Fault;
        result.message = "the GPU context was lost by an earlier fault; start a new worker";
        return result;
    }
    std::string phase = "preparing the run";
    try {
        s.context->makeCurrent();
        s.execute(request, result, phase);
    } catch (const RunFailure &failure) {
        result.status = failure.status;
        result.message = failure.message;
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
    } catch (const ApiError &error) {
        result.deviceError = error.status();
        const RunFailure failure = classifyApiError(error, phase, s.contextLost);
        result.status = failure.status;
        result.message = failure.message;
    } catch (const std::exception &error) {
        result.status = RunStatus::Fault;
        result.message = std::string("the run failed while ") + phase + ": " + error.what();
    }
    if (result.status != RunStatus::Succeeded) {
        // The reports of a run that did not finish would mislead; drop its buffers.
        result.buffers.clear();
    }
    result.wallTimeMs = msSince(start);
    return result;
}

std::string RunnerState::runElementKernel(const ElementKernel &job, Prepared &prepared,
                                          std::unique_ptr<Module> &module, std::string &phase)
{
    phase = std::string("compiling the ") + job.label;
    CompileOptions options;
    options.arch = device.arch();
    options.lineInfo = false;
    // The launch's numbers as parameters: one compile serves every point of a sweep. An
    // expression that needs them as constant expressions gets constexpr constants.
    std::vector<ReferenceValue> values = referenceValues(prepared.resolved);
    const auto source = [&](bool asParameters) {
        return elementKernelSource(job.expression, job.label, job.condition, prepared.resolved,
                                   job.outputType, values, asParameters);
    };
    CompileResult compiled = compiler.compile(source(true), "reference.cu", options);
    if (!compiled.success) {
        compiled = compiler.compile(source(false), "reference.cu", options);
        if (compiled.success) {
            values.clear();
        }
    }
    if (!compiled.success) {
        return std::string("the ") + job.label + " did not compile: " + firstErrors(compiled, 2);
    }
    module = std::make_unique<Module>(compiled.cubin);
    const Function function = module->function("cuwb_reference");
    std::vector<void *> params;
    DevicePointer target = job.target;
    std::uint64_t n = job.count;
    params.push_back(&target);
    params.push_back(&n);
    for (DevicePointer &p : prepared.pointers) {
        params.push_back(&p);
    }
    for (ReferenceValue &v : values) {
        params.push_back(v.bytes.data());
    }
    phase = std::string("computing the ") + job.label;
    const unsigned blocks = unsigned(std::clamp<std::uint64_t>(
        (n + 255) / 256, 1, std::uint64_t(std::max(1, device.smCount)) * 8));
    const Event done;
    function.launch({blocks, 1, 1}, {256, 1, 1}, 0, *stream, params.data());
    done.record(*stream);
    waitOrThrow(done, prepared.deadlineSeconds, std::string("the ") + job.label, contextLost);
    return {};
}

void RunnerState::execute(const RunRequest &request, RunResult &result, std::string &phase)
{
    // The previous run's buffers go first, so this run has all the memory.
    kept.reset();
    keptHandles.clear();
    const int runNumber = ++runs;

    Prepared prepared;
    const LeakOnLoss leak{prepared.resources, contextLost};
    prepareLaunch(*this, request, prepared, phase);
    const CompileResult &compiled = prepared.compiled;
    const ResolvedLaunch &resolved = prepared.resolved;
    std::unique_ptr<RunResources> &resources = prepared.resources;
    const Function &function = *prepared.function;
    GpuHelpers &helpers = gpuHelpers();
    const Stream &gpu = *stream;
    std::vector<DevicePointer> &pointers = prepared.pointers;
    const std::array<unsigned, 3> &grid = prepared.grid;
    const std::array<unsigned, 3> &block = prepared.block;
    const unsigned dynamicShared = prepared.dynamicShared;
    const double deadlineSeconds = prepared.deadlineSeconds;
    const std::string note = prepared.note;
    const auto parameterPointers = [&](const std::vector<DevicePointer> &from) {
        return parameterPointerList(resolved, from);
    };

    // The reference, computed from the initial contents before the kernel may change them.
    const VerificationSpec &verify = request.verification;
    VerificationResult &verdict = result.verification;
    int outputIndex = -1;
    bool referenceReady = false;
    if (verify.kind != ReferenceKind::None) {
        verdict.ran = true;
        for (std::size_t k = 0; k < resolved.buffers.size(); ++k) {
            if (resolved.buffers[k].parameter == verify.output) {
                outputIndex = int(k);
            }
        }
        if (outputIndex < 0) {
            verdict.message =
                "cannot verify: `" + verify.output + "` is not a buffer of the kernel";
        }
    }
    // The elements that count: all of the output, or the first `count` of them.
    std::uint64_t checkedElements = 0;
    if (outputIndex >= 0) {
        const Allocation &out = resources->buffers[std::size_t(outputIndex)];
        checkedElements = out.count;
        if (!verify.count.empty()) {
            const ExpressionValue count = evaluateExpression(verify.count, resolved.variables);
            if (!count.ok()) {
                verdict.message =
                    "cannot verify: count `" + verify.count + "`: " + count.error->message;
                outputIndex = -1;
            } else if (count.value < 1 || count.value != std::trunc(count.value) ||
                       count.value > double(out.count)) {
                verdict.message = "cannot verify: count `" + verify.count + "` is " +
                                  shortNumber(count.value) + "; `" + out.parameter + "` has " +
                                  plural(out.count, "element");
                outputIndex = -1;
            } else {
                checkedElements = std::uint64_t(count.value);
            }
        }
    }
    // The elements the mask selects, from the buffers as the kernel will find them.
    std::uint64_t maskedElements = checkedElements;
    if (outputIndex >= 0 && !verify.mask.empty()) {
        resources->mask = DeviceBuffer(std::max<std::uint64_t>(checkedElements, 1));
        const std::string problem =
            runElementKernel({verify.mask, "verification mask", true, "unsigned char",
                              resources->mask.pointer(), checkedElements},
                             prepared, resources->maskModule, phase);
        if (problem.empty()) {
            maskedElements = helpers
                                 .countPattern(resources->mask.pointer(), checkedElements, 1,
                                               0x0101010101010101ull, gpu)
                                 .count;
        }
        if (!problem.empty() || maskedElements == 0) {
            verdict.message =
                "cannot verify: " + (problem.empty()
                                         ? "the mask `" + verify.mask + "` selects none of the " +
                                               plural(checkedElements, "element")
                                         : problem);
            outputIndex = -1;
        }
    }
    std::optional<double> expectedAggregate;
    if (outputIndex >= 0) {
        const Allocation &out = resources->buffers[std::size_t(outputIndex)];
        phase = "allocating the reference for `" + out.parameter + "`";
        switch (verify.kind) {
        case ReferenceKind::None:
            break;
        case ReferenceKind::Expression: {
            if (out.type.lanes > 1) {
                verdict.message = "cannot verify `" + out.parameter +
                                  "` with an expression: vector element types need a reference "
                                  "kernel or a file";
                break;
            }
            resources->reference = DeviceBuffer(out.bytes);
            const std::string problem = runElementKernel(
                {verify.expression, "verification expression", false, cudaTypeName(out.type),
                 resources->reference.pointer(), out.count},
                prepared, resources->referenceModule, phase);
            if (!problem.empty()) {
                verdict.message = problem;
                break;
            }
            referenceReady = true;
            break;
        }
        case ReferenceKind::Kernel: {
            const KernelLookup refLookup = findKernel(compiled, verify.referenceKernel);
            if (!refLookup.found()) {
                verdict.message = "cannot verify: the reference kernel: " + refLookup.error;
                break;
            }
            const KernelInfo *refKernel = refLookup.kernel;
            const Function refFunction = resources->module->function(refKernel->loweredName);
            std::vector<DevicePointer> copyPointers;
            for (const Allocation &a : resources->buffers) {
                resources->copies.emplace_back(std::max<std::uint64_t>(a.bytes, 1));
                copyDeviceToDevice(resources->copies.back().pointer(), a.data(), a.bytes);
                copyPointers.push_back(resources->copies.back().pointer());
            }
            if (dynamicShared > 48u * 1024u) {
                refFunction.setMaxDynamicSharedBytes(int(dynamicShared));
            }
            std::vector<void *> params = parameterPointers(copyPointers);
            phase = "running the reference kernel `" + refKernel->loweredName + "`";
            const Event done;
            refFunction.launch(grid, block, dynamicShared, gpu, params.data());
            done.record(gpu);
            waitOrThrow(done, deadlineSeconds,
                        "the reference kernel `" + refKernel->loweredName + "`", contextLost);
            resources->reference = std::move(resources->copies[std::size_t(outputIndex)]);
            resources->copies.clear();
            referenceReady = true;
            break;
        }
        case ReferenceKind::Aggregate:
            phase = "reducing the expected value";
            if (!verify.of.empty()) {
                const auto of =
                    std::find_if(resources->buffers.begin(), resources->buffers.end(),
                                 [&](const Allocation &a) { return a.parameter == verify.of; });
                if (of == resources->buffers.end()) {
                    verdict.message =
                        "cannot verify: `" + verify.of + "` is not a buffer of the kernel";
                    break;
                }
                // The buffer as the kernel will find it: reduced before the launch.
                const ScalarStats stats =
                    helpers.stats(of->data(), of->scalars(), of->type.scalar, gpu);
                if (stats.nan + stats.inf > 0) {
                    verdict.message = "cannot verify: `" + verify.of + "` holds " +
                                      plural(stats.nan + stats.inf, "value") +
                                      " that are not finite";
                    break;
                }
                expectedAggregate = reduced(stats, verify.reduce);
            } else {
                const ExpressionValue expected =
                    evaluateExpression(verify.expected, resolved.variables);
                if (!expected.ok()) {
                    verdict.message = "cannot verify: expected `" + verify.expected +
                                      "`: " + expected.error->message;
                    break;
                }
                expectedAggregate = expected.value;
            }
            referenceReady = true;
            break;
        case ReferenceKind::File:
            resources->reference = DeviceBuffer(std::max<std::uint64_t>(out.bytes, 1));
            phase = "reading the reference file";
            try {
                loadFileToDevice(verify.file, out.type, out.count, resources->reference.pointer(),
                                 "the reference of `" + out.parameter + "`");
                referenceReady = true;
            } catch (const FileProblem &problem) {
                verdict.message = std::string("cannot verify: ") + problem.what();
            }
            break;
        }
    }

    // The launch.
    phase = "launching the kernel";
    std::vector<void *> params = parameterPointers(pointers);
    const Event started;
    const Event finished;
    started.record(gpu);
    function.launch(grid, block, dynamicShared, gpu, params.data());
    finished.record(gpu);
    phase = "running the user's kernel";
    waitOrThrow(finished, deadlineSeconds, "the kernel", contextLost);
    result.kernelTimeMs = Event::elapsedMs(started, finished);
    result.compileMs = prepared.workerCompileMs;

    // Reports: guard bands, unwritten outputs, statistics.
    for (const Allocation &a : resources->buffers) {
        phase = "checking `" + a.parameter + "`";
        result.buffers.push_back(
            checkBuffer(a, "run" + std::to_string(runNumber) + "/" + a.parameter, helpers, gpu));
    }

    for (const ResolvedBuffer &g : resolved.globals) {
        phase = "reading the global `" + g.parameter + "`";
        result.globals.push_back(readGlobal(g, *resources->module, helpers, gpu));
    }

    // Verification.
    if (referenceReady &&
        (verify.kind == ReferenceKind::Aggregate || verify.reduce != Reduction::None)) {
        phase = "verifying `" + verify.output + "`";
        const Allocation &out = resources->buffers[std::size_t(outputIndex)];
        const std::uint64_t scalars = checkedElements * std::uint64_t(out.type.lanes);
        verifyAggregate(verdict, verify, out, scalars, checkedElements, expectedAggregate,
                        resources->reference.pointer(), helpers, gpu);
    } else if (referenceReady) {
        phase = "verifying `" + verify.output + "`";
        const Allocation &out = resources->buffers[std::size_t(outputIndex)];
        const DevicePointer reference = resources->reference.pointer();
        const int tolerance = toleranceCode(verify.tolerance);
        const std::uint64_t lanes = std::uint64_t(out.type.lanes);
        const std::uint64_t checkedScalars = checkedElements * lanes;
        const DevicePointer mask = verify.mask.empty() ? 0 : resources->mask.pointer();
        const CompareSummary summary =
            helpers.compare(out.data(), reference, checkedScalars, out.type.scalar, tolerance,
                            verify.toleranceValue, 0, gpu, mask, lanes);
        const std::size_t scalarBytes = scalarSizeBytes(out.type.scalar);
        verdict.checked = maskedElements;
        verdict.mismatches = summary.mismatches;
        verdict.maxError = summary.maxError;
        verdict.maxErrorIndex = summary.maxErrorScalar / lanes;
        verdict.passed = summary.mismatches == 0;
        const std::uint64_t threadsPerBlock =
            resolved.block[0] * resolved.block[1] * resolved.block[2];
        std::int64_t next = summary.firstScalar;
        while (next >= 0 && verdict.firstMismatches.size() < kMaxMismatches) {
            const std::uint64_t scalar = std::uint64_t(next);
            Mismatch m;
            m.index = scalar / lanes;
            unsigned char actualBytes[8] = {};
            unsigned char expectedBytes[8] = {};
            copyToHost(actualBytes, out.data() + scalar * scalarBytes, scalarBytes);
            copyToHost(expectedBytes, reference + scalar * scalarBytes, scalarBytes);
            m.actual = scalarToDouble(actualBytes, out.type.scalar);
            m.expected = scalarToDouble(expectedBytes, out.type.scalar);
            m.error = hostError(actualBytes, expectedBytes, out.type.scalar, verify.tolerance);
            const std::uint64_t blockIndex = m.index / threadsPerBlock;
            const std::uint64_t threadIndex = m.index % threadsPerBlock;
            m.thread[0] = threadIndex % resolved.block[0];
            m.thread[1] = (threadIndex / resolved.block[0]) % resolved.block[1];
            m.thread[2] = threadIndex / (resolved.block[0] * resolved.block[1]);
            m.block[0] = blockIndex % resolved.grid[0];
            m.block[1] = (blockIndex / resolved.grid[0]) % resolved.grid[1];
            m.block[2] = blockIndex / (resolved.grid[0] * resolved.grid[1]);
            verdict.firstMismatches.push_back(m);
            if (verdict.firstMismatches.size() == kMaxMismatches ||
                verdict.firstMismatches.size() == summary.mismatches) {
                break;
            }
            next = helpers
                       .compare(out.data(), reference, checkedScalars, out.type.scalar, tolerance,
                                verify.toleranceValue, (m.index + 1) * lanes, gpu, mask, lanes)
                       .firstScalar;
        }
        const std::string bound = std::string(toleranceKindName(verify.tolerance)) +
                                  (verdict.passed ? " ≤ " : " > ") +
                                  shortNumber(verify.toleranceValue);
        std::string part;
        if (!verify.mask.empty()) {
            part = " selected by the mask (of " + std::to_string(checkedElements) + ")";
        } else if (checkedElements != out.count) {
            part = " (the first " + std::to_string(checkedElements) + ")";
        }
        if (verdict.passed) {
            verdict.message = "all " + plural(maskedElements, "element") + part + " of `" +
                              out.parameter + "` match (" + bound + "; largest error " +
                              shortNumber(summary.maxError) + ")";
        } else {
            verdict.message =
                std::to_string(summary.mismatches) + " of " +
                std::to_string(maskedElements * lanes) + (lanes > 1 ? " values" : " elements") +
                " of `" + out.parameter + "` differ (" + bound + "); largest error " +
                shortNumber(summary.maxError) + " at index " +
                std::to_string(verdict.maxErrorIndex) +
                "; the block and thread of each mismatch assume one element per thread";
        }
        resources->reference = DeviceBuffer();
    } else if (verify.kind != ReferenceKind::None && verdict.message.empty()) {
        verdict.message = "cannot verify `" + verify.output + "`";
    }
    resources->referenceModule.reset();
    resources->maskModule.reset();
    resources->mask = DeviceBuffer();
    resources->copies.clear();

    result.message = note;
    keptHandles.clear();
    for (const BufferReport &report : result.buffers) {
        keptHandles.push_back(report.handle);
    }
    kept = std::move(resources);
}

Measurement Runner::measure(const RunRequest &request, const SampleSettings &settings,
                            const ThroughputExpressions &throughput)
{
    Measurement m;
    m.settings = settings;
    State &s = *m_state;
    const auto fail = [&](RunStatus status, const std::string &message) {
        m.faultStatus = runStatusName(status);
        m.faultMessage = message;
    };
    if (const auto problem = checkSampleSettings(settings)) {
        fail(RunStatus::InvalidLaunch, "the sample settings cannot be used: " + *problem);
        return m;
    }
    if (s.contextLost) {
        fail(RunStatus::Fault, "the GPU context was lost by an earlier fault; start a new worker");
        return m;
    }
    std::string phase = "preparing the measurement";
    try {
        s.context->makeCurrent();
        s.sample(request, settings, throughput, m, phase);
    } catch (const RunFailure &failure) {
        fail(failure.status, failure.message);
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
    } catch (const ApiError &error) {
        const RunFailure failure = classifyApiError(error, phase, s.contextLost);
        fail(failure.status, failure.message);
    } catch (const std::exception &error) {
        fail(RunStatus::Fault,
             std::string("the measurement failed while ") + phase + ": " + error.what());
    }
    m.statistics = computeStatistics(m.samplesNs);
    m.eventStatistics = computeStatistics(m.eventSamplesNs);
    m.smClocksMHz.resize(m.samplesNs.size(), 0.0);
    if (std::all_of(m.smClocksMHz.begin(), m.smClocksMHz.end(),
                    [](double mhz) { return mhz <= 0.0; })) {
        m.smClocksMHz.clear(); // not sampled
    } else {
        const ClockCheck check = checkClocks(m.smClocksMHz, s.device.smClockKHz * 1e-3);
        m.smClockMinMHz = check.minMHz;
        m.smClockMaxMHz = check.maxMHz;
        m.throttledSamples = check.samplesBelow;
        m.throttled = check.throttled;
        if (check.throttled) {
            char text[200];
            std::snprintf(text, sizeof text,
                          "%zu of %zu samples ran below %.0f MHz (75%% of the default SM clock "
                          "%.0f MHz): the GPU was throttling; their times are slower than normal",
                          check.samplesBelow, m.smClocksMHz.size(), check.thresholdMHz,
                          s.device.smClockKHz * 1e-3);
            m.notes.emplace_back(text);
        }
    }
    if (!m.faultStatus.empty()) {
        m.stop = {true, StopReason::Fault,
                  "stopped by a " + m.faultStatus + " after " +
                      plural(m.samplesNs.size(), "sample")};
        if (!m.samplesNs.empty()) {
            m.notes.push_back("stopped after " + plural(m.samplesNs.size(), "sample") + ": " +
                              m.faultMessage);
        }
    }
    if (m.statistics.count > 0 && m.statistics.medianNs < 5000.0) {
        char text[200];
        std::snprintf(
            text, sizeof text,
            "median %.2f µs: the kernel is launch-bound — launching it costs about as "
            "much as running it%s",
            m.statistics.medianNs * 1e-3,
            m.timingSource == TimingSource::Events
                ? "; cuEvents add about 3 µs to any kernel, so this figure is mostly theirs"
                : "");
        m.notes.emplace_back(text);
    }
    return m;
}

// cuMemcpyDtoD of 1 GiB between two buffers, bytes read plus bytes written over the median
// time of five copies after one warm-up (MEASUREMENT.md: 4209 GB/s on an H200). Measured once
// per Runner; a GPU without 2 GiB free gets no ceiling and a note, never a failed measurement.
void RunnerState::measureCopyCeiling()
{
    if (copyCeilingGBps || !copyCeilingProblem.empty()) {
        return;
    }
    constexpr std::size_t kBytes = std::size_t(1) << 30;
    try {
        const DeviceBuffer source(kBytes);
        const DeviceBuffer destination(kBytes);
        fillBytesAsync(source.pointer(), 0x3c, kBytes, *stream);
        const Event started;
        const Event finished;
        std::vector<double> timesNs;
        for (int k = 0; k < 6; ++k) {
            started.record(*stream);
            copyDeviceToDeviceAsync(destination.pointer(), source.pointer(), kBytes, *stream);
            finished.record(*stream);
            stream->synchronize();
            if (k > 0) { // the first copy is the warm-up
                timesNs.push_back(double(Event::elapsedMs(started, finished)) * 1e6);
            }
        }
        const double medianNs = computeStatistics(timesNs).medianNs;
        if (medianNs > 0.0) {
            copyCeilingGBps = 2.0 * double(kBytes) / medianNs; // bytes per ns = GB/s
        } else {
            copyCeilingProblem = "the copy took no measurable time";
        }
    } catch (const ApiError &error) {
        if (error.status() != "CUDA_ERROR_OUT_OF_MEMORY") {
            throw;
        }
        copyCeilingProblem = "2 GiB of GPU memory were not free for the 1 GiB copy";
    }
}

void RunnerState::sample(const RunRequest &request, const SampleSettings &settings,
                         const ThroughputExpressions &throughput, Measurement &m,
                         std::string &phase)
{
    // The previous run's buffers go first, so this measurement has all the memory.
    kept.reset();
    keptHandles.clear();
    ++runs;

    phase = "measuring the device-to-device copy ceiling";
    measureCopyCeiling();
    if (!copyCeilingProblem.empty()) {
        m.notes.push_back("no copy ceiling: " + copyCeilingProblem);
    }

    Prepared prepared;
    const LeakOnLoss leak{prepared.resources, contextLost};
    prepareLaunch(*this, request, prepared, phase);
    if (!prepared.note.empty()) {
        m.notes.push_back(prepared.note);
    }
    Provenance &p = m.provenance;
    p.deviceName = device.name;
    p.arch = device.arch();
    p.deviceOrdinal = ordinal;
    p.driverVersion = DriverApi::instance().driverVersion();
    p.toolkitVersion = formatCudaVersion(CUDA_VERSION);
    p.nvrtcVersion = nvrtcVersion();
    p.compileOptionsJson = nlohmann::json(request.options).dump();
    p.sourceHash = sourceHashFnv1a64(request.source);
    p.sourceBytes = request.source.size();
    p.kernel = request.launch.kernel;
    p.grid = prepared.grid;
    p.block = prepared.block;
    p.dynamicSharedBytes = prepared.dynamicShared;
    for (const Allocation &a : prepared.resources->buffers) {
        p.buffers.push_back({a.parameter, a.count, a.bytes});
    }
    p.defaultSmClockKHz = device.smClockKHz;
    p.memoryClockKHz = device.memoryClockKHz;
    const Stream &gpu = *stream;
    const Function &function = *prepared.function;
    std::vector<void *> params = parameterPointerList(prepared.resolved, prepared.pointers);

    phase = "setting up the kernel timer";
    if (!timer) {
        timer = std::make_unique<KernelActivityTimer>();
    }
    bool cupti = timer->available() && timer->start();
    struct StopTimer
    {
        KernelActivityTimer &timer;
        const bool &lost;
        ~StopTimer()
        {
            if (!lost) { // after an overrun even a flush could wait for the kernel
                timer.stop();
            }
        }
    } stopTimer{*timer, contextLost};
    m.timingSource = cupti ? TimingSource::Cupti : TimingSource::Events;
    if (!cupti) {
        m.notes.push_back("CUPTI unavailable: " + timer->unavailableReason() +
                          "; timed with cuEvents" + std::string(kEventCaveat));
    }

    DeviceBuffer scratch;
    struct LeakScratch
    {
        DeviceBuffer &buffer;
        const bool &lost;
        ~LeakScratch()
        {
            if (lost) { // cuMemFree would wait for the kernel that overran
                buffer.abandon();
            }
        }
    } leakScratch{scratch, contextLost};
    if (settings.mode == SampleMode::Cold) {
        phase = "allocating the L2 flush buffer";
        const std::size_t l2 = std::size_t(std::max(device.l2CacheBytes, 1 << 20));
        scratch = DeviceBuffer(l2 * 2);
    }

    // Each launch is queued behind the blocking kernel and released once its events are
    // queued too, so the GPU runs started-kernel-finished back to back and the events time the
    // kernel rather than the host's launch path (CUPTI's hooks make that 100 µs and more).
    phase = "setting up the blocking kernel";
    GpuHelpers &helpers = gpuHelpers();
    if (!holdFlags) {
        holdFlags = std::make_unique<MappedHostFlags>();
    }
    MappedHostFlags &hold = *holdFlags;
    std::size_t blockerTimeouts = 0;
    const Event started;
    const Event finished;
    const auto launchHeld = [&] {
        hold.set(0, 0);
        hold.set(1, 0);
        helpers.block(hold, kHoldTimeoutNs, gpu);
        struct Release
        {
            MappedHostFlags &flags;
            ~Release() { flags.set(0, 1); } // also when the launch throws
        } release{hold};
        started.record(gpu);
        function.launch(prepared.grid, prepared.block, prepared.dynamicShared, gpu, params.data());
        const std::uint32_t correlation = cupti ? timer->lastLaunchCorrelation().value_or(0) : 0;
        finished.record(gpu);
        return correlation;
    };
    const int warmups = std::max(1, settings.warmupLaunches);
    for (int k = 0; k < warmups; ++k) {
        phase = "running the user's kernel (warm-up launch " + std::to_string(k + 1) + ")";
        (void)launchHeld();
        waitOrThrow(finished, prepared.deadlineSeconds, "the kernel (warm-up launch)", contextLost);
    }
    if (cupti) {
        timer->flush();
        (void)timer->takeDurations();
    }

    phase = "opening NVML for the SM clock";
    if (!clocks) {
        clocks = std::make_unique<SmClockReader>(Device(ordinal).pciBusId());
    }
    if (!clocks->available()) {
        m.notes.push_back("SM clock not sampled (" + clocks->unavailableReason() +
                          "); throttling cannot be checked");
    }
    // The clock is read just before the launch and just after it completes, outside the timed
    // span; the lower reading is the sample's clock, so a dip during the sample is not missed.
    // Kept in the measurement as they come, so a fault part-way keeps them with the samples.
    std::vector<double> &sampleClocksMHz = m.smClocksMHz;

    StoppingCriterion criterion(settings);
    bool cancelled = false;
    const auto begin = Clock::now();
    const auto elapsedSeconds = [&] {
        return std::chrono::duration<double>(Clock::now() - begin).count();
    };

    // Samples wait here until CUPTI's records are flushed: a flush costs a quarter of a
    // millisecond, so it is done once per batch (up to 32 samples or 10 ms of kernel time),
    // not once per sample. The stopping rule sees each sample as the batch settles; samples
    // after the one that stops it are dropped.
    struct Pending
    {
        std::uint32_t correlation = 0;
        double eventNs = 0.0;
        double clockMHz = 0.0;
    };
    std::vector<Pending> pending;
    double pendingEventNs = 0.0;
    const auto fallBackToEvents = [&](const std::string &why) {
        // Mixing sources would corrupt the statistics: events throughout.
        cupti = false;
        m.timingSource = TimingSource::Events;
        m.notes.push_back(why + "; timed with cuEvents" + std::string(kEventCaveat));
        m.samplesNs = m.eventSamplesNs;
        criterion = StoppingCriterion(settings);
        for (const double earlier : m.samplesNs) {
            criterion.addSample(earlier, -1.0);
        }
    };
    // Moves the pending samples into the measurement; true when the stopping rule stopped.
    // `mayFlush` is false after an overrun, when even a flush could wait for the kernel.
    const auto settle = [&](bool mayFlush) {
        std::map<std::uint32_t, std::uint64_t> durations;
        if (cupti && !pending.empty()) {
            if (mayFlush) {
                timer->flush();
                durations = timer->takeDurations();
            }
        }
        const double elapsed = elapsedSeconds();
        bool stop = criterion.decision().stop;
        for (const Pending &p : pending) {
            if (stop) {
                break;
            }
            double sampleNs = p.eventNs;
            if (cupti) {
                // CUPTI's correlation ids start at 1: 0 means no launch was seen.
                const auto found =
                    p.correlation != 0 ? durations.find(p.correlation) : durations.end();
                if (found != durations.end()) {
                    sampleNs = double(found->second);
                } else {
                    fallBackToEvents(mayFlush ? "CUPTI delivered no kernel record for sample " +
                                                    std::to_string(m.samplesNs.size() + 1)
                                              : std::string("CUPTI's records could not be read "
                                                            "after the kernel overran"));
                }
            }
            m.samplesNs.push_back(sampleNs);
            m.eventSamplesNs.push_back(p.eventNs);
            sampleClocksMHz.push_back(p.clockMHz);
            stop = criterion.addSample(sampleNs, elapsed).stop;
        }
        pending.clear();
        pendingEventNs = 0.0;
        return stop;
    };
    constexpr std::size_t kBatchSamples = 32;
    constexpr double kBatchEventNs = 10e6;
    try {
        for (std::size_t n = 0;; ++n) {
            if (!scratch.empty()) {
                fillBytesAsync(scratch.pointer(), static_cast<unsigned char>(n & 0xff),
                               scratch.bytes(), gpu);
            }
            const std::optional<unsigned> clockBefore = clocks->smClockMHz();
            phase = "running the user's kernel (sample " + std::to_string(n + 1) + ")";
            Pending sample;
            sample.correlation = launchHeld();
            waitOrThrow(finished, prepared.deadlineSeconds, "the kernel", contextLost);
            if (hold.get(1) != 0) {
                ++blockerTimeouts;
            }
            const std::optional<unsigned> clockAfter = clocks->smClockMHz();
            if (clockBefore || clockAfter) {
                sample.clockMHz = double(std::min(clockBefore.value_or(clockAfter.value_or(0)),
                                                  clockAfter.value_or(clockBefore.value_or(0))));
            } // else 0: not sampled, and checkClocks ignores it
            sample.eventNs = double(Event::elapsedMs(started, finished)) * 1e6;
            pending.push_back(sample);
            pendingEventNs += sample.eventNs;

            cancelled = cancelCheck && cancelCheck();
            const std::size_t taken = m.samplesNs.size() + pending.size();
            const bool settleNow =
                !cupti || cancelled || pending.size() >= kBatchSamples ||
                pendingEventNs >= kBatchEventNs ||
                (settings.fixedSamples > 0 && taken >= std::size_t(settings.fixedSamples)) ||
                elapsedSeconds() >= settings.timeCapSeconds;
            if (settleNow && settle(true)) {
                cancelled = false; // the rule stopped first
                break;
            }
            if (cancelled) {
                break;
            }
        }
    } catch (...) {
        // A fault or an overrun: keep the samples taken before it (their kernels completed).
        try {
            (void)settle(!contextLost);
        } catch (...) {
            m.notes.push_back(plural(pending.size(), "sample") +
                              " taken just before the fault were lost with it");
        }
        throw;
    }
    m.stop = criterion.decision();
    if (cancelled) {
        m.stop = {true, StopReason::Cancelled,
                  "cancelled after " + plural(m.samplesNs.size(), "sample")};
    }
    ThroughputOptions throughputOptions;
    throughputOptions.copyCeilingGBps = copyCeilingGBps;
    throughputOptions.bytesExpression = throughput.bytes;
    throughputOptions.flopsExpression = throughput.flops;
    m.throughput = computeThroughput(prepared.resolved, computeStatistics(m.samplesNs).medianNs,
                                     device, throughputOptions);
    if (blockerTimeouts > 0) {
        m.notes.push_back(
            "the blocking kernel gave up waiting for the host in " +
            plural(blockerTimeouts, "sample") +
            " (the host was stalled for over a second); their cuEvent times may include launch "
            "latency");
    }
    if (cupti && timer->invalidRecords() > 0) {
        m.notes.push_back(std::to_string(timer->invalidRecords()) +
                          " CUPTI records were invalid or lost and ignored");
    }
}

Page Runner::page(const PageRequest &request)
{
    const Allocation &a = m_state->keptBuffer(request.handle);
    if (request.first > a.count) {
        throw std::runtime_error("element " + std::to_string(request.first) +
                                 " is past the end of `" + a.parameter + "`, which has " +
                                 plural(a.count, "element"));
    }
    m_state->context->makeCurrent();
    // A page is for showing: at most kMaxPageElements, however many were asked for, so a
    // client cannot make the worker format gigabytes into one reply.
    const std::uint64_t count = std::min<std::uint64_t>(
        std::min<std::uint64_t>(request.count, kMaxPageElements), a.count - request.first);
    const std::size_t elementBytes = a.type.sizeBytes();
    std::vector<unsigned char> bytes(count * elementBytes);
    if (count > 0) {
        copyToHost(bytes.data(), a.data() + request.first * elementBytes, bytes.size());
    }
    Page page;
    page.handle = request.handle;
    page.first = request.first;
    page.values.reserve(count);
    for (std::uint64_t k = 0; k < count; ++k) {
        page.values.push_back(formatElement(bytes.data() + k * elementBytes, a.type));
    }
    return page;
}

std::uint64_t Runner::exportBuffer(const std::string &handle, const std::string &path,
                                   ExportFormat format)
{
    const Allocation &a = m_state->keptBuffer(handle);
    m_state->context->makeCurrent();
    return writeBufferFile(path, format, a.data(), a.type, a.count);
}

namespace {

// Theoretical occupancy of the prepared launch from the loaded kernel's own resources, so it
// stands beside the achieved occupancy the profiler measures.
void describeOccupancy(const DeviceInfo &device, const Function &function, const Prepared &prepared,
                       MetricsResult &result)
{
    result.registersPerThread = function.attribute(FunctionAttribute::Registers);
    result.staticSharedBytes =
        std::uint64_t(function.attribute(FunctionAttribute::StaticSharedBytes));
    result.dynamicSharedBytes = prepared.dynamicShared;
    result.blockThreads = int(prepared.block[0] * prepared.block[1] * prepared.block[2]);
    result.gridBlocks =
        (long long)prepared.grid[0] * (long long)prepared.grid[1] * (long long)prepared.grid[2];
    const std::optional<ArchLimits> limits = archLimits(device.arch());
    if (!limits) {
        result.occupancyError = "no occupancy limits are known for " + device.arch();
        return;
    }
    OccupancyInput input;
    input.registersPerThread = result.registersPerThread;
    input.staticSharedBytes = result.staticSharedBytes;
    input.dynamicSharedBytes = result.dynamicSharedBytes;
    input.blockSize = result.blockThreads;
    const OccupancyResult occupancy = computeOccupancy(*limits, input);
    if (!occupancy.valid) {
        result.occupancyError = occupancy.error;
        return;
    }
    result.theoreticalOccupancy = occupancy.occupancy;
    result.activeBlocksPerSm = occupancy.activeBlocksPerSm;
    result.occupancyLimiter = limiterName(occupancy.limiter);
    result.waves = occupancyWaves(occupancy, result.gridBlocks, device.smCount);
}

} // namespace

MetricsResult Runner::profileMetrics(const RunRequest &request, const MetricsRequest &metrics)
{
    MetricsResult result;
    State &s = *m_state;
    if (s.contextLost) {
        result.error = "the GPU context was lost by an earlier fault; start a new worker";
        return result;
    }
    std::string phase = "preparing the metrics pass";
    try {
        s.context->makeCurrent();
        s.kept.reset();
        s.keptHandles.clear();
        ++s.runs;
        Prepared prepared;
        const LeakOnLoss leak{prepared.resources, s.contextLost};
        prepareLaunch(s, request, prepared, phase);
        std::vector<void *> params = parameterPointerList(prepared.resolved, prepared.pointers);
        describeOccupancy(s.device, *prepared.function, prepared, result);
        const Event finished;
        phase = "running the user's kernel (metrics pass)";
        const ProfilerValues values = CuptiProfiler::profile(s.ordinal, metrics.metrics, [&] {
            prepared.function->launch(prepared.grid, prepared.block, prepared.dynamicShared,
                                      *s.stream, params.data());
            finished.record(*s.stream);
            // Each replay pass runs the kernel again: allow for all of them.
            waitOrThrow(finished, prepared.deadlineSeconds * 16, "the kernel (metrics pass)",
                        s.contextLost);
        });
        result.chip = values.chip;
        result.values = values.values;
        result.passes = values.passes;
        result.error = values.error;
        result.permissionDenied = values.permissionDenied;
    } catch (const RunFailure &failure) {
        result.error = failure.message;
        if (failure.status == RunStatus::Timeout) {
            s.contextLost = true;
        }
    } catch (const ApiError &error) {
        result.error = classifyApiError(error, phase, s.contextLost).message;
    } catch (const std::exception &error) {
        result.error = std::string("the metrics pass failed while ") + phase + ": " + error.what();
    }
    return result;
}

void Runner::setCancelCheck(std::function<bool()> check)
{
    m_state->cancelCheck = std::move(check);
}

void Runner::release()
{
    m_state->context->makeCurrent();
    m_state->kept.reset();
    m_state->keptHandles.clear();
}

} // namespace cuwb
