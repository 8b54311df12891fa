#include "compiler/tunerconventions.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cuwb {

namespace {

bool isWholeNumber(std::string_view text)
{
    if (!text.empty() && (text.front() == '-' || text.front() == '+'))
        text.remove_prefix(1);
    return !text.empty() && text.size() <= 10 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

// `"name"` as a #line directive writes a file name: backslashes and quotes escaped.
std::string quotedFileName(std::string_view fileName)
{
    std::string text = "\"";
    for (const char c : fileName) {
        if (c == '\\' || c == '"')
            text += '\\';
        text += c;
    }
    return text + "\"";
}

std::size_t skipSpaces(std::string_view line, std::size_t i)
{
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    return i;
}

// In one line of code (comments and strings blanked), `#pragma unroll NAME` or
// `#pragma unroll (NAME)`: NAME and where the directive starts and ends; nullopt otherwise.
struct UnrollPragma
{
    std::string name;
    std::size_t begin = 0;
    std::size_t end = 0;
};
std::optional<UnrollPragma> unrollPragma(std::string_view line)
{
    std::size_t i = skipSpaces(line, 0);
    if (i >= line.size() || line[i] != '#')
        return std::nullopt;
    UnrollPragma pragma;
    pragma.begin = i;
    i = skipSpaces(line, i + 1);
    const auto word = [&](std::string_view expected) {
        if (line.substr(i, expected.size()) != expected)
            return false;
        const std::size_t after = i + expected.size();
        if (after < line.size() && isIdentifierChar(line[after]))
            return false;
        i = after;
        return true;
    };
    if (!word("pragma"))
        return std::nullopt;
    i = skipSpaces(line, i);
    if (!word("unroll"))
        return std::nullopt;
    i = skipSpaces(line, i);
    const bool parenthesised = i < line.size() && line[i] == '(';
    if (parenthesised)
        i = skipSpaces(line, i + 1);
    const std::size_t nameBegin = i;
    while (i < line.size() && isIdentifierChar(line[i]))
        ++i;
    if (i == nameBegin || std::isdigit(static_cast<unsigned char>(line[nameBegin])))
        return std::nullopt;
    pragma.name = std::string(line.substr(nameBegin, i - nameBegin));
    if (parenthesised) {
        i = skipSpaces(line, i);
        if (i >= line.size() || line[i] != ')')
            return std::nullopt;
        ++i;
    }
    pragma.end = i;
    return pragma;
}

Diagnostic remark(std::string_view fileName, int line, std::string message)
{
    Diagnostic diagnostic;
    diagnostic.file = std::string(fileName);
    diagnostic.line = line;
    diagnostic.severity = Severity::Remark;
    diagnostic.message = std::move(message);
    return diagnostic;
}

} // namespace

bool isLoopUnrollFactor(std::string_view defineName)
{
    return defineName.find("loop_unroll_factor") != std::string_view::npos;
}

std::optional<TunerSource> applyTunerConventions(std::string_view source, std::string_view fileName,
                                                 const CompileOptions &options)
{
    // The factors, by name (a later define of a name replaces an earlier one, as -D does).
    std::map<std::string, std::string> factors;
    std::vector<std::string> order;
    TunerSource out;
    out.options = options;
    out.options.defines.clear();
    for (const std::string &define : options.defines) {
        const std::size_t equals = define.find('=');
        const std::string name(trimmed(std::string_view(define).substr(0, equals)));
        if (!isLoopUnrollFactor(name)) {
            out.options.defines.push_back(define);
            continue;
        }
        // -DNAME without a value defines NAME as 1, and so does this.
        const std::string value =
            equals == std::string::npos
                ? std::string("1")
                : std::string(trimmed(std::string_view(define).substr(equals + 1)));
        if (!factors.count(name))
            order.push_back(name);
        factors[name] = value;
    }
    if (factors.empty())
        return std::nullopt;
    // NVRTC stops at such a byte; the compile reports it where the user's text has it.
    if (source.find_first_of(std::string_view("\0\xff", 2)) != std::string_view::npos)
        return std::nullopt;

    for (const std::string &name : order) {
        if (!isWholeNumber(factors[name])) {
            Diagnostic error;
            error.severity = Severity::Error;
            error.message = "the loop unroll factor " + name + " is `" + elided(factors[name]) +
                            "`; it must be a whole number, since it is compiled as `constexpr "
                            "int " +
                            name + " = VALUE;` as Kernel Tuner does";
            out.error = std::move(error);
            return out;
        }
    }

    // Each `#pragma unroll NAME` in the code: removed for a factor of 0, noted for the others.
    const std::string code = codeOnly(source);
    std::string edited(source);
    std::map<std::string, int> pragmas; // per factor, how many lines name it
    std::size_t removed = 0;            // bytes removed so far, to place later edits
    int lineNumber = 0;
    for (std::size_t lineStart = 0; lineStart < code.size();) {
        ++lineNumber;
        std::size_t lineEnd = code.find('\n', lineStart);
        if (lineEnd == std::string::npos)
            lineEnd = code.size();
        const std::string_view line(code.data() + lineStart, lineEnd - lineStart);
        if (const std::optional<UnrollPragma> pragma = unrollPragma(line);
            pragma && factors.count(pragma->name)) {
            const std::string &value = factors[pragma->name];
            ++pragmas[pragma->name];
            if (value == "0" || value == "-0" || value == "+0") {
                edited.erase(lineStart + pragma->begin - removed, pragma->end - pragma->begin);
                removed += pragma->end - pragma->begin;
                out.remarks.push_back(
                    remark(fileName, lineNumber,
                           "`#pragma unroll " + pragma->name +
                               "` is left out of this compile: " + pragma->name +
                               " is 0, which leaves the unrolling to the compiler (Kernel Tuner's "
                               "convention)"));
            } else {
                out.remarks.push_back(remark(fileName, lineNumber,
                                             "this loop is unrolled " + value +
                                                 " times: " + pragma->name + " is `constexpr int " +
                                                 pragma->name + " = " + value +
                                                 ";` in this compile (Kernel Tuner's convention)"));
            }
        }
        lineStart = lineEnd + 1;
    }

    std::string prefix;
    for (const std::string &name : order) {
        const std::string &value = factors[name];
        const std::string lines =
            pragmas.count(name) ? " (" + std::to_string(pragmas[name]) + " `#pragma unroll " +
                                      name + "` " + (pragmas[name] == 1 ? "line" : "lines") + ")"
                                : std::string(" (no `#pragma unroll ") + name + "` line)";
        if (value == "0" || value == "-0" || value == "+0")
            out.notes.push_back("Kernel Tuner's convention: " + name +
                                " is 0, so its pragmas are left out of this compile" + lines);
        else
            out.notes.push_back("Kernel Tuner's convention: " + name + " is `constexpr int " +
                                name + " = " + value + ";` before the source, not -D" + name +
                                lines);
        if (value == "0" || value == "-0" || value == "+0") {
            if (!pragmas.count(name))
                out.remarks.push_back(remark(fileName, 0,
                                             name + " is 0, and no `#pragma unroll " + name +
                                                 "` line names it, so it changes nothing"));
            continue;
        }
        prefix += "constexpr int " + name + " = " + value + ";\n";
        ++out.prefixLines;
        if (!pragmas.count(name))
            out.remarks.push_back(remark(fileName, 0,
                                         name + " is `constexpr int " + name + " = " + value +
                                             ";` before the source in this compile, as Kernel "
                                             "Tuner declares it (not -D" +
                                             name + ")"));
    }
    if (!prefix.empty()) {
        prefix += "#line 1 " + quotedFileName(fileName) + "\n";
        ++out.prefixLines;
    }
    out.source = prefix + edited;
    return out;
}

} // namespace cuwb
