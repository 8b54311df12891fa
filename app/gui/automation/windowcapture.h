// WindowCapture: the last step of both --screenshot runners, rendering a window into a PNG,
// in one place so the measurement and the sweep screenshots fail the same way.
#pragma once

#include <QString>

class QWidget;

namespace cuwb {

namespace WindowCapture {

// Lets pending events settle, grabs the window and writes it as a PNG; returns an empty string
// or a message saying why there is no file.
QString save(QWidget *window, const QString &pngPath);

} // namespace WindowCapture
} // namespace cuwb
