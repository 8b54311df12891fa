#include "kernel/kernelsignature.h"
#include "util/text.h"

#include "compiler/kernelinfo.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace cuwb {

bool KernelSignature::drivable() const
{
    return error.empty() &&
           std::all_of(parameters.begin(), parameters.end(),
                       [](const KernelParameter &parameter) { return parameter.supported; });
}

namespace {

bool isIdentifierStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

// The source with comments, string and character literals replaced by spaces (newlines
// kept), so offsets and line numbers stay those of the original.
std::string blankCommentsAndLiterals(std::string_view source)
{
    std::string text(source);
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n')
                text[i++] = ' ';
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            text[i++] = ' ';
            text[i++] = ' ';
            while (i < text.size() &&
                   !(text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/')) {
                if (text[i] != '\n')
                    text[i] = ' ';
                ++i;
            }
            for (int k = 0; k < 2 && i < text.size(); ++k)
                text[i++] = ' ';
        } else if (c == '"' || c == '\'') {
            ++i;
            while (i < text.size() && text[i] != c && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < text.size())
                    text[i++] = ' ';
                text[i++] = ' ';
            }
            ++i;
        } else {
            ++i;
        }
    }
    return text;
}

struct Token
{
    std::string text;
    bool identifier = false;
};

std::vector<Token> tokenize(std::string_view text)
{
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (isIdentifierStart(c)) {
            std::size_t end = i;
            while (end < text.size() && isIdentifierChar(text[end]))
                ++end;
            tokens.push_back({std::string(text.substr(i, end - i)), true});
            i = end;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t end = i;
            while (end < text.size() && (isIdentifierChar(text[end]) || text[end] == '.'))
                ++end;
            tokens.push_back({std::string(text.substr(i, end - i)), false});
            i = end;
        } else if (text.substr(i, 2) == "::" || text.substr(i, 2) == "&&" ||
                   text.substr(i, 2) == "[[" || text.substr(i, 2) == "]]") {
            tokens.push_back({std::string(text.substr(i, 2)), false});
            i += 2;
        } else {
            tokens.push_back({std::string(1, c), false});
            ++i;
        }
    }
    return tokens;
}

using Macros = std::map<std::string, std::vector<Token>>;

// Object-like #defines (`#define RESTRICT __restrict__`), so qualifiers hidden behind a
// macro are still seen. Function-like macros are left alone.
Macros collectMacros(const std::string &text)
{
    Macros macros;
    std::size_t lineStart = 0;
    while (lineStart < text.size()) {
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string::npos)
            lineEnd = text.size();
        std::string line = text.substr(lineStart, lineEnd - lineStart);
        while (!line.empty() && line.back() == '\\' && lineEnd < text.size()) {
            line.pop_back();
            const std::size_t next = text.find('\n', lineEnd + 1);
            const std::size_t end = next == std::string::npos ? text.size() : next;
            line += " " + text.substr(lineEnd + 1, end - lineEnd - 1);
            lineEnd = end;
        }
        const std::size_t hash = line.find_first_not_of(" \t");
        if (hash != std::string::npos && line[hash] == '#') {
            const std::vector<Token> tokens = tokenize(std::string_view(line).substr(hash + 1));
            if (tokens.size() >= 2 && tokens[0].text == "define" && tokens[1].identifier) {
                const std::size_t nameAt = line.find(tokens[1].text, hash);
                const std::size_t after = nameAt + tokens[1].text.size();
                const bool functionLike = after < line.size() && line[after] == '(';
                if (!functionLike)
                    macros[tokens[1].text] = std::vector<Token>(tokens.begin() + 2, tokens.end());
            }
        }
        lineStart = lineEnd + 1;
    }
    return macros;
}

std::vector<Token> expandMacros(const std::vector<Token> &tokens, const Macros &macros,
                                int depth = 0)
{
    if (depth > 8)
        return tokens;
    std::vector<Token> result;
    for (const Token &token : tokens) {
        const auto it = token.identifier ? macros.find(token.text) : macros.end();
        if (it == macros.end()) {
            result.push_back(token);
            continue;
        }
        const std::vector<Token> expanded = expandMacros(it->second, macros, depth + 1);
        result.insert(result.end(), expanded.begin(), expanded.end());
    }
    return result;
}

// Splits at commas outside (), [], {} and <>.
std::vector<std::vector<Token>> splitTopLevel(const std::vector<Token> &tokens)
{
    std::vector<std::vector<Token>> parts(1);
    int depth = 0;
    int angle = 0;
    for (const Token &token : tokens) {
        const std::string &t = token.text;
        if (t == "(" || t == "[" || t == "{" || t == "[[")
            ++depth;
        else if (t == ")" || t == "]" || t == "}" || t == "]]")
            --depth;
        else if (t == "<")
            ++angle;
        else if (t == ">" && angle > 0)
            --angle;
        if (t == "," && depth == 0 && angle == 0) {
            parts.emplace_back();
            continue;
        }
        parts.back().push_back(token);
    }
    if (parts.size() == 1 && parts[0].empty())
        parts.clear();
    return parts;
}

std::string joinTokens(const std::vector<Token> &tokens)
{
    std::string text;
    for (const Token &token : tokens) {
        const bool glue = text.empty() || token.text == "::" || text.ends_with("::") ||
                          token.text == "," || token.text == ">" || text.ends_with("<") ||
                          token.text == "<" || token.text == "[" || token.text == "]" ||
                          text.ends_with("[");
        if (!glue)
            text += ' ';
        text += token.text;
    }
    return text;
}

const std::set<std::string> &typeKeywords()
{
    static const std::set<std::string> words{"void",  "bool",   "char",     "short",
                                             "int",   "long",   "unsigned", "signed",
                                             "float", "double", "__int64"};
    return words;
}

// Tokens that say nothing about the type's identity: qualifiers, attributes, storage.
bool isQualifier(const std::string &word)
{
    static const std::set<std::string> words{
        "const",    "volatile",   "__restrict__", "__restrict", "restrict", "__grid_constant__",
        "register", "__device__", "__global__",   "__host__",   "typename", "__readonly__"};
    return words.contains(word);
}

bool isRestrict(const std::string &word)
{
    return word == "__restrict__" || word == "__restrict" || word == "restrict";
}

// Drops __attribute__((...)), __align__(n), alignas(n), __declspec(...) and [[...]].
std::vector<Token> dropAttributes(const std::vector<Token> &tokens)
{
    static const std::set<std::string> withArguments{"__attribute__", "__align__", "alignas",
                                                     "__declspec", "__builtin_align__"};
    std::vector<Token> result;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].text == "[[") {
            int depth = 1;
            while (++i < tokens.size() && depth > 0) {
                if (tokens[i].text == "[[")
                    ++depth;
                else if (tokens[i].text == "]]")
                    --depth;
            }
            --i;
            continue;
        }
        if (withArguments.contains(tokens[i].text) && i + 1 < tokens.size() &&
            tokens[i + 1].text == "(") {
            int depth = 0;
            ++i;
            for (; i < tokens.size(); ++i) {
                if (tokens[i].text == "(")
                    ++depth;
                else if (tokens[i].text == ")" && --depth == 0)
                    break;
            }
            continue;
        }
        result.push_back(tokens[i]);
    }
    return result;
}

// What one parameter's tokens say.
struct ParsedParameter
{
    std::string name;
    std::string typeText; // without the name and default argument
    std::string baseType; // type words without qualifiers, pointers or name: "unsigned int"
    int pointers = 0;
    bool reference = false;
    bool functionPointer = false;
    bool constPointee = false; // const before the first '*' (or anywhere for a scalar)
    bool restrict = false;
};

ParsedParameter parseParameter(const std::vector<Token> &raw, bool mayHaveName)
{
    ParsedParameter parsed;
    std::vector<Token> tokens = dropAttributes(raw);
    // Default argument.
    int depth = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string &t = tokens[i].text;
        if (t == "(" || t == "[" || t == "<")
            ++depth;
        else if (t == ")" || t == "]" || t == ">")
            --depth;
        else if (t == "=" && depth == 0) {
            tokens.resize(i);
            break;
        }
    }
    // A function pointer names itself inside its first parentheses: void (*fn)(int).
    for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
        if (tokens[i].text == "(" && tokens[i + 1].text == "*") {
            parsed.functionPointer = true;
            if (tokens[i + 2].identifier && mayHaveName)
                parsed.name = tokens[i + 2].text;
            parsed.typeText = joinTokens(tokens);
            parsed.baseType =
                joinTokens(std::vector<Token>(tokens.begin(), tokens.begin() + std::ptrdiff_t(i)));
            return parsed;
        }
    }
    // Array parameters (float a[]) are pointers.
    bool array = false;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].text == "[") {
            array = true;
            tokens.resize(i);
            break;
        }
        if (tokens[i].text == "(")
            parsed.functionPointer = true;
    }
    // The name: the last identifier, when it is not a type keyword or qualifier and
    // something else names the type.
    if (mayHaveName) {
        for (std::size_t i = tokens.size(); i-- > 0;) {
            const Token &token = tokens[i];
            if (!token.identifier || isQualifier(token.text))
                continue;
            const bool hasTypeBefore =
                std::any_of(tokens.begin(), tokens.begin() + std::ptrdiff_t(i),
                            [](const Token &t) { return t.identifier && !isQualifier(t.text); });
            const bool afterScope = i > 0 && tokens[i - 1].text == "::";
            if (hasTypeBefore && !afterScope && !typeKeywords().contains(token.text)) {
                parsed.name = token.text;
                tokens.erase(tokens.begin() + std::ptrdiff_t(i));
            }
            break;
        }
    }
    std::vector<Token> base;
    bool seenStar = false;
    for (const Token &token : tokens) {
        const std::string &t = token.text;
        if (t == "*") {
            ++parsed.pointers;
            seenStar = true;
        } else if (t == "&" || t == "&&") {
            parsed.reference = true;
        } else if (t == "const") {
            if (!seenStar)
                parsed.constPointee = true;
        } else if (isRestrict(t)) {
            parsed.restrict = true;
        } else if (!isQualifier(t) && t != "struct" && t != "class" && t != "union" &&
                   t != "enum") {
            base.push_back(token);
        }
    }
    if (array)
        ++parsed.pointers;
    parsed.baseType = joinTokens(base);
    parsed.typeText = joinTokens(tokens);
    if (array)
        parsed.typeText += " *";
    return parsed;
}

// "void scale<float, 4>(float*, int)" -> {"float*", "int"}; nullopt without a parameter list.
std::optional<std::vector<std::string>> demangledParameters(const std::string &readable)
{
    // The parameter list is the last top-level (...) group.
    if (readable.empty() || readable.back() != ')')
        return std::nullopt;
    int depth = 0;
    std::size_t open = std::string::npos;
    for (std::size_t i = readable.size(); i-- > 0;) {
        if (readable[i] == ')')
            ++depth;
        else if (readable[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos)
        return std::nullopt;
    const std::string inside = readable.substr(open + 1, readable.size() - open - 2);
    std::vector<std::string> result;
    for (const std::vector<Token> &part : splitTopLevel(tokenize(inside)))
        result.push_back(joinTokens(part));
    if (result.size() == 1 && result[0] == "void")
        result.clear();
    return result;
}

// "void ns::scale<float, 4>(float*, int)" -> "scale"; and the template arguments.
std::string plainName(const std::string &readable, std::vector<std::string> *templateArguments)
{
    std::string name = readable.substr(0, readable.find('('));
    if (const auto open = name.find('<'); open != std::string::npos) {
        const auto close = name.rfind('>');
        if (templateArguments && close != std::string::npos && close > open) {
            for (const std::vector<Token> &part :
                 splitTopLevel(tokenize(name.substr(open + 1, close - open - 1))))
                templateArguments->push_back(joinTokens(part));
        }
        name.erase(open);
    }
    if (const auto space = name.rfind(' '); space != std::string::npos)
        name.erase(0, space + 1);
    if (const auto scope = name.rfind("::"); scope != std::string::npos)
        name.erase(0, scope + 2);
    return name;
}

std::size_t lineOffset(const std::string &text, int line)
{
    std::size_t offset = 0;
    for (int current = 1; current < line; ++current) {
        offset = text.find('\n', offset);
        if (offset == std::string::npos)
            return text.size();
        ++offset;
    }
    return offset;
}

// Position of `name(` as a declaration at or after `from`, preceded by __global__ in the
// same statement; npos when there is none.
std::size_t findDeclaration(const std::string &text, const std::string &name, std::size_t from)
{
    if (name.empty())
        return std::string::npos; // "" is found everywhere, and the search would not move on
    std::size_t at = from;
    while ((at = text.find(name, at)) != std::string::npos) {
        const std::size_t end = at + name.size();
        const bool wordStart = at == 0 || !isIdentifierChar(text[at - 1]);
        const bool wordEnd = end >= text.size() || !isIdentifierChar(text[end]);
        std::size_t next = end;
        while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next])))
            ++next;
        if (wordStart && wordEnd && next < text.size() && text[next] == '(') {
            std::size_t statement = text.find_last_of(";}", at);
            statement = statement == std::string::npos ? 0 : statement + 1;
            const std::string before = text.substr(statement, at - statement);
            if (before.find("__global__") != std::string::npos)
                return at;
        }
        at = end;
    }
    return std::string::npos;
}

// The template parameter names of `template <typename T, int N>` just before `at`.
std::vector<std::string> templateParameterNames(const std::string &text, std::size_t at)
{
    std::size_t statement = text.find_last_of(";}", at);
    statement = statement == std::string::npos ? 0 : statement + 1;
    const std::string before = text.substr(statement, at - statement);
    std::vector<std::string> names;
    const std::vector<Token> tokens = tokenize(before);
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (tokens[i].text != "template" || tokens[i + 1].text != "<")
            continue;
        int depth = 0;
        std::size_t close = i + 1;
        for (; close < tokens.size(); ++close) {
            if (tokens[close].text == "<")
                ++depth;
            else if (tokens[close].text == ">" && --depth == 0)
                break;
        }
        const std::vector<Token> inside(tokens.begin() + std::ptrdiff_t(i) + 2,
                                        tokens.begin() +
                                            std::ptrdiff_t(std::min(close, tokens.size())));
        // `typename T`, `int B`, `class U = float`: the name is the last word before any '='.
        for (const std::vector<Token> &part : splitTopLevel(inside)) {
            std::string name;
            for (const Token &token : part) {
                if (token.text == "=")
                    break;
                if (token.identifier)
                    name = token.text;
            }
            names.push_back(name);
        }
        break;
    }
    return names;
}

std::vector<Token> substitute(const std::vector<Token> &tokens,
                              const std::map<std::string, std::vector<Token>> &arguments)
{
    std::vector<Token> result;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool scoped = i > 0 && tokens[i - 1].text == "::";
        const auto it =
            tokens[i].identifier && !scoped ? arguments.find(tokens[i].text) : arguments.end();
        if (it == arguments.end())
            result.push_back(tokens[i]);
        else
            result.insert(result.end(), it->second.begin(), it->second.end());
    }
    return result;
}

std::string unsupportedReason(const ParsedParameter &parsed, bool knownType)
{
    if (parsed.functionPointer)
        return "function pointers cannot be driven from the launch panel";
    if (parsed.reference)
        return "reference parameters cannot be driven from the launch panel; pass a pointer";
    if (parsed.pointers > 1)
        return "pointers to pointers (" + parsed.baseType + " " +
               std::string(std::size_t(parsed.pointers), '*') +
               ") cannot be driven from the launch panel; it allocates flat buffers only";
    if (parsed.pointers == 1 && parsed.baseType == "void")
        return "a void pointer has no element type; declare the pointer with the type it points to";
    if (!knownType) {
        if (parsed.pointers == 1)
            return "'" + parsed.baseType +
                   "' is not a number type CUDA Workbench can fill (pointers to structs cannot "
                   "be driven from the launch panel)";
        return "'" + parsed.baseType +
               "' is not a number type CUDA Workbench knows (structs passed by value cannot be "
               "driven from the launch panel)";
    }
    return {};
}

} // namespace

std::vector<std::size_t> ptxEntryParameterSizes(std::string_view ptx, std::string_view entry)
{
    std::vector<std::size_t> sizes;
    std::size_t at = 0;
    std::size_t open = std::string_view::npos;
    while ((at = ptx.find(".entry", at)) != std::string_view::npos) {
        std::size_t i = at + 6;
        while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i])))
            ++i;
        if (ptx.substr(i, entry.size()) == entry) {
            std::size_t j = i + entry.size();
            while (j < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[j])))
                ++j;
            if (j < ptx.size() && ptx[j] == '(') {
                open = j;
                break;
            }
        }
        at = i;
    }
    if (open == std::string_view::npos)
        return sizes;
    const std::size_t close = ptx.find(')', open);
    const std::string_view list = ptx.substr(
        open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1);
    std::size_t start = 0;
    while (start < list.size()) {
        std::size_t end = list.find(',', start);
        if (end == std::string_view::npos)
            end = list.size();
        const std::string_view declaration = list.substr(start, end - start);
        start = end + 1;
        if (declaration.find(".param") == std::string_view::npos)
            continue;
        // The type: the first of .u8 .s32 .f64 .b8 ... ; .align and state spaces are not types.
        std::size_t typeBits = 0;
        for (std::size_t dot = declaration.find('.'); dot != std::string_view::npos;
             dot = declaration.find('.', dot + 1)) {
            const char kind = dot + 1 < declaration.size() ? declaration[dot + 1] : '\0';
            if (kind != 'u' && kind != 's' && kind != 'f' && kind != 'b' && kind != 'p')
                continue;
            std::size_t digit = dot + 2;
            std::size_t bits = 0;
            while (digit < declaration.size() &&
                   std::isdigit(static_cast<unsigned char>(declaration[digit])))
                bits = bits * 10 + std::size_t(declaration[digit++] - '0');
            if (digit > dot + 2 &&
                (digit >= declaration.size() || !isIdentifierChar(declaration[digit]))) {
                typeBits = bits;
                break;
            }
        }
        std::size_t count = 1;
        if (const auto bracket = declaration.find('['); bracket != std::string_view::npos) {
            count = 0;
            for (std::size_t k = bracket + 1;
                 k < declaration.size() && std::isdigit(static_cast<unsigned char>(declaration[k]));
                 ++k)
                count = count * 10 + std::size_t(declaration[k] - '0');
        }
        sizes.push_back(typeBits / 8 * count);
    }
    return sizes;
}

KernelSignature parseKernelSignature(std::string_view source, std::string_view ptx,
                                     const KernelInfo &kernel)
{
    KernelSignature signature;
    signature.kernelName = kernel.loweredName;
    const std::string readable =
        kernel.readableName.empty() ? kernel.loweredName : kernel.readableName;
    std::vector<std::string> templateArguments;
    const std::string name = plainName(readable, &templateArguments);
    const auto demangled = kernel.externC ? std::nullopt : demangledParameters(readable);

    std::string text = blankCommentsAndLiterals(source);
    std::size_t at = std::string::npos;
    if (kernel.sourceLine > 0)
        at = findDeclaration(text, name, lineOffset(text, kernel.sourceLine));
    if (at == std::string::npos)
        at = findDeclaration(text, name, 0);
    // Declared in a header the source includes: the compile kept the lines around it.
    if (at == std::string::npos && !kernel.declaration.empty()) {
        text = blankCommentsAndLiterals(kernel.declaration);
        at = findDeclaration(text, name, lineOffset(text, kernel.declaringLine));
        if (at == std::string::npos)
            at = findDeclaration(text, name, 0);
    }
    if (at == std::string::npos) {
        signature.error = "the declaration of kernel '" + name + "' was not found in the source";
        return signature;
    }
    const std::size_t open = text.find('(', at);
    int depth = 0;
    std::size_t close = std::string::npos;
    for (std::size_t i = open; i < text.size(); ++i) {
        if (text[i] == '(')
            ++depth;
        else if (text[i] == ')' && --depth == 0) {
            close = i;
            break;
        }
    }
    if (close == std::string::npos) {
        signature.error = "the parameter list of kernel '" + name + "' is not closed";
        return signature;
    }
    const Macros macros = collectMacros(text);
    const std::vector<Token> listTokens =
        expandMacros(tokenize(std::string_view(text).substr(open + 1, close - open - 1)), macros);

    std::map<std::string, std::vector<Token>> templateMap;
    const std::vector<std::string> templateNames = templateParameterNames(text, at);
    for (std::size_t i = 0; i < templateNames.size() && i < templateArguments.size(); ++i) {
        if (!templateNames[i].empty())
            templateMap[templateNames[i]] = tokenize(templateArguments[i]);
    }

    std::vector<std::vector<Token>> parts = splitTopLevel(listTokens);
    if (parts.size() == 1 && parts[0].size() == 1 && parts[0][0].text == "void")
        parts.clear();
    if (demangled && demangled->size() != parts.size()) {
        signature.error = "the declaration of '" + name + "' has " + std::to_string(parts.size()) +
                          " parameters, the compiled kernel " + std::to_string(demangled->size());
        return signature;
    }

    for (std::size_t index = 0; index < parts.size(); ++index) {
        const ParsedParameter written = parseParameter(substitute(parts[index], templateMap), true);
        // The demangled type is the compiler's own reading: typedefs, templates and macros
        // resolved. Names and top-level const come from the source only.
        ParsedParameter typed = written;
        if (demangled) {
            typed = parseParameter(tokenize((*demangled)[index]), false);
            typed.restrict = typed.restrict || written.restrict;
            if (typed.pointers == 0)
                typed.constPointee = written.constPointee;
        }
        KernelParameter parameter;
        parameter.name = written.name.empty() ? "param_" + std::to_string(index) : written.name;
        parameter.typeText = written.typeText;
        parameter.isPointer = typed.pointers > 0;
        parameter.isConst = typed.constPointee;
        parameter.isRestrict = typed.restrict;
        const auto element = parseElementType(typed.baseType);
        if (element)
            parameter.elementType = *element;
        parameter.elementTypeKnown = element.has_value();
        parameter.unsupportedReason = unsupportedReason(typed, element.has_value());
        parameter.supported = parameter.unsupportedReason.empty();
        if (parameter.isPointer || typed.reference || typed.functionPointer)
            parameter.sizeBytes = 8;
        else if (element)
            parameter.sizeBytes = element->sizeBytes();
        signature.parameters.push_back(parameter);
    }

    const std::vector<std::size_t> ptxSizes = ptxEntryParameterSizes(ptx, kernel.loweredName);
    if (!ptxSizes.empty() || ptx.find(".entry") != std::string_view::npos) {
        if (ptxSizes.size() != signature.parameters.size() && !ptxSizes.empty()) {
            signature.error = "the PTX entry of '" + name + "' has " +
                              std::to_string(ptxSizes.size()) + " parameters, the declaration " +
                              std::to_string(signature.parameters.size());
            return signature;
        }
        for (std::size_t i = 0; i < ptxSizes.size(); ++i) {
            KernelParameter &parameter = signature.parameters[i];
            parameter.ptxSizeBytes = ptxSizes[i];
            if (parameter.sizeBytes == 0)
                parameter.sizeBytes = ptxSizes[i];
            else if (parameter.supported && parameter.sizeBytes != ptxSizes[i]) {
                parameter.supported = false;
                parameter.unsupportedReason = "PTX says " + std::to_string(ptxSizes[i]) +
                                              " bytes, the declaration " +
                                              std::to_string(parameter.sizeBytes);
            }
        }
    }
    return signature;
}

} // namespace cuwb
