// Nothing is lost: the real cuda-workbench, with its data folder in a scratch HOME, has a file
// edited (the session script types into it) and is killed with SIGKILL once the autosave is on
// disk. A second window started while the first runs offers nothing; a window started after the
// kill offers the edit, and Restore brings back the exact unsaved text as a modified buffer while
// the file on disk stays as it was. Discard removes what it offered.
//
// In the same process: a save, closing the buffer and a clean end of the window remove the
// autosaves; the timer writes them without being asked.
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/recovery/autosavestore.h"
#include "gui/shell/mainwindow.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace cuwb;

namespace {

// Generous: the window starts on a loaded CI machine; nothing here measures time.
constexpr int kStartTimeoutMs = 120000;

const QString kOriginal = QStringLiteral("__global__ void scale(float *x, float a)\n"
                                         "{\n"
                                         "    x[threadIdx.x] *= a;\n"
                                         "}\n");
const QString kTyped = QStringLiteral("// unsaved: \u00fcber \u6f22\u5b57 \"quoted\" \\ tab\t.\n");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// One cuda-workbench process with HOME and the XDG folders in `home`.
class Workbench
{
public:
    Workbench(const QTemporaryDir &home, const QString &name)
        : m_report(home.filePath(name + QStringLiteral(".json")))
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *variable :
             {"HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
            const QString folder =
                home.filePath(QStringLiteral("env/") + QString::fromLatin1(variable));
            QDir().mkpath(folder);
            env.insert(QString::fromLatin1(variable), folder);
        }
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("CUWB_CACHE_DIR"), QStringLiteral("off"));
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::ForwardedChannels);
    }
    ~Workbench()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(30000);
        }
    }

    bool start(QStringList arguments)
    {
        arguments << QStringLiteral("--script-report") << m_report;
        m_process.start(QStringLiteral(CUWB_GUI_PATH), arguments);
        return m_process.waitForStarted(30000);
    }
    // The session script's report, once written (the restore offer is answered by then).
    QJsonObject waitForReport()
    {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < kStartTimeoutMs) {
            if (m_process.state() == QProcess::NotRunning)
                break;
            if (QFile::exists(m_report))
                return QJsonDocument::fromJson(readAll(m_report)).object();
            QTest::qWait(50);
        }
        return {};
    }
    void killHard()
    {
        m_process.kill(); // SIGKILL: no destructor, no clean end
        m_process.waitForFinished(30000);
    }
    [[nodiscard]] QProcess &process() { return m_process; }

private:
    QString m_report;
    QProcess m_process;
};

QString autosaveRoot(const QTemporaryDir &home)
{
    return home.filePath(
        QStringLiteral("env/XDG_DATA_HOME/CUDA Workbench/cuda-workbench/autosave"));
}

// The entries written in `folder`, read as a restart would read them.
QList<AutosaveEntry> entriesIn(const QString &folder)
{
    QList<AutosaveEntry> entries;
    const QStringList files = QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const QString &file : files) {
        AutosaveEntry entry;
        QString error;
        if (AutosaveStore::readEntryFile(QDir(folder).filePath(file),
                                         AutosaveLimits{}.maxEntryBytes, entry, error))
            entries.append(entry);
    }
    return entries;
}

// An undoable edit at the end (QsciScintilla::append() forgets the undo history).
void typeAtEnd(Document *document, const QString &text)
{
    SourceEditor *editor = document->editor();
    editor->SendScintilla(QsciScintillaBase::SCI_INSERTTEXT,
                          static_cast<unsigned long>(editor->length()), text.toUtf8().constData());
}

QJsonObject documentWithPath(const QJsonObject &report, const QString &path)
{
    const QJsonArray documents = report.value(QStringLiteral("documents")).toArray();
    for (const QJsonValue &document : documents) {
        if (document.toObject().value(QStringLiteral("path")).toString() == path)
            return document.toObject();
    }
    return {};
}

} // namespace

class TestRecovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedWindowIsOfferedAndRestored();
    void saveCloseAndCleanEndRemoveAutosaves();
    void restoreOpensModifiedBuffers();
};

void TestRecovery::killedWindowIsOfferedAndRestored()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString kernel = QFileInfo(home.filePath(QStringLiteral("kernel.cu"))).absoluteFilePath();
    {
        QFile file(kernel);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kOriginal.toUtf8());
    }
    const QString expected = kOriginal + kTyped;

    // The first window: the file, edited and not saved.
    Workbench first(home, QStringLiteral("first"));
    QVERIFY(first.start({kernel, QStringLiteral("--script-type"), kTyped}));
    const QJsonObject firstReport = first.waitForReport();
    QVERIFY2(!firstReport.isEmpty(), "the first window wrote no report");
    QCOMPARE(firstReport.value(QStringLiteral("offerShown")).toBool(), false);
    const QString firstSession = firstReport.value(QStringLiteral("sessionFolder")).toString();
    QVERIFY(firstSession.startsWith(autosaveRoot(home)));
    QCOMPARE(documentWithPath(firstReport, kernel).value(QStringLiteral("text")).toString(),
             expected);

    // Its autosave appears a few seconds after the edit.
    QTRY_VERIFY_WITH_TIMEOUT(!entriesIn(firstSession).isEmpty(), kStartTimeoutMs);
    const QList<AutosaveEntry> autosaved = entriesIn(firstSession);
    QCOMPARE(autosaved.size(), 1);
    QCOMPARE(autosaved.front().filePath, kernel);
    QCOMPARE(autosaved.front().text, expected);

    // A second window while the first runs: the first one's autosave is not offered nor taken.
    {
        Workbench second(home, QStringLiteral("second"));
        QVERIFY(second.start({QStringLiteral("--script-recovery"), QStringLiteral("restore")}));
        const QJsonObject report = second.waitForReport();
        QVERIFY2(!report.isEmpty(), "the second window wrote no report");
        QCOMPARE(report.value(QStringLiteral("offerShown")).toBool(), false);
        QVERIFY(report.value(QStringLiteral("offered")).toArray().isEmpty());
        QCOMPARE(entriesIn(firstSession).size(), 1);
        second.killHard(); // it had nothing unsaved: its folder is dropped silently later
    }

    first.killHard();
    QCOMPARE(QString::fromUtf8(readAll(kernel)), kOriginal);

    // After the kill: the offer lists the file, and Restore brings back the unsaved text.
    Workbench third(home, QStringLiteral("third"));
    QVERIFY(third.start({QStringLiteral("--script-recovery"), QStringLiteral("restore")}));
    const QJsonObject report = third.waitForReport();
    QVERIFY2(!report.isEmpty(), "the restarted window wrote no report");
    QCOMPARE(report.value(QStringLiteral("offerShown")).toBool(), true);
    const QJsonArray offered = report.value(QStringLiteral("offered")).toArray();
    QCOMPARE(offered.size(), 1);
    QCOMPARE(offered.at(0).toObject().value(QStringLiteral("path")).toString(), kernel);
    QCOMPARE(offered.at(0).toObject().value(QStringLiteral("label")).toString(),
             QDir::toNativeSeparators(kernel));
    QVERIFY(!offered.at(0).toObject().value(QStringLiteral("savedAt")).toString().isEmpty());
    const QJsonObject restored = documentWithPath(report, kernel);
    QVERIFY2(!restored.isEmpty(), "the restored buffer is not open");
    QCOMPARE(restored.value(QStringLiteral("text")).toString(), expected);
    QCOMPARE(restored.value(QStringLiteral("modified")).toBool(), true);
    // Restoring wrote nothing over the file, and moved the autosave into the new session.
    QCOMPARE(QString::fromUtf8(readAll(kernel)), kOriginal);
    QVERIFY(!QFileInfo::exists(firstSession));
    const QString thirdSession = report.value(QStringLiteral("sessionFolder")).toString();
    const QList<AutosaveEntry> moved = entriesIn(thirdSession);
    QCOMPARE(moved.size(), 1);
    QCOMPARE(moved.front().text, expected);
    third.killHard();

    // Killed again: offered again; Discard removes it, and the next start offers nothing.
    {
        Workbench fourth(home, QStringLiteral("fourth"));
        QVERIFY(fourth.start({QStringLiteral("--script-recovery"), QStringLiteral("discard")}));
        const QJsonObject discarded = fourth.waitForReport();
        QCOMPARE(discarded.value(QStringLiteral("offerShown")).toBool(), true);
        QCOMPARE(discarded.value(QStringLiteral("offered")).toArray().size(), 1);
        QVERIFY(documentWithPath(discarded, kernel).isEmpty());
        QVERIFY(!QFileInfo::exists(thirdSession));
        fourth.killHard();
    }
    Workbench fifth(home, QStringLiteral("fifth"));
    QVERIFY(fifth.start({QStringLiteral("--script-recovery"), QStringLiteral("restore")}));
    const QJsonObject nothing = fifth.waitForReport();
    QVERIFY2(!nothing.isEmpty(), "the last window wrote no report");
    QCOMPARE(nothing.value(QStringLiteral("offerShown")).toBool(), false);
    fifth.killHard();
    QCOMPARE(QString::fromUtf8(readAll(kernel)), kOriginal);
}

void TestRecovery::saveCloseAndCleanEndRemoveAutosaves()
{
    QTemporaryDir home;
    const QString kernel = home.filePath(QStringLiteral("kernel.cu"));
    {
        QFile file(kernel);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kOriginal.toUtf8());
    }
    MainWindow::Settings settings;
    settings.probeDevices = false;
    settings.prompts = false;
    settings.restoreLayout = false;
    settings.autosaveRoot = home.filePath(QStringLiteral("autosave"));
    auto window = std::make_unique<MainWindow>(settings);
    AutosaveController *autosave = window->autosaveController();
    QVERIFY(autosave);
    QVERIFY2(autosave->isActive(), qPrintable(autosave->errorMessage()));
    const QString session = autosave->sessionFolder();
    autosave->setIntervalMs(20);

    Document *document = window->openPath(kernel);
    QVERIFY(document);
    const QString entryFile =
        QDir(session).filePath(QStringLiteral("document-%1.json").arg(document->id()));
    QVERIFY(!QFile::exists(entryFile));

    // The timer writes it after an edit, without being asked.
    typeAtEnd(document, kTyped);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(entryFile), 30000);
    autosave->waitForWrites();
    QCOMPARE(entriesIn(session).front().text, kOriginal + kTyped);

    // A save removes it.
    QVERIFY(window->documentTabs()->save(document));
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(entryFile), 30000);

    // Undo to the saved text removes it too.
    typeAtEnd(document, QStringLiteral("x"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(entryFile), 30000);
    document->editor()->undo();
    QVERIFY(!document->isModified());
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(entryFile), 30000);

    // Closing the modified buffer (its edits discarded) removes it.
    typeAtEnd(document, QStringLiteral("y"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(entryFile), 30000);
    QVERIFY(window->documentTabs()->closeDocument(document));
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(entryFile), 30000);

    // An untitled buffer, then the window's clean end: the whole session folder goes.
    Document *untitled = window->documentTabs()->newDocument();
    untitled->editor()->setText(QStringLiteral("int untitled;\n"));
    const QString untitledFile =
        QDir(session).filePath(QStringLiteral("document-%1.json").arg(untitled->id()));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(untitledFile), 30000);
    autosave->waitForWrites();
    QCOMPARE(entriesIn(session).front().filePath, QString());
    window.reset();
    QVERIFY(!QFileInfo::exists(session));
    QCOMPARE(QString::fromUtf8(readAll(kernel)), kOriginal + kTyped);
}

void TestRecovery::restoreOpensModifiedBuffers()
{
    QTemporaryDir home;
    const QString kernel = QFileInfo(home.filePath(QStringLiteral("kernel.cu"))).absoluteFilePath();
    {
        QFile file(kernel);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kOriginal.toUtf8());
    }
    MainWindow::Settings settings;
    settings.probeDevices = false;
    settings.prompts = false;
    settings.restoreLayout = false;
    settings.autosaveRoot = home.filePath(QStringLiteral("autosave"));
    MainWindow window(settings);
    AutosaveController *autosave = window.autosaveController();
    QVERIFY(autosave);

    const auto entry = [](const QString &path, const QString &name, const QString &text) {
        AutosaveEntry e;
        e.key = QStringLiteral("document-1");
        e.filePath = path;
        e.displayName = name;
        e.savedAt = QDateTime::currentDateTimeUtc();
        e.text = text;
        return e;
    };
    const QString gone = home.filePath(QStringLiteral("deleted-since.cu"));
    const QList<AutosaveEntry> entries{
        entry(kernel, QStringLiteral("kernel.cu"), kOriginal + kTyped),
        entry(QString(), QStringLiteral("untitled-4.cu"), QStringLiteral("int untitled;\n")),
        entry(gone, QStringLiteral("deleted-since.cu"), QStringLiteral("int gone;\n")),
    };
    QCOMPARE(autosave->restore(entries), 3);

    DocumentTabs *tabs = window.documentTabs();
    Document *restored = nullptr;
    Document *untitled = nullptr;
    Document *orphan = nullptr;
    for (Document *document : tabs->documents()) {
        if (document->filePath() == kernel)
            restored = document;
        else if (document->filePath() == gone)
            orphan = document;
        else if (document->editor()->text() == QStringLiteral("int untitled;\n"))
            untitled = document;
    }
    QVERIFY(restored && untitled && orphan);
    QCOMPARE(restored->editor()->text(), kOriginal + kTyped);
    QVERIFY(restored->isModified());
    QVERIFY(untitled->isModified());
    QVERIFY(untitled->filePath().isEmpty());
    QVERIFY(orphan->isModified());
    QVERIFY(!QFileInfo::exists(gone)); // nothing written until the user saves
    QCOMPARE(QString::fromUtf8(readAll(kernel)), kOriginal);
    // Undo returns to what the file holds.
    restored->editor()->undo();
    QCOMPARE(restored->editor()->text(), kOriginal);
    QVERIFY(!restored->isModified());
}

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
