#include "compiler/kernellookup.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <utility>

namespace cuwb {

namespace {

bool isWordStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isWord(const std::string &token)
{
    return !token.empty() && isIdentifierChar(token.front());
}

// Words that are part of a type, so that the word after them is not taken for a
// parameter's name.
bool isTypeKeyword(const std::string &word)
{
    static const char *const kWords[] = {"void",  "bool",     "char",   "short",    "int",
                                         "long",  "float",    "double", "unsigned", "signed",
                                         "const", "volatile", "size_t", "half",     "wchar_t"};
    return std::any_of(std::begin(kWords), std::end(kWords),
                       [&word](const char *keyword) { return word == keyword; });
}

// One parameter (or template argument) in the form the demangler writes: cv-qualifiers after
// what they qualify ("const float *" -> "float const *"), `unsigned` as `unsigned int`,
// `long int` as `long`, no top-level const or __restrict__, no parameter name.
std::vector<std::string> canonicalParameter(std::vector<std::string> tokens)
{
    std::erase_if(tokens, [](const std::string &t) {
        return t == "__restrict__" || t == "__restrict" || t == "restrict";
    });
    // A parameter's name: the last word after a '*' or '&', or after a built-in type word.
    if (tokens.size() >= 2 && isWord(tokens.back()) && !isTypeKeyword(tokens.back()) &&
        !std::isdigit(static_cast<unsigned char>(tokens.back().front()))) {
        const std::string &before = tokens[tokens.size() - 2];
        if (before == "*" || before == "&" || before == "&&" || isTypeKeyword(before))
            tokens.pop_back();
    }
    // Leading cv-qualifiers go after the type they qualify.
    std::vector<std::string> leading;
    while (!tokens.empty() && (tokens.front() == "const" || tokens.front() == "volatile")) {
        leading.push_back(tokens.front());
        tokens.erase(tokens.begin());
    }
    if (!leading.empty()) {
        std::size_t end = 0;
        int depth = 0;
        while (end < tokens.size()) {
            const std::string &t = tokens[end];
            if (t == "<")
                ++depth;
            else if (t == ">")
                --depth;
            else if (depth == 0 && !isWord(t) && t != "::")
                break;
            ++end;
        }
        tokens.insert(tokens.begin() + long(end), leading.begin(), leading.end());
    }
    // Integer type words as the demangler spells them.
    std::vector<std::string> out;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string &t = tokens[i];
        const std::string next = i + 1 < tokens.size() ? tokens[i + 1] : std::string();
        if (t == "int" && !out.empty() && (out.back() == "long" || out.back() == "short"))
            continue; // "long int" -> "long", "unsigned short int" -> "unsigned short"
        out.push_back(t);
        if (t == "unsigned" && next != "int" && next != "char" && next != "short" && next != "long")
            out.emplace_back("int");
    }
    // A top-level const qualifies the copy the kernel gets: not part of its type.
    while (out.size() > 1 && (out.back() == "const" || out.back() == "volatile"))
        out.pop_back();
    return out;
}

// The name or signature in one spelling, whatever spaces, qualifier order and integer
// suffixes the user or the demangler chose: "scale<32u>(const float *a, unsigned n)" and
// "scale<32>(float const*, unsigned int)" give the same text.
std::string withoutSpaces(std::string_view text)
{
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (isWordStart(c)) {
            std::size_t j = i;
            while (j < text.size() && isIdentifierChar(text[j]))
                ++j;
            tokens.emplace_back(text.substr(i, j - i));
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t j = i;
            while (j < text.size() && (isIdentifierChar(text[j]) || text[j] == '.'))
                ++j;
            std::string number(text.substr(i, j - i));
            // 32u, 32ul, 32LL: the demangler writes an unsigned template argument as 32u.
            const bool hex = number.size() > 2 && (number[1] == 'x' || number[1] == 'X');
            if (number.find('.') == std::string::npos && !hex)
                while (number.size() > 1 &&
                       std::string_view("uUlL").find(number.back()) != std::string_view::npos)
                    number.pop_back();
            tokens.push_back(std::move(number));
            i = j;
        } else if (c == ':' && i + 1 < text.size() && text[i + 1] == ':') {
            tokens.emplace_back("::");
            i += 2;
        } else {
            tokens.emplace_back(1, c);
            ++i;
        }
    }
    // "(unsigned int)32" as a template argument is 32.
    for (std::size_t i = 0; i + 3 < tokens.size(); ++i) {
        if (tokens[i] != "(")
            continue;
        std::size_t close = i + 1;
        while (close < tokens.size() && isWord(tokens[close]) && isTypeKeyword(tokens[close]))
            ++close;
        if (close > i + 1 && close + 1 < tokens.size() && tokens[close] == ")" &&
            std::isdigit(static_cast<unsigned char>(tokens[close + 1].front())) &&
            (i == 0 || tokens[i - 1] == "<" || tokens[i - 1] == ","))
            tokens.erase(tokens.begin() + long(i), tokens.begin() + long(close) + 1);
    }
    // Each comma-separated part inside brackets is a parameter or a template argument.
    std::vector<std::string> out;
    std::vector<std::string> part;
    int depth = 0;
    const auto flush = [&] {
        const std::vector<std::string> canonical =
            depth > 0 ? canonicalParameter(std::move(part)) : std::move(part);
        out.insert(out.end(), canonical.begin(), canonical.end());
        part.clear();
    };
    for (const std::string &token : tokens) {
        const bool open = token == "(" || token == "<";
        const bool close = token == ")" || token == ">";
        if (open || close || (token == "," && depth > 0)) {
            flush();
            out.push_back(token);
            depth += open ? 1 : close ? -1 : 0;
            continue;
        }
        part.push_back(token);
    }
    flush();
    std::string joined;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i > 0 && isWord(out[i]) && isWord(out[i - 1]))
            joined += ' ';
        joined += out[i];
    }
    return joined;
}

// Position of the parameter list's '(' in a readable name, outside template arguments.
std::size_t parameterListStart(std::string_view readable)
{
    int depth = 0;
    for (std::size_t i = 0; i < readable.size(); ++i) {
        const char c = readable[i];
        if (c == '<')
            ++depth;
        else if (c == '>')
            --depth;
        else if (c == '(' && depth == 0)
            return i;
    }
    return std::string_view::npos;
}

// The name part's last "::" outside template arguments, or npos.
std::size_t lastScope(std::string_view name)
{
    int depth = 0;
    std::size_t scope = std::string_view::npos;
    for (std::size_t i = 0; i + 1 < name.size(); ++i) {
        const char c = name[i];
        if (c == '<')
            ++depth;
        else if (c == '>')
            --depth;
        else if (c == ':' && name[i + 1] == ':' && depth == 0)
            scope = i++;
    }
    return scope;
}

std::string withoutTemplateArguments(std::string_view name)
{
    std::string out;
    int depth = 0;
    for (char c : name) {
        if (c == '<')
            ++depth;
        else if (c == '>')
            --depth;
        else if (depth == 0)
            out += c;
    }
    return out;
}

// The spellings one kernel answers to, from most to least specific. All without spaces.
struct Spellings
{
    std::string full;           // "demo::scale<float>(float*,int)"
    std::string unqualified;    // "scale<float>(float*,int)"
    std::string expression;     // the name expression, if any
    std::string qualifiedName;  // "demo::scale<float>"
    std::string name;           // "scale<float>"
    std::string qualifiedPlain; // "demo::scale"
    std::string plain;          // "scale"
};

Spellings spellingsOf(const KernelInfo &kernel)
{
    Spellings s;
    if (kernel.externC || kernel.readableName.empty()) {
        s.full = s.unqualified = s.qualifiedName = s.name = s.qualifiedPlain = s.plain =
            kernel.loweredName;
        return s;
    }
    s.full = withoutSpaces(displayName(kernel));
    const std::size_t open = parameterListStart(s.full);
    s.qualifiedName = s.full.substr(0, open);
    const std::string parameters = open == std::string::npos ? std::string() : s.full.substr(open);
    const std::size_t scope = lastScope(s.qualifiedName);
    s.name = scope == std::string::npos ? s.qualifiedName : s.qualifiedName.substr(scope + 2);
    s.unqualified = s.name + parameters;
    s.qualifiedPlain = withoutTemplateArguments(s.qualifiedName);
    s.plain = withoutTemplateArguments(s.name);
    s.expression = withoutSpaces(kernel.nameExpression);
    return s;
}

} // namespace

std::string displayName(const KernelInfo &kernel)
{
    if (kernel.externC || kernel.readableName.empty())
        return kernel.loweredName;
    std::string readable = kernel.readableName;
    // Demanglers print the return type of a template instantiation; kernels return void.
    if (readable.rfind("void ", 0) == 0)
        readable.erase(0, 5);
    return readable;
}

std::string kernelList(const std::vector<KernelInfo> &kernels)
{
    std::string list;
    for (const KernelInfo &kernel : kernels)
        list += (list.empty() ? "" : ", ") + displayName(kernel);
    return list;
}

KernelLookup findKernel(const CompileResult &compiled, std::string_view name)
{
    return findKernel(compiled.kernels, name);
}

std::string preferredName(const std::vector<KernelInfo> &kernels, const KernelInfo &kernel)
{
    const Spellings s = spellingsOf(kernel);
    // The same spellings as written by the demangler, spaces kept: "scale<float, 4>".
    const std::string display = displayName(kernel);
    const std::string qualified = display.substr(0, parameterListStart(display));
    const std::size_t scope = lastScope(qualified);
    const std::string name = scope == std::string::npos ? qualified : qualified.substr(scope + 2);
    for (const std::string &candidate : {s.plain, s.qualifiedPlain, name, qualified, display}) {
        if (!candidate.empty() && findKernel(kernels, candidate).kernel == &kernel)
            return candidate;
    }
    return kernel.loweredName;
}

KernelLookup findKernel(const std::vector<KernelInfo> &kernels, std::string_view name)
{
    KernelLookup lookup;
    const std::string wanted = withoutSpaces(name);
    if (wanted.empty()) {
        if (kernels.size() == 1) {
            lookup.kernel = &kernels.front();
        } else {
            lookup.error = kernels.empty()
                               ? std::string("the source has no __global__ kernel to run")
                               : "the source has " + std::to_string(kernels.size()) +
                                     " kernels; name the one to run: " + kernelList(kernels);
        }
        return lookup;
    }
    for (const KernelInfo &kernel : kernels) {
        if (kernel.loweredName == wanted) {
            lookup.kernel = &kernel;
            return lookup;
        }
    }
    std::vector<Spellings> spellings;
    spellings.reserve(kernels.size());
    for (const KernelInfo &kernel : kernels)
        spellings.push_back(spellingsOf(kernel));

    using Level = std::function<bool(const Spellings &)>;
    const Level levels[] = {
        [&](const Spellings &s) { return s.full == wanted || s.unqualified == wanted; },
        [&](const Spellings &s) { return !s.expression.empty() && s.expression == wanted; },
        [&](const Spellings &s) { return s.qualifiedName == wanted || s.name == wanted; },
        [&](const Spellings &s) { return s.qualifiedPlain == wanted || s.plain == wanted; },
    };
    for (const Level &matches : levels) {
        std::vector<const KernelInfo *> found;
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            if (matches(spellings[i]))
                found.push_back(&kernels[i]);
        }
        if (found.size() == 1) {
            lookup.kernel = found.front();
            return lookup;
        }
        if (found.size() > 1) {
            std::string candidates;
            for (const KernelInfo *kernel : found)
                candidates += (candidates.empty() ? "" : ", ") + displayName(*kernel);
            lookup.error =
                "`" + std::string(name) + "` names " + std::to_string(found.size()) +
                " kernels; name one by its signature or template arguments: " + candidates;
            return lookup;
        }
    }
    lookup.error = "the source has no kernel `" + std::string(name) + "` (" +
                   (kernels.empty() ? std::string("it has no __global__ kernel")
                                    : "it has: " + kernelList(kernels)) +
                   ")";
    // A template is in the module only once instantiated: say how to name one.
    if (kernels.empty() && wanted.find('<') == std::string::npos)
        lookup.error += "; if `" + std::string(name) +
                        "` is a template, name an instantiation, such as " + std::string(name) +
                        "<float>";
    return lookup;
}

std::string declaredVariableType(std::string_view text, const std::string &name)
{
    // Comments and literals blanked, so neither a word nor a ';' in them counts.
    const std::string code = codeOnly(text);
    const std::string_view source = code;
    for (std::size_t at = source.find(name); at != std::string_view::npos;
         at = source.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at > 0 && isIdentifierChar(source[at - 1])) ||
            (end < source.size() && isIdentifierChar(source[end])))
            continue;
        std::size_t next = end;
        while (next < source.size() && std::isspace(static_cast<unsigned char>(source[next])))
            ++next;
        if (next < source.size() && source[next] == '(')
            continue; // a function of that name
        // The declaration: from the previous statement, or the preprocessor line before it.
        const std::size_t boundary =
            at == 0 ? std::string_view::npos : source.find_last_of(";{}", at - 1);
        std::size_t start = boundary == std::string_view::npos ? 0 : boundary + 1;
        for (std::size_t line = start; line < at;) {
            const std::size_t first = source.find_first_not_of(" \t\r\n", line);
            const std::size_t lineEnd = source.find('\n', line);
            if (first < at && source[first] == '#' && lineEnd != std::string_view::npos &&
                lineEnd < at)
                start = lineEnd + 1;
            if (lineEnd == std::string_view::npos || lineEnd >= at)
                break;
            line = lineEnd + 1;
        }
        const std::string_view declaration = source.substr(start, at - start);
        if (declaration.find("__constant__") == std::string_view::npos &&
            declaration.find("__device__") == std::string_view::npos)
            continue;
        std::string type;
        for (std::size_t i = 0; i < declaration.size();) {
            while (i < declaration.size() && !isIdentifierChar(declaration[i]))
                ++i;
            std::size_t j = i;
            while (j < declaration.size() && isIdentifierChar(declaration[j]))
                ++j;
            const std::string_view word = declaration.substr(i, j - i);
            i = j;
            if (word.empty() || word == "__constant__" || word == "__device__" ||
                word == "__managed__" || word == "static" || word == "extern" || word == "const" ||
                word == "volatile")
                continue;
            type += (type.empty() ? "" : " ") + std::string(word);
        }
        if (!type.empty())
            return type;
    }
    return {};
}

std::vector<ModuleVariable> moduleVariables(std::string_view ptx, std::string_view source)
{
    std::vector<ModuleVariable> variables;
    int depth = 0; // inside a function body, .global and .const are not declarations
    std::size_t start = 0;
    while (start < ptx.size()) {
        std::size_t end = ptx.find('\n', start);
        if (end == std::string_view::npos)
            end = ptx.size();
        const std::string_view line = ptx.substr(start, end - start);
        start = end + 1;
        if (depth == 0) {
            // "[.visible|.extern|.weak] (.global|.const) [.align N] .TYPE NAME[[COUNT]] [= ...];"
            std::vector<std::string_view> words;
            std::size_t i = 0;
            while (i < line.size()) {
                while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
                    ++i;
                std::size_t j = i;
                while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])) &&
                       line[j] != ';' && line[j] != '=')
                    ++j;
                if (j > i)
                    words.push_back(line.substr(i, j - i));
                if (j < line.size() && (line[j] == ';' || line[j] == '='))
                    break;
                i = j;
            }
            std::size_t w = 0;
            while (w < words.size() &&
                   (words[w] == ".visible" || words[w] == ".extern" || words[w] == ".weak"))
                ++w;
            if (w < words.size() && (words[w] == ".global" || words[w] == ".const")) {
                ModuleVariable variable;
                variable.constant = words[w] == ".const";
                ++w;
                if (w + 1 < words.size() && words[w] == ".align")
                    w += 2;
                if (w + 1 < words.size() && words[w].starts_with(".")) {
                    const std::string_view type = words[w];
                    std::uint64_t size = 4;
                    for (const auto &[suffix, bytes] : {std::pair{"8", 1}, std::pair{"16", 2},
                                                        std::pair{"32", 4}, std::pair{"64", 8}}) {
                        if (type.ends_with(suffix))
                            size = std::uint64_t(bytes);
                    }
                    std::string_view declarator = words[w + 1];
                    std::uint64_t count = 1;
                    if (const std::size_t open = declarator.find('['); open != declarator.npos) {
                        count = std::strtoull(std::string(declarator.substr(open + 1)).c_str(),
                                              nullptr, 10);
                        declarator = declarator.substr(0, open);
                    }
                    variable.name = std::string(declarator);
                    variable.bytes = size * count;
                    if (!variable.name.empty() && variable.name.front() != '$') {
                        if (!source.empty())
                            variable.type = declaredVariableType(source, variable.name);
                        variables.push_back(std::move(variable));
                    }
                }
            }
        }
        for (char c : line) {
            if (c == '{')
                ++depth;
            else if (c == '}')
                --depth;
        }
    }
    return variables;
}

std::string moduleVariableList(std::string_view ptx)
{
    std::string list;
    for (const ModuleVariable &variable : moduleVariables(ptx)) {
        list += (list.empty() ? "" : ", ") + variable.name + " (" +
                (variable.constant ? "__constant__" : "__device__") + ", " +
                std::to_string(variable.bytes) + " bytes)";
    }
    return list;
}

// "scale<float, 4>" for "scale<float, 4>" and "scale<float, 4>(float*, int)"; empty when the
// name has no template arguments.
std::string instantiationOf(std::string_view name)
{
    const std::size_t parameters = parameterListStart(name);
    const std::string_view head = name.substr(0, parameters);
    const std::size_t open = head.find('<');
    if (open == std::string_view::npos || open == 0 || head.find('>', open) == head.npos)
        return {};
    std::string text(head);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.pop_back();
    return text;
}

std::string moduleVariableMismatch(std::string_view ptx, const std::string &name,
                                   std::uint64_t bytes, const std::string &what)
{
    const std::vector<ModuleVariable> variables = moduleVariables(ptx);
    const auto found = std::find_if(variables.begin(), variables.end(),
                                    [&](const ModuleVariable &v) { return v.name == name; });
    if (found == variables.end()) {
        const std::string known = moduleVariableList(ptx);
        return "the module has no __constant__ or __device__ variable `" + name + "` (" +
               (known.empty() ? std::string("it has none") : "it has: " + known) + ")";
    }
    if (bytes != found->bytes) {
        return what + " is " + std::to_string(bytes) + " bytes, but `" + name + "` has " +
               std::to_string(found->bytes) + "; initialise all of it";
    }
    return {};
}

CompileOptions withKernelNameExpressions(CompileOptions options,
                                         const std::vector<std::string> &kernelNames)
{
    for (const std::string &name : kernelNames) {
        const std::string instantiation = instantiationOf(name);
        if (instantiation.empty())
            continue;
        const std::string wanted = withoutSpaces(instantiation);
        const bool present = std::any_of(
            options.nameExpressions.begin(), options.nameExpressions.end(),
            [&](const std::string &expression) { return withoutSpaces(expression) == wanted; });
        if (!present)
            options.nameExpressions.push_back(instantiation);
    }
    return options;
}

} // namespace cuwb
