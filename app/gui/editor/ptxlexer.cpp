#include "gui/editor/ptxlexer.h"

#include "gui/common/theme.h"

#include <Qsci/qsciscintilla.h>

namespace cuwb {

namespace {

bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

bool isIdentChar(char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

} // namespace

PtxLexer::PtxLexer(QObject *parent)
    : QsciLexerCustom(parent)
{
    const QFont bold = Theme::editorFont(QFont::Bold);
    const QFont italic = Theme::editorFont(QFont::Normal, true);
    Theme::applyBase(this);
    setColor(Theme::text, Default);
    setColor(Theme::comment, Comment);
    setFont(italic, Comment);
    setColor(Theme::preprocessor, Directive);
    setColor(Theme::keyword, Instruction);
    setFont(bold, Instruction);
    setColor(Theme::builtin, Register);
    setColor(Theme::number, Number);
    setColor(Theme::type, Label);
    setFont(bold, Label);
    setColor(Theme::string, String);
    setColor(Theme::error.darker(110), Predicate);
}

const char *PtxLexer::language() const
{
    return "PTX";
}

QString PtxLexer::description(int style) const
{
    switch (style) {
    case Default:
        return tr("Default");
    case Comment:
        return tr("Comment");
    case Directive:
        return tr("Directive");
    case Instruction:
        return tr("Instruction");
    case Register:
        return tr("Register");
    case Number:
        return tr("Number");
    case Label:
        return tr("Label");
    case String:
        return tr("String");
    case Predicate:
        return tr("Predicate guard");
    default:
        return {};
    }
}

QByteArray PtxLexer::styleLine(const QByteArray &line, bool &inBlockComment)
{
    const int n = static_cast<int>(line.size());
    QByteArray styles(n, static_cast<char>(Default));
    auto fill = [&styles](int from, int to, Style style) {
        for (int k = from; k < to; ++k)
            styles[k] = static_cast<char>(style);
    };
    bool expectInstruction = true; // the first word of a statement is its opcode
    int i = 0;
    while (i < n) {
        const char c = line.at(i);
        if (inBlockComment) {
            const int close = static_cast<int>(line.indexOf("*/", i));
            const int end = close < 0 ? n : close + 2;
            fill(i, end, Comment);
            if (close >= 0)
                inBlockComment = false;
            i = end;
            continue;
        }
        if (c == '/' && i + 1 < n && line.at(i + 1) == '/') {
            fill(i, n, Comment);
            break;
        }
        if (c == '/' && i + 1 < n && line.at(i + 1) == '*') {
            inBlockComment = true;
            fill(i, i + 2, Comment);
            i += 2;
            continue;
        }
        if (c == '"') {
            int end = i + 1;
            while (end < n && line.at(end) != '"')
                end += line.at(end) == '\\' ? 2 : 1;
            end = std::min(end + 1, n);
            fill(i, end, String);
            i = end;
            continue;
        }
        if (c == '@') { // predicate guard: @%p1 or @!%p1
            int end = i + 1;
            if (end < n && line.at(end) == '!')
                ++end;
            while (end < n && (line.at(end) == '%' || isIdentChar(line.at(end))))
                ++end;
            fill(i, end, Predicate);
            i = end;
            continue;
        }
        if (c == '%') {
            int end = i + 1;
            while (end < n && (isIdentChar(line.at(end)) || line.at(end) == '.'))
                ++end;
            fill(i, end, Register);
            i = end;
            expectInstruction = false;
            continue;
        }
        if (c == '.' && i + 1 < n && isIdentStart(line.at(i + 1))) {
            int end = i + 1;
            while (end < n && isIdentChar(line.at(end)))
                ++end;
            fill(i, end, Directive);
            i = end;
            continue;
        }
        if (isDigit(c) || (c == '-' && i + 1 < n && isDigit(line.at(i + 1)))) {
            int end = i + 1;
            if (c == '0' && end < n &&
                (line.at(end) == 'x' || line.at(end) == 'X' || line.at(end) == 'f' ||
                 line.at(end) == 'F' || line.at(end) == 'd' || line.at(end) == 'D')) {
                ++end;
                while (end < n && isHexDigit(line.at(end)))
                    ++end;
            } else {
                while (end < n && (isDigit(line.at(end)) || line.at(end) == '.'))
                    ++end;
            }
            if (end < n && (line.at(end) == 'U' || line.at(end) == 'u'))
                ++end;
            fill(i, end, Number);
            i = end;
            continue;
        }
        if (isIdentStart(c)) {
            int end = i + 1;
            while (end < n && (isIdentChar(line.at(end)) || line.at(end) == '.'))
                ++end;
            int after = end;
            while (after < n && (line.at(after) == ' ' || line.at(after) == '\t'))
                ++after;
            if (after < n && line.at(after) == ':') {
                fill(i, after + 1, Label);
                i = after + 1;
                continue;
            }
            if (expectInstruction)
                fill(i, end, Instruction);
            expectInstruction = false;
            i = end;
            continue;
        }
        if (c == ';' || c == '{' || c == '}')
            expectInstruction = true;
        ++i;
    }
    return styles;
}

void PtxLexer::styleText(int start, int end)
{
    QsciScintilla *view = editor();
    if (!view || end <= start)
        return;
    const QByteArray text = view->bytes(start, end);
    // bytes() appends a terminating NUL.
    const int length = std::min(static_cast<int>(text.size()), end - start);

    // A newline is styled as a comment only inside a /* */ comment (see below), so the style
    // of the previous line's newline carries the state across restyling.
    bool inBlockComment =
        start > 0 && view->SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT, start - 1) == Comment;

    startStyling(start);
    int lineStart = 0;
    while (lineStart < length) {
        int lineEnd = static_cast<int>(text.indexOf('\n', lineStart));
        if (lineEnd < 0 || lineEnd >= length)
            lineEnd = length;
        const QByteArray styles =
            styleLine(text.mid(lineStart, lineEnd - lineStart), inBlockComment);
        int k = 0;
        while (k < styles.size()) {
            int run = k + 1;
            while (run < styles.size() && styles.at(run) == styles.at(k))
                ++run;
            setStyling(run - k, static_cast<int>(styles.at(k)));
            k = run;
        }
        if (lineEnd < length)
            setStyling(1, inBlockComment ? Comment : Default); // the newline
        lineStart = lineEnd + 1;
    }
}

} // namespace cuwb
