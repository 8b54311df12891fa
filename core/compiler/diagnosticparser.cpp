#include "compiler/diagnosticparser.h"
#include "util/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

namespace cuwb {

namespace {

// NVRTC copies the offending source line indented by this many spaces, then prints a caret
// line built from the copy: tabs kept, every other byte before the column turned into a space.
// So the caret's byte offset minus this indent is the byte column, tabs and UTF-8 included.
constexpr std::size_t kSourceCopyIndent = 2;

std::vector<std::string_view> splitLines(std::string_view log)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= log.size(); ++i) {
        if (i == log.size() || log[i] == '\n' || log[i] == '\0') {
            std::string_view line = log.substr(start, i - start);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            lines.push_back(line);
            start = i + 1;
        }
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    return lines;
}

// Parses a non-negative decimal at the start of text; returns the digits consumed.
std::size_t parseNumber(std::string_view text, int &value)
{
    std::size_t n = 0;
    long long result = 0;
    while (n < text.size() && std::isdigit(static_cast<unsigned char>(text[n]))) {
        if (result < 100000000)
            result = result * 10 + (text[n] - '0');
        ++n;
    }
    value = static_cast<int>(result);
    return n;
}

struct SeverityWord
{
    std::string_view word;
    Severity severity;
    bool catastrophic;
};

constexpr std::array<SeverityWord, 5> kSeverityWords{{
    {"catastrophic error", Severity::Error, true},
    {"error", Severity::Error, false},
    {"warning", Severity::Warning, false},
    {"remark", Severity::Remark, false},
    {"note", Severity::Note, false},
}};

// Parses "severity[ #code]: message" into diagnostic; false if text does not start so.
bool parseSeverityAndMessage(std::string_view text, Diagnostic &diagnostic)
{
    for (const SeverityWord &candidate : kSeverityWords) {
        if (!startsWith(text, candidate.word))
            continue;
        std::string_view rest = text.substr(candidate.word.size());
        std::string code;
        if (startsWith(rest, " #")) {
            const std::size_t colon = rest.find(':');
            if (colon == std::string_view::npos)
                return false;
            code = std::string(rest.substr(2, colon - 2));
            rest = rest.substr(colon);
        }
        if (!startsWith(rest, ":"))
            continue; // "errors detected ..." is not a severity
        diagnostic.severity = candidate.severity;
        diagnostic.catastrophic = candidate.catastrophic;
        diagnostic.code = code;
        diagnostic.message = std::string(trimmed(rest.substr(1)));
        return true;
    }
    return false;
}

// "file(LINE): severity[ #code]: message"
std::optional<Diagnostic> parseLocatedHeader(std::string_view line)
{
    for (std::size_t open = line.find('('); open != std::string_view::npos && open > 0;
         open = line.find('(', open + 1)) {
        int number = 0;
        const std::size_t digits = parseNumber(line.substr(open + 1), number);
        if (digits == 0)
            continue;
        const std::string_view after = line.substr(open + 1 + digits);
        if (!startsWith(after, "): "))
            continue;
        Diagnostic diagnostic;
        if (!parseSeverityAndMessage(after.substr(3), diagnostic))
            continue;
        diagnostic.file = std::string(line.substr(0, open));
        diagnostic.line = number;
        return diagnostic;
    }
    return std::nullopt;
}

// LLVM's optimisation remarks (--optimization-info): "remark: file:LINE:COL: message".
void parseLlvmLocation(Diagnostic &diagnostic)
{
    const std::string &text = diagnostic.message;
    for (std::size_t colon = text.find(':'); colon != std::string::npos && colon > 0;
         colon = text.find(':', colon + 1)) {
        int line = 0;
        int column = 0;
        const std::string_view rest = std::string_view(text).substr(colon + 1);
        const std::size_t lineDigits = parseNumber(rest, line);
        if (lineDigits == 0 || rest.size() <= lineDigits || rest[lineDigits] != ':')
            continue;
        const std::size_t columnDigits = parseNumber(rest.substr(lineDigits + 1), column);
        const std::string_view tail = rest.substr(lineDigits + 1 + columnDigits);
        if (columnDigits == 0 || !startsWith(tail, ": "))
            continue;
        diagnostic.file = text.substr(0, colon);
        diagnostic.line = line;
        diagnostic.column = column;
        diagnostic.message = std::string(trimmed(tail.substr(2)));
        return;
    }
}

enum class LineKind { Diagnostic, Ignored, ErrorLimit, Other };

struct ParsedLine
{
    LineKind kind = LineKind::Other;
    Diagnostic diagnostic;
    bool endOfSource = false;
    bool hostPreprocessor = false; // gcc's form: its excerpt below is not a source copy
};

// The host preprocessor's form (gcc, under nvcc): "file:LINE:COLUMN: severity: message".
std::optional<Diagnostic> parseGccHeader(std::string_view line)
{
    for (std::size_t colon = line.find(':'); colon != std::string_view::npos && colon > 0;
         colon = line.find(':', colon + 1)) {
        int number = 0;
        const std::string_view rest = line.substr(colon + 1);
        const std::size_t digits = parseNumber(rest, number);
        if (digits == 0 || rest.size() <= digits || rest[digits] != ':')
            continue;
        int column = 0;
        std::string_view after = rest.substr(digits + 1);
        const std::size_t columnDigits = parseNumber(after, column);
        if (columnDigits > 0 && after.size() > columnDigits && after[columnDigits] == ':')
            after = after.substr(columnDigits + 1);
        else
            column = 0;
        after = trimmed(after);
        Diagnostic diagnostic;
        bool fatal = false;
        if (startsWith(after, "fatal error:")) {
            fatal = true;
            after = after.substr(6);
        }
        if (!parseSeverityAndMessage(after, diagnostic))
            continue;
        diagnostic.catastrophic = diagnostic.catastrophic || fatal;
        diagnostic.file = std::string(line.substr(0, colon));
        diagnostic.line = number;
        diagnostic.column = column;
        // "nothere.h: No such file or directory" in the words the front end uses for it.
        constexpr std::string_view kMissing = ": No such file or directory";
        if (diagnostic.message.size() > kMissing.size() && diagnostic.message.ends_with(kMissing))
            diagnostic.message =
                "cannot open source file \"" +
                diagnostic.message.substr(0, diagnostic.message.size() - kMissing.size()) + "\"";
        return diagnostic;
    }
    return std::nullopt;
}

// ptxas lines: "ptxas warning : ...", "ptxas application ptx input, line 26; error   : ...".
ParsedLine parsePtxasLine(std::string_view line)
{
    ParsedLine parsed;
    parsed.kind = LineKind::Ignored;
    const std::string_view rest = line.substr(5);
    const std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos)
        return parsed; // "ptxas         .     0 bytes stack frame, ..." belongs to the report
    std::string_view head = trimmed(rest.substr(0, colon));
    std::string context;
    if (const std::size_t semicolon = head.rfind(';'); semicolon != std::string_view::npos) {
        context = std::string(trimmed(head.substr(0, semicolon)));
        head = trimmed(head.substr(semicolon + 1));
    }
    std::string message(trimmed(rest.substr(colon + 1)));
    if (!context.empty())
        message = "ptxas (" + context + "): " + message;
    else
        message = "ptxas: " + message;
    if (head == "warning") {
        parsed.diagnostic.severity = Severity::Warning;
    } else if (head == "error" || head == "fatal") {
        parsed.diagnostic.severity = Severity::Error;
        parsed.diagnostic.catastrophic = head == "fatal";
    } else {
        return parsed; // "info": the resource report, read by parsePtxasReport
    }
    parsed.kind = LineKind::Diagnostic;
    parsed.diagnostic.message = std::move(message);
    return parsed;
}

bool isSummaryLine(std::string_view line)
{
    // "2 errors detected in the compilation of "x.cu"." and "1 catastrophic error detected ..."
    return !line.empty() && std::isdigit(static_cast<unsigned char>(line.front())) &&
           line.find(" detected in the compilation of ") != std::string_view::npos;
}

// Classifies a line that starts in column 0 (continuations and source copies are indented).
ParsedLine classify(std::string_view line)
{
    ParsedLine parsed;
    if (line.empty() || line.front() == ' ' || line.front() == '\t')
        return parsed;
    if (isSummaryLine(line) || line == "Compilation terminated." ||
        startsWith(line, "Remark: The warnings can be suppressed")) {
        parsed.kind = LineKind::Ignored;
        return parsed;
    }
    if (startsWith(line, "Error limit reached")) {
        parsed.kind = LineKind::ErrorLimit;
        return parsed;
    }
    if (startsWith(line, "ptxas ") || startsWith(line, "ptxas:"))
        return parsePtxasLine(line);
    if (auto located = parseLocatedHeader(line)) {
        parsed.kind = LineKind::Diagnostic;
        parsed.diagnostic = std::move(*located);
        return parsed;
    }
    if (startsWith(line, "In file included from ") || line == "compilation terminated.") {
        parsed.kind = LineKind::Ignored;
        return parsed;
    }
    // "nvcc fatal   : Unknown option '-foo'", "nvcc warning : ...", "nvcc error   : ..."
    if (startsWith(line, "nvcc ")) {
        std::string_view rest = trimmed(line.substr(5));
        const std::size_t colon = rest.find(':');
        if (colon != std::string_view::npos) {
            const std::string_view word = trimmed(rest.substr(0, colon));
            const std::string message(trimmed(rest.substr(colon + 1)));
            if (word == "fatal" || word == "error" || word == "warning") {
                parsed.kind = LineKind::Diagnostic;
                parsed.diagnostic.severity =
                    word == "warning" ? Severity::Warning : Severity::Error;
                parsed.diagnostic.catastrophic = word == "fatal";
                parsed.diagnostic.message = "nvcc: " + message;
                return parsed;
            }
        }
    }
    if (auto located = parseGccHeader(line)) {
        parsed.kind = LineKind::Diagnostic;
        parsed.hostPreprocessor = true;
        parsed.diagnostic = std::move(*located);
        return parsed;
    }
    std::string_view rest = line;
    if (startsWith(rest, "At end of source: ")) {
        parsed.endOfSource = true;
        rest.remove_prefix(18);
    }
    bool commandLine = false;
    if (startsWith(rest, "Command-line error: ")) {
        // The front end names it so; it stops the compile ("1 catastrophic error detected").
        commandLine = true;
        rest.remove_prefix(13);
    } else if (startsWith(rest, "nvrtc: ")) {
        rest.remove_prefix(7); // "nvrtc: error: unrecognized option ..."
    }
    if (parseSeverityAndMessage(rest, parsed.diagnostic)) {
        parsed.kind = LineKind::Diagnostic;
        if (commandLine) {
            parsed.diagnostic.catastrophic = true;
            parsed.diagnostic.message = "command line: " + parsed.diagnostic.message;
        }
        if (parsed.diagnostic.severity == Severity::Remark && parsed.diagnostic.code.empty())
            parseLlvmLocation(parsed.diagnostic);
    }
    return parsed;
}

bool isCaretLine(std::string_view line)
{
    bool caret = false;
    for (char c : line) {
        if (c == '^') {
            if (caret)
                return false;
            caret = true;
        } else if (c != ' ' && c != '\t') {
            return false;
        }
    }
    return caret;
}

// "instantiation of "f<T>(T) [with T=float]" at line 9 of inst.cu" -> a note with a location.
Diagnostic makeNote(std::string_view text, const Diagnostic &parent)
{
    Diagnostic note;
    note.severity = Severity::Note;
    note.file = parent.file;
    text = trimmed(text);
    const std::size_t at = text.rfind(" at line ");
    if (at != std::string_view::npos) {
        std::string_view location = text.substr(at + 9);
        int line = 0;
        const std::size_t digits = parseNumber(location, line);
        if (digits > 0) {
            note.line = line;
            location = trimmed(location.substr(digits));
            if (startsWith(location, "of ")) {
                std::string_view file = trimmed(location.substr(3));
                if (file.size() >= 2 && file.front() == '"' && file.back() == '"')
                    file = file.substr(1, file.size() - 2);
                note.file = std::string(file);
            }
            text = text.substr(0, at);
        }
    }
    note.message = std::string(trimmed(text));
    return note;
}

// Standard headers that libcu++ provides under <cuda/std/...>, by the host name people write.
std::optional<std::string_view> cudaStdEquivalent(std::string_view header)
{
    static constexpr std::string_view kProvided[] = {
        "array",      "atomic",           "barrier",  "bit",      "bitset",      "cassert",
        "cfloat",     "chrono",           "climits",  "cmath",    "complex",     "concepts",
        "cstddef",    "cstdint",          "cstdlib",  "cstring",  "ctime",       "expected",
        "functional", "initializer_list", "iterator", "latch",    "limits",      "mdspan",
        "memory",     "numbers",          "numeric",  "optional", "ranges",      "ratio",
        "semaphore",  "source_location",  "span",     "tuple",    "type_traits", "utility",
        "variant",    "version"};
    static constexpr std::pair<std::string_view, std::string_view> kCHeaders[] = {
        {"assert.h", "cassert"}, {"float.h", "cfloat"},   {"limits.h", "climits"},
        {"math.h", "cmath"},     {"stddef.h", "cstddef"}, {"stdint.h", "cstdint"},
        {"stdlib.h", "cstdlib"}, {"string.h", "cstring"}, {"time.h", "ctime"},
    };
    for (std::string_view provided : kProvided) {
        if (header == provided)
            return provided;
    }
    for (const auto &[cHeader, provided] : kCHeaders) {
        if (header == cHeader)
            return provided;
    }
    return std::nullopt;
}

bool isHostLibraryHeader(std::string_view header)
{
    static constexpr std::string_view kHostOnly[] = {
        "algorithm",   "cstdio",  "deque",         "exception",     "fstream",  "iomanip",
        "ios",         "iosfwd",  "iostream",      "istream",       "list",     "locale",
        "map",         "mutex",   "new",           "ostream",       "queue",    "random",
        "set",         "sstream", "stack",         "stdexcept",     "stdio.h",  "string",
        "string_view", "thread",  "unordered_map", "unordered_set", "valarray", "vector"};
    return std::find(std::begin(kHostOnly), std::end(kHostOnly), header) != std::end(kHostOnly) ||
           cudaStdEquivalent(header).has_value();
}

// NVRTC only says the file cannot be opened; for the host library the fix is not an -I folder.
void addHostLibraryHint(Diagnostic &diagnostic)
{
    const std::string_view message = diagnostic.message;
    if (message.find("open source file \"") == std::string_view::npos)
        return;
    const std::size_t open = message.find('"');
    const std::size_t close = message.find('"', open + 1);
    if (close == std::string_view::npos)
        return;
    // A copy: the message grows below, which may move the text a view of it would point into.
    const std::string header(message.substr(open + 1, close - open - 1));
    if (!isHostLibraryHeader(header))
        return;
    diagnostic.message += " — NVRTC has no host C++ standard library; use <cuda/std/...> headers";
    if (const auto equivalent = cudaStdEquivalent(header))
        diagnostic.message += " (here <cuda/std/" + std::string(*equivalent) + ">)";
}

// Line `number` (1-based) of source, without its line break; empty past the end.
std::string_view sourceLine(std::string_view source, int number)
{
    std::size_t start = 0;
    for (int line = 1; line < number; ++line) {
        start = source.find('\n', start);
        if (start == std::string_view::npos)
            return {};
        ++start;
    }
    std::size_t end = source.find('\n', start);
    std::string_view text = source.substr(start, end == std::string_view::npos ? end : end - start);
    if (!text.empty() && text.back() == '\r')
        text.remove_suffix(1);
    return text;
}

// The offsets in `line` where `token` starts as a whole token.
std::vector<std::size_t> tokenOffsets(std::string_view line, std::string_view token)
{
    std::vector<std::size_t> offsets;
    const bool word = isIdentifierChar(token.front());
    for (std::size_t at = line.find(token); at != std::string_view::npos;
         at = line.find(token, at + 1)) {
        if (word &&
            ((at > 0 && isIdentifierChar(line[at - 1])) ||
             (at + token.size() < line.size() && isIdentifierChar(line[at + token.size()]))))
            continue;
        offsets.push_back(at);
    }
    return offsets;
}

// The column on the user's line of what a caret at `column` points to in the front end's copy
// of the line (which may be the preprocessed line): the same column where the copy is the
// line, else the same occurrence of the token under the caret; 0 when it is not there.
int columnOnSourceLine(std::string_view copy, int column, std::string_view line)
{
    if (copy.size() >= kSourceCopyIndent)
        copy.remove_prefix(kSourceCopyIndent);
    const auto rightTrimmed = [](std::string_view text) {
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
            text.remove_suffix(1);
        return text;
    };
    if (rightTrimmed(copy) == rightTrimmed(line) || column <= 0)
        return column;
    const std::size_t at = std::size_t(column - 1);
    if (at >= copy.size() || std::isspace(static_cast<unsigned char>(copy[at])))
        return 0;
    std::size_t end = at + 1;
    if (isIdentifierChar(copy[at])) {
        while (end < copy.size() && isIdentifierChar(copy[end]))
            ++end;
        if (at > 0 && isIdentifierChar(copy[at - 1]))
            return 0; // the caret is inside a token: no place to find again
    }
    const std::string_view token = copy.substr(at, end - at);
    const std::vector<std::size_t> inCopy = tokenOffsets(copy, token);
    const std::vector<std::size_t> inLine = tokenOffsets(line, token);
    const auto index = std::size_t(std::find(inCopy.begin(), inCopy.end(), at) - inCopy.begin());
    // Expanded macros add tokens before the caret, never remove the user's: the same count
    // from the end is the better match.
    const std::size_t fromEnd = inCopy.size() - index;
    if (inLine.empty())
        return 0;
    if (fromEnd <= inLine.size())
        return int(inLine[inLine.size() - fromEnd]) + 1;
    return int(inLine.front()) + 1;
}

} // namespace

std::vector<Diagnostic> parseNvrtcLog(std::string_view log, std::string_view mainFile,
                                      int lastSourceLine, std::string_view source)
{
    std::vector<Diagnostic> diagnostics;
    const std::vector<std::string_view> lines = splitLines(log);
    // Index of the diagnostic that "note #..." headers and "Error limit reached" attach to.
    std::optional<std::size_t> lastPrimary;
    std::string code; // the source with comments and literals blanked, when first needed

    std::size_t i = 0;
    while (i < lines.size()) {
        ParsedLine parsed = classify(lines[i]);
        ++i;
        if (parsed.kind == LineKind::ErrorLimit) {
            if (lastPrimary) {
                Diagnostic note;
                note.severity = Severity::Note;
                note.message = "error limit reached: NVRTC stops reporting after this many errors";
                diagnostics[*lastPrimary].notes.push_back(std::move(note));
            }
            continue;
        }
        if (parsed.kind != LineKind::Diagnostic)
            continue;
        Diagnostic diagnostic = std::move(parsed.diagnostic);
        if (parsed.endOfSource) {
            diagnostic.file = std::string(mainFile);
            diagnostic.line = lastSourceLine;
            diagnostic.message += " (at end of source)";
        }

        // The block: everything indented below the header, up to an empty line or a header.
        std::vector<std::string_view> block;
        while (i < lines.size() && !lines[i].empty() &&
               classify(lines[i]).kind == LineKind::Other) {
            block.push_back(lines[i]);
            ++i;
        }
        if (parsed.hostPreprocessor) {
            // gcc's excerpt ("    2 | #include ...", "      |     ^~~~") repeats the source.
            diagnostics.push_back(std::move(diagnostic));
            lastPrimary = diagnostics.size() - 1;
            continue;
        }
        // Index 0 of block at the earliest can be the source copy, so the caret is at >= 1.
        std::optional<std::size_t> caret;
        for (std::size_t b = 1; b < block.size(); ++b) {
            if (isCaretLine(block[b])) {
                caret = b;
                break;
            }
        }
        const std::size_t continuationEnd = caret ? *caret - 1 : block.size();
        std::size_t notesBegin = caret ? *caret + 1 : block.size();
        for (std::size_t b = 0; b < continuationEnd; ++b) {
            if (startsWith(trimmed(block[b]), "detected during")) {
                notesBegin = b;
                break;
            }
            // One line per diagnostic suits the CLI's FILE:LINE:COLUMN form and table rows.
            diagnostic.message += "; ";
            diagnostic.message += trimmed(block[b]);
        }
        if (caret && diagnostic.line > 0) {
            const std::size_t offset = block[*caret].find('^');
            diagnostic.column = offset >= kSourceCopyIndent
                                    ? static_cast<int>(offset - kSourceCopyIndent) + 1
                                    : static_cast<int>(offset) + 1;
            if (!source.empty() && diagnostic.file == mainFile) {
                // Comments blanked: the preprocessed copy has none, and a word in a comment
                // is not where the message points.
                if (code.empty())
                    code = codeOnly(source);
                diagnostic.column = columnOnSourceLine(block[*caret - 1], diagnostic.column,
                                                       sourceLine(code, diagnostic.line));
            }
        }
        for (std::size_t b = notesBegin; b < block.size(); ++b) {
            std::string_view text = trimmed(block[b]);
            if (text.empty() || text == "detected during:")
                continue;
            if (startsWith(text, "detected during "))
                text.remove_prefix(16);
            diagnostic.notes.push_back(makeNote(text, diagnostic));
        }
        addHostLibraryHint(diagnostic);

        if (diagnostic.severity == Severity::Note && lastPrimary) {
            diagnostics[*lastPrimary].notes.push_back(std::move(diagnostic));
        } else {
            diagnostics.push_back(std::move(diagnostic));
            lastPrimary = diagnostics.size() - 1;
        }
    }
    return diagnostics;
}

} // namespace cuwb
