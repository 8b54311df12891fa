#include "compiler/ptxlinemap.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace cuwb {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// Reads an unsigned decimal, skipping leading blanks; advances text past it.
std::optional<int> readNumber(std::string_view &text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    std::size_t n = 0;
    long long value = 0;
    while (n < text.size() && std::isdigit(static_cast<unsigned char>(text[n]))) {
        if (value < 100000000)
            value = value * 10 + (text[n] - '0');
        ++n;
    }
    if (n == 0)
        return std::nullopt;
    text.remove_prefix(n);
    return static_cast<int>(value);
}

std::vector<std::string_view> ptxLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// NVRTC writes the program name into .file as an absolute path (it prepends the working
// folder to a relative name), so the main file is recognised by its trailing path components.
bool isMainFile(std::string_view file, std::string_view mainFile)
{
    if (mainFile.empty())
        return false;
    if (file == mainFile)
        return true;
    return file.size() > mainFile.size() &&
           file.substr(file.size() - mainFile.size()) == mainFile &&
           file[file.size() - mainFile.size() - 1] == '/';
}

struct Loc
{
    int file = 0;
    int line = 0;
};

// ".loc 1 5 3" or ".loc 1 2 18, function_name $L__info_string0, inlined_at 1 5 5"
std::optional<std::pair<Loc, std::optional<Loc>>> parseLoc(std::string_view text)
{
    Loc own;
    auto file = readNumber(text);
    auto line = readNumber(text);
    if (!file || !line)
        return std::nullopt;
    own = {*file, *line};
    std::optional<Loc> inlinedAt;
    if (const std::size_t at = text.find("inlined_at"); at != std::string_view::npos) {
        std::string_view rest = text.substr(at + 10);
        auto atFile = readNumber(rest);
        auto atLine = readNumber(rest);
        if (atFile && atLine)
            inlinedAt = Loc{*atFile, *atLine};
    }
    return std::make_pair(own, inlinedAt);
}

// Lines that are code rather than structure: not directives, labels, comments or braces.
bool isInstructionLine(std::string_view text)
{
    if (text.empty() || text.front() == '.' || startsWith(text, "//") || text == "{" ||
        text == "}" || startsWith(text, "{ //") || startsWith(text, "} //"))
        return false;
    if (text.back() == ':' && text.find(' ') == std::string_view::npos)
        return false; // a label such as "$L__BB0_2:"
    return true;
}

} // namespace

PtxLineMap PtxLineMap::build(std::string_view ptx, std::string_view mainFile)
{
    PtxLineMap map;
    const std::vector<std::string_view> lines = ptxLines(ptx);

    // With -G the .file table comes after the code that refers to it, so read it first.
    std::map<int, std::string> files;
    for (std::string_view raw : lines) {
        std::string_view text = trimmed(raw);
        if (!startsWith(text, ".file") || text.size() < 6 || !isBlank(text[5]))
            continue;
        text.remove_prefix(5);
        const auto number = readNumber(text);
        const std::size_t open = text.find('"');
        const std::size_t close = text.find('"', open + 1);
        if (!number || open == std::string_view::npos || close == std::string_view::npos)
            continue;
        // Anything after the closing quote (", mtime, size") is not part of the name.
        files[*number] = std::string(text.substr(open + 1, close - open - 1));
    }
    const auto fileName = [&files](int number) -> std::string {
        const auto it = files.find(number);
        return it == files.end() ? std::string() : it->second;
    };
    const auto inMain = [&](const Loc &loc) { return isMainFile(fileName(loc.file), mainFile); };

    map.m_ptxToSource.resize(lines.size());
    std::optional<SourceLocation> current;
    bool anyMapped = false;
    for (std::size_t index = 0; index < lines.size(); ++index) {
        const std::string_view text = trimmed(lines[index]);
        if (startsWith(text, ".loc") && text.size() > 4 && isBlank(text[4])) {
            current.reset();
            if (const auto loc = parseLoc(text.substr(4))) {
                const auto &[own, inlinedAt] = *loc;
                // Code inlined from a header is shown where it was called from, when that
                // call is in the main file; otherwise it keeps the header's location.
                const Loc chosen =
                    (!inMain(own) && inlinedAt && inMain(*inlinedAt)) ? *inlinedAt : own;
                if (chosen.line > 0)
                    current = SourceLocation{fileName(chosen.file), chosen.line};
            }
            continue;
        }
        if (startsWith(text, ".entry") || startsWith(text, ".visible") ||
            startsWith(text, ".func") || startsWith(text, ".weak") ||
            (!lines[index].empty() && lines[index].front() == '}')) {
            current.reset(); // a function ends: its last .loc does not reach into the next one
            continue;
        }
        if (!current || !isInstructionLine(text))
            continue;
        map.m_ptxToSource[index] = *current;
        anyMapped = true;
        if (isMainFile(current->file, mainFile)) {
            const auto sourceIndex = static_cast<std::size_t>(current->line - 1);
            if (map.m_sourceToPtx.size() <= sourceIndex)
                map.m_sourceToPtx.resize(sourceIndex + 1);
            map.m_sourceToPtx[sourceIndex].push_back(static_cast<int>(index) + 1);
        }
    }
    if (!anyMapped)
        map.m_ptxToSource.clear(); // without -lineinfo nothing maps: keep empty() honest
    return map;
}

std::vector<int> PtxLineMap::ptxLinesForSource(int sourceLine) const
{
    if (sourceLine < 1 || static_cast<std::size_t>(sourceLine) > m_sourceToPtx.size())
        return {};
    return m_sourceToPtx[static_cast<std::size_t>(sourceLine - 1)];
}

SourceLocation PtxLineMap::sourceForPtxLine(int ptxLine) const
{
    if (ptxLine < 1 || static_cast<std::size_t>(ptxLine) > m_ptxToSource.size())
        return {};
    return m_ptxToSource[static_cast<std::size_t>(ptxLine - 1)];
}

} // namespace cuwb
