// The history database: round trips (unicode, a 5 MB document), list order and filters, notes,
// removal, the schema migration from a version-1 file built by hand, files it must refuse
// (newer, damaged, another program's) without touching them, and two connections at once.
#include "history/historystore.h"
#include "history/sqlite.h"
#include "measure/measurejson.h"
#include "measure/measurement.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <set>
#include <string>
#include <thread>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_historystore {
// moc reads raw strings with unbalanced braces as code: the helpers are not its business.
#ifndef Q_MOC_RUN

namespace {

HistoryEntry entry(HistoryKind kind, const std::string &project, const std::string &kernel,
                   const std::string &createdAt = {})
{
    HistoryEntry e;
    e.kind = kind;
    e.createdAt = createdAt;
    e.projectName = project;
    e.projectPath = "/home/student/" + project + ".cuwb";
    e.kernel = kernel;
    e.deviceName = "NVIDIA H200";
    e.sourceHash = "fnv1a64:0123456789abcdef";
    e.summary = kind == HistoryKind::Sweep ? "32 points, best block.x=256: 196 µs"
                                           : "median 199.3 µs, 2694 GB/s";
    e.json = R"({"kernel":")" + kernel + R"("})";
    return e;
}

QByteArray fileBytes(const std::string &path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

std::vector<std::int64_t> ids(const std::vector<HistoryItem> &items)
{
    std::vector<std::int64_t> result;
    for (const HistoryItem &item : items)
        result.push_back(item.id);
    return result;
}

// Schema version 1 exactly as it was released: a migration starts from what is on disk, never
// from what the current code would create.
void createVersion1Database(const std::string &path, const char *extraSql = "")
{
    SqliteDatabase db(path);
    db.exec(R"sql(
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL CHECK (kind IN ('measurement', 'sweep')),
            created_at TEXT NOT NULL,
            project_name TEXT NOT NULL,
            project_path TEXT NOT NULL,
            kernel TEXT NOT NULL,
            device_name TEXT NOT NULL,
            source_hash TEXT NOT NULL,
            summary TEXT NOT NULL,
            document_bytes INTEGER NOT NULL
        );
        CREATE TABLE documents (
            entry_id INTEGER PRIMARY KEY,
            json TEXT NOT NULL
        );
        CREATE INDEX entries_by_time ON entries (created_at, id);
        INSERT INTO entries (kind, created_at, project_name, project_path, kernel, device_name,
                             source_hash, summary, document_bytes)
            VALUES ('sweep', '2024-11-02T10:00:00Z', 'copy', '/p/copy.cuwb', 'copy_kernel',
                    'NVIDIA H200', 'fnv1a64:00000000000000aa', '32 points', 13);
        INSERT INTO documents (entry_id, json) VALUES (1, '{"points":[]}');
        PRAGMA application_id = 1131763522;
        PRAGMA user_version = 1;
    )sql");
    db.exec(extraSql);
}

int userVersion(const std::string &path)
{
    SqliteDatabase db(path, SqliteDatabase::Mode::ReadOnly);
    SqliteStatement statement(db, "PRAGMA user_version");
    statement.step();
    return static_cast<int>(statement.int64(0));
}

} // namespace

#endif // Q_MOC_RUN

class TestHistoryStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_counter = 0;

    // A fresh database path for each test.
    std::string newPath()
    {
        return m_dir.filePath(QStringLiteral("db%1/history.sqlite").arg(++m_counter)).toStdString();
    }

    // Runs `call`, which must throw HistoryError of `kind`; returns its message.
    template <typename Call> static std::string expectError(HistoryErrorKind kind, Call call)
    {
        try {
            call();
        } catch (const HistoryError &e) {
            qInfo("%s", e.what()); // the sentence a user would read
            if (e.kind() != kind)
                qWarning("unexpected kind %d: %s", static_cast<int>(e.kind()), e.what());
            return e.kind() == kind ? std::string(e.what()) : std::string();
        }
        qWarning("no HistoryError was thrown");
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void createsFoldersAndSchema()
    {
        const std::string path =
            m_dir.filePath(QStringLiteral("deep/er/history.sqlite")).toStdString();
        {
            HistoryStore store = HistoryStore::open(path);
            QCOMPARE(store.openedSchemaVersion(), 0);
            QCOMPARE(store.path(), path);
            QVERIFY(store.list().empty());
            QCOMPARE(store.count(), 0);
        }
        QVERIFY(QFile::exists(QString::fromStdString(path)));
        QCOMPARE(userVersion(path), kHistorySchemaVersion);
        HistoryStore again = HistoryStore::open(path);
        QCOMPARE(again.openedSchemaVersion(), kHistorySchemaVersion);
    }

    void roundTripKeepsEveryField()
    {
        HistoryStore store = HistoryStore::open(newPath());
        HistoryEntry e = entry(HistoryKind::Measurement, "Übung 3 — 行列",
                               "void scale<float>(float*, int)", "2025-03-14T09:26:53Z");
        e.deviceName = "NVIDIA H200 «MIG 1g.18gb»";
        e.note = "first try 🚀\nsecond line, with 'quotes' and \"double\" and a \\ backslash";
        e.json = R"({"provenance":{"kernel":"行列","note":"µs"}})";
        e.id = 999;      // ignored
        e.jsonBytes = 1; // ignored
        const std::int64_t id = store.add(e);
        QVERIFY(id > 0);

        const std::optional<HistoryEntry> loaded = store.load(id);
        QVERIFY(loaded);
        HistoryEntry expected = e;
        expected.id = id;
        expected.jsonBytes = e.json.size();
        QCOMPARE(loaded->id, expected.id);
        QCOMPARE(loaded->projectName, expected.projectName);
        QCOMPARE(loaded->note, expected.note);
        QCOMPARE(loaded->json, expected.json);
        QVERIFY(*loaded == expected);

        const std::vector<HistoryItem> items = store.list();
        QCOMPARE(items.size(), std::size_t(1));
        QVERIFY(items[0] == static_cast<const HistoryItem &>(expected));
    }

    void roundTripOfALargeDocument()
    {
        HistoryStore store = HistoryStore::open(newPath());
        // A sweep of many points with all their samples: about 5 MB of JSON.
        std::string json = R"({"points":[)";
        for (int i = 0; json.size() < 5 * 1024 * 1024; ++i)
            json += (i ? "," : "") + std::string(R"({"block":)") + std::to_string(i) +
                    R"(,"samplesNs":[199312.5,199400.25,198999.125],"label":"µs ✓"})";
        json += "]}";
        HistoryEntry e = entry(HistoryKind::Sweep, "big", "copy");
        e.json = json;
        const std::int64_t small = store.add(entry(HistoryKind::Measurement, "small", "copy"));
        const std::int64_t id = store.add(e);

        const std::optional<HistoryEntry> loaded = store.load(id);
        QVERIFY(loaded);
        QCOMPARE(loaded->json.size(), json.size());
        QVERIFY(loaded->json == json);
        QCOMPARE(loaded->jsonBytes, std::uint64_t(json.size()));
        // The list gives the size, not the document (HistoryItem has no field for it).
        const std::vector<HistoryItem> items = store.list();
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].id, id);
        QCOMPARE(items[0].jsonBytes, std::uint64_t(json.size()));
        QCOMPARE(store.load(small)->json, entry(HistoryKind::Measurement, "small", "copy").json);
    }

    void timeIsFilledAndChecked()
    {
        HistoryStore store = HistoryStore::open(newPath());
        const std::int64_t id = store.add(entry(HistoryKind::Measurement, "p", "k"));
        const std::string createdAt = store.load(id)->createdAt;
        QCOMPARE(createdAt.size(), std::size_t(20));
        QCOMPARE(createdAt[10], 'T');
        QCOMPARE(createdAt.back(), 'Z');

        store.add(entry(HistoryKind::Measurement, "p", "k", "2025-03-14T09:26:53.125Z"));
        for (const char *bad : {"2025-03-14 09:26:53", "2025-03-14T09:26:53+01:00",
                                "2025-13-14T09:26:53Z", "yesterday", "2025-03-14T09:26:53.Z"}) {
            bool threw = false;
            try {
                store.add(entry(HistoryKind::Measurement, "p", "k", bad));
            } catch (const std::invalid_argument &) {
                threw = true;
            }
            QVERIFY2(threw, bad);
        }
        QCOMPARE(store.count(), 2);
    }

    void listIsNewestFirst()
    {
        HistoryStore store = HistoryStore::open(newPath());
        const std::int64_t middle =
            store.add(entry(HistoryKind::Measurement, "p", "k", "2025-02-01T00:00:00Z"));
        const std::int64_t oldest =
            store.add(entry(HistoryKind::Measurement, "p", "k", "2024-12-31T23:59:59Z"));
        const std::int64_t newest =
            store.add(entry(HistoryKind::Sweep, "p", "k", "2025-02-01T00:00:01Z"));
        // Same second as `middle`, added later: shown before it.
        const std::int64_t tie =
            store.add(entry(HistoryKind::Measurement, "p", "k", "2025-02-01T00:00:00Z"));
        QCOMPARE(ids(store.list()), (std::vector<std::int64_t>{newest, tie, middle, oldest}));
    }

    void listFilters()
    {
        HistoryStore store = HistoryStore::open(newPath());
        std::vector<std::int64_t> added;
        // 12 entries, newest last: projects a/b, kernels copy/scale, every third a sweep.
        for (int i = 0; i < 12; ++i) {
            char time[32];
            std::snprintf(time, sizeof time, "2025-01-%02dT12:00:00Z", i + 1);
            HistoryEntry e = entry(i % 3 == 2 ? HistoryKind::Sweep : HistoryKind::Measurement,
                                   i % 2 ? "b" : "a", i < 6 ? "copy" : "scale", time);
            added.push_back(store.add(e));
        }
        const auto newestFirst = [&](std::initializer_list<int> indices) {
            std::vector<std::int64_t> result;
            for (const int i : indices)
                result.push_back(added[static_cast<std::size_t>(i)]);
            return result;
        };

        HistoryFilter sweeps;
        sweeps.kind = HistoryKind::Sweep;
        QCOMPARE(ids(store.list(sweeps)), newestFirst({11, 8, 5, 2}));
        QCOMPARE(store.count(sweeps), 4);

        HistoryFilter projectB;
        projectB.projectName = "b";
        projectB.kernel = "scale";
        QCOMPARE(ids(store.list(projectB)), newestFirst({11, 9, 7}));

        HistoryFilter page;
        page.limit = 5;
        page.offset = 5;
        QCOMPARE(ids(store.list(page)), newestFirst({6, 5, 4, 3, 2}));
        QCOMPARE(store.count(page), 12); // limit and offset do not count
        page.offset = 10;
        QCOMPARE(ids(store.list(page)), newestFirst({1, 0}));
        HistoryFilter all;
        all.limit = 0;
        QCOMPARE(store.list(all).size(), std::size_t(12));

        // Text: any of project, kernel, device, summary, note; case-insensitive; % and _ are
        // literal characters, not wildcards.
        QVERIFY(store.setNote(added[3], "Tile 32 was 5% faster_than 16"));
        HistoryFilter text;
        text.text = "SCAL";
        QCOMPARE(store.count(text), 6);
        text.text = "5% faster_";
        QCOMPARE(ids(store.list(text)), newestFirst({3}));
        text.text = "5%faster";
        QCOMPARE(store.count(text), 0);
        text.text = "best block.x";
        QCOMPARE(store.count(text), 4); // the sweeps' summaries
        text.text = "h200";
        text.kind = HistoryKind::Measurement;
        QCOMPARE(store.count(text), 8);
    }

    void noteAndRemove()
    {
        HistoryStore store = HistoryStore::open(newPath());
        const std::int64_t first = store.add(entry(HistoryKind::Measurement, "p", "k"));
        const std::int64_t second = store.add(entry(HistoryKind::Sweep, "p", "k"));
        QVERIFY(store.setNote(first, "baseline before tiling"));
        QCOMPARE(store.load(first)->note, std::string("baseline before tiling"));
        QVERIFY(store.setNote(first, ""));
        QCOMPARE(store.load(first)->note, std::string());
        QVERIFY(!store.setNote(12345, "nobody"));

        QVERIFY(store.remove(second));
        QVERIFY(!store.remove(second));
        QVERIFY(!store.load(second));
        QCOMPARE(ids(store.list()), std::vector<std::int64_t>{first});
        // An id is never given again, so a window that still shows `second` cannot open
        // another entry by it.
        const std::int64_t third = store.add(entry(HistoryKind::Sweep, "p", "k"));
        QVERIFY(third > second);
    }

    void migratesFromVersion1()
    {
        const std::string path = newPath();
        QVERIFY(QDir().mkpath(QFileInfo(QString::fromStdString(path)).path()));
        createVersion1Database(path);
        QCOMPARE(userVersion(path), 1);
        {
            HistoryStore store = HistoryStore::open(path);
            QCOMPARE(store.openedSchemaVersion(), 1);
            const std::vector<HistoryItem> items = store.list();
            QCOMPARE(items.size(), std::size_t(1));
            QCOMPARE(items[0].kind, HistoryKind::Sweep);
            QCOMPARE(items[0].kernel, std::string("copy_kernel"));
            QCOMPARE(items[0].note, std::string()); // the new column's default
            QCOMPARE(items[0].jsonBytes, std::uint64_t(13));
            QCOMPARE(store.load(items[0].id)->json, std::string(R"({"points":[]})"));
            // What version 2 added works on the upgraded file.
            QVERIFY(store.setNote(items[0].id, "from version 1"));
            const std::int64_t id = store.add(entry(HistoryKind::Measurement, "copy", "k"));
            QVERIFY(id > items[0].id);
        }
        QCOMPARE(userVersion(path), kHistorySchemaVersion);
        SqliteDatabase raw(path, SqliteDatabase::Mode::ReadOnly);
        SqliteStatement index(
            raw, "SELECT count(*) FROM sqlite_master WHERE name = 'entries_by_project'");
        index.step();
        QCOMPARE(index.int64(0), std::int64_t(1));

        HistoryStore again = HistoryStore::open(path);
        QCOMPARE(again.openedSchemaVersion(), kHistorySchemaVersion);
        QCOMPARE(again.load(1)->note, std::string("from version 1"));
    }

    // A migration that fails half-way leaves the file as it was: one transaction.
    void failedMigrationChangesNothing()
    {
        const std::string path = newPath();
        QVERIFY(QDir().mkpath(QFileInfo(QString::fromStdString(path)).path()));
        // An index of the name migration 2 creates: its ALTER TABLE succeeds, its CREATE INDEX
        // fails.
        createVersion1Database(path, "CREATE INDEX entries_by_project ON entries (kernel);");
        const std::string message =
            expectError(HistoryErrorKind::Failed, [&] { HistoryStore::open(path); });
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("from schema version 1 to 2") != std::string::npos, message.c_str());
        QVERIFY2(message.find("already exists") != std::string::npos, message.c_str());
        QCOMPARE(userVersion(path), 1);
        SqliteDatabase raw(path, SqliteDatabase::Mode::ReadOnly);
        SqliteStatement columns(raw, "SELECT count(*) FROM pragma_table_info('entries') "
                                     "WHERE name = 'note'");
        columns.step();
        QCOMPARE(columns.int64(0), std::int64_t(0));
    }

    void refusesANewerDatabase()
    {
        const std::string path = newPath();
        QVERIFY(QDir().mkpath(QFileInfo(QString::fromStdString(path)).path()));
        {
            SqliteDatabase db(path);
            db.exec("CREATE TABLE entries (id INTEGER PRIMARY KEY, future TEXT);"
                    "PRAGMA application_id = 1131763522; PRAGMA user_version = 7;");
        }
        const QByteArray before = fileBytes(path);
        const std::string message =
            expectError(HistoryErrorKind::NewerVersion, [&] { HistoryStore::open(path); });
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("newer CUDA Workbench") != std::string::npos, message.c_str());
        QVERIFY2(message.find("schema version 7") != std::string::npos, message.c_str());
        QCOMPARE(fileBytes(path), before);
        QCOMPARE(userVersion(path), 7);
    }

    void refusesAFileThatIsNotADatabase()
    {
        const std::string path = newPath();
        QVERIFY(QDir().mkpath(QFileInfo(QString::fromStdString(path)).path()));
        QByteArray garbage;
        for (int i = 0; i < 8192; ++i)
            garbage.append(static_cast<char>((i * 7919) % 251));
        {
            QFile file(QString::fromStdString(path));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("This is my thesis, not a database.\n");
            file.write(garbage);
        }
        const QByteArray before = fileBytes(path);
        const std::string message =
            expectError(HistoryErrorKind::NotHistory, [&] { HistoryStore::open(path); });
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("not a database") != std::string::npos, message.c_str());
        QCOMPARE(fileBytes(path), before);
    }

    void damagedPagesGiveAMessage()
    {
        const std::string path = newPath();
        {
            HistoryStore store = HistoryStore::open(path);
            for (int i = 0; i < 50; ++i) {
                HistoryEntry e = entry(HistoryKind::Measurement, "p", "k");
                e.json = std::string(3000, 'x');
                store.add(e);
            }
        } // the last connection to close checkpoints the log into the file
        QByteArray bytes = fileBytes(path);
        QVERIFY(bytes.size() > 16 * 4096);
        for (qsizetype i = 4096; i < bytes.size(); ++i) // every page after the first
            bytes[i] = static_cast<char>(0xA5 ^ (i & 0xff));
        {
            QFile file(QString::fromStdString(path));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(bytes);
        }
        // Depending on where SQLite first trips over it, open or list fails; either way with a
        // sentence naming the file, never a crash.
        const std::string message = expectError(HistoryErrorKind::NotHistory, [&] {
            HistoryStore store = HistoryStore::open(path);
            (void)store.list();
            (void)store.load(1);
        });
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("damaged") != std::string::npos, message.c_str());
    }

    void refusesAnotherProgramsDatabase()
    {
        const std::string path = newPath();
        QVERIFY(QDir().mkpath(QFileInfo(QString::fromStdString(path)).path()));
        {
            SqliteDatabase db(path);
            db.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT);");
        }
        const QByteArray before = fileBytes(path);
        const std::string message =
            expectError(HistoryErrorKind::NotHistory, [&] { HistoryStore::open(path); });
        QVERIFY2(message.find("another program") != std::string::npos, message.c_str());
        QCOMPARE(fileBytes(path), before);
    }

    void folderThatCannotBeCreated()
    {
        const QString file = m_dir.filePath(QStringLiteral("plain-file"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const std::string path = (file + QStringLiteral("/sub/history.sqlite")).toStdString();
        const std::string message =
            expectError(HistoryErrorKind::CannotOpen, [&] { HistoryStore::open(path); });
        QVERIFY2(message.find("Cannot create the folder") != std::string::npos, message.c_str());
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());

        const std::string folder = m_dir.path().toStdString();
        const std::string message2 =
            expectError(HistoryErrorKind::CannotOpen, [&] { HistoryStore::open(folder); });
        QVERIFY2(message2.find("it is a folder") != std::string::npos, message2.c_str());
    }

    void readOnlyFolder()
    {
        if (::geteuid() == 0)
            QSKIP("running as root, which may write into read-only folders");
        const QString folder = m_dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        const std::string path = (folder + QStringLiteral("/history.sqlite")).toStdString();
        const std::string message =
            expectError(HistoryErrorKind::CannotOpen, [&] { HistoryStore::open(path); });
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("cannot be written") != std::string::npos, message.c_str());
    }

    void readOnlyFileAndFolder()
    {
        if (::geteuid() == 0)
            QSKIP("running as root, which may write into read-only files");
        const std::string path = newPath();
        HistoryStore::open(path).add(entry(HistoryKind::Measurement, "p", "k"));
        const QString file = QString::fromStdString(path);
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner));
        const std::string message =
            expectError(HistoryErrorKind::ReadOnly, [&] { HistoryStore::open(path); });
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("read-only") != std::string::npos, message.c_str());
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner));

        // An existing database in a folder that cannot be written: WAL needs files beside it.
        const QString folder = QFileInfo(file).path();
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        const std::string folderMessage =
            expectError(HistoryErrorKind::ReadOnly, [&] { HistoryStore::open(path); });
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY2(folderMessage.find(path) != std::string::npos, folderMessage.c_str());
    }

    void twoConnectionsShareTheFile()
    {
        const std::string path = newPath();
        HistoryStore first = HistoryStore::open(path);
        HistoryStore second = HistoryStore::open(path);
        const std::int64_t id = first.add(entry(HistoryKind::Measurement, "p", "k"));
        QCOMPARE(ids(second.list()), std::vector<std::int64_t>{id});
        QVERIFY(second.setNote(id, "seen from the second window"));
        QCOMPARE(first.load(id)->note, std::string("seen from the second window"));

        // A reader in the middle of a transaction does not block a writer (WAL), and keeps
        // seeing the snapshot it started with.
        SqliteDatabase reader(path);
        reader.exec("BEGIN");
        SqliteStatement before(reader, "SELECT count(*) FROM entries");
        before.step();
        QCOMPARE(before.int64(0), std::int64_t(1));
        before.reset();
        const std::int64_t id2 = second.add(entry(HistoryKind::Sweep, "p", "k"));
        QVERIFY(before.step());
        QCOMPARE(before.int64(0), std::int64_t(1));
        before.reset();
        reader.exec("COMMIT");
        QCOMPARE(first.count(), 2);
        QVERIFY(first.remove(id2));
        QVERIFY(!second.load(id2));
    }

    void twoWritersAtOnce()
    {
        const std::string path = newPath();
        // Both threads create and upgrade the new file at once: one waits for the other's
        // upgrade and then finds nothing left to do.
        constexpr int kPerThread = 40;
        std::vector<std::int64_t> idsA, idsB;
        std::string errorA, errorB;
        const auto writer = [&path](std::vector<std::int64_t> &out, std::string &error,
                                    const char *project) {
            try {
                HistoryStore store = HistoryStore::open(path);
                for (int i = 0; i < kPerThread; ++i) {
                    out.push_back(store.add(entry(HistoryKind::Measurement, project, "k")));
                    (void)store.list();
                }
            } catch (const std::exception &e) {
                error = e.what();
            }
        };
        std::thread a(writer, std::ref(idsA), std::ref(errorA), "a");
        std::thread b(writer, std::ref(idsB), std::ref(errorB), "b");
        a.join();
        b.join();
        QVERIFY2(errorA.empty(), errorA.c_str());
        QVERIFY2(errorB.empty(), errorB.c_str());
        std::set<std::int64_t> unique(idsA.begin(), idsA.end());
        unique.insert(idsB.begin(), idsB.end());
        QCOMPARE(unique.size(), std::size_t(2 * kPerThread));
        HistoryStore store = HistoryStore::open(path);
        HistoryFilter a_only;
        a_only.projectName = "a";
        QCOMPARE(store.count(a_only), kPerThread);
        QCOMPARE(store.count(), 2 * kPerThread);
    }

    void measurementSummaries()
    {
        Measurement m;
        m.statistics.count = 40;
        m.statistics.medianNs = 199312.0;
        m.throughput.effectiveGBps = 2694.4;
        QCOMPARE(measurementSummary(m), std::string("median 199.3 µs, 2694 GB/s"));
        m.statistics.medianNs = 12'500'000.0;
        m.throughput.effectiveGBps = 1.234;
        m.throughput.gflops = 820.2;
        QCOMPARE(measurementSummary(m), std::string("median 12.5 ms, 1.2 GB/s, 820 GFLOP/s"));
        m.throughput = {};
        m.statistics.medianNs = 3100.0;
        m.statistics.count = 4;
        m.faultStatus = "fault";
        QCOMPARE(measurementSummary(m), std::string("fault after 4 samples: median 3.10 µs"));
        m.statistics.count = 0;
        QCOMPARE(measurementSummary(m), std::string("fault before the first sample"));
        m.faultStatus.clear();
        m.stop.reason = StopReason::Cancelled;
        m.statistics.count = 12;
        m.statistics.medianNs = 850.0;
        QCOMPARE(measurementSummary(m), std::string("cancelled after 12 samples: median 850 ns"));
    }

    void storesAMeasurement()
    {
        Measurement m;
        m.statistics.count = 3;
        m.statistics.medianNs = 199312.5;
        m.samplesNs = {199312.5, 199400.25, 198999.125};
        m.throughput.effectiveGBps = 2694.4;
        m.provenance.kernel = "vector_add";
        m.provenance.deviceName = "NVIDIA H200";
        m.provenance.sourceHash = sourceHashFnv1a64("__global__ void vector_add() {}");

        HistoryStore store = HistoryStore::open(newPath());
        const std::int64_t id = store.addMeasurement(m, "Vector add", "/p/vector_add.cuwb");
        const std::optional<HistoryEntry> loaded = store.load(id);
        QVERIFY(loaded);
        QCOMPARE(loaded->kind, HistoryKind::Measurement);
        QCOMPARE(loaded->projectName, std::string("Vector add"));
        QCOMPARE(loaded->projectPath, std::string("/p/vector_add.cuwb"));
        QCOMPARE(loaded->kernel, std::string("vector_add"));
        QCOMPARE(loaded->deviceName, std::string("NVIDIA H200"));
        QCOMPARE(loaded->sourceHash, m.provenance.sourceHash);
        QCOMPARE(loaded->summary, std::string("median 199.3 µs, 2694 GB/s"));
        const Measurement back = nlohmann::json::parse(loaded->json).get<Measurement>();
        QVERIFY(back == m);
    }

    void kindNames()
    {
        QCOMPARE(std::string(historyKindName(HistoryKind::Sweep)), std::string("sweep"));
        QCOMPARE(historyKindFromName("measurement"), std::optional(HistoryKind::Measurement));
        QCOMPARE(historyKindFromName("profile"), std::optional<HistoryKind>());
    }
};

CUWB_TEST_GUILESS_MAIN(TestHistoryStore)
} // namespace tst_historystore
} // namespace

#include "tst_historystore.moc"
