#include "gui/editor/ptxview.h"

#include "gui/common/theme.h"
#include "gui/editor/ptxlexer.h"

#include <QSignalBlocker>

#include <algorithm>

namespace cuwb {

PtxView::PtxView(QWidget *parent)
    : QsciScintilla(parent)
    , m_lexer(new PtxLexer(this))
{
    setUtf8(true);
    setLexer(m_lexer);
    setReadOnly(true);
    setMarginsFont(Theme::editorFont());
    setMarginsBackgroundColor(Theme::marginBackground);
    setMarginsForegroundColor(Theme::marginText);
    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginWidth(0, QStringLiteral("99999"));
    setMarginType(1, SymbolMargin);
    setMarginWidth(1, 14);
    setMarginMarkerMask(1, 1 << CorrelatedArrow);
    setMarginMarkerMask(0, 0);
    markerDefine(Background, CorrelatedBackground);
    setMarkerBackgroundColor(Theme::correlated, CorrelatedBackground);
    markerDefine(RightTriangle, CorrelatedArrow);
    setMarkerBackgroundColor(Theme::correlatedMarker, CorrelatedArrow);
    setMarkerForegroundColor(Theme::correlatedMarker.darker(130), CorrelatedArrow);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(Theme::currentLine);
    setCaretWidth(0);
    setWrapMode(WrapNone);
    setScrollWidthTracking(true);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    setFolding(NoFoldStyle);

    connect(this, &QsciScintilla::cursorPositionChanged, this, &PtxView::onCursorPositionChanged);
}

void PtxView::setPtx(const QString &ptx, const PtxLineMap &lineMap)
{
    m_lineMap = lineMap;
    if (ptx != m_ptx) {
        m_ptx = ptx;
        const int firstLine = firstVisibleLine();
        m_settingText = true;
        setText(ptx);
        m_settingText = false;
        setFirstVisibleLine(std::min(firstLine, std::max(0, lines() - 1)));
    }
    showSourceLine(m_sourceLine);
}

void PtxView::clearPtx(const QString &placeholder)
{
    m_lineMap = PtxLineMap();
    m_ptx.clear();
    m_settingText = true;
    setText(placeholder);
    m_settingText = false;
    markerDeleteAll(CorrelatedBackground);
    markerDeleteAll(CorrelatedArrow);
    m_highlighted.clear();
}

void PtxView::showSourceLine(int sourceLine)
{
    m_sourceLine = sourceLine;
    markerDeleteAll(CorrelatedBackground);
    markerDeleteAll(CorrelatedArrow);
    m_highlighted.clear();
    if (sourceLine <= 0 || m_ptx.isEmpty())
        return;
    m_highlighted = m_lineMap.ptxLinesForSource(sourceLine);
    for (int ptxLine : m_highlighted) {
        if (ptxLine <= 0 || ptxLine > lines())
            continue;
        markerAdd(ptxLine - 1, CorrelatedBackground);
        markerAdd(ptxLine - 1, CorrelatedArrow);
    }
    if (m_highlighted.empty())
        return;
    const auto [first, last] = std::minmax_element(m_highlighted.begin(), m_highlighted.end());
    const int top = firstVisibleLine();
    const int visible = std::max(1, static_cast<int>(SendScintilla(SCI_LINESONSCREEN)));
    const bool fullyVisible = *first - 1 >= top && *last - 1 < top + visible;
    if (!fullyVisible) {
        // Put the block a little below the top so its context (the .loc line) shows too.
        setFirstVisibleLine(std::max(0, *first - 1 - std::min(4, visible / 4)));
    }
}

bool PtxView::isLineHighlighted(int ptxLine) const
{
    if (ptxLine <= 0)
        return false;
    const unsigned mask = const_cast<PtxView *>(this)->markersAtLine(ptxLine - 1);
    return (mask & (1u << CorrelatedBackground)) != 0;
}

void PtxView::onCursorPositionChanged(int line, int index)
{
    Q_UNUSED(index)
    if (m_settingText || m_ptx.isEmpty())
        return;
    const SourceLocation location = m_lineMap.sourceForPtxLine(line + 1);
    if (location.line <= 0)
        return;
    // Only lines of the main source count: those are the ones the map lists for that line.
    const std::vector<int> generated = m_lineMap.ptxLinesForSource(location.line);
    if (std::find(generated.begin(), generated.end(), line + 1) == generated.end())
        return;
    Q_EMIT sourceLineActivated(location.line);
}

} // namespace cuwb
