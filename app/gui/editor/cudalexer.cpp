#include "gui/editor/cudalexer.h"

#include "gui/common/theme.h"
#include "gui/editor/resourcelists.h"

namespace cuwb {

CudaLexer::CudaLexer(QObject *parent)
    : QsciLexerCPP(parent)
{
    const ResourceLists &lists = ResourceLists::instance();
    m_primary = QByteArray(QsciLexerCPP::keywords(1)) + ' ' +
                lists.qualifiers.join(QLatin1Char(' ')).toLatin1();
    m_secondary = (lists.builtins + lists.intrinsics).join(QLatin1Char(' ')).toLatin1();
    m_types = lists.types.join(QLatin1Char(' ')).toLatin1();
    setFoldAtElse(true);
    setFoldComments(true);
    setFoldCompact(false);
    setHighlightHashQuotedStrings(true);
    applyTheme();
}

const char *CudaLexer::language() const
{
    return "CUDA";
}

const char *CudaLexer::keywords(int set) const
{
    switch (set) {
    case 1:
        return m_primary.constData();
    case 2:
        return m_secondary.constData();
    case 4:
        return m_types.constData();
    default:
        return QsciLexerCPP::keywords(set);
    }
}

QString CudaLexer::description(int style) const
{
    switch (style) {
    case KeywordSet2:
        return tr("CUDA built-in or intrinsic");
    case GlobalClass:
        return tr("CUDA type");
    default:
        return QsciLexerCPP::description(style);
    }
}

void CudaLexer::applyTheme()
{
    const QFont bold = Theme::editorFont(QFont::Bold);
    const QFont italic = Theme::editorFont(QFont::Normal, true);
    Theme::applyBase(this);

    setColor(Theme::keyword, Keyword);
    setFont(bold, Keyword);
    setColor(Theme::builtin, KeywordSet2);
    setColor(Theme::type, GlobalClass);
    for (int style : {Comment, CommentLine, CommentDoc, CommentLineDoc, CommentDocKeyword}) {
        setColor(Theme::comment, style);
        setFont(italic, style);
    }
    for (int style : {DoubleQuotedString, SingleQuotedString, RawString, VerbatimString})
        setColor(Theme::string, style);
    setColor(Theme::number, Number);
    setColor(Theme::preprocessor, PreProcessor);
    setColor(Theme::text, Operator);
    setColor(Theme::text, Identifier);
}

} // namespace cuwb
