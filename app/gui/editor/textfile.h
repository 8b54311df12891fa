// TextFile: reading and writing source files. Reading never produces garbage: text that is
// not valid UTF-8 is decoded as Latin-1 and flagged; writing goes through QSaveFile, so a
// failed save never leaves a half-written file.
#pragma once

#include <QString>

namespace cuwb {

struct TextFileContents
{
    bool ok = false;
    QString text;
    bool decodedAsLatin1 = false; // the bytes were not valid UTF-8
    QString errorMessage;         // set when !ok
};

namespace TextFile {

TextFileContents read(const QString &path);
// Writes UTF-8 atomically; returns an empty string or a message saying why it failed.
QString write(const QString &path, const QString &text);

} // namespace TextFile
} // namespace cuwb
