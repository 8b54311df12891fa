#include "compiler/sourcescan.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace cuwb {

namespace {

// The index of the bracket that closes the one at `open` ('(' or '{'), or npos.
std::size_t matching(std::string_view code, std::size_t open)
{
    const char opening = code[open];
    const char closing = opening == '(' ? ')' : '}';
    int depth = 0;
    for (std::size_t i = open; i < code.size(); ++i) {
        if (code[i] == opening)
            ++depth;
        else if (code[i] == closing && --depth == 0)
            return i;
    }
    return std::string_view::npos;
}

bool containsWord(std::string_view text, std::string_view word)
{
    for (std::size_t at = text.find(word); at != std::string_view::npos;
         at = text.find(word, at + 1)) {
        const bool before = at == 0 || !isIdentifierChar(text[at - 1]);
        const bool after =
            at + word.size() >= text.size() || !isIdentifierChar(text[at + word.size()]);
        if (before && after)
            return true;
    }
    return false;
}

// Blanks preprocessor directives (with their continuation lines), so that a macro's body
// is not read as code.
std::string withoutDirectives(std::string code)
{
    bool lineStart = true;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i] == '\n') {
            lineStart = true;
            continue;
        }
        if (lineStart && code[i] == '#') {
            while (i < code.size() && !(code[i] == '\n' && code[i - 1] != '\\')) {
                code[i] = ' ';
                ++i;
            }
            lineStart = true;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(code[i])))
            lineStart = false;
    }
    return code;
}

void scanScope(std::string_view code, std::size_t begin, std::size_t end, const std::string &scope,
               std::vector<std::string> &names)
{
    std::size_t statementStart = begin;
    for (std::size_t i = begin; i < end; ++i) {
        const char c = code[i];
        if (c == ';' || c == '}') {
            statementStart = i + 1;
            continue;
        }
        if (c != '{')
            continue;
        const std::size_t close = matching(code, i);
        const std::size_t after = close == std::string_view::npos ? end : std::min(close, end);
        const std::string_view head = trimmed(code.substr(statementStart, i - statementStart));
        // namespace N { ... } and extern "C" { ... } hold more definitions.
        const bool namespaceBlock = head.starts_with("namespace") &&
                                    (head.size() == 9 || !isIdentifierChar(head[9])) &&
                                    head.find('(') == std::string_view::npos;
        // extern "C" { ... }: the string is blanked, so nothing follows the word.
        const bool linkageBlock = head == "extern";
        if (namespaceBlock || linkageBlock) {
            std::string inner = scope;
            if (namespaceBlock) {
                const std::string_view name = trimmed(head.substr(9));
                if (!name.empty())
                    inner += std::string(name) + "::";
            }
            scanScope(code, i + 1, after, inner, names);
        } else if (!head.empty() && head.back() != '=' && !containsWord(head, "__global__") &&
                   !containsWord(head, "__device__") && !containsWord(head, "struct") &&
                   !containsWord(head, "class") && !containsWord(head, "union") &&
                   !containsWord(head, "enum") && head.find('=') == std::string_view::npos) {
            // A function definition: "... name(parameters) [qualifiers] {".
            const std::size_t open = head.find('(');
            if (open != std::string_view::npos && open > 0) {
                std::size_t nameEnd = open;
                while (nameEnd > 0 && std::isspace(static_cast<unsigned char>(head[nameEnd - 1])))
                    --nameEnd;
                std::size_t nameStart = nameEnd;
                while (nameStart > 0 &&
                       (isIdentifierChar(head[nameStart - 1]) || head[nameStart - 1] == ':'))
                    --nameStart;
                const std::string name(head.substr(nameStart, nameEnd - nameStart));
                if (!name.empty() && !std::isdigit(static_cast<unsigned char>(name.front()))) {
                    const std::string qualified = scope + name;
                    if (std::find(names.begin(), names.end(), qualified) == names.end())
                        names.push_back(qualified);
                }
            }
        }
        i = after;
        statementStart = after + 1;
    }
}

// The top-level comma-separated parts of text (commas inside <>, (), [] and {} do not count).
std::vector<std::string> splitTopLevel(std::string_view text)
{
    std::vector<std::string> parts;
    std::string current;
    int depth = 0;
    for (char c : text) {
        if (c == '<' || c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == '>' || c == ')' || c == ']' || c == '}')
            --depth;
        if (c == ',' && depth == 0) {
            parts.emplace_back(trimmed(current));
            current.clear();
        } else {
            current += c;
        }
    }
    if (!trimmed(current).empty())
        parts.emplace_back(trimmed(current));
    return parts;
}

// The name a template parameter declares: "typename T" -> "T", "int BLOCK = 256" -> "BLOCK",
// "template <class> class C" -> "C"; empty for an unnamed one ("typename").
std::string templateParameterName(std::string_view parameter)
{
    const std::size_t equals = parameter.find('=');
    std::string_view head = trimmed(parameter.substr(0, equals));
    if (head.ends_with("..."))
        head = trimmed(head.substr(0, head.size() - 3));
    std::size_t end = head.size();
    std::size_t start = end;
    while (start > 0 && isIdentifierChar(head[start - 1]))
        --start;
    const std::string_view name = head.substr(start, end - start);
    if (name.empty() || start == 0)
        return {}; // a lone word is the kind, not a name ("typename")
    for (std::string_view keyword : {"typename", "class", "int", "unsigned", "long", "short",
                                     "char", "bool", "size_t", "auto", "signed"}) {
        if (name == keyword)
            return {};
    }
    return std::string(name);
}

} // namespace

std::string KernelTemplate::placeholder() const
{
    std::string text = name + "<";
    for (std::size_t i = 0; i < parameterNames.size(); ++i)
        text += (i == 0 ? "" : ", ") +
                (parameterNames[i].empty() ? std::string("?") : parameterNames[i]);
    return text + ">";
}

std::vector<KernelTemplate> kernelTemplates(std::string_view source)
{
    const std::string code = withoutDirectives(codeOnly(source));
    std::vector<KernelTemplate> templates;
    // Namespaces by brace depth: "namespace a { namespace b {" -> a::b:: for what is inside.
    std::vector<std::pair<int, std::string>> namespaces;
    int depth = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        if (c == '{') {
            const std::size_t boundary = code.find_last_of(";{}", i == 0 ? 0 : i - 1);
            const std::string_view head = trimmed(std::string_view(code).substr(
                boundary == std::string::npos ? 0 : boundary + 1,
                i - (boundary == std::string::npos ? 0 : boundary + 1)));
            ++depth;
            if (head.starts_with("namespace") && (head.size() == 9 || !isIdentifierChar(head[9])))
                namespaces.emplace_back(depth, std::string(trimmed(head.substr(9))));
            continue;
        }
        if (c == '}') {
            if (!namespaces.empty() && namespaces.back().first == depth)
                namespaces.pop_back();
            --depth;
            continue;
        }
        if (c != 't' || code.compare(i, 8, "template") != 0 ||
            (i > 0 && isIdentifierChar(code[i - 1])) ||
            (i + 8 < code.size() && isIdentifierChar(code[i + 8])))
            continue;
        std::size_t open = i + 8;
        while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open])))
            ++open;
        if (open >= code.size() || code[open] != '<')
            continue; // "template __global__ void k<int>(...)": an explicit instantiation
        int angle = 0;
        std::size_t close = open;
        for (; close < code.size(); ++close) {
            if (code[close] == '<')
                ++angle;
            else if (code[close] == '>' && --angle == 0)
                break;
        }
        if (close >= code.size())
            break;
        // The declaration after the template head, up to its parameter list: the first '('
        // that does not open an attribute's arguments (__launch_bounds__(256)).
        std::size_t paren = code.find('(', close);
        while (paren != std::string::npos) {
            std::size_t wordEnd = paren;
            while (wordEnd > close && std::isspace(static_cast<unsigned char>(code[wordEnd - 1])))
                --wordEnd;
            std::size_t wordStart = wordEnd;
            while (wordStart > close && isIdentifierChar(code[wordStart - 1]))
                --wordStart;
            const std::string_view word =
                std::string_view(code).substr(wordStart, wordEnd - wordStart);
            if (word != "__launch_bounds__" && word != "__attribute__" && word != "alignas" &&
                word != "__declspec" && word != "__maxnreg__" && word != "__cluster_dims__")
                break;
            const std::size_t skip = matching(code, paren);
            paren = skip == std::string::npos ? skip : code.find('(', skip + 1);
        }
        const std::size_t stop = code.find_first_of(";{", close);
        if (paren == std::string::npos || (stop != std::string::npos && stop < paren))
            continue;
        const std::string_view declaration =
            std::string_view(code).substr(close + 1, paren - close - 1);
        if (!containsWord(declaration, "__global__"))
            continue;
        std::size_t nameEnd = paren;
        while (nameEnd > close && std::isspace(static_cast<unsigned char>(code[nameEnd - 1])))
            --nameEnd;
        std::size_t nameStart = nameEnd;
        while (nameStart > close && isIdentifierChar(code[nameStart - 1]))
            --nameStart;
        const std::size_t parametersEnd = matching(code, paren);
        if (nameStart == nameEnd || parametersEnd == std::string::npos)
            continue;
        KernelTemplate kernel;
        for (const auto &[level, name] : namespaces)
            if (!name.empty())
                kernel.name += name + "::";
        kernel.name += code.substr(nameStart, nameEnd - nameStart);
        kernel.templateParameters =
            splitTopLevel(std::string_view(code).substr(open + 1, close - open - 1));
        for (const std::string &parameter : kernel.templateParameters)
            kernel.parameterNames.push_back(templateParameterName(parameter));
        // The parameter list as written, comments and line breaks folded into single spaces.
        std::string parameters;
        for (char p : std::string_view(code).substr(paren + 1, parametersEnd - paren - 1)) {
            if (std::isspace(static_cast<unsigned char>(p))) {
                if (!parameters.empty() && parameters.back() != ' ')
                    parameters += ' ';
            } else {
                parameters += p;
            }
        }
        kernel.parameters = std::string(trimmed(parameters));
        kernel.line = int(std::count(code.begin(), code.begin() + long(nameStart), '\n')) + 1;
        templates.push_back(std::move(kernel));
        i = parametersEnd;
    }
    return templates;
}

std::vector<std::string> hostFunctionNames(std::string_view source)
{
    const std::string code = withoutDirectives(codeOnly(source));
    std::vector<std::string> names;
    scanScope(code, 0, code.size(), "", names);
    return names;
}

std::vector<IncludeLine> includeLines(std::string_view source)
{
    std::vector<IncludeLine> includes;
    int number = 0;
    std::size_t start = 0;
    while (start < source.size()) {
        std::size_t end = source.find('\n', start);
        if (end == std::string_view::npos)
            end = source.size();
        ++number;
        std::string_view line = trimmed(source.substr(start, end - start));
        start = end + 1;
        if (!line.starts_with('#'))
            continue;
        line = trimmed(line.substr(1));
        if (!line.starts_with("include"))
            continue;
        line = trimmed(line.substr(7));
        if (line.empty() || (line.front() != '"' && line.front() != '<'))
            continue;
        const char closing = line.front() == '"' ? '"' : '>';
        const std::size_t close = line.find(closing, 1);
        if (close == std::string_view::npos || close == 1)
            continue;
        includes.push_back({number, std::string(line.substr(1, close - 1)), closing == '>'});
    }
    return includes;
}

} // namespace cuwb
