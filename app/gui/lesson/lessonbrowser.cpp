#include "gui/lesson/lessonbrowser.h"

#include "util/boundedfile.h"

#include <QBuffer>
#include <QColor>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QTextDocument>
#include <QUrl>

namespace cuwb {

LessonBrowser::LessonBrowser(QWidget *parent)
    : QTextBrowser(parent)
{}

namespace {

// What a refused image shows. Never an empty answer: QTextDocument then reads the file itself.
QVariant missingImage()
{
    static const QImage image = [] {
        QImage box(16, 16, QImage::Format_ARGB32);
        box.fill(QColor(0xcc, 0xcc, 0xcc));
        return box;
    }();
    return image;
}

} // namespace

QVariant LessonBrowser::loadResource(int type, const QUrl &name)
{
    if (type != QTextDocument::ImageResource)
        return QByteArray(); // style sheets, documents: nothing, and not empty (see above)
    if (m_folder.isEmpty())
        return missingImage();
    if (!name.scheme().isEmpty() && name.scheme() != QStringLiteral("file"))
        return missingImage();
    const QString asked = name.isLocalFile() ? name.toLocalFile() : name.path();
    const QDir folder(m_folder);
    const QString path = QFileInfo(folder.absoluteFilePath(asked)).canonicalFilePath();
    const QString root = QFileInfo(m_folder).canonicalFilePath();
    // Inside the lesson's folder, after every link is followed.
    if (path.isEmpty() || root.isEmpty() || !path.startsWith(root + QLatin1Char('/')))
        return missingImage();
    const BoundedRead read =
        readBoundedFile(path.toStdString(), std::uint64_t(kMaxLessonImageBytes), "image");
    if (!read.ok())
        return missingImage();
    QByteArray bytes = QByteArray::fromStdString(read.text);
    QBuffer buffer(&bytes);
    QImageReader reader(&buffer);
    const QSize size = reader.size(); // from the header, before any pixel is decoded
    if (!size.isValid() || size.width() > kMaxLessonImageSide ||
        size.height() > kMaxLessonImageSide)
        return missingImage();
    const QImage image = reader.read();
    return image.isNull() ? missingImage() : QVariant(image);
}

} // namespace cuwb
