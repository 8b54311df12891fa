// Nothing is lost: the real cuda-workbench, with its data folder in a scratch HOME, has a file
// edited (the session script types into it) and is killed with SIGKILL once the autosave is on
// disk. A second window started while the first runs offers nothing; a window started after the
// kill offers the edit, and Restore brings back the exact unsaved text as a modified buffer while
// the file on disk stays as it was. Discard removes what it offered.
//
// A project's settings likewise: the window, with a project open, has its launch, compile options
// and sweep edited through the panels and is killed once their autosave is on disk; the next
// window offers "project settings of" the project, and Restore opens it with exactly those
// settings, marked unsaved, the project file untouched.
//
// In the same process: a save, closing the buffer and a clean end of the window remove the
// autosaves; the timer writes them without being asked. The project's autosave follows its
// settings (written when edited, removed when saved, opened again or replaced), and one whose
// project file is gone is restored as an unsaved project under the same path.
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/launch/variablesmodel.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/recovery/autosavestore.h"
#include "gui/recovery/recoverydialog.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/projectcontroller.h"

#include "project/project.h"

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
#include <optional>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_recovery {

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

// The vector_add sample's project and source, copied into `folder`; returns the project's path.
QString copyVectorAdd(const QString &folder)
{
    const QString samples = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/");
    for (const QString &name :
         {QStringLiteral("vector_add.cu"), QStringLiteral("vector_add.cuwb")}) {
        const QString to = QDir(folder).filePath(name);
        if (!QFile::copy(samples + name, to) ||
            !QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner))
            return {};
    }
    return QFileInfo(QDir(folder).filePath(QStringLiteral("vector_add.cuwb"))).absoluteFilePath();
}

// The project entry of a session folder, if there is one.
std::optional<AutosaveEntry> projectEntryIn(const QString &folder)
{
    for (const AutosaveEntry &entry : entriesIn(folder)) {
        if (entry.kind == AutosaveEntry::Kind::Project)
            return entry;
    }
    return std::nullopt;
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
    void killedWindowRestoresProjectSettings();
    void saveCloseAndCleanEndRemoveAutosaves();
    void projectAutosaveFollowsItsSettings();
    void restoreOpensModifiedBuffers();
    void restoreWithoutTheProjectFile();
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

void TestRecovery::killedWindowRestoresProjectSettings()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString project = copyVectorAdd(home.path());
    QVERIFY(!project.isEmpty());
    const QByteArray onDisk = readAll(project);

    // The first window: the project's launch, options and sweep edited, not saved.
    Workbench first(home, QStringLiteral("first"));
    QVERIFY(first.start({project, QStringLiteral("--script-edit-project")}));
    const QJsonObject firstReport = first.waitForReport();
    QVERIFY2(!firstReport.isEmpty(), "the first window wrote no report");
    const QJsonObject edited = firstReport.value(QStringLiteral("project")).toObject();
    QCOMPARE(edited.value(QStringLiteral("path")).toString(), project);
    QCOMPARE(edited.value(QStringLiteral("modified")).toBool(), true);
    QVERIFY2(firstReport.value(QStringLiteral("windowTitle"))
                 .toString()
                 .contains(QStringLiteral("vector_add.cuwb \u25cf")),
             qPrintable(firstReport.value(QStringLiteral("windowTitle")).toString()));
    const QString editedJson = edited.value(QStringLiteral("json")).toString();
    // Each part of the edit is there: the launch, the options and the sweep.
    const ProjectLoad editedLoad = parseProject(editedJson.toStdString());
    QVERIFY2(editedLoad.project, editedLoad.error.c_str());
    const Project &expected = *editedLoad.project;
    QCOMPARE(expected.launch.block[0], std::string("128"));
    QCOMPARE(expected.launch.variables.back().first, std::string("SCRIPTED"));
    QVERIFY(expected.options.fastMath);
    QCOMPARE(expected.options.defines.back(), std::string("SCRIPTED_DEFINE=3"));
    QVERIFY(expected.sweep);
    QCOMPARE(expected.sweep->constraints, std::vector<std::string>{"block.x <= 512"});
    QCOMPARE(expected.sweep->settings.fixedSamples, 7);

    // The autosave of those settings appears a few seconds after the edit.
    const QString firstSession = firstReport.value(QStringLiteral("sessionFolder")).toString();
    QTRY_VERIFY_WITH_TIMEOUT(projectEntryIn(firstSession) &&
                                 projectEntryIn(firstSession)->text == editedJson,
                             kStartTimeoutMs);
    QCOMPARE(projectEntryIn(firstSession)->filePath, project);
    first.killHard();
    QCOMPARE(readAll(project), onDisk);

    // After the kill: the offer lists the project's settings, and Restore brings them back.
    Workbench second(home, QStringLiteral("second"));
    QVERIFY(second.start({QStringLiteral("--script-recovery"), QStringLiteral("restore")}));
    const QJsonObject report = second.waitForReport();
    QVERIFY2(!report.isEmpty(), "the restarted window wrote no report");
    QCOMPARE(report.value(QStringLiteral("offerShown")).toBool(), true);
    const QJsonArray offered = report.value(QStringLiteral("offered")).toArray();
    QCOMPARE(offered.size(), 1);
    const QJsonObject offer = offered.at(0).toObject();
    QCOMPARE(offer.value(QStringLiteral("kind")).toString(), QStringLiteral("project"));
    QCOMPARE(offer.value(QStringLiteral("path")).toString(), project);
    QCOMPARE(offer.value(QStringLiteral("label")).toString(),
             QStringLiteral("project settings of ") + QDir::toNativeSeparators(project));
    const QJsonObject restored = report.value(QStringLiteral("project")).toObject();
    QCOMPARE(restored.value(QStringLiteral("path")).toString(), project);
    QCOMPARE(restored.value(QStringLiteral("modified")).toBool(), true);
    // Exactly the settings of the killed window, after its kernel compiled again.
    QCOMPARE(restored.value(QStringLiteral("json")).toString(), editedJson);
    QVERIFY2(report.value(QStringLiteral("windowTitle"))
                 .toString()
                 .contains(QStringLiteral("vector_add.cuwb \u25cf")),
             qPrintable(report.value(QStringLiteral("windowTitle")).toString()));
    // Nothing written over the project; its autosave moved into the new session.
    QCOMPARE(readAll(project), onDisk);
    QVERIFY(!QFileInfo::exists(firstSession));
    const QString secondSession = report.value(QStringLiteral("sessionFolder")).toString();
    QTRY_VERIFY_WITH_TIMEOUT(projectEntryIn(secondSession), kStartTimeoutMs);
    QCOMPARE(projectEntryIn(secondSession)->text, editedJson);
    second.killHard();
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

void TestRecovery::projectAutosaveFollowsItsSettings()
{
    QTemporaryDir home;
    const QString project = copyVectorAdd(home.path());
    QVERIFY(!project.isEmpty());
    MainWindow::Settings settings;
    settings.probeDevices = false;
    settings.prompts = false;
    settings.restoreLayout = false;
    settings.autosaveRoot = home.filePath(QStringLiteral("autosave"));
    auto window = std::make_unique<MainWindow>(settings);
    AutosaveController *autosave = window->autosaveController();
    QVERIFY(autosave && autosave->isActive());
    const QString session = autosave->sessionFolder();
    autosave->setIntervalMs(20);
    ProjectController *projects = window->projectController();
    const auto compiled = [&] {
        return QTest::qWaitFor(
            [&] { return window->launchPanel()->currentKernel() == QStringLiteral("vector_add"); },
            kStartTimeoutMs);
    };
    const auto settled = [&] {
        QTest::qWait(100); // several ticks
        autosave->waitForWrites();
    };

    // Opened and compiled: nothing to autosave.
    QVERIFY(window->openPath(project));
    QVERIFY(compiled());
    settled();
    QVERIFY(!projectEntryIn(session));

    // An edit: the project as it would be saved, under its path.
    VariablesModel *variables = window->launchPanel()->variablesModel();
    variables->addVariable(QStringLiteral("M"), QStringLiteral("77"));
    QVERIFY(projects->isModified());
    QTRY_VERIFY_WITH_TIMEOUT(projectEntryIn(session), 30000);
    autosave->waitForWrites();
    std::optional<AutosaveEntry> entry = projectEntryIn(session);
    QCOMPARE(entry->filePath, project);
    QCOMPARE(entry->displayName, QStringLiteral("vector_add.cuwb"));
    QCOMPARE(entry->text,
             QString::fromStdString(serializeProject(projects->currentProject(project))));
    QVERIFY(entry->text.contains(QStringLiteral("\"77\"")));

    // Saved: the autosave goes.
    QVERIFY(projects->save());
    QTRY_VERIFY_WITH_TIMEOUT(!projectEntryIn(session), 30000);

    // Edited, then opened again from its file (a revert): it goes too.
    variables->addVariable(QStringLiteral("K"), QStringLiteral("5"));
    QTRY_VERIFY_WITH_TIMEOUT(projectEntryIn(session), 30000);
    QVERIFY(window->openPath(project));
    QVERIFY(!projects->isModified());
    QTRY_VERIFY_WITH_TIMEOUT(!projectEntryIn(session), 30000);

    // Edited, then the window's clean end: the session goes with it.
    QVERIFY(compiled());
    variables->addVariable(QStringLiteral("L"), QStringLiteral("6"));
    QTRY_VERIFY_WITH_TIMEOUT(projectEntryIn(session), 30000);
    window.reset();
    QVERIFY(!QFileInfo::exists(session));
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

void TestRecovery::restoreWithoutTheProjectFile()
{
    QTemporaryDir home;
    const QString original = copyVectorAdd(home.path());
    QVERIFY(!original.isEmpty());
    const ProjectLoad load = loadProject(original.toStdString());
    QVERIFY2(load.project, load.error.c_str());
    Project autosaved = *load.project;
    autosaved.launch.block[0] = "64";
    autosaved.options.fastMath = true;
    // The project file was deleted since; its source is still beside where it was.
    const QString gone = QDir(home.path()).filePath(QStringLiteral("deleted.cuwb"));

    MainWindow::Settings settings;
    settings.probeDevices = false;
    settings.prompts = false;
    settings.restoreLayout = false;
    settings.autosaveRoot = home.filePath(QStringLiteral("autosave"));
    MainWindow window(settings);
    AutosaveController *autosave = window.autosaveController();
    QVERIFY(autosave);
    QSignalSpy status(autosave, &AutosaveController::statusMessage);

    AutosaveEntry entry;
    entry.kind = AutosaveEntry::Kind::Project;
    entry.key = AutosaveController::projectEntryKey();
    entry.filePath = gone;
    entry.displayName = QStringLiteral("deleted.cuwb");
    entry.savedAt = QDateTime::currentDateTimeUtc();
    entry.text = QString::fromStdString(serializeProject(autosaved));
    QVERIFY(RecoveryDialog::entryLabel(entry).contains(QStringLiteral("no longer exists")));
    QCOMPARE(autosave->restore({entry}), 1);

    // Open under the same path, with the autosaved settings, unsaved; nothing written.
    ProjectController *projects = window.projectController();
    QCOMPARE(projects->projectPath(), gone);
    QVERIFY(projects->isModified());
    QVERIFY(!QFileInfo::exists(gone));
    const Project shown = projects->currentProject(gone);
    QCOMPARE(shown.launch.block[0], std::string("64"));
    QVERIFY(shown.options.fastMath);
    QVERIFY(window.currentDocument());
    QVERIFY(window.currentDocument()->filePath().endsWith(QStringLiteral("/vector_add.cu")));
    QVERIFY2(window.windowTitle().contains(QStringLiteral("deleted.cuwb \u25cf")),
             qPrintable(window.windowTitle()));
    QVERIFY(!status.isEmpty());
    const QString said = status.last().at(0).toString();
    QVERIFY2(said.contains(QStringLiteral("no longer exists")), qPrintable(said));

    // Save Project writes it there again, and it is no longer modified.
    QVERIFY2(projects->save(), qPrintable(projects->lastError()));
    QVERIFY(QFileInfo::exists(gone));
    QVERIFY(!projects->isModified());
    const ProjectLoad saved = loadProject(gone.toStdString());
    QVERIFY2(saved.project, saved.error.c_str());
    QCOMPARE(saved.project->launch.block[0], std::string("64"));
}

CUWB_TEST_MAIN(TestRecovery)
} // namespace tst_recovery
} // namespace

#include "tst_recovery.moc"
