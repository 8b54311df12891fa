// PtxView: the read-only PTX of the current compile, highlighted with PtxLexer. It shows the
// PTX lines generated from a source line (background marker, scrolled into view) and, when
// the user clicks or moves to a PTX line, says which source line produced it.
#pragma once

#include "compiler/ptxlinemap.h"

#include <Qsci/qsciscintilla.h>

#include <vector>

namespace cuwb {

class PtxLexer;

class PtxView : public QsciScintilla
{
    Q_OBJECT

public:
    enum Marker { CorrelatedBackground = 1, CorrelatedArrow = 2 };

    explicit PtxView(QWidget *parent = nullptr);

    // Replaces the PTX; an identical text keeps the scroll position.
    void setPtx(const QString &ptx, const PtxLineMap &lineMap);
    void clearPtx(const QString &placeholder);

    // Highlights the PTX generated from a 1-based source line and scrolls to it; an empty
    // result clears the highlight.
    void showSourceLine(int sourceLine);
    // 1-based PTX lines currently highlighted.
    [[nodiscard]] const std::vector<int> &highlightedLines() const { return m_highlighted; }
    [[nodiscard]] bool isLineHighlighted(int ptxLine) const;

Q_SIGNALS:
    // The user moved to a PTX line generated from this 1-based source line.
    void sourceLineActivated(int sourceLine);

private:
    void onCursorPositionChanged(int line, int index);

    PtxLexer *m_lexer = nullptr;
    PtxLineMap m_lineMap;
    QString m_ptx;
    std::vector<int> m_highlighted;
    int m_sourceLine = 0;
    bool m_settingText = false;
};

} // namespace cuwb
