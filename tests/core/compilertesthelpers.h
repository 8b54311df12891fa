// Helpers shared by the compiler tests: fixture files, and readable QCOMPARE failures for
// the std::string values core returns.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QTest>

#include <string>

namespace QTest {
template <> inline char *toString(const std::string &text)
{
    return QTest::toString(QString::fromStdString(text));
}
} // namespace QTest

namespace cuwbtest {

inline QString dataPath(const char *name)
{
    return QStringLiteral(CUWB_TEST_DATA_DIR "/") + QString::fromUtf8(name);
}

inline std::string readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(path));
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

inline std::string readData(const char *name)
{
    return readFile(dataPath(name));
}

// 1-based byte column of token on a 1-based line of a fixture source, worked out from the
// source itself so the parser's column is checked against the file, not against itself.
inline int columnOf(const char *sourceName, int line, const char *token, int occurrence = 1)
{
    const QList<QByteArray> lines = QByteArray::fromStdString(readData(sourceName)).split('\n');
    if (line < 1 || line > lines.size())
        return -1;
    qsizetype index = -1;
    for (int n = 0; n < occurrence; ++n) {
        index = lines[line - 1].indexOf(token, index + 1);
        if (index < 0)
            return -1;
    }
    return static_cast<int>(index) + 1;
}

} // namespace cuwbtest
