#include "gui/inspect/sasslexer.h"

#include "gui/common/theme.h"

#include <Qsci/qsciscintilla.h>

#include <algorithm>

namespace cuwb {

namespace {

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

} // namespace

SassLexer::SassLexer(QObject *parent)
    : QsciLexerCustom(parent)
{
    Theme::applyBase(this);
    setColor(Theme::text, Default);
    setColor(Theme::marginText, Offset);
    setColor(Theme::error.darker(110), Predicate);
    setColor(Theme::keyword, Opcode);
    setFont(Theme::editorFont(QFont::Bold), Opcode);
    setColor(Theme::warning.darker(130), Note);
    setFont(Theme::editorFont(QFont::Bold), Note);
    setColor(Theme::comment, SourceLine);
    setFont(Theme::editorFont(QFont::Normal, true), SourceLine);
    setColor(Theme::type, Label);
    setFont(Theme::editorFont(QFont::Bold), Label);
}

const char *SassLexer::language() const
{
    return "SASS";
}

QString SassLexer::description(int style) const
{
    switch (style) {
    case Default:
        return tr("Default");
    case Offset:
        return tr("Offset");
    case Predicate:
        return tr("Predicate guard");
    case Opcode:
        return tr("Opcode");
    case Note:
        return tr("Local memory note");
    case SourceLine:
        return tr("Source line");
    case Label:
        return tr("Label");
    default:
        return {};
    }
}

QByteArray SassLexer::styleLine(const QByteArray &line)
{
    const int n = static_cast<int>(line.size());
    QByteArray styles(n, static_cast<char>(Default));
    const auto fill = [&styles](int from, int to, Style style) {
        for (int k = from; k < to; ++k)
            styles[k] = static_cast<char>(style);
    };
    // An instruction: four spaces, a hexadecimal offset, two spaces.
    int i = 0;
    while (i < n && line.at(i) == ' ')
        ++i;
    int offsetEnd = i;
    while (offsetEnd < n && isHexDigit(line.at(offsetEnd)))
        ++offsetEnd;
    const bool instruction = i == 4 && offsetEnd > i && offsetEnd + 1 < n &&
                             line.at(offsetEnd) == ' ' && line.at(offsetEnd + 1) == ' ';
    if (!instruction) {
        const bool label = i == 0 && n > 0 && line.endsWith(':') && !line.contains(' ');
        const bool routine = i == 0 && line.contains(":   // ");
        fill(0, n, label || routine ? Label : (i == 0 ? SourceLine : Default));
        return styles;
    }
    fill(i, offsetEnd, Offset);
    i = offsetEnd;
    while (i < n && line.at(i) == ' ')
        ++i;
    if (i < n && line.at(i) == '@') {
        int end = i;
        while (end < n && line.at(end) != ' ')
            ++end;
        fill(i, end, Predicate);
        i = end;
        while (i < n && line.at(i) == ' ')
            ++i;
    }
    int opcodeEnd = i;
    while (opcodeEnd < n && line.at(opcodeEnd) != ' ')
        ++opcodeEnd;
    fill(i, opcodeEnd, Opcode);
    const qsizetype note = line.indexOf("// ", opcodeEnd);
    if (note >= 0)
        fill(int(note), n, Note);
    return styles;
}

void SassLexer::styleText(int start, int end)
{
    QsciScintilla *view = editor();
    if (!view || end <= start)
        return;
    // Whole lines: an instruction is recognised by its start.
    const int firstLine = int(view->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, start));
    start = int(view->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, firstLine));
    const QByteArray text = view->bytes(start, end);
    // bytes() appends a terminating NUL.
    const int length = std::min(static_cast<int>(text.size()), end - start);
    startStyling(start);
    int lineStart = 0;
    while (lineStart < length) {
        int lineEnd = static_cast<int>(text.indexOf('\n', lineStart));
        if (lineEnd < 0 || lineEnd >= length)
            lineEnd = length;
        const QByteArray styles = styleLine(text.mid(lineStart, lineEnd - lineStart));
        int k = 0;
        while (k < styles.size()) {
            int run = k + 1;
            while (run < styles.size() && styles.at(run) == styles.at(k))
                ++run;
            setStyling(run - k, static_cast<int>(styles.at(k)));
            k = run;
        }
        if (lineEnd < length)
            setStyling(1, Default); // the newline
        lineStart = lineEnd + 1;
    }
}

} // namespace cuwb
