// TextFile::read, what the editor opens: a binary file is refused rather than shown as Latin-1
// (saving it would destroy it), a device or a FIFO is refused at once rather than freezing the
// window, and a non-UTF-8 text still opens, marked as Latin-1.
#include "gui/editor/textfile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_textfile {

class TestTextFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void opensUtf8();
    void opensLatin1AsSuch();
    void refusesABinaryFile();
    void refusesDevicesAndFifos();

private:
    QString write(const char *name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(bytes);
        return path;
    }
    QTemporaryDir m_dir;
};

void TestTextFile::opensUtf8()
{
    const TextFileContents c = TextFile::read(write("k.cu", "// \xc2\xb5s\nint x;\n"));
    QVERIFY(c.ok);
    QCOMPARE(c.text, QStringLiteral("// \u00b5s\nint x;\n"));
    QVERIFY(!c.decodedAsLatin1);
}

void TestTextFile::opensLatin1AsSuch()
{
    const TextFileContents c = TextFile::read(write("old.cu", "// \xb5s\n"));
    QVERIFY(c.ok);
    QVERIFY(c.decodedAsLatin1);
    QCOMPARE(c.text, QStringLiteral("// \u00b5s\n"));
}

void TestTextFile::refusesABinaryFile()
{
    const QString path = write("a.out", QByteArray("\x7f"
                                                   "ELF\x02\x01\x01\x00\x00\x00",
                                                   10));
    const TextFileContents c = TextFile::read(path);
    QVERIFY(!c.ok);
    QVERIFY2(c.errorMessage.contains(QStringLiteral("looks like a binary file (a NUL byte at "
                                                    "offset 7)")),
             qPrintable(c.errorMessage));
}

void TestTextFile::refusesDevicesAndFifos()
{
    QElapsedTimer timer;
    timer.start();
    const TextFileContents zero = TextFile::read(QStringLiteral("/dev/zero"));
    QVERIFY(!zero.ok);
    QVERIFY2(zero.errorMessage.contains(QStringLiteral("a character device, not a file")),
             qPrintable(zero.errorMessage));
    const QString fifo = m_dir.filePath(QStringLiteral("pipe.cu"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    const TextFileContents pipe = TextFile::read(fifo);
    QVERIFY(!pipe.ok);
    QVERIFY2(pipe.errorMessage.contains(QStringLiteral("a FIFO (named pipe), not a file")),
             qPrintable(pipe.errorMessage));
    QVERIFY(timer.elapsed() < 5000);
}

CUWB_TEST_GUILESS_MAIN(TestTextFile)
} // namespace tst_textfile
} // namespace

#include "tst_textfile.moc"
