// The history survives a kill in the middle of a write: a child process adds entries in a loop
// (documents of varying size, up to a few hundred KB, so that a kill often lands inside a
// transaction) and reports each id once add() has returned; it is killed with SIGKILL at random
// moments, the first time possibly while it creates the database. After every kill the database
// opens, PRAGMA integrity_check says "ok", and every entry reported before the kill is there with
// its exact document.
//
// Run with `--write-history DB`, this program is the child.
#include "history/historystore.h"
#include "history/sqlite.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstdio>
#include <map>
#include <string>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_historycrash {
// moc reads raw strings with unbalanced braces as code: the helpers are not its business.
#ifndef Q_MOC_RUN

namespace {

// The document of entry number `sequence`: its size varies from a few bytes to ~300 KB, and its
// contents say which entry it is, so a torn or mixed-up page would not compare equal.
std::string documentFor(std::int64_t sequence)
{
    const std::size_t size = std::size_t((sequence * 7919) % 300000);
    std::string payload(size, char('a' + sequence % 26));
    return R"({"sequence":)" + std::to_string(sequence) + R"(,"payload":")" + payload + R"("})";
}

HistoryEntry entryFor(std::int64_t sequence)
{
    HistoryEntry entry;
    entry.kind = sequence % 5 == 0 ? HistoryKind::Sweep : HistoryKind::Measurement;
    entry.projectName = "crash";
    entry.kernel = "k" + std::to_string(sequence);
    entry.summary = "entry " + std::to_string(sequence);
    entry.json = documentFor(sequence);
    return entry;
}

// The child: adds entries until it is killed; "<id> <sequence>" on stdout after each add().
int writeHistory(const std::string &path)
{
    try {
        HistoryStore store = HistoryStore::open(path);
        // Go on from the entries of earlier runs, so each run's sequence numbers are new.
        std::int64_t sequence = store.count() * 1000 + 1;
        for (;; ++sequence) {
            const std::int64_t id = store.add(entryFor(sequence));
            std::printf("%lld %lld\n", static_cast<long long>(id),
                        static_cast<long long>(sequence));
            std::fflush(stdout);
        }
    } catch (const std::exception &error) {
        std::fprintf(stderr, "history writer: %s\n", error.what());
        return 1;
    }
}

} // namespace

#endif // Q_MOC_RUN

class TestHistoryCrash : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void survivesKillsDuringWrites();
};

void TestHistoryCrash::survivesKillsDuringWrites()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("history.sqlite")).toStdString();
    std::map<std::int64_t, std::int64_t> committed; // id -> sequence, over all runs
    QRandomGenerator *random = QRandomGenerator::global();

    constexpr int kRuns = 8;
    for (int run = 0; run < kRuns; ++run) {
        QProcess writer;
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start(cuwb::test::program(),
                     cuwb::test::driverArguments() + QStringList{QStringLiteral("--write-history"),
                                                                 QString::fromStdString(path)});
        QVERIFY2(writer.waitForStarted(30000), qPrintable(writer.errorString()));
        // The first run may die before or while it creates the database; the others once
        // they have written at least one entry, at a random moment after it.
        if (run > 0)
            QTRY_VERIFY_WITH_TIMEOUT(writer.canReadLine() || writer.state() != QProcess::Running,
                                     60000);
        QTest::qWait(int(random->bounded(run == 0 ? 60 : 400)));
        QCOMPARE(writer.state(), QProcess::Running); // it writes until killed
        ::kill(pid_t(writer.processId()), SIGKILL);
        QVERIFY(writer.waitForFinished(30000));
        QCOMPARE(writer.exitStatus(), QProcess::CrashExit);

        // Only whole lines count: a line cut by the kill was not reported.
        const QList<QByteArray> lines = writer.readAllStandardOutput().split('\n');
        int reported = 0;
        for (qsizetype i = 0; i + 1 < lines.size(); ++i) { // the last piece has no newline
            const QList<QByteArray> fields = lines.at(i).split(' ');
            if (fields.size() != 2)
                continue;
            committed[fields[0].toLongLong()] = fields[1].toLongLong();
            ++reported;
        }
        if (run > 0)
            QVERIFY(reported > 0);

        // The database as the next start finds it.
        {
            SqliteDatabase db(path);
            SqliteStatement check(db, "PRAGMA integrity_check");
            QVERIFY(check.step());
            QCOMPARE(QString::fromStdString(check.text(0)), QStringLiteral("ok"));
        }
        if (run == 0 && committed.empty())
            continue; // killed before it wrote anything: an empty or absent history is fine
        HistoryStore store = HistoryStore::open(path);
        QVERIFY(store.count() >= std::int64_t(committed.size()));
        for (const auto &[id, sequence] : committed) {
            const std::optional<HistoryEntry> entry = store.load(id);
            QVERIFY2(entry,
                     qPrintable(QStringLiteral("entry %1 (run %2) is lost").arg(id).arg(run)));
            QVERIFY(entry->summary == "entry " + std::to_string(sequence));
            QVERIFY2(entry->json == documentFor(sequence),
                     qPrintable(QStringLiteral("entry %1 has another document").arg(id)));
        }
    }
    QVERIFY(committed.size() > std::size_t(kRuns - 1));
}

int driverMain(int argc, char *argv[])
{
    if (argc == 3 && qstrcmp(argv[1], "--write-history") == 0)
        return writeHistory(argv[2]);
    QCoreApplication app(argc, argv);
    TestHistoryCrash test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

CUWB_TEST_CUSTOM_MAIN(driverMain)
} // namespace tst_historycrash
} // namespace

#include "tst_historycrash.moc"
