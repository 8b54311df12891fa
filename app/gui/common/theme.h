// Theme: the fonts and colours shared by the source editor, the PTX view and the panels, so
// the highlighting of both views and the severity colours stay consistent.
#pragma once

#include <QColor>
#include <QFont>

class QsciLexer;

namespace cuwb::Theme {

QFont editorFont();
QFont editorFont(QFont::Weight weight, bool italic = false);
// The editor font, paper and text colour as the lexer's defaults and for all its styles.
void applyBase(QsciLexer *lexer);

inline const QColor paper{0xff, 0xff, 0xff};
inline const QColor text{0x1f, 0x23, 0x28};
inline const QColor currentLine{0xf2, 0xf6, 0xfb};
inline const QColor marginBackground{0xf7, 0xf7, 0xf7};
inline const QColor marginText{0x99, 0x99, 0x99};
inline const QColor keyword{0x00, 0x33, 0xb3};
inline const QColor builtin{0x87, 0x10, 0x94};
inline const QColor type{0x00, 0x7a, 0x7a};
inline const QColor comment{0x8c, 0x8c, 0x8c};
inline const QColor string{0x06, 0x7d, 0x17};
inline const QColor number{0x17, 0x50, 0xeb};
inline const QColor preprocessor{0x9e, 0x6a, 0x00};
inline const QColor error{0xd3, 0x2f, 0x2f};
inline const QColor errorBackground{0xfd, 0xec, 0xec};
inline const QColor warning{0xc7, 0x83, 0x00};
// The text of a cell whose entry is wrong (an expression that does not evaluate).
inline const QColor invalidEntry{0xc6, 0x28, 0x28};
inline const QColor warningBackground{0xff, 0xf6, 0xe0};
inline const QColor remark{0x1e, 0x88, 0xe5};
inline const QColor remarkBackground{0xe8, 0xf2, 0xfd};
inline const QColor correlated{0xff, 0xf3, 0xb0};
inline const QColor correlatedMarker{0xf0, 0xb4, 0x00};
// Inspect: the annotations under lines, and the heat gutter from a cool line to the hottest.
inline const QColor inspect{0x6a, 0x1b, 0x9a};
inline const QColor inspectBackground{0xf5, 0xee, 0xf8};
inline const QColor heatCool{0xff, 0xe0, 0x82};
inline const QColor heatHot{0xc6, 0x28, 0x28};

} // namespace cuwb::Theme
