#include "run/verificationcheck.h"

#include "compiler/kernellookup.h"
#include "launch/expression.h"
#include "run/bufferfiles.h"
#include "run/elementsource.h"
#include "run/hostelements.h"
#include "run/runtext.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

namespace cuwb {

namespace {

// One check's output as the host knows it: its element type and count.
struct HostOutput
{
    ElementType type;
    std::uint64_t count = 0;
    int bufferIndex = -1; // -1: a global
};

class CheckOne
{
public:
    CheckOne(const VerificationSpec &check, const VerificationContext &context,
             const std::vector<ModuleVariable> &variables, std::string field,
             std::vector<LaunchIssue> &issues)
        : m_check(check)
        , m_context(context)
        , m_variables(variables)
        , m_field(std::move(field))
        , m_issues(issues)
    {}

    void run()
    {
        const std::optional<HostOutput> output = findOutput();
        switch (m_check.kind) {
        case ReferenceKind::None:
            return;
        case ReferenceKind::Expression:
            if (m_check.expression.empty()) {
                issue("expression", "the reference expression is empty");
            } else if (output && output->type.lanes > 1) {
                issue("expression", "`" + m_check.output + "` holds " + output->type.name() +
                                        "; a vector element type needs a reference kernel or a "
                                        "file");
            } else if (output) {
                compile("expression", m_check.expression, "verification expression", false,
                        cudaTypeName(output->type));
            }
            break;
        case ReferenceKind::Kernel:
            checkReferenceKernel(output);
            break;
        case ReferenceKind::File:
            if (m_check.file.empty()) {
                issue("file", "names no reference file");
            } else if (m_context.filesMustExist) {
                checkReferenceFile(output);
            }
            break;
        case ReferenceKind::Aggregate:
            if (!m_check.of.empty() && bufferIndex(m_check.of) < 0) {
                issue("of",
                      "`" + m_check.of + "` is not a buffer of the launch (" + bufferNames() + ")");
            }
            if (!m_check.expected.empty()) {
                evaluate("expected", m_check.expected);
            }
            break;
        }
        if (output && !m_check.count.empty()) {
            if (const auto count = evaluate("count", m_check.count)) {
                if (*count < 1 || *count != std::trunc(*count) || *count > double(output->count)) {
                    issue("count", "`" + m_check.count + "` is " + formatNumber(*count) + "; `" +
                                       m_check.output + "` has " +
                                       plural(output->count, "element"));
                }
            }
        }
        if (output && !m_check.mask.empty() && reduces()) {
            issue("mask", "a reduction takes no mask; only elements are masked");
        } else if (output && !m_check.mask.empty()) {
            compile("mask", m_check.mask, "verification mask", true, "unsigned char");
        }
    }

private:
    void issue(const std::string &what, std::string message)
    {
        m_issues.push_back({m_field + ": " + what, std::move(message), -1});
    }

    int bufferIndex(const std::string &name) const
    {
        const std::vector<ResolvedBuffer> &buffers = m_context.resolved.buffers;
        const auto found =
            std::find_if(buffers.begin(), buffers.end(),
                         [&](const ResolvedBuffer &b) { return b.parameter == name; });
        return found == buffers.end() ? -1 : int(found - buffers.begin());
    }

    std::string bufferNames() const
    {
        std::string names;
        for (const ResolvedBuffer &buffer : m_context.resolved.buffers)
            names += (names.empty() ? "its buffers: " : ", ") + buffer.parameter;
        return names.empty() ? std::string("it has no buffers") : names;
    }

    std::optional<HostOutput> findOutput()
    {
        if (m_check.output.empty()) {
            issue("output", "names no buffer to check");
            return std::nullopt;
        }
        if (const int index = bufferIndex(m_check.output); index >= 0) {
            const ResolvedBuffer &buffer = m_context.resolved.buffers[std::size_t(index)];
            return HostOutput{buffer.elementType, buffer.count, index};
        }
        const auto variable =
            std::find_if(m_variables.begin(), m_variables.end(),
                         [&](const ModuleVariable &v) { return v.name == m_check.output; });
        if (variable == m_variables.end()) {
            issue("output", "the launch has no buffer and the module no global named '" +
                                m_check.output + "' (" + bufferNames() + ")");
            return std::nullopt;
        }
        const std::vector<ResolvedBuffer> &set = m_context.resolved.globals;
        const auto spec = std::find_if(set.begin(), set.end(), [&](const ResolvedBuffer &g) {
            return g.parameter == m_check.output;
        });
        const std::optional<ElementType> type = spec != set.end()
                                                    ? std::optional<ElementType>(spec->elementType)
                                                    : parseElementType(variable->type);
        if (!type || type->sizeBytes() == 0 || variable->bytes % type->sizeBytes() != 0) {
            issue("output", "the global `" + m_check.output + "` is of type " +
                                (variable->type.empty() ? std::string("unknown") : variable->type) +
                                ", which is not an element type; name it in the project's "
                                "globals with its element type");
            return std::nullopt;
        }
        return HostOutput{*type, variable->bytes / type->sizeBytes(), -1};
    }

    bool reduces() const
    {
        return m_check.kind == ReferenceKind::Aggregate ||
               (m_check.kind == ReferenceKind::Kernel && m_check.reduce != Reduction::None);
    }

    // The file exists; once the launch resolved (the output's count is known), it holds the
    // output's elements, as the worker will read it.
    void checkReferenceFile(const std::optional<HostOutput> &output)
    {
        std::error_code error;
        if (!std::filesystem::is_regular_file(m_check.file, error)) {
            issue("file", "'" + m_check.file + "' does not exist");
            return;
        }
        if (!output || !m_context.resolved.ok()) {
            return;
        }
        try {
            (void)checkBufferFile(m_check.file, output->type, output->count,
                                  "the reference of `" + m_check.output + "`");
        } catch (const FileProblem &problem) {
            issue("file", problem.what());
        }
    }

    void checkReferenceKernel(const std::optional<HostOutput> &output)
    {
        if (m_check.referenceKernel.empty()) {
            issue("referenceKernel", "names no reference kernel");
            return;
        }
        const KernelLookup reference = findKernel(m_context.compiled, m_check.referenceKernel);
        if (!reference.found()) {
            issue("referenceKernel", reference.error);
            return;
        }
        if (!output) {
            return;
        }
        if (output->bufferIndex < 0) {
            issue("referenceKernel", "a reference kernel would write the module's own global `" +
                                         m_check.output +
                                         "`; check it with an expression, a file or an aggregate");
            return;
        }
        const std::vector<int> &slots = m_context.resolved.parameterSlots;
        if (std::find(slots.begin(), slots.end(), output->bufferIndex) == slots.end()) {
            issue("referenceKernel",
                  "a reference kernel takes the first kernel's parameters, and `" + m_check.output +
                      "` is not one of them");
        }
    }

    std::optional<double> evaluate(const std::string &what, const std::string &expression)
    {
        const ExpressionValue value = evaluateExpression(expression, m_context.resolved.variables);
        if (!value.ok()) {
            m_issues.push_back({m_field + ": " + what,
                                explainExpressionError(*value.error, m_context.deviceNames),
                                value.error->position});
            return std::nullopt;
        }
        return value.value;
    }

    // The element kernel the worker would compile, compiled here the same way: with the
    // launch's numbers as parameters, else as constants.
    void compile(const std::string &what, const std::string &expression, const char *label,
                 bool condition, const std::string &outputType)
    {
        const ElementSource source = elementSource(expression, label, condition, outputType,
                                                   m_context.resolved, m_variables);
        if (!source.problem.empty()) {
            issue(what, source.problem);
            return;
        }
        if (!m_context.compile) {
            return;
        }
        CompileOptions options;
        options.arch = m_context.arch;
        options.lineInfo = false;
        // The workbench's own kernel, not the user's: NVRTC builds it in a tenth of nvcc's time.
        options.compiler = "nvrtc";
        CompileResult compiled = m_context.compile(source.withParameters, "reference.cu", options);
        if (!compiled.success) {
            compiled = m_context.compile(source.withConstants, "reference.cu", options);
        }
        if (!compiled.success) {
            issue(what, "does not compile: " + firstErrors(compiled, 2));
        }
    }

    const VerificationSpec &m_check;
    const VerificationContext &m_context;
    const std::vector<ModuleVariable> &m_variables;
    std::string m_field;
    std::vector<LaunchIssue> &m_issues;
};

} // namespace

std::string checkField(const Verification &verification, std::size_t index)
{
    if (verification.checks.size() <= 1 && !verification.listForm) {
        return "verification";
    }
    std::string field = "verification[" + std::to_string(index) + "]";
    if (index < verification.checks.size() && !verification.checks[index].output.empty()) {
        field += " (`" + verification.checks[index].output + "`)";
    }
    return field;
}

std::vector<LaunchIssue> checkVerification(const Verification &verification,
                                           const VerificationContext &context)
{
    std::vector<LaunchIssue> issues;
    const std::vector<ModuleVariable> variables =
        moduleVariables(context.compiled.ptx, context.source);
    for (std::size_t k = 0; k < verification.checks.size(); ++k) {
        CheckOne(verification.checks[k], context, variables, checkField(verification, k), issues)
            .run();
    }
    return issues;
}

} // namespace cuwb
