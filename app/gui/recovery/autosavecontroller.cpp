#include "gui/recovery/autosavecontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/recovery/recoverydialog.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace cuwb {

namespace {

QString entryKey(int documentId)
{
    return QStringLiteral("document-%1").arg(documentId);
}

} // namespace

AutosaveController::AutosaveController(DocumentTabs *tabs, const QString &root, QObject *parent)
    : QObject(parent)
    , m_tabs(tabs)
    , m_root(root)
    , m_store(std::make_shared<AutosaveStore>(root))
{
    m_thread.setObjectName(QStringLiteral("autosave"));
    m_writer = new QObject; // deleted on its thread when the thread finishes
    m_writer->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_writer, &QObject::deleteLater);
    m_thread.start(QThread::LowPriority);

    m_timer.setSingleShot(true);
    m_timer.setInterval(kDefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &AutosaveController::autosaveNow);
    connect(m_tabs, &DocumentTabs::documentTextChanged, this, &AutosaveController::markDirty);
    // A save leaves the buffer unmodified: its autosave goes at the next tick.
    connect(m_tabs, &DocumentTabs::fileSaved, this, [this](const QString &path) {
        for (Document *document : m_tabs->documents()) {
            if (document->filePath() == path)
                markDirty(document);
        }
    });
}

AutosaveController::~AutosaveController()
{
    // The clean end: whatever was unsaved, the user has been asked about it (or it is a
    // window without prompts). The writer finishes what it has, then the folder goes.
    m_thread.quit();
    m_thread.wait();
    m_store->close();
}

void AutosaveController::watch(Document *document)
{
    if (m_watched.contains(document->id()))
        return;
    m_watched.insert(document->id());
    const int id = document->id();
    // Undoing to the saved text, or a save elsewhere, changes only the modified flag.
    connect(document, &Document::modificationChanged, this,
            [this, document] { markDirty(document); });
    connect(document, &QObject::destroyed, this, [this, id] {
        m_watched.remove(id);
        m_dirty.insert(id); // the next tick finds no such document and removes its autosave
        if (!m_timer.isActive())
            m_timer.start();
    });
}

void AutosaveController::markDirty(Document *document)
{
    if (!document || !isActive())
        return;
    watch(document);
    m_dirty.insert(document->id());
    if (!m_timer.isActive())
        m_timer.start();
}

QString AutosaveController::projectEntryKey()
{
    return QStringLiteral("project");
}

void AutosaveController::setProjectHooks(ProjectProvider provider, ProjectRestorer restorer)
{
    m_projectProvider = std::move(provider);
    m_projectRestorer = std::move(restorer);
}

void AutosaveController::markProjectDirty()
{
    if (!isActive() || !m_projectProvider)
        return;
    m_projectDirty = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void AutosaveController::autosaveNow()
{
    m_timer.stop();
    if ((m_dirty.isEmpty() && !m_projectDirty) || !isActive())
        return;
    // The project as it would be saved is copied here and serialised on the writer's thread.
    std::optional<ProjectSnapshot> project;
    const bool projectChanged = m_projectDirty && m_projectProvider;
    if (projectChanged)
        project = m_projectProvider();
    m_projectDirty = false;
    // Only the copies happen here; encoding and writing happen on the writer's thread.
    QList<AutosaveEntry> writes;
    QStringList removals;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const int id : std::as_const(m_dirty)) {
        Document *document = m_tabs->documentById(id);
        if (!document || !document->isModified()) {
            removals.append(entryKey(id));
            continue;
        }
        // Not even copied when it cannot be kept: a huge buffer costs nothing every tick.
        const qint64 bytes = document->editor()->length();
        if (bytes > m_store->limits().maxEntryBytes) {
            report(
                entryKey(id),
                tr("%1 is not autosaved: at %2 it is larger than the %3 an autosave may take.")
                    .arg(document->displayName(), QLocale::system().formattedDataSize(bytes, 0),
                         QLocale::system().formattedDataSize(m_store->limits().maxEntryBytes, 0)));
            continue;
        }
        AutosaveEntry entry;
        entry.key = entryKey(id);
        entry.filePath = document->filePath();
        entry.displayName = document->displayName();
        entry.savedAt = now;
        entry.text = document->editor()->text();
        writes.append(entry);
    }
    m_dirty.clear();
    if (projectChanged && !project)
        removals.append(projectEntryKey());
    QMetaObject::invokeMethod(
        m_writer,
        [this, store = m_store, writes = std::move(writes), removals = std::move(removals),
         project = std::move(project), now] {
            for (const QString &key : removals)
                store->remove(key);
            QList<AutosaveEntry> entries = writes;
            if (project) {
                AutosaveEntry entry;
                entry.kind = AutosaveEntry::Kind::Project;
                entry.key = projectEntryKey();
                entry.filePath = project->path;
                entry.displayName = QFileInfo(project->path).fileName();
                entry.savedAt = now;
                try {
                    entry.text = toQString(serializeProject(project->project));
                    entries.append(entry);
                } catch (const std::exception &error) {
                    const QString message = tr("The settings of %1 are not autosaved: %2")
                                                .arg(entry.displayName, toQString(error.what()));
                    QMetaObject::invokeMethod(
                        this, [this, key = entry.key, message] { report(key, message); },
                        Qt::QueuedConnection);
                }
            }
            for (const AutosaveEntry &entry : std::as_const(entries)) {
                const QString error = store->write(entry);
                // The controller waits for this thread before it goes, so `this` is alive.
                QMetaObject::invokeMethod(
                    this, [this, key = entry.key, error] { report(key, error); },
                    Qt::QueuedConnection);
            }
        },
        Qt::QueuedConnection);
}

void AutosaveController::report(const QString &key, const QString &error)
{
    // Said once per problem, not at every tick while a buffer stays too large.
    if (m_reported.value(key) == error)
        return;
    m_reported.insert(key, error);
    if (!error.isEmpty())
        Q_EMIT statusMessage(error);
}

void AutosaveController::waitForWrites()
{
    if (m_thread.isRunning())
        QMetaObject::invokeMethod(
            m_writer, [] {}, Qt::BlockingQueuedConnection);
}

int AutosaveController::restore(const QList<AutosaveEntry> &entries)
{
    int opened = 0;
    // The project first: its source opens in a tab that a buffer's autosave then fills.
    // One project is open at a time: the newest autosave of a project's settings is restored.
    QStringList messages;
    const AutosaveEntry *newest = nullptr;
    int projects = 0;
    for (const AutosaveEntry &entry : entries) {
        if (entry.kind != AutosaveEntry::Kind::Project)
            continue;
        ++projects;
        if (!newest || newest->savedAt <= entry.savedAt)
            newest = &entry;
    }
    if (projects > 1)
        messages.append(tr("%n older autosave(s) of project settings were not restored (one "
                           "project is open at a time).",
                           nullptr, projects - 1));
    if (newest && m_projectRestorer) {
        const AutosaveEntry &entry = *newest;
        ProjectLoad load;
        try {
            load = parseProject(toStdString(entry.text));
        } catch (const std::exception &error) {
            load.error = error.what();
        }
        QString message;
        if (!load.project)
            message = tr("The settings of %1 cannot be restored: %2")
                          .arg(entry.displayName, toQString(load.error));
        else if (m_projectRestorer(entry.filePath, *load.project, message))
            ++opened;
        if (!message.isEmpty())
            messages.prepend(message);
    }
    for (const AutosaveEntry &entry : entries) {
        if (entry.kind != AutosaveEntry::Kind::Buffer)
            continue;
        Document *document = nullptr;
        if (!entry.filePath.isEmpty() && QFileInfo::exists(entry.filePath))
            document = m_tabs->openFile(entry.filePath);
        if (!document) {
            // Untitled, or its file is gone (or unreadable): the text in a new tab; a file
            // path it had is kept, so that Save writes where it was meant to go.
            document = m_tabs->newDocument();
            if (!entry.filePath.isEmpty())
                document->setFilePath(QFileInfo(entry.filePath).absoluteFilePath());
        }
        // Replacing the text is an edit: the buffer is modified, the file untouched, and
        // one undo returns to what the file holds (QsciScintilla::setText() would forget the
        // undo history).
        SourceEditor *editor = document->editor();
        if (editor->text() != entry.text) {
            const QByteArray bytes = entry.text.toUtf8();
            editor->SendScintilla(QsciScintillaBase::SCI_SETTARGETSTART, 0UL);
            editor->SendScintilla(QsciScintillaBase::SCI_SETTARGETEND,
                                  static_cast<unsigned long>(editor->length()));
            editor->SendScintilla(QsciScintillaBase::SCI_REPLACETARGET,
                                  static_cast<unsigned long>(bytes.size()), bytes.constData());
        }
        markDirty(document);
        ++opened;
    }
    messages.prepend(tr("Restored %n unsaved edit(s).", nullptr, opened));
    Q_EMIT statusMessage(messages.join(QLatin1Char(' ')));
    return opened;
}

void AutosaveController::offerRecovery(QWidget *dialogParent)
{
    std::vector<RecoveredSession> sessions =
        AutosaveStore::claimOrphans(m_root, sessionFolder(), m_store->limits());
    QList<AutosaveEntry> entries;
    QStringList problems;
    for (const RecoveredSession &session : sessions) {
        entries.append(session.entries());
        problems.append(session.problems());
    }
    if (entries.isEmpty() && problems.isEmpty()) {
        Q_EMIT recoveryChecked();
        return;
    }
    RecoveryDialog dialog(entries, problems, dialogParent);
    dialog.exec();
    switch (dialog.choice()) {
    case RecoveryDialog::Choice::Restore: {
        restore(entries); // says what it restored in the status bar
        // The restored buffers are in this session's autosaves before the old ones go.
        autosaveNow();
        waitForWrites();
        for (RecoveredSession &session : sessions)
            session.discard();
        break;
    }
    case RecoveryDialog::Choice::Discard:
        for (RecoveredSession &session : sessions)
            session.discard();
        Q_EMIT statusMessage(tr("Discarded the autosaves of the last session."));
        break;
    case RecoveryDialog::Choice::Later:
        // Dropping the claims unlocks the folders: the next start offers them again.
        Q_EMIT statusMessage(tr("The autosaves are kept in %1 and offered at the next start.")
                                 .arg(QDir::toNativeSeparators(m_root)));
        break;
    }
    Q_EMIT recoveryChecked();
}

} // namespace cuwb
