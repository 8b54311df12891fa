// readBoundedFile (core/util/boundedfile.h): a path a user named is read only when it is a
// regular file within the limit; a device, a FIFO, a directory, a file over the limit and a
// path with a NUL in it are refused at once, with a sentence that says what the path is.
#include "util/boundedfile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_boundedfile {

class TestBoundedFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsARegularFile();
    void refusesWhatIsNotAFile_data();
    void refusesWhatIsNotAFile();
    void refusesAFileOverTheLimit();
    void refusesANulInThePath();
    void saysWhyAFileCannotBeOpened();

private:
    QTemporaryDir m_dir;
    std::string path(const char *name) const
    {
        return m_dir.filePath(QString::fromLatin1(name)).toStdString();
    }
};

void TestBoundedFile::readsARegularFile()
{
    const std::string file = path("k.cu");
    std::ofstream(file, std::ios::binary) << "__global__ void k() {}\n";
    const BoundedRead read = readBoundedFile(file, 1024, "source");
    QVERIFY2(read.ok(), read.error.c_str());
    QCOMPARE(read.text, std::string("__global__ void k() {}\n"));
    // Exactly at the limit is allowed.
    QVERIFY(readBoundedFile(file, read.text.size(), "source").ok());
}

void TestBoundedFile::refusesWhatIsNotAFile_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("kind");
    QTest::newRow("endless device")
        << QStringLiteral("/dev/zero") << QStringLiteral("a character device");
    QTest::newRow("random device")
        << QStringLiteral("/dev/urandom") << QStringLiteral("a character device");
    QTest::newRow("directory") << QStringLiteral("/tmp") << QStringLiteral("a directory");
    QTest::newRow("fifo") << QStringLiteral("FIFO") << QStringLiteral("a FIFO (named pipe)");
}

void TestBoundedFile::refusesWhatIsNotAFile()
{
    QFETCH(QString, target);
    QFETCH(QString, kind);
    std::string file = target.toStdString();
    if (target == QStringLiteral("FIFO")) {
        file = path("pipe.cu");
        QCOMPARE(::mkfifo(file.c_str(), 0600), 0);
    }
    QElapsedTimer timer;
    timer.start();
    const BoundedRead read = readBoundedFile(file, 1 << 20, "source");
    // A FIFO without a writer must not block; /dev/zero must not be read.
    QVERIFY(timer.elapsed() < 5000);
    QVERIFY(!read.ok());
    QVERIFY(read.text.empty());
    const std::string expected =
        "cannot read source '" + file + "': it is " + kind.toStdString() + ", not a file";
    QCOMPARE(read.error, expected);
}

void TestBoundedFile::refusesAFileOverTheLimit()
{
    const std::string file = path("huge.cu");
    {
        std::ofstream(file, std::ios::binary) << "x";
    }
    QCOMPARE(::truncate(file.c_str(), 17 << 20), 0); // sparse: nothing is written
    const BoundedRead read = readBoundedFile(file, kMaxSourceFileBytes, "source");
    QVERIFY(!read.ok());
    QVERIFY2(read.error.find("it is 17.0 MiB, more than the 16.0 MiB a source may have") !=
                 std::string::npos,
             read.error.c_str());
}

void TestBoundedFile::refusesANulInThePath()
{
    const std::string file = path("k.cu");
    std::ofstream(file, std::ios::binary) << "x";
    // "k.cu\0.txt" must not quietly read k.cu.
    const std::string withNul = file + std::string("\0.txt", 5);
    const BoundedRead read = readBoundedFile(withNul, 1024, "project");
    QVERIFY(!read.ok());
    QCOMPARE(read.error, "cannot read project '" + file + "': the path has a NUL character in it");
}

void TestBoundedFile::saysWhyAFileCannotBeOpened()
{
    const BoundedRead read = readBoundedFile(path("absent.cu"), 1024, "source");
    QCOMPARE(read.error,
             "cannot read source '" + path("absent.cu") + "': No such file or directory");
}

CUWB_TEST_GUILESS_MAIN(TestBoundedFile)
} // namespace tst_boundedfile
} // namespace

#include "tst_boundedfile.moc"
