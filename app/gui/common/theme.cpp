#include "gui/common/theme.h"

#include <Qsci/qscilexer.h>

#include <QFontDatabase>

namespace cuwb::Theme {

QFont editorFont()
{
    QFont font(QStringLiteral("DejaVu Sans Mono"));
    if (!QFontDatabase::families().contains(font.family()))
        font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    font.setPointSize(10);
    return font;
}

QFont editorFont(QFont::Weight weight, bool italic)
{
    QFont font = editorFont();
    font.setWeight(weight);
    font.setItalic(italic);
    return font;
}

void applyBase(QsciLexer *lexer)
{
    const QFont font = editorFont();
    lexer->setDefaultFont(font);
    lexer->setDefaultPaper(paper);
    lexer->setDefaultColor(text);
    lexer->setFont(font, -1);
    lexer->setPaper(paper, -1);
    lexer->setColor(text, -1);
}

} // namespace cuwb::Theme
