#include "theme.h"

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

} // namespace cuwb::Theme
