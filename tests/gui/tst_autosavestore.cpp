// The autosave store: entries round-trip (untitled, unicode, a file path), are replaced and
// removed, stay within their limits with a message, go with a clean close; a session whose owner
// runs in another process is never claimed, and once that process is killed its entries are
// claimed, read back and discarded. Unreadable entry files are reported, not fatal. A project's
// settings are an entry of their own (format 2); a buffer is still written as format 1, and an
// entry file of format 1 as older versions wrote it is read.
//
// Run with `--hold-session ROOT TEXT`, this program is the other process: it opens a session
// under ROOT, autosaves TEXT, prints "ready" and waits to be killed.
#include "gui/recovery/autosavestore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>
#include <cstdio>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_autosavestore {

namespace {

AutosaveEntry makeEntry(const QString &key, const QString &path, const QString &text)
{
    AutosaveEntry entry;
    entry.key = key;
    entry.filePath = path;
    entry.displayName =
        path.isEmpty() ? QStringLiteral("untitled-1.cu") : QFileInfo(path).fileName();
    entry.savedAt = QDateTime::currentDateTimeUtc();
    entry.text = text;
    return entry;
}

int holdSession(const QString &root, const QString &text)
{
    AutosaveStore store(root);
    if (!store.isOpen()) {
        std::fprintf(stderr, "%s\n", qPrintable(store.errorMessage()));
        return 1;
    }
    const QString error = store.write(makeEntry(QStringLiteral("document-1"), QString(), text));
    if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("ready\n");
    std::fflush(stdout);
    for (;;)
        QThread::sleep(60);
}

} // namespace

class TestAutosaveStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writesAndReadsBack();
    void replacesAndRemoves();
    void keepsToItsLimits();
    void closeRemovesTheSession();
    void ownSessionIsNeverOffered();
    void liveOwnerKeepsItsSessionUntilKilled();
    void unreadableEntriesAreReported();
    void emptyOrphanIsRemovedSilently();
    void projectEntriesAndOlderFormats();
};

void TestAutosaveStore::writesAndReadsBack()
{
    QTemporaryDir root;
    QVERIFY(root.isValid());
    AutosaveStore store(root.path());
    QVERIFY2(store.isOpen(), qPrintable(store.errorMessage()));
    QVERIFY(QFileInfo(store.sessionFolder()).fileName().startsWith(QLatin1String("session-")));

    const QString text =
        QStringLiteral("__global__ void k() {}\n// \u00fc\u00df \u6f22\u5b57 \"quoted\"\n");
    const AutosaveEntry written = makeEntry(QStringLiteral("document-3"), QString(), text);
    QCOMPARE(store.write(written), QString());
    AutosaveEntry read;
    QString error;
    QVERIFY2(AutosaveStore::readEntryFile(store.entryFile(QStringLiteral("document-3")),
                                          store.limits().maxEntryBytes, read, error),
             qPrintable(error));
    QCOMPARE(read.key, written.key);
    QCOMPARE(read.filePath, QString());
    QCOMPARE(read.displayName, written.displayName);
    QCOMPARE(read.text, text);
    QCOMPARE(read.savedAt, written.savedAt);

    const QString path = root.filePath(QStringLiteral("kernel.cu"));
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-4"), path, QStringLiteral("x"))),
             QString());
    QVERIFY(AutosaveStore::readEntryFile(store.entryFile(QStringLiteral("document-4")),
                                         store.limits().maxEntryBytes, read, error));
    QCOMPARE(read.filePath, path);
    QCOMPARE(read.displayName, QStringLiteral("kernel.cu"));
}

void TestAutosaveStore::replacesAndRemoves()
{
    QTemporaryDir root;
    AutosaveStore store(root.path());
    QVERIFY(store.isOpen());
    const QString key = QStringLiteral("document-1");
    QCOMPARE(store.write(makeEntry(key, QString(), QStringLiteral("first"))), QString());
    QCOMPARE(store.write(makeEntry(key, QString(), QStringLiteral("second"))), QString());
    AutosaveEntry read;
    QString error;
    QVERIFY(AutosaveStore::readEntryFile(store.entryFile(key), store.limits().maxEntryBytes, read,
                                         error));
    QCOMPARE(read.text, QStringLiteral("second"));
    // Only the entry and the lock: QSaveFile left no temporary behind.
    QCOMPARE(QDir(store.sessionFolder()).entryList(QDir::Files).size(), 2);

    store.remove(key);
    QVERIFY(!QFile::exists(store.entryFile(key)));
    store.remove(key); // removing twice is harmless
}

void TestAutosaveStore::keepsToItsLimits()
{
    QTemporaryDir root;
    AutosaveLimits limits;
    limits.maxEntryBytes = 1000;
    limits.maxSessionBytes = 1500;
    limits.maxEntries = 2;
    AutosaveStore store(root.path(), limits);
    QVERIFY(store.isOpen());

    // Too large for one entry: a message naming the buffer, and no file.
    const QString big(2000, QLatin1Char('x'));
    const QString tooLarge = store.write(makeEntry(QStringLiteral("document-1"), QString(), big));
    QVERIFY(tooLarge.contains(QLatin1String("untitled-1.cu")));
    QVERIFY(tooLarge.contains(QLatin1String("larger")));
    QVERIFY(!QFile::exists(store.entryFile(QStringLiteral("document-1"))));

    // Two of 700 characters (and their JSON) fit one entry each but not the session together.
    const QString medium(700, QLatin1Char('m'));
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-2"), QString(), medium)), QString());
    const QString full = store.write(makeEntry(QStringLiteral("document-3"), QString(), medium));
    QVERIFY(full.contains(QLatin1String("would take more than")));
    QVERIFY(!QFile::exists(store.entryFile(QStringLiteral("document-3"))));
    // The same entry may grow within the session's limit: its old size is not counted twice.
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-2"), QString(),
                                   QString(800, QLatin1Char('n')))),
             QString());

    // The number of entries.
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-4"), QString(), QStringLiteral("a"))),
             QString());
    const QString many =
        store.write(makeEntry(QStringLiteral("document-5"), QString(), QStringLiteral("b")));
    QVERIFY(many.contains(QLatin1String("2 other buffers")));
    // A removed entry frees its place.
    store.remove(QStringLiteral("document-4"));
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-5"), QString(), QStringLiteral("b"))),
             QString());
}

void TestAutosaveStore::closeRemovesTheSession()
{
    QTemporaryDir root;
    AutosaveStore store(root.path());
    QVERIFY(store.isOpen());
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-1"), QString(), QStringLiteral("t"))),
             QString());
    const QString folder = store.sessionFolder();
    QVERIFY(QFileInfo::exists(folder));
    store.close();
    QVERIFY(!QFileInfo::exists(folder));
    QVERIFY(!store.isOpen());
    QVERIFY(!store.write(makeEntry(QStringLiteral("document-1"), QString(), QStringLiteral("t")))
                 .isEmpty());
}

void TestAutosaveStore::ownSessionIsNeverOffered()
{
    QTemporaryDir root;
    AutosaveStore store(root.path());
    QCOMPARE(store.write(makeEntry(QStringLiteral("document-1"), QString(), QStringLiteral("t"))),
             QString());
    QVERIFY(AutosaveStore::claimOrphans(root.path(), store.sessionFolder()).empty());
    // Even asked as another session would be: this process holds the lock and is alive.
    QVERIFY(AutosaveStore::claimOrphans(root.path(), QString()).empty());
    QVERIFY(QFile::exists(store.entryFile(QStringLiteral("document-1"))));
}

void TestAutosaveStore::liveOwnerKeepsItsSessionUntilKilled()
{
    QTemporaryDir root;
    const QString text = QStringLiteral("int unsaved = 1; // \u00e9t\u00e9\n");
    QProcess owner;
    owner.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    owner.start(cuwb::test::program(),
                cuwb::test::driverArguments() +
                    QStringList{QStringLiteral("--hold-session"), root.path(), text});
    QVERIFY2(owner.waitForStarted(), qPrintable(owner.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(owner.canReadLine() || owner.state() == QProcess::NotRunning, 60000);
    QCOMPARE(owner.readLine().trimmed(), QByteArray("ready"));

    // A second workbench while the first runs: nothing to offer, nothing taken.
    AutosaveStore second(root.path());
    QVERIFY(AutosaveStore::claimOrphans(root.path(), second.sessionFolder()).empty());
    const QStringList folders =
        QDir(root.path()).entryList({QStringLiteral("session-*")}, QDir::Dirs);
    QCOMPARE(folders.size(), 2);

    ::kill(pid_t(owner.processId()), SIGKILL);
    QVERIFY(owner.waitForFinished(30000));

    std::vector<RecoveredSession> sessions =
        AutosaveStore::claimOrphans(root.path(), second.sessionFolder());
    QCOMPARE(sessions.size(), std::size_t(1));
    QCOMPARE(sessions.front().entries().size(), 1);
    const AutosaveEntry &entry = sessions.front().entries().front();
    QCOMPARE(entry.text, text);
    QCOMPARE(entry.filePath, QString());
    QVERIFY(sessions.front().problems().isEmpty());

    // While claimed, a third start does not see it.
    AutosaveStore third(root.path());
    QVERIFY(AutosaveStore::claimOrphans(root.path(), third.sessionFolder()).empty());

    // Dropped without discard ("later"): offered again.
    sessions.clear();
    sessions = AutosaveStore::claimOrphans(root.path(), third.sessionFolder());
    QCOMPARE(sessions.size(), std::size_t(1));
    const QString folder = sessions.front().folder();
    sessions.front().discard();
    QVERIFY(!QFileInfo::exists(folder));
    QVERIFY(AutosaveStore::claimOrphans(root.path(), third.sessionFolder()).empty());
}

void TestAutosaveStore::unreadableEntriesAreReported()
{
    QTemporaryDir root;
    QString folder;
    {
        // A session that ends without close() but whose lock is released, as after a kill.
        AutosaveStore store(root.path());
        QCOMPARE(
            store.write(makeEntry(QStringLiteral("document-1"), QString(), QStringLiteral("good"))),
            QString());
        folder = store.sessionFolder();
    }
    QFile broken(QDir(folder).filePath(QStringLiteral("document-2.json")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format\": \"cuwb-autosave\", \"vers");
    broken.close();
    QFile other(QDir(folder).filePath(QStringLiteral("document-3.json")));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("{\"format\": \"something else\"}");
    other.close();

    std::vector<RecoveredSession> sessions = AutosaveStore::claimOrphans(root.path(), QString());
    QCOMPARE(sessions.size(), std::size_t(1));
    QCOMPARE(sessions.front().entries().size(), 1);
    QCOMPARE(sessions.front().entries().front().text, QStringLiteral("good"));
    const QStringList problems = sessions.front().problems();
    QCOMPARE(problems.size(), 2);
    QVERIFY(problems.at(0).startsWith(QLatin1String("document-2.json: not an autosave")));
    QVERIFY(problems.at(1).startsWith(QLatin1String("document-3.json: not an autosave of")));
}

void TestAutosaveStore::emptyOrphanIsRemovedSilently()
{
    QTemporaryDir root;
    QString folder;
    {
        AutosaveStore store(root.path());
        folder = store.sessionFolder();
    }
    QVERIFY(QFileInfo::exists(folder));
    QVERIFY(AutosaveStore::claimOrphans(root.path(), QString()).empty());
    QVERIFY(!QFileInfo::exists(folder));
}

void TestAutosaveStore::projectEntriesAndOlderFormats()
{
    QTemporaryDir root;
    QString folder;
    const QString projectPath = root.filePath(QStringLiteral("scale.cuwb"));
    const QByteArray projectJson =
        "{\"schemaVersion\": 1, \"name\": \"scale\", \"source\": {\"inline\": \"__global__ "
        "void k() {}\"}, \"compileOptions\": {\"arch\": \"sm_80\"}, \"launch\": {\"kernel\": "
        "\"k\", \"block\": [\"128\", \"1\", \"1\"]}}";
    {
        AutosaveStore store(root.path());
        AutosaveEntry project =
            makeEntry(QStringLiteral("project"), projectPath, QString::fromUtf8(projectJson));
        project.kind = AutosaveEntry::Kind::Project;
        QCOMPARE(store.write(project), QString());
        QCOMPARE(store.write(
                     makeEntry(QStringLiteral("document-1"), QString(), QStringLiteral("buffer"))),
                 QString());
        folder = store.sessionFolder();
        // A buffer keeps the format older versions read; the project's settings are format 2.
        const auto versionOf = [&](const QString &key) {
            QFile file(store.entryFile(key));
            return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll())
                                                        .object()
                                                        .value(QStringLiteral("version"))
                                                  : QJsonValue();
        };
        QCOMPARE(versionOf(QStringLiteral("document-1")).toInt(), 1);
        QCOMPARE(versionOf(QStringLiteral("project")).toInt(), 2);
    }
    const auto writeRaw = [&](const QString &name, const QJsonObject &object) {
        QFile file(QDir(folder).filePath(name));
        const QByteArray bytes = QJsonDocument(object).toJson();
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    const QString format = QStringLiteral("cuwb-autosave");
    // An entry exactly as the first version wrote it (no "kind").
    QVERIFY(writeRaw(
        QStringLiteral("document-2.json"),
        QJsonObject{{QStringLiteral("format"), format},
                    {QStringLiteral("version"), 1},
                    {QStringLiteral("path"), QStringLiteral("/tmp/old.cu")},
                    {QStringLiteral("displayName"), QStringLiteral("old.cu")},
                    {QStringLiteral("savedAt"), QStringLiteral("2026-01-02T03:04:05.000Z")},
                    {QStringLiteral("text"), QStringLiteral("int old;\n")}}));
    // Unreadable: a kind this version does not know, a newer format, damaged project settings.
    QVERIFY(writeRaw(QStringLiteral("document-3.json"),
                     QJsonObject{{QStringLiteral("format"), format},
                                 {QStringLiteral("version"), 2},
                                 {QStringLiteral("kind"), QStringLiteral("notebook")},
                                 {QStringLiteral("text"), QString()}}));
    QVERIFY(writeRaw(QStringLiteral("document-4.json"),
                     QJsonObject{{QStringLiteral("format"), format},
                                 {QStringLiteral("version"), 3},
                                 {QStringLiteral("text"), QString()}}));
    QVERIFY(writeRaw(QStringLiteral("project-2.json"),
                     QJsonObject{{QStringLiteral("format"), format},
                                 {QStringLiteral("version"), 2},
                                 {QStringLiteral("kind"), QStringLiteral("project")},
                                 {QStringLiteral("path"), QStringLiteral("/tmp/x.cuwb")},
                                 {QStringLiteral("text"),
                                  QStringLiteral("{\"schemaVersion\": 1, \"launch\": 7}")}}));

    std::vector<RecoveredSession> sessions = AutosaveStore::claimOrphans(root.path(), QString());
    QCOMPARE(sessions.size(), std::size_t(1));
    const QList<AutosaveEntry> entries = sessions.front().entries();
    QCOMPARE(entries.size(), 3);
    const auto find = [&](const QString &key) {
        for (const AutosaveEntry &entry : entries) {
            if (entry.key == key)
                return entry;
        }
        return AutosaveEntry{};
    };
    const AutosaveEntry project = find(QStringLiteral("project"));
    QCOMPARE(project.kind, AutosaveEntry::Kind::Project);
    QCOMPARE(project.filePath, projectPath);
    QCOMPARE(project.displayName, QStringLiteral("scale.cuwb"));
    QCOMPARE(project.text, QString::fromUtf8(projectJson));
    QCOMPARE(find(QStringLiteral("document-1")).kind, AutosaveEntry::Kind::Buffer);
    const AutosaveEntry old = find(QStringLiteral("document-2"));
    QCOMPARE(old.kind, AutosaveEntry::Kind::Buffer);
    QCOMPARE(old.filePath, QStringLiteral("/tmp/old.cu"));
    QCOMPARE(old.text, QStringLiteral("int old;\n"));
    QCOMPARE(old.savedAt, QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC));

    const QStringList problems = sessions.front().problems();
    QCOMPARE(problems.size(), 3);
    QVERIFY2(problems.at(0).startsWith(QLatin1String("document-3.json: an autosave of a kind")),
             qPrintable(problems.at(0)));
    QVERIFY2(problems.at(1).startsWith(QLatin1String("document-4.json: written by another")),
             qPrintable(problems.at(1)));
    QVERIFY2(problems.at(2).startsWith(
                 QLatin1String("project-2.json: the autosaved project settings cannot be read")),
             qPrintable(problems.at(2)));
}

int driverMain(int argc, char *argv[])
{
    if (argc == 4 && qstrcmp(argv[1], "--hold-session") == 0) {
        QCoreApplication app(argc, argv);
        return holdSession(QString::fromLocal8Bit(argv[2]), QString::fromUtf8(argv[3]));
    }
    QCoreApplication app(argc, argv);
    TestAutosaveStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

CUWB_TEST_CUSTOM_MAIN(driverMain)
} // namespace tst_autosavestore
} // namespace

#include "tst_autosavestore.moc"
