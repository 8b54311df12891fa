#include "gui/common/severityicons.h"

#include <QPainter>
#include <QSvgRenderer>

namespace cuwb::SeverityIcons {

namespace {

QString resourceFor(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return QStringLiteral(":/icons/error.svg");
    case Severity::Warning:
        return QStringLiteral(":/icons/warning.svg");
    case Severity::Remark:
        return QStringLiteral(":/icons/remark.svg");
    case Severity::Note:
        break;
    }
    return QStringLiteral(":/icons/note.svg");
}

} // namespace

QPixmap render(const QString &resourcePath, int size)
{
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QSvgRenderer renderer(resourcePath);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    return QPixmap::fromImage(image);
}

QPixmap pixmap(Severity severity, int size)
{
    return render(resourceFor(severity), size);
}

QPixmap spillPixmap(int size)
{
    return render(QStringLiteral(":/icons/spill.svg"), size);
}

QIcon icon(Severity severity)
{
    QIcon result;
    for (int size : {16, 24, 32})
        result.addPixmap(pixmap(severity, size));
    return result;
}

} // namespace cuwb::SeverityIcons
