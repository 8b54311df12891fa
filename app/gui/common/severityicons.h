// Severity icons for the gutter, the Problems panel and the status bar, rendered from the SVGs
// in resources/icons at the size asked for.
#pragma once

#include "compiler/diagnostic.h"

#include <QIcon>
#include <QPixmap>

namespace cuwb::SeverityIcons {

QIcon icon(Severity severity);
QPixmap pixmap(Severity severity, int size);
QPixmap spillPixmap(int size);
QPixmap render(const QString &resourcePath, int size);

} // namespace cuwb::SeverityIcons
