#include "compiler/sourcescan.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace cuwb {

namespace {

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

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
        const bool before = at == 0 || !isWordChar(text[at - 1]);
        const bool after = at + word.size() >= text.size() || !isWordChar(text[at + word.size()]);
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
                                    (head.size() == 9 || !isWordChar(head[9])) &&
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
                       (isWordChar(head[nameStart - 1]) || head[nameStart - 1] == ':'))
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

} // namespace

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
