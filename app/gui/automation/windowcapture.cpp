#include "gui/automation/windowcapture.h"

#include <QCoreApplication>
#include <QDir>
#include <QPixmap>
#include <QWidget>

namespace cuwb {

QString WindowCapture::save(QWidget *window, const QString &pngPath)
{
    QCoreApplication::processEvents();
    const QPixmap pixmap = window->grab();
    if (pixmap.isNull())
        return QCoreApplication::translate("WindowCapture", "the window could not be rendered");
    if (!pixmap.save(pngPath, "PNG")) {
        return QCoreApplication::translate("WindowCapture", "cannot write %1")
            .arg(QDir::toNativeSeparators(pngPath));
    }
    return {};
}

} // namespace cuwb
