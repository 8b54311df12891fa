#include "run/reference.h"

#include "compiler/kernellookup.h"
#include "launch/expression.h"
#include "run/bufferfiles.h"
#include "run/devicefaults.h"
#include "run/elementkernel.h"
#include "run/gpuhelpers.h"
#include "run/hostelements.h"
#include "run/runnerstate.h"
#include "run/runtext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace cuwb {

namespace {

constexpr std::size_t kMaxMismatches = 10;

double hostError(const unsigned char *actual, const unsigned char *expected, ScalarKind kind,
                 const VerificationSpec &verify)
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
    switch (verify.tolerance) {
    case ToleranceKind::Absolute:
        return std::fabs(a - e);
    case ToleranceKind::Relative:
        return std::fabs(a - e) / std::fabs(e);
    case ToleranceKind::AllClose: {
        const double allowed = verify.atol + verify.rtol * std::fabs(e);
        return allowed > 0.0 ? std::fabs(a - e) / allowed : HUGE_VAL;
    }
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
    case ToleranceKind::AllClose:
        return 3;
    }
    return 1;
}

// The bound the GPU compares the tolerance's error with: allclose passes atol (and rtol beside
// it) and compares its error, a multiple of the allowance, with 1.
double toleranceBound(const VerificationSpec &verify)
{
    return verify.tolerance == ToleranceKind::AllClose ? verify.atol : verify.toleranceValue;
}

// "rel ≤ 1e-05" or "|out - ref| ≤ 1e-08 + 1e-05·|ref|", with > when it failed.
std::string boundText(const VerificationSpec &verify, bool passed)
{
    if (verify.tolerance == ToleranceKind::AllClose) {
        return std::string("|out - ref| ") + (passed ? "≤ " : "> ") + shortNumber(verify.atol) +
               " + " + shortNumber(verify.rtol) + "·|ref|";
    }
    return std::string(toleranceKindName(verify.tolerance)) + (passed ? " ≤ " : " > ") +
           shortNumber(verify.toleranceValue);
}

// "largest error 0.5" or, for allclose, "largest error 1.7× the allowance".
std::string errorText(const VerificationSpec &verify, double error)
{
    return "largest error " + shortNumber(error) +
           (verify.tolerance == ToleranceKind::AllClose ? "× the allowance" : "");
}

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

} // namespace

Reference::Reference(RunnerState &runner, Prepared &prepared, const VerificationSpec &verify,
                     CheckResources &resources, VerificationResult &verdict, std::string &phase)
    : m_runner(runner)
    , m_prepared(prepared)
    , m_verify(verify)
    , m_resources(resources)
    , m_verdict(verdict)
    , m_phase(phase)
{}

void Reference::cannotVerify(std::string why)
{
    m_verdict.message = "cannot verify: " + std::move(why);
    m_out.reset();
}

void Reference::prepare()
{
    m_verdict.output = m_verify.output;
    m_verdict.label = m_verify.label();
    findOutput();
    countElements();
    // The elements the mask selects, from the buffers as the kernel will find them.
    m_maskedElements = m_checkedElements;
    if (m_out && !m_verify.mask.empty()) {
        applyMask();
    }
    if (m_out) {
        computeReference();
    }
}

void Reference::findOutput()
{
    if (m_verify.kind == ReferenceKind::None) {
        return;
    }
    m_verdict.ran = true;
    const std::vector<Allocation> &buffers = m_prepared.resources->buffers;
    for (std::size_t k = 0; k < buffers.size(); ++k) {
        if (buffers[k].parameter == m_verify.output) {
            const Allocation &a = buffers[k];
            m_out = Output{a.parameter, a.type, a.count, a.bytes, a.data(), int(k)};
            return;
        }
    }
    if (!findGlobal()) {
        cannotVerify("`" + m_verify.output + "` is not a buffer of the launch or a global of the " +
                     "module");
    }
}

// A __constant__ or __device__ variable as an output: its type from the project's globals, else
// from the source's declaration; read where the module keeps it, as the launch leaves it.
bool Reference::findGlobal()
{
    const std::vector<ModuleVariable> variables =
        moduleVariables(m_prepared.compiled.ptx, m_prepared.source);
    const auto variable =
        std::find_if(variables.begin(), variables.end(),
                     [&](const ModuleVariable &v) { return v.name == m_verify.output; });
    if (variable == variables.end()) {
        return false;
    }
    const std::vector<ResolvedBuffer> &set = m_prepared.resolved.globals;
    const auto spec = std::find_if(set.begin(), set.end(), [&](const ResolvedBuffer &g) {
        return g.parameter == m_verify.output;
    });
    const std::optional<ElementType> type = spec != set.end()
                                                ? std::optional<ElementType>(spec->elementType)
                                                : parseElementType(variable->type);
    if (!type || type->sizeBytes() == 0 || variable->bytes % type->sizeBytes() != 0) {
        cannotVerify("the global `" + m_verify.output + "` is of type " +
                     (variable->type.empty() ? std::string("unknown") : variable->type) +
                     ", which is not an element type; name it in the project's globals with "
                     "its element type");
        return true;
    }
    const std::optional<Module::Global> global =
        m_prepared.resources->module->global(m_verify.output);
    if (!global) {
        cannotVerify("the driver does not find the global `" + m_verify.output + "` in the module");
        return true;
    }
    if (m_verify.kind == ReferenceKind::Kernel) {
        cannotVerify("a reference kernel would write the module's own global `" + m_verify.output +
                     "`; check it with an expression, a file or an aggregate");
        return true;
    }
    const std::uint64_t count = variable->bytes / type->sizeBytes();
    m_out = Output{m_verify.output, *type, count, variable->bytes, global->address, -1};
    return true;
}

// The elements that count: all of the output, or the first `count` of them.
void Reference::countElements()
{
    if (!m_out) {
        return;
    }
    m_checkedElements = m_out->count;
    if (!m_verify.count.empty()) {
        const ExpressionValue count =
            evaluateExpression(m_verify.count, m_prepared.resolved.variables);
        if (!count.ok()) {
            cannotVerify("count `" + m_verify.count +
                         "`: " + explainExpressionError(*count.error, m_prepared.deviceNames));
        } else if (count.value < 1 || count.value != std::trunc(count.value) ||
                   count.value > double(m_out->count)) {
            cannotVerify("count `" + m_verify.count + "` is " + shortNumber(count.value) + "; `" +
                         m_out->name + "` has " + plural(m_out->count, "element"));
        } else {
            m_checkedElements = std::uint64_t(count.value);
        }
    }
}

void Reference::applyMask()
{
    m_resources.mask = DeviceBuffer(std::max<std::uint64_t>(m_checkedElements, 1));
    const std::string problem =
        runElementKernel(m_runner, m_prepared,
                         {m_verify.mask, "verification mask", true, "unsigned char",
                          m_resources.mask.pointer(), m_checkedElements},
                         m_resources.maskModule, m_phase);
    if (problem.empty()) {
        m_maskedElements = m_runner.gpuHelpers()
                               .countPattern(m_resources.mask.pointer(), m_checkedElements, 1,
                                             0x0101010101010101ull, *m_runner.stream)
                               .count;
    }
    if (!problem.empty()) {
        cannotVerify(problem);
    } else if (m_maskedElements == 0) {
        cannotVerify("the mask `" + m_verify.mask + "` selects none of the " +
                     plural(m_checkedElements, "element"));
    }
}

void Reference::computeReference()
{
    m_phase = "allocating the reference for `" + m_out->name + "`";
    switch (m_verify.kind) {
    case ReferenceKind::None:
        break;
    case ReferenceKind::Expression:
        referenceFromExpression();
        break;
    case ReferenceKind::Kernel:
        referenceFromKernel();
        break;
    case ReferenceKind::Aggregate:
        expectAggregate();
        break;
    case ReferenceKind::File:
        referenceFromFile();
        break;
    }
}

void Reference::referenceFromExpression()
{
    if (m_out->type.lanes > 1) {
        m_verdict.message = "cannot verify `" + m_out->name +
                            "` with an expression: vector element types need a reference "
                            "kernel or a file";
        return;
    }
    m_resources.reference = DeviceBuffer(std::max<std::uint64_t>(m_out->bytes, 1));
    const std::string problem =
        runElementKernel(m_runner, m_prepared,
                         {m_verify.expression, "verification expression", false,
                          cudaTypeName(m_out->type), m_resources.reference.pointer(), m_out->count},
                         m_resources.referenceModule, m_phase);
    if (!problem.empty()) {
        m_verdict.message = problem;
        return;
    }
    m_referenceReady = true;
}

// The reference kernel runs on copies of the buffers, so the launch finds them untouched. It
// takes the first kernel's parameters: its output must be one of them.
void Reference::referenceFromKernel()
{
    const KernelLookup refLookup = findKernel(m_prepared.compiled, m_verify.referenceKernel);
    if (!refLookup.found()) {
        m_verdict.message = "cannot verify: the reference kernel: " + refLookup.error;
        return;
    }
    const std::vector<int> &slots = m_prepared.resolved.parameterSlots;
    if (std::find(slots.begin(), slots.end(), m_out->bufferIndex) == slots.end()) {
        m_verdict.message = "cannot verify `" + m_out->name +
                            "` with a reference kernel: it takes the first kernel's parameters, "
                            "and `" +
                            m_out->name + "` is not one of them";
        return;
    }
    RunResources &resources = *m_prepared.resources;
    const KernelInfo *refKernel = refLookup.kernel;
    const Function refFunction = resources.module->function(refKernel->loweredName);
    const Stream &gpu = *m_runner.stream;
    std::vector<DevicePointer> copyPointers;
    for (const Allocation &a : resources.buffers) {
        resources.copies.emplace_back(std::max<std::uint64_t>(a.bytes, 1));
        copyDeviceToDevice(resources.copies.back().pointer(), a.data(), a.bytes, gpu);
        copyPointers.push_back(resources.copies.back().pointer());
    }
    const unsigned dynamicShared = m_prepared.dynamicShared;
    if (dynamicShared > 48u * 1024u) {
        refFunction.setMaxDynamicSharedBytes(int(dynamicShared));
    }
    std::vector<void *> params = parameterPointerList(m_prepared.resolved, copyPointers);
    m_phase = "running the reference kernel `" + refKernel->loweredName + "`";
    const Event done;
    refFunction.launch(m_prepared.grid, m_prepared.block, dynamicShared, gpu, params.data());
    done.record(gpu);
    waitOrThrow(done, m_prepared.deadlineSeconds,
                "the reference kernel `" + refKernel->loweredName + "`", m_runner.contextLost);
    m_resources.reference = std::move(resources.copies[std::size_t(m_out->bufferIndex)]);
    resources.copies.clear();
    m_referenceReady = true;
}

// An aggregate's expected value: the same reduction of `of` as the kernel will find it, or the
// value of the expression `expected`.
void Reference::expectAggregate()
{
    m_phase = "reducing the expected value";
    if (!m_verify.of.empty()) {
        const std::vector<Allocation> &buffers = m_prepared.resources->buffers;
        const auto of = std::find_if(buffers.begin(), buffers.end(), [&](const Allocation &a) {
            return a.parameter == m_verify.of;
        });
        if (of == buffers.end()) {
            m_verdict.message =
                "cannot verify: `" + m_verify.of + "` is not a buffer of the launch";
            return;
        }
        // The buffer as the kernel will find it: reduced before the launch.
        const ScalarStats stats = m_runner.gpuHelpers().stats(of->data(), of->scalars(),
                                                              of->type.scalar, *m_runner.stream);
        if (stats.nan + stats.inf > 0) {
            m_verdict.message = "cannot verify: `" + m_verify.of + "` holds " +
                                plural(stats.nan + stats.inf, "value") + " that are not finite";
            return;
        }
        m_expectedAggregate = reduced(stats, m_verify.reduce);
    } else {
        const ExpressionValue expected =
            evaluateExpression(m_verify.expected, m_prepared.resolved.variables);
        if (!expected.ok()) {
            m_verdict.message = "cannot verify: expected `" + m_verify.expected + "`: " +
                                explainExpressionError(*expected.error, m_prepared.deviceNames);
            return;
        }
        m_expectedAggregate = expected.value;
    }
    m_referenceReady = true;
}

void Reference::referenceFromFile()
{
    m_resources.reference = DeviceBuffer(std::max<std::uint64_t>(m_out->bytes, 1));
    m_phase = "reading the reference file";
    try {
        loadFileToDevice(m_verify.file, m_out->type, m_out->count, m_resources.reference.pointer(),
                         *m_runner.stream, "the reference of `" + m_out->name + "`");
        m_referenceReady = true;
    } catch (const FileProblem &problem) {
        m_verdict.message = std::string("cannot verify: ") + problem.what();
    }
}

void Reference::check(Keep keep)
{
    if (m_out && m_referenceReady &&
        (m_verify.kind == ReferenceKind::Aggregate || m_verify.reduce != Reduction::None)) {
        checkAggregate();
    } else if (m_out && m_referenceReady) {
        checkElements();
    } else if (m_verify.kind != ReferenceKind::None && m_verdict.message.empty()) {
        m_verdict.message = "cannot verify `" + m_verify.output + "`";
    }
    if (keep == Keep::Nothing) {
        m_resources = CheckResources();
    }
}

// Reduce the first `count` values of the output on the GPU (one pass) and compare with the
// expected value, or with the same reduction of a reference kernel's output.
void Reference::checkAggregate()
{
    m_phase = "verifying `" + m_out->name + "`";
    GpuHelpers &helpers = m_runner.gpuHelpers();
    const Stream &gpu = *m_runner.stream;
    const Output &out = *m_out;
    const std::uint64_t scalars = m_checkedElements * std::uint64_t(out.type.lanes);
    const Reduction reduction =
        m_verify.reduce == Reduction::None ? Reduction::Sum : m_verify.reduce;
    const char *how = reductionName(reduction);
    VerificationResult &verdict = m_verdict;
    const ScalarStats actualStats = helpers.stats(out.data, scalars, out.type.scalar, gpu);
    verdict.checked = m_checkedElements;
    if (actualStats.nan + actualStats.inf > 0) {
        verdict.passed = false;
        verdict.mismatches = actualStats.nan + actualStats.inf;
        verdict.message = "`" + out.name + "` holds " +
                          plural(actualStats.nan + actualStats.inf, "value") +
                          " that are not finite, so its " + how + " is meaningless";
        return;
    }
    const double actual = reduced(actualStats, reduction);
    double expected = 0.0;
    if (m_expectedAggregate) {
        expected = *m_expectedAggregate;
    } else {
        expected =
            reduced(helpers.stats(m_resources.reference.pointer(), scalars, out.type.scalar, gpu),
                    reduction);
    }
    verdict.aggregateActual = actual;
    verdict.aggregateExpected = expected;
    const double difference = std::fabs(actual - expected);
    verdict.maxAbsError = difference;
    if (expected != 0.0) {
        verdict.maxRelError = difference / std::fabs(expected);
    }
    double error = difference;
    bool passed = false;
    std::string unit;
    switch (m_verify.tolerance) {
    case ToleranceKind::Absolute:
        unit = "abs";
        passed = error <= m_verify.toleranceValue;
        break;
    case ToleranceKind::AllClose: {
        const double allowed = m_verify.atol + m_verify.rtol * std::fabs(expected);
        passed = difference <= allowed;
        error = allowed > 0.0 ? difference / allowed : (difference > 0.0 ? HUGE_VAL : 0.0);
        unit = "allclose";
        break;
    }
    case ToleranceKind::Relative:
    case ToleranceKind::Ulp:
        error = expected == 0.0 ? difference : difference / std::fabs(expected);
        unit = "rel";
        passed = error <= m_verify.toleranceValue;
        break;
    }
    verdict.maxError = error;
    verdict.passed = passed;
    verdict.mismatches = passed ? 0 : 1;
    const std::string part = m_checkedElements == out.count
                                 ? std::string()
                                 : " (the first " + std::to_string(m_checkedElements) + ")";
    const std::string bound = m_verify.tolerance == ToleranceKind::AllClose
                                  ? boundText(m_verify, passed)
                                  : unit + " error " + shortNumber(error) +
                                        (passed ? " ≤ " : " > ") +
                                        shortNumber(m_verify.toleranceValue);
    verdict.message = std::string("the ") + how + " of `" + out.name + "`" + part + " is " +
                      shortNumber(actual) + (passed ? ", as expected " : ", expected ") +
                      shortNumber(expected) + " (" + bound + ")";
}

// Element by element on the GPU; the first mismatches are found one compare at a time from
// the last one, then read back and placed by block and thread of the kernel that wrote them.
void Reference::checkElements()
{
    const Output &out = *m_out;
    m_phase = "verifying `" + out.name + "`";
    const ResolvedLaunch &resolved = m_prepared.resolved;
    GpuHelpers &helpers = m_runner.gpuHelpers();
    const Stream &gpu = *m_runner.stream;
    const VerificationSpec &verify = m_verify;
    VerificationResult &verdict = m_verdict;
    const DevicePointer reference = m_resources.reference.pointer();
    const int tolerance = toleranceCode(verify.tolerance);
    const double bound = toleranceBound(verify);
    const std::uint64_t lanes = std::uint64_t(out.type.lanes);
    const std::uint64_t checkedScalars = m_checkedElements * lanes;
    const DevicePointer mask = verify.mask.empty() ? 0 : m_resources.mask.pointer();
    const CompareSummary summary =
        helpers.compare(out.data, reference, checkedScalars, out.type.scalar, tolerance, bound,
                        verify.rtol, 0, gpu, mask, lanes);
    const std::size_t scalarBytes = scalarSizeBytes(out.type.scalar);
    verdict.checked = m_maskedElements;
    verdict.firstMismatches.clear(); // an earlier sample's, when the reference is kept
    verdict.mismatches = summary.mismatches;
    verdict.maxError = summary.maxError;
    verdict.maxErrorIndex = summary.maxErrorScalar / lanes;
    verdict.maxAbsError = summary.maxAbsError;
    verdict.maxAbsErrorIndex = summary.maxAbsErrorScalar / lanes;
    verdict.maxRelError = summary.maxRelError;
    verdict.maxRelErrorIndex = summary.maxRelErrorScalar / lanes;
    verdict.passed = summary.mismatches == 0;
    // The kernel whose block and thread own an element: the first kernel's for its own
    // buffers and the globals, else the last further kernel that takes the buffer.
    std::array<std::uint64_t, 3> grid = resolved.grid;
    std::array<std::uint64_t, 3> block = resolved.block;
    const std::vector<int> &firstSlots = resolved.parameterSlots;
    if (out.bufferIndex >= 0 &&
        std::find(firstSlots.begin(), firstSlots.end(), out.bufferIndex) == firstSlots.end()) {
        for (const ResolvedStep &step : resolved.steps) {
            if (std::find(step.parameterSlots.begin(), step.parameterSlots.end(),
                          out.bufferIndex) != step.parameterSlots.end()) {
                grid = step.grid;
                block = step.block;
            }
        }
    }
    const std::uint64_t threadsPerBlock = block[0] * block[1] * block[2];
    std::int64_t next = summary.firstScalar;
    while (next >= 0 && verdict.firstMismatches.size() < kMaxMismatches) {
        const std::uint64_t scalar = std::uint64_t(next);
        Mismatch m;
        m.index = scalar / lanes;
        unsigned char actualBytes[8] = {};
        unsigned char expectedBytes[8] = {};
        copyToHost(actualBytes, out.data + scalar * scalarBytes, scalarBytes, gpu);
        copyToHost(expectedBytes, reference + scalar * scalarBytes, scalarBytes, gpu);
        m.actual = scalarToDouble(actualBytes, out.type.scalar);
        m.expected = scalarToDouble(expectedBytes, out.type.scalar);
        m.error = hostError(actualBytes, expectedBytes, out.type.scalar, verify);
        const std::uint64_t blockIndex = m.index / threadsPerBlock;
        const std::uint64_t threadIndex = m.index % threadsPerBlock;
        m.thread[0] = threadIndex % block[0];
        m.thread[1] = (threadIndex / block[0]) % block[1];
        m.thread[2] = threadIndex / (block[0] * block[1]);
        m.block[0] = blockIndex % grid[0];
        m.block[1] = (blockIndex / grid[0]) % grid[1];
        m.block[2] = blockIndex / (grid[0] * grid[1]);
        verdict.firstMismatches.push_back(m);
        if (verdict.firstMismatches.size() == kMaxMismatches ||
            verdict.firstMismatches.size() == summary.mismatches) {
            break;
        }
        next = helpers
                   .compare(out.data, reference, checkedScalars, out.type.scalar, tolerance, bound,
                            verify.rtol, (m.index + 1) * lanes, gpu, mask, lanes)
                   .firstScalar;
    }
    const std::string boundShown = boundText(verify, verdict.passed);
    std::string part;
    if (!verify.mask.empty()) {
        part = " selected by the mask (of " + std::to_string(m_checkedElements) + ")";
    } else if (m_checkedElements != out.count) {
        part = " (the first " + std::to_string(m_checkedElements) + ")";
    }
    if (verdict.passed) {
        verdict.message = "all " + plural(m_maskedElements, "element") + part + " of `" + out.name +
                          "` match (" + boundShown + "; " + errorText(verify, summary.maxError) +
                          ")";
    } else {
        verdict.message = std::to_string(summary.mismatches) + " of " +
                          std::to_string(m_maskedElements * lanes) +
                          (lanes > 1 ? " values" : " elements") + " of `" + out.name +
                          "` differ (" + boundShown + "); " + errorText(verify, summary.maxError) +
                          " at index " + std::to_string(verdict.maxErrorIndex) +
                          "; the block and thread of each mismatch assume one element per thread";
    }
}

} // namespace cuwb
