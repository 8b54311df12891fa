#include "gui/editor/textfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>
#include <QStringDecoder>

namespace cuwb {

TextFileContents TextFile::read(const QString &path)
{
    TextFileContents contents;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        contents.errorMessage = QCoreApplication::translate("TextFile", "Cannot open %1: %2")
                                    .arg(path, file.errorString());
        return contents;
    }
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        contents.errorMessage = QCoreApplication::translate("TextFile", "Cannot read %1: %2")
                                    .arg(path, file.errorString());
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
