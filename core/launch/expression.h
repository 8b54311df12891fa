// Expression: arithmetic over named variables for buffer sizes, scalars, grid, block, shared
// memory, bytes and FLOPs, evaluated with muparser. Besides muparser's own operators (`+ - * /
// ^`, comparisons, `&&`, `||`, `?:`) C's `<<`, `>>`, `%` and `!`, Python's `**`, `//`, `and`,
// `or` and `not` (as Kernel Tuner's restrictions write them), ceil/floor/round/trunc/log2 and
// hexadecimal literals are supported (the list is in docs/projects.md); an error reports the
// 0-based character position.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuwb {

using Variables = std::map<std::string, double>;

struct ExpressionError
{
    std::string message;     // "unknown variable 'M'"
    int position = -1;       // 0-based character in the expression, -1 when unknown
    std::string unknownName; // the name when the error is "unknown variable 'NAME'"
};

struct ExpressionValue
{
    double value = 0.0;
    std::optional<ExpressionError> error;
    [[nodiscard]] bool ok() const { return !error.has_value(); }
};

ExpressionValue evaluateExpression(std::string_view expression, const Variables &variables);

// Evaluates `name = expression` definitions in order, each able to use the ones before it.
// Returns the first error with the variable's name in `failedName`.
struct VariablesResult
{
    Variables values;
    std::string failedName;
    std::optional<ExpressionError> error;
};
VariablesResult
evaluateVariables(const std::vector<std::pair<std::string, std::string>> &definitions);

} // namespace cuwb
