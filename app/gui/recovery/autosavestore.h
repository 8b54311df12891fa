// AutosaveStore: the files that keep unsaved edits through a crash or a kill, apart from any
// widget. Each running workbench owns one session folder under the autosave root,
// `session-<pid>-<start ms>/`, holding `owner.lock` (a QLockFile: the owner's PID, held with
// flock while it lives) and one JSON file per unsaved buffer, and one for the open project's
// unsaved settings, written atomically with QSaveFile, so a kill mid-write leaves the previous
// autosave. A clean exit removes the folder.
//
// Entry files carry a format version: a buffer is written as version 1 (as before the project
// settings were autosaved, so an older workbench still reads it), the project settings as
// version 2, which an older one lists as unreadable. Both are read.
//
// At start, a session folder whose lock can be taken belongs to a workbench that did not end
// cleanly: claimOrphans() takes it (nobody else can offer it while the claim lives) and reads its
// entries. A folder whose owner still runs (a second window) is never taken.
//
// One store is used by one thread at a time (the autosave writer's); claimOrphans() and
// RecoveredSession only touch other sessions' folders.
#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QLockFile;

namespace cuwb {

// Bounds that keep autosaving cheap and the folder small whatever is open.
struct AutosaveLimits
{
    qint64 maxEntryBytes = 8 * 1024 * 1024;    // one buffer's text, UTF-8
    qint64 maxSessionBytes = 64 * 1024 * 1024; // all of one session's entries
    int maxEntries = 100;                      // entries (buffers, the project) of one session
    int maxOrphanSessions = 20;                // sessions read at one start; the rest wait
};

// One autosaved buffer, or the open project's unsaved settings.
struct AutosaveEntry
{
    enum class Kind {
        Buffer,  // a source buffer: `text` is its text
        Project, // a project's settings: `text` is the project as it would be saved (JSON)
    };
    Kind kind = Kind::Buffer;
    QString key;         // unique in its session, a file name stem: "document-3", "project"
    QString filePath;    // the buffer's file (empty for an untitled one), or the project's
    QString displayName; // "kernel.cu", "untitled-2.cu", "vector_add.cuwb"
    QDateTime savedAt;   // UTC
    QString text;
};

// The entries of a session that did not end cleanly, claimed: while this object lives, its
// folder is locked by this process. Dropping it without discard() leaves the folder for the
// next start ("later").
class RecoveredSession
{
public:
    RecoveredSession(QString folder, std::unique_ptr<QLockFile> lock);
    ~RecoveredSession();
    RecoveredSession(RecoveredSession &&) noexcept;
    RecoveredSession &operator=(RecoveredSession &&) noexcept;

    [[nodiscard]] const QString &folder() const { return m_folder; }
    [[nodiscard]] const QList<AutosaveEntry> &entries() const { return m_entries; }
    // Entry files that could not be read, one sentence each (name and reason).
    [[nodiscard]] const QStringList &problems() const { return m_problems; }

    // Removes the folder with its entries and lock (after a restore, or when the user
    // discards it).
    void discard();

private:
    friend class AutosaveStore;
    QString m_folder;
    std::unique_ptr<QLockFile> m_lock;
    QList<AutosaveEntry> m_entries;
    QStringList m_problems;
};

class AutosaveStore
{
public:
    // Creates `root`/session-<pid>-<ms>/ and locks it. isOpen() says whether that worked;
    // errorMessage() why not.
    explicit AutosaveStore(const QString &root, const AutosaveLimits &limits = {});
    ~AutosaveStore();
    AutosaveStore(const AutosaveStore &) = delete;
    AutosaveStore &operator=(const AutosaveStore &) = delete;

    [[nodiscard]] bool isOpen() const { return m_lock != nullptr; }
    [[nodiscard]] QString errorMessage() const { return m_error; }
    [[nodiscard]] QString sessionFolder() const { return m_folder; }
    [[nodiscard]] const AutosaveLimits &limits() const { return m_limits; }
    // The file that keeps the entry `key` (whether or not it exists).
    [[nodiscard]] QString entryFile(const QString &key) const;

    // Writes the entry atomically, replacing the previous one of the same key. Returns an
    // empty string, or a sentence saying why it was not kept (too large, the session's limit,
    // a write error); the previous autosave of the key is then left as it was.
    QString write(const AutosaveEntry &entry);
    void remove(const QString &key);
    // Removes every entry and the folder, and releases the lock: the session ended cleanly.
    void close();

    // The sessions under `root` whose owners are gone, each claimed and read, oldest first.
    // `ownFolder` (this process's session) is skipped; a folder left with no entries is
    // removed on the way.
    static std::vector<RecoveredSession> claimOrphans(const QString &root, const QString &ownFolder,
                                                      const AutosaveLimits &limits = {});
    // One entry file as written by write(); false with `error` set when it cannot be read (a
    // project entry also when its JSON is not a project this version can open).
    static bool readEntryFile(const QString &path, qint64 maxEntryBytes, AutosaveEntry &entry,
                              QString &error);

private:
    QString m_folder;
    AutosaveLimits m_limits;
    std::unique_ptr<QLockFile> m_lock;
    QString m_error;
    QHash<QString, qint64> m_bytes; // what each written entry takes on disk
};

// `autosave/` in the user's data folder (QStandardPaths::AppDataLocation, which follows
// XDG_DATA_HOME), beside the history database.
QString defaultAutosaveRoot();

} // namespace cuwb
