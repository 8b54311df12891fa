#include "gui/editor/textfile.h"

#include "util/boundedfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>
#include <QStringDecoder>

namespace cuwb {

TextFileContents TextFile::read(const QString &path)
{
    TextFileContents contents;
    // Only a regular file, and at most the size of a source (a device, a FIFO or a huge file
    // would freeze or exhaust the window: util/boundedfile.h).
    BoundedRead read = readBoundedFile(path.toStdString(), kMaxSourceFileBytes, "file");
    if (!read.ok()) {
        contents.errorMessage = QString::fromStdString(read.error);
        return contents;
    }
    const QByteArray bytes = QByteArray::fromStdString(read.text);
    // Text has no NUL byte; a binary file shown "as Latin-1" would be written back mangled.
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0) {
        contents.errorMessage =
            QCoreApplication::translate("TextFile",
                                        "Not opened: %1 looks like a binary file (a NUL byte at "
                                        "offset %2), and saving it as text would destroy it")
                .arg(path)
                .arg(nul);
        return contents;
    }
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = utf8.decode(bytes);
    if (utf8.hasError()) {
        text = QString::fromLatin1(bytes);
        contents.decodedAsLatin1 = true;
    }
    if (text.startsWith(QChar(0xfeff)))
        text.remove(0, 1);
    contents.text = text;
    contents.ok = true;
    return contents;
}

QString TextFile::write(const QString &path, const QString &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QCoreApplication::translate("TextFile", "Cannot write %1: %2")
            .arg(path, file.errorString());
    }
    const QByteArray bytes = text.toUtf8();
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        return QCoreApplication::translate("TextFile", "Cannot save %1: %2")
            .arg(path, file.errorString());
    }
    return {};
}

} // namespace cuwb
