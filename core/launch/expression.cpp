#include "launch/expression.h"

#include "util/format.h"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cuwb {

namespace {

constexpr const char *kNameChars =
    "0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.";

// Shifts act on the integer parts, as they would in the C++ a user has in mind; done with
// ldexp so that 1 << 40 does not overflow a 32-bit intermediate.
// The count as an int for ldexp. A double outside int's range (1 >> 1e42) or NaN cannot be
// converted (undefined behaviour); ldexp already gives 0 or infinity for any count past
// +-2100, so a clamped count gives the same answer.
int shiftCount(double count)
{
    return int(std::clamp(std::trunc(count), -4096.0, 4096.0));
}

double shiftLeft(double value, double count)
{
    if (std::isnan(count))
        return count;
    return std::ldexp(std::trunc(value), shiftCount(count));
}

double shiftRight(double value, double count)
{
    if (std::isnan(count))
        return count;
    return std::floor(std::ldexp(std::trunc(value), -shiftCount(count)));
}

double modulo(double value, double divisor)
{
    return std::fmod(value, divisor);
}

double ceilOf(double value)
{
    return std::ceil(value);
}

double floorOf(double value)
{
    return std::floor(value);
}

double roundOf(double value)
{
    return std::round(value);
}

double truncOf(double value)
{
    return std::trunc(value);
}

double log2Of(double value)
{
    return std::log2(value);
}

double logicalNot(double value)
{
    return value == 0.0 ? 1.0 : 0.0;
}

double power(double base, double exponent)
{
    return std::pow(base, exponent);
}

// Python's `//`, as Kernel Tuner's restrictions write it: the floor of the quotient.
double floorDivide(double value, double divisor)
{
    return std::floor(value / divisor);
}

// 0x1F, 0X1f: hexadecimal integer literals.
int readHex(const char *text, int *position, double *value)
{
    if (text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return 0;
    char *end = nullptr;
    const unsigned long long number = std::strtoull(text + 2, &end, 16);
    if (end == text + 2)
        return 0;
    *position += int(end - text);
    *value = double(number);
    return 1;
}

bool looksLikeName(const std::string &token)
{
    if (token.empty() || !(std::isalpha(static_cast<unsigned char>(token[0])) || token[0] == '_'))
        return false;
    for (const char c : token) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
            return false;
    }
    return true;
}

// muparser's messages are terse and sometimes misleading ("Unexpected token"); say what a
// user needs to fix in their own words.
std::string plainMessage(const mu::Parser::exception_type &error, std::string_view expression)
{
    const std::string &token = error.GetToken();
    switch (error.GetCode()) {
    case mu::ecUNASSIGNABLE_TOKEN:
        if (looksLikeName(token))
            return "unknown variable '" + token + "'";
        return "unexpected '" + token + "'";
    case mu::ecUNEXPECTED_EOF:
        return expression.find_first_not_of(" \t") == std::string_view::npos
                   ? "the expression is empty"
                   : "the expression ends too early";
    case mu::ecUNEXPECTED_OPERATOR:
    case mu::ecUNEXPECTED_ARG_SEP:
    case mu::ecUNEXPECTED_PARENS:
    case mu::ecUNEXPECTED_VAL:
    case mu::ecUNEXPECTED_VAR:
    case mu::ecUNEXPECTED_FUN:
    case mu::ecUNEXPECTED_ARG:
        return token.empty() ? std::string("unexpected symbol") : "unexpected '" + token + "'";
    case mu::ecMISSING_PARENS:
        return "a parenthesis is not closed";
    case mu::ecTOO_MANY_PARAMS:
        return "too many arguments to '" + token + "'";
    case mu::ecTOO_FEW_PARAMS:
        return "too few arguments to '" + token + "'";
    case mu::ecEMPTY_EXPRESSION:
        return "the expression is empty";
    case mu::ecDIV_BY_ZERO:
        return "division by zero";
    default:
        return error.GetMsg();
    }
}

// The parser of this thread, with the operators and functions defined once: setting them up
// costs about ten times what evaluating a launch's expression does, and a sweep's point
// evaluates thirty expressions on the host and again in the worker (docs/benchmarks.md).
mu::Parser &threadParser()
{
    thread_local const std::unique_ptr<mu::Parser> parser = [] {
        auto made = std::make_unique<mu::Parser>();
        made->DefineNameChars(kNameChars);
        made->AddValIdent(readHex);
        // C puts shifts between additive and relational operators; muparser has no level
        // between those, so they share the relational level (left to right), which still
        // makes 1 << 20 + 1 mean 1 << 21 as in C.
        made->DefineOprt("<<", shiftLeft, mu::prCMP);
        made->DefineOprt(">>", shiftRight, mu::prCMP);
        made->DefineOprt("%", modulo, mu::prMUL_DIV);
        // Kernel Tuner's restrictions are Python: `**` is a power (right to left, as in
        // Python) and `//` a floor division; C's `!` is a logical not. muparser has `&&`,
        // `||`, the comparisons and `?:` already; `and`, `or` and `not` become them before
        // parsing (pythonKeywordsAsOperators).
        made->DefineOprt("**", power, mu::prPOW, mu::oaRIGHT);
        made->DefineOprt("//", floorDivide, mu::prMUL_DIV);
        made->DefineInfixOprt("!", logicalNot);
        made->DefineFun("ceil", ceilOf);
        made->DefineFun("floor", floorOf);
        made->DefineFun("round", roundOf);
        made->DefineFun("trunc", truncOf);
        made->DefineFun("log2", log2Of);
        return made;
    }();
    return *parser;
}

// The variables `expression` names, with their values: muparser reads a name as the longest
// run of name characters, so each such run that does not start with a digit is looked up.
// Defining only these keeps an expression's cost independent of how many variables exist.
std::vector<std::pair<std::string, double>> namedVariables(std::string_view expression,
                                                           const Variables &variables)
{
    std::vector<std::pair<std::string, double>> named;
    const std::string_view nameChars(kNameChars);
    for (std::size_t k = 0; k < expression.size();) {
        if (nameChars.find(expression[k]) == std::string_view::npos) {
            ++k;
            continue;
        }
        std::size_t end = k;
        while (end < expression.size() && nameChars.find(expression[end]) != std::string_view::npos)
            ++end;
        if (!std::isdigit(static_cast<unsigned char>(expression[k]))) {
            const std::string name(expression.substr(k, end - k));
            const auto found = variables.find(name);
            const bool seen = std::any_of(named.begin(), named.end(),
                                          [&](const auto &entry) { return entry.first == name; });
            if (found != variables.end() && !seen)
                named.emplace_back(name, found->second);
        }
        k = end;
    }
    return named;
}

// An expression as muparser reads it, and where each of its characters was in the text the user
// wrote, so that an error's position points into that text.
struct Rewritten
{
    std::string text;
    std::vector<int> origin; // per character of `text`: its position in the user's text
    [[nodiscard]] int originOf(int position) const
    {
        if (position < 0)
            return position;
        if (std::size_t(position) < origin.size())
            return origin[std::size_t(position)];
        return origin.empty() ? 0 : origin.back() + 1;
    }
};

bool isNameChar(char c)
{
    return std::string_view(kNameChars).find(c) != std::string_view::npos;
}

// The whole name at `at` (a run of name characters starting there), or empty.
std::string_view nameAt(const std::string &text, std::size_t at)
{
    if (at >= text.size() || !isNameChar(text[at]) || (at > 0 && isNameChar(text[at - 1])))
        return {};
    std::size_t end = at;
    while (end < text.size() && isNameChar(text[end]))
        ++end;
    return std::string_view(text).substr(at, end - at);
}

// Python's `and` and `or` (Kernel Tuner's restrictions) as `&&` and `||`, and `not x` as
// `!(x)` with Python's precedence: it takes everything up to the next `and`, `or`, `?`, `:`,
// `,` or closing parenthesis of its level, so `not a == b` is `!(a == b)` (C's own `!` keeps
// C's precedence). Only whole names are replaced: `band`, `or_mask` and `x.not` stay names.
Rewritten pythonKeywordsAsOperators(std::string_view expression)
{
    Rewritten out;
    out.text = std::string(expression);
    for (std::size_t k = 0; k < out.text.size(); ++k)
        out.origin.push_back(int(k));
    const auto replace = [&](std::size_t at, std::size_t length, const std::string &with) {
        const int from = out.origin[at];
        out.text.replace(at, length, with);
        out.origin.erase(out.origin.begin() + long(at), out.origin.begin() + long(at + length));
        out.origin.insert(out.origin.begin() + long(at), with.size(), from);
    };
    for (std::size_t k = 0; k < out.text.size(); ++k) {
        const std::string_view word = nameAt(out.text, k);
        if (word == "and") {
            replace(k, 3, "&&");
        } else if (word == "or") {
            replace(k, 2, "||");
        } else if (word == "not") {
            // Its operand ends where a lower-precedence operator or its level's end begins.
            std::size_t end = k + 3;
            for (int depth = 0; end < out.text.size(); ++end) {
                const char c = out.text[end];
                if (c == '(') {
                    ++depth;
                } else if (c == ')') {
                    if (depth-- == 0)
                        break;
                } else if (depth == 0 &&
                           (c == '?' || c == ':' || c == ',' ||
                            out.text.compare(end, 2, "&&") == 0 ||
                            out.text.compare(end, 2, "||") == 0 || nameAt(out.text, end) == "and" ||
                            nameAt(out.text, end) == "or")) {
                    break;
                }
            }
            const int closeOrigin =
                end < out.origin.size() ? out.origin[end] : int(expression.size());
            out.text.insert(end, ")");
            out.origin.insert(out.origin.begin() + long(end), closeOrigin);
            replace(k, 3, "!(");
        }
    }
    return out;
}

} // namespace

// The longest expression evaluated (docs/projects.md, "Limits"). muparser refuses longer ones
// itself, with a sentence of its own; real expressions are a few dozen characters.
constexpr std::size_t kMaxExpressionChars = 10000;

ExpressionValue evaluateExpression(std::string_view expression, const Variables &variables)
{
    ExpressionValue result;
    if (expression.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        result.error = ExpressionError{"the expression is empty", 0, {}};
        return result;
    }
    if (expression.size() > kMaxExpressionChars) {
        result.error =
            ExpressionError{"the expression has " + formatCount(expression.size()) +
                                " characters; the limit is " + formatCount(kMaxExpressionChars),
                            int(kMaxExpressionChars),
                            {}};
        return result;
    }
    const Rewritten rewritten = pythonKeywordsAsOperators(expression);
    const std::string &text = rewritten.text;
    // muparser keeps pointers to the variables: `named` outlives their use, and they are
    // cleared before it goes.
    std::vector<std::pair<std::string, double>> named = namedVariables(text, variables);
    mu::Parser &parser = threadParser();
    try {
        parser.ClearVar();
        for (auto &[name, value] : named)
            parser.DefineVar(name, &value);
        parser.SetExpr(text);
        const double value = parser.Eval();
        if (std::isnan(value)) {
            result.error = ExpressionError{"the result is not a number", -1, {}};
        } else if (std::isinf(value)) {
            result.error = ExpressionError{"the result is infinite (division by zero?)", -1, {}};
        } else {
            result.value = value;
        }
    } catch (const mu::Parser::exception_type &error) {
        // At the end muparser reports one past it; point at the end instead.
        const int position = std::min(rewritten.originOf(error.GetPos()), int(expression.size()));
        result.error = ExpressionError{plainMessage(error, expression), position, {}};
        if (error.GetCode() == mu::ecUNASSIGNABLE_TOKEN && looksLikeName(error.GetToken()))
            result.error->unknownName = error.GetToken();
    }
    parser.ClearVar();
    return result;
}

VariablesResult
evaluateVariables(const std::vector<std::pair<std::string, std::string>> &definitions)
{
    VariablesResult result;
    for (const auto &[name, expression] : definitions) {
        if (!looksLikeName(name)) {
            result.failedName = name;
            result.error = ExpressionError{"'" + name + "' is not a valid variable name", -1, {}};
            return result;
        }
        const ExpressionValue value = evaluateExpression(expression, result.values);
        if (!value.ok()) {
            result.failedName = name;
            result.error = value.error;
            return result;
        }
        result.values[name] = value.value;
    }
    return result;
}

} // namespace cuwb
