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

Reference::Reference(RunnerState &runner, Prepared &prepared, const VerificationSpec &verify,
                     VerificationResult &verdict, std::string &phase)
    : m_runner(runner)
    , m_prepared(prepared)
    , m_verify(verify)
    , m_verdict(verdict)
    , m_phase(phase)
{}

void Reference::prepare()
{
    findOutput();
    countElements();
    // The elements the mask selects, from the buffers as the kernel will find them.
    m_maskedElements = m_checkedElements;
    if (m_outputIndex >= 0 && !m_verify.mask.empty()) {
        applyMask();
    }
    if (m_outputIndex >= 0) {
        computeReference();
    }
}

void Reference::findOutput()
{
    if (m_verify.kind != ReferenceKind::None) {
        m_verdict.ran = true;
        const ResolvedLaunch &resolved = m_prepared.resolved;
        for (std::size_t k = 0; k < resolved.buffers.size(); ++k) {
            if (resolved.buffers[k].parameter == m_verify.output) {
                m_outputIndex = int(k);
            }
        }
        if (m_outputIndex < 0) {
            m_verdict.message =
                "cannot verify: `" + m_verify.output + "` is not a buffer of the kernel";
        }
    }
}

// The elements that count: all of the output, or the first `count` of them.
void Reference::countElements()
{
    if (m_outputIndex < 0) {
        return;
    }
    const Allocation &out = m_prepared.resources->buffers[std::size_t(m_outputIndex)];
    m_checkedElements = out.count;
    if (!m_verify.count.empty()) {
        const ExpressionValue count =
            evaluateExpression(m_verify.count, m_prepared.resolved.variables);
        if (!count.ok()) {
            m_verdict.message =
                "cannot verify: count `" + m_verify.count + "`: " + count.error->message;
            m_outputIndex = -1;
        } else if (count.value < 1 || count.value != std::trunc(count.value) ||
                   count.value > double(out.count)) {
            m_verdict.message = "cannot verify: count `" + m_verify.count + "` is " +
                                shortNumber(count.value) + "; `" + out.parameter + "` has " +
                                plural(out.count, "element");
            m_outputIndex = -1;
        } else {
            m_checkedElements = std::uint64_t(count.value);
        }
    }
}

void Reference::applyMask()
{
    RunResources &resources = *m_prepared.resources;
    resources.mask = DeviceBuffer(std::max<std::uint64_t>(m_checkedElements, 1));
    const std::string problem =
        runElementKernel(m_runner, m_prepared,
                         {m_verify.mask, "verification mask", true, "unsigned char",
                          resources.mask.pointer(), m_checkedElements},
                         resources.maskModule, m_phase);
    if (problem.empty()) {
        m_maskedElements = m_runner.gpuHelpers()
                               .countPattern(resources.mask.pointer(), m_checkedElements, 1,
                                             0x0101010101010101ull, *m_runner.stream)
                               .count;
    }
    if (!problem.empty() || m_maskedElements == 0) {
        m_verdict.message =
            "cannot verify: " + (problem.empty()
                                     ? "the mask `" + m_verify.mask + "` selects none of the " +
                                           plural(m_checkedElements, "element")
                                     : problem);
        m_outputIndex = -1;
    }
}

void Reference::computeReference()
{
    const Allocation &out = m_prepared.resources->buffers[std::size_t(m_outputIndex)];
    m_phase = "allocating the reference for `" + out.parameter + "`";
    switch (m_verify.kind) {
    case ReferenceKind::None:
        break;
    case ReferenceKind::Expression:
        referenceFromExpression(out);
        break;
    case ReferenceKind::Kernel:
        referenceFromKernel();
        break;
    case ReferenceKind::Aggregate:
        expectAggregate();
        break;
    case ReferenceKind::File:
        referenceFromFile(out);
        break;
    }
}

void Reference::referenceFromExpression(const Allocation &out)
{
    if (out.type.lanes > 1) {
        m_verdict.message = "cannot verify `" + out.parameter +
                            "` with an expression: vector element types need a reference "
                            "kernel or a file";
        return;
    }
    RunResources &resources = *m_prepared.resources;
    resources.reference = DeviceBuffer(out.bytes);
    const std::string problem =
        runElementKernel(m_runner, m_prepared,
                         {m_verify.expression, "verification expression", false,
                          cudaTypeName(out.type), resources.reference.pointer(), out.count},
                         resources.referenceModule, m_phase);
    if (!problem.empty()) {
        m_verdict.message = problem;
        return;
    }
    m_referenceReady = true;
}

// The reference kernel runs on copies of the buffers, so the launch finds them untouched.
void Reference::referenceFromKernel()
{
    const KernelLookup refLookup = findKernel(m_prepared.compiled, m_verify.referenceKernel);
    if (!refLookup.found()) {
        m_verdict.message = "cannot verify: the reference kernel: " + refLookup.error;
        return;
    }
    RunResources &resources = *m_prepared.resources;
    const KernelInfo *refKernel = refLookup.kernel;
    const Function refFunction = resources.module->function(refKernel->loweredName);
    std::vector<DevicePointer> copyPointers;
    for (const Allocation &a : resources.buffers) {
        resources.copies.emplace_back(std::max<std::uint64_t>(a.bytes, 1));
        copyDeviceToDevice(resources.copies.back().pointer(), a.data(), a.bytes);
        copyPointers.push_back(resources.copies.back().pointer());
    }
    const unsigned dynamicShared = m_prepared.dynamicShared;
    if (dynamicShared > 48u * 1024u) {
        refFunction.setMaxDynamicSharedBytes(int(dynamicShared));
    }
    std::vector<void *> params = parameterPointerList(m_prepared.resolved, copyPointers);
    m_phase = "running the reference kernel `" + refKernel->loweredName + "`";
    const Stream &gpu = *m_runner.stream;
    const Event done;
    refFunction.launch(m_prepared.grid, m_prepared.block, dynamicShared, gpu, params.data());
    done.record(gpu);
    waitOrThrow(done, m_prepared.deadlineSeconds,
                "the reference kernel `" + refKernel->loweredName + "`", m_runner.contextLost);
    resources.reference = std::move(resources.copies[std::size_t(m_outputIndex)]);
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
                "cannot verify: `" + m_verify.of + "` is not a buffer of the kernel";
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
            m_verdict.message =
                "cannot verify: expected `" + m_verify.expected + "`: " + expected.error->message;
            return;
        }
        m_expectedAggregate = expected.value;
    }
    m_referenceReady = true;
}

void Reference::referenceFromFile(const Allocation &out)
{
    RunResources &resources = *m_prepared.resources;
    resources.reference = DeviceBuffer(std::max<std::uint64_t>(out.bytes, 1));
    m_phase = "reading the reference file";
    try {
        loadFileToDevice(m_verify.file, out.type, out.count, resources.reference.pointer(),
                         "the reference of `" + out.parameter + "`");
        m_referenceReady = true;
    } catch (const FileProblem &problem) {
        m_verdict.message = std::string("cannot verify: ") + problem.what();
    }
}

void Reference::check()
{
    if (m_referenceReady &&
        (m_verify.kind == ReferenceKind::Aggregate || m_verify.reduce != Reduction::None)) {
        checkAggregate();
    } else if (m_referenceReady) {
        checkElements();
    } else if (m_verify.kind != ReferenceKind::None && m_verdict.message.empty()) {
        m_verdict.message = "cannot verify `" + m_verify.output + "`";
    }
}

void Reference::checkAggregate()
{
    m_phase = "verifying `" + m_verify.output + "`";
    const RunResources &resources = *m_prepared.resources;
    const Allocation &out = resources.buffers[std::size_t(m_outputIndex)];
    const std::uint64_t scalars = m_checkedElements * std::uint64_t(out.type.lanes);
    verifyAggregate(m_verdict, m_verify, out, scalars, m_checkedElements, m_expectedAggregate,
                    resources.reference.pointer(), m_runner.gpuHelpers(), *m_runner.stream);
}

// Element by element on the GPU; the first mismatches are found one compare at a time from
// the last one, then read back and placed by block and thread.
void Reference::checkElements()
{
    m_phase = "verifying `" + m_verify.output + "`";
    RunResources &resources = *m_prepared.resources;
    const ResolvedLaunch &resolved = m_prepared.resolved;
    GpuHelpers &helpers = m_runner.gpuHelpers();
    const Stream &gpu = *m_runner.stream;
    const VerificationSpec &verify = m_verify;
    VerificationResult &verdict = m_verdict;
    const Allocation &out = resources.buffers[std::size_t(m_outputIndex)];
    const DevicePointer reference = resources.reference.pointer();
    const int tolerance = toleranceCode(verify.tolerance);
    const std::uint64_t lanes = std::uint64_t(out.type.lanes);
    const std::uint64_t checkedScalars = m_checkedElements * lanes;
    const DevicePointer mask = verify.mask.empty() ? 0 : resources.mask.pointer();
    const CompareSummary summary =
        helpers.compare(out.data(), reference, checkedScalars, out.type.scalar, tolerance,
                        verify.toleranceValue, 0, gpu, mask, lanes);
    const std::size_t scalarBytes = scalarSizeBytes(out.type.scalar);
    verdict.checked = m_maskedElements;
    verdict.mismatches = summary.mismatches;
    verdict.maxError = summary.maxError;
    verdict.maxErrorIndex = summary.maxErrorScalar / lanes;
    verdict.passed = summary.mismatches == 0;
    const std::uint64_t threadsPerBlock = resolved.block[0] * resolved.block[1] * resolved.block[2];
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
                              (verdict.passed ? " ≤ " : " > ") + shortNumber(verify.toleranceValue);
    std::string part;
    if (!verify.mask.empty()) {
        part = " selected by the mask (of " + std::to_string(m_checkedElements) + ")";
    } else if (m_checkedElements != out.count) {
        part = " (the first " + std::to_string(m_checkedElements) + ")";
    }
    if (verdict.passed) {
        verdict.message = "all " + plural(m_maskedElements, "element") + part + " of `" +
                          out.parameter + "` match (" + bound + "; largest error " +
                          shortNumber(summary.maxError) + ")";
    } else {
        verdict.message =
            std::to_string(summary.mismatches) + " of " + std::to_string(m_maskedElements * lanes) +
            (lanes > 1 ? " values" : " elements") + " of `" + out.parameter + "` differ (" + bound +
            "); largest error " + shortNumber(summary.maxError) + " at index " +
            std::to_string(verdict.maxErrorIndex) +
            "; the block and thread of each mismatch assume one element per thread";
    }
    resources.reference = DeviceBuffer();
}

} // namespace cuwb
