#include "gui/recovery/autosavestore.h"

#include "gui/common/qtconvert.h"
#include "project/project.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace cuwb {

namespace {

constexpr auto kSessionPrefix = "session-";
constexpr auto kLockName = "owner.lock";
constexpr auto kEntrySuffix = ".json";
constexpr auto kFormat = "cuwb-autosave";
// Version 1: a buffer. Version 2 adds "kind" and the project's settings; a buffer is still
// written as version 1, which every version reads.
constexpr int kBufferVersion = 1;
constexpr int kNewestVersion = 2;
constexpr auto kKindBuffer = "buffer";
constexpr auto kKindProject = "project";

QString tr(const char *text)
{
    return QCoreApplication::translate("cuwb::AutosaveStore", text);
}

// A lock that is stale only when its owner is gone: the default stale time (30 s) would let a
// window that is merely busy lose its autosaves to a second one.
std::unique_ptr<QLockFile> makeLock(const QString &folder)
{
    auto lock = std::make_unique<QLockFile>(QDir(folder).filePath(QLatin1String(kLockName)));
    lock->setStaleLockTime(0);
    return lock;
}

QString sizeText(qint64 bytes)
{
    return QLocale::system().formattedDataSize(bytes, 0);
}

} // namespace

RecoveredSession::RecoveredSession(QString folder, std::unique_ptr<QLockFile> lock)
    : m_folder(std::move(folder))
    , m_lock(std::move(lock))
{}

RecoveredSession::~RecoveredSession() = default;
RecoveredSession::RecoveredSession(RecoveredSession &&) noexcept = default;
RecoveredSession &RecoveredSession::operator=(RecoveredSession &&) noexcept = default;

void RecoveredSession::discard()
{
    if (m_folder.isEmpty())
        return;
    // The entries first and the lock last: a kill half-way leaves a folder that is still
    // recognised (and claimed again) at the next start.
    QDir dir(m_folder);
    const QStringList files = dir.entryList(QDir::Files | QDir::Hidden | QDir::System);
    for (const QString &file : files) {
        if (file != QLatin1String(kLockName))
            dir.remove(file);
    }
    if (m_lock)
        m_lock->unlock();
    m_lock.reset();
    dir.removeRecursively();
    m_entries.clear();
}

AutosaveStore::AutosaveStore(const QString &root, const AutosaveLimits &limits)
    : m_limits(limits)
{
    const QString name = QLatin1String(kSessionPrefix) +
                         QString::number(QCoreApplication::applicationPid()) + QLatin1Char('-') +
                         QString::number(QDateTime::currentMSecsSinceEpoch());
    m_folder = QDir(root).filePath(name);
    if (!QDir().mkpath(m_folder)) {
        m_error =
            tr("Cannot create the autosave folder %1.").arg(QDir::toNativeSeparators(m_folder));
        return;
    }
    auto lock = makeLock(m_folder);
    if (!lock->tryLock(0)) {
        m_error = tr("Cannot lock the autosave folder %1.").arg(QDir::toNativeSeparators(m_folder));
        return;
    }
    m_lock = std::move(lock);
}

AutosaveStore::~AutosaveStore() = default;

QString AutosaveStore::entryFile(const QString &key) const
{
    return QDir(m_folder).filePath(key + QLatin1String(kEntrySuffix));
}

QString AutosaveStore::write(const AutosaveEntry &entry)
{
    if (!isOpen())
        return m_error;
    QJsonObject object;
    object.insert(QStringLiteral("format"), QLatin1String(kFormat));
    if (entry.kind == AutosaveEntry::Kind::Project) {
        object.insert(QStringLiteral("version"), kNewestVersion);
        object.insert(QStringLiteral("kind"), QLatin1String(kKindProject));
    } else {
        object.insert(QStringLiteral("version"), kBufferVersion);
    }
    object.insert(QStringLiteral("path"), entry.filePath);
    object.insert(QStringLiteral("displayName"), entry.displayName);
    object.insert(QStringLiteral("savedAt"), entry.savedAt.toUTC().toString(Qt::ISODateWithMs));
    object.insert(QStringLiteral("text"), entry.text);
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);

    if (bytes.size() > m_limits.maxEntryBytes)
        return tr("%1 is not autosaved: at %2 it is larger than the %3 an autosave may take.")
            .arg(entry.displayName, sizeText(bytes.size()), sizeText(m_limits.maxEntryBytes));
    const bool known = m_bytes.contains(entry.key);
    if (!known && m_bytes.size() >= m_limits.maxEntries)
        return tr("%1 is not autosaved: %2 other buffers are autosaved already.")
            .arg(entry.displayName)
            .arg(m_bytes.size());
    qint64 others = 0;
    for (auto it = m_bytes.cbegin(); it != m_bytes.cend(); ++it) {
        if (it.key() != entry.key)
            others += it.value();
    }
    if (others + bytes.size() > m_limits.maxSessionBytes)
        return tr("%1 is not autosaved: with it, the autosaves would take more than %2.")
            .arg(entry.displayName, sizeText(m_limits.maxSessionBytes));

    QSaveFile file(entryFile(entry.key));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return tr("%1 is not autosaved: %2").arg(entry.displayName, file.errorString());
    m_bytes.insert(entry.key, bytes.size());
    return {};
}

void AutosaveStore::remove(const QString &key)
{
    m_bytes.remove(key);
    if (isOpen())
        QFile::remove(entryFile(key));
}

void AutosaveStore::close()
{
    if (!isOpen())
        return;
    RecoveredSession own(m_folder, std::move(m_lock));
    own.discard();
    m_bytes.clear();
    m_error = tr("The autosave session has ended.");
}

bool AutosaveStore::readEntryFile(const QString &path, qint64 maxEntryBytes, AutosaveEntry &entry,
                                  QString &error)
{
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = tr("%1: %2").arg(name, file.errorString());
        return false;
    }
    if (file.size() > maxEntryBytes) {
        error = tr("%1: at %2 it is larger than an autosave may be (%3).")
                    .arg(name, sizeText(file.size()), sizeText(maxEntryBytes));
        return false;
    }
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        error = tr("%1: not an autosave (%2).").arg(name, parseError.errorString());
        return false;
    }
    const QJsonObject object = document.object();
    if (object.value(QStringLiteral("format")).toString() != QLatin1String(kFormat)) {
        error = tr("%1: not an autosave of CUDA Workbench.").arg(name);
        return false;
    }
    const int version = object.value(QStringLiteral("version")).toInt();
    if (version < kBufferVersion || version > kNewestVersion) {
        error = tr("%1: written by another version of CUDA Workbench (format %2).")
                    .arg(name)
                    .arg(version);
        return false;
    }
    AutosaveEntry::Kind kind = AutosaveEntry::Kind::Buffer;
    if (version >= 2) {
        const QString kindName = object.value(QStringLiteral("kind")).toString();
        if (kindName == QLatin1String(kKindProject)) {
            kind = AutosaveEntry::Kind::Project;
        } else if (kindName != QLatin1String(kKindBuffer)) {
            error = tr("%1: an autosave of a kind this version does not know (\"%2\").")
                        .arg(name, kindName);
            return false;
        }
    }
    if (!object.value(QStringLiteral("text")).isString()) {
        error = tr("%1: the autosave has no text.").arg(name);
        return false;
    }
    if (kind == AutosaveEntry::Kind::Project) {
        if (object.value(QStringLiteral("path")).toString().isEmpty()) {
            error = tr("%1: the autosaved project settings name no project file.").arg(name);
            return false;
        }
        // Read now, so that a damaged one is listed as unreadable rather than offered.
        ProjectLoad load;
        try {
            load = parseProject(toStdString(object.value(QStringLiteral("text")).toString()));
        } catch (const std::exception &failure) {
            load.error = failure.what();
        }
        if (!load.project) {
            error = tr("%1: the autosaved project settings cannot be read: %2")
                        .arg(name, toQString(load.error));
            return false;
        }
    }
    entry.kind = kind;
    entry.key = QFileInfo(path).completeBaseName();
    entry.filePath = object.value(QStringLiteral("path")).toString();
    entry.displayName = object.value(QStringLiteral("displayName")).toString();
    if (entry.displayName.isEmpty())
        entry.displayName =
            entry.filePath.isEmpty() ? tr("untitled") : QFileInfo(entry.filePath).fileName();
    entry.savedAt = QDateTime::fromString(object.value(QStringLiteral("savedAt")).toString(),
                                          Qt::ISODateWithMs);
    if (!entry.savedAt.isValid())
        entry.savedAt = QFileInfo(path).lastModified().toUTC();
    entry.text = object.value(QStringLiteral("text")).toString();
    return true;
}

std::vector<RecoveredSession> AutosaveStore::claimOrphans(const QString &root,
                                                          const QString &ownFolder,
                                                          const AutosaveLimits &limits)
{
    std::vector<RecoveredSession> sessions;
    const QDir rootDir(root);
    // Oldest first, by the last change in the folder.
    QFileInfoList folders = rootDir.entryInfoList(
        {QLatin1String(kSessionPrefix) + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(folders.begin(), folders.end(), [](const QFileInfo &a, const QFileInfo &b) {
        return a.lastModified() < b.lastModified();
    });
    const QString own = QFileInfo(ownFolder).absoluteFilePath();
    for (const QFileInfo &folder : std::as_const(folders)) {
        if (qsizetype(sessions.size()) >= limits.maxOrphanSessions)
            break;
        if (folder.absoluteFilePath() == own)
            continue;
        auto lock = makeLock(folder.absoluteFilePath());
        // Fails while the owner lives (its PID runs and it holds the flock), also when it runs
        // on another host sharing this folder.
        if (!lock->tryLock(0))
            continue;
        RecoveredSession session(folder.absoluteFilePath(), std::move(lock));
        const QDir dir(session.m_folder);
        const QStringList files = dir.entryList({QLatin1Char('*') + QLatin1String(kEntrySuffix)},
                                                QDir::Files, QDir::Name);
        for (const QString &file : files) {
            if (session.m_entries.size() >= limits.maxEntries) {
                session.m_problems.append(
                    tr("%1 more autosaves are left out (at most %2 are read from one session).")
                        .arg(files.size() - session.m_entries.size())
                        .arg(limits.maxEntries));
                break;
            }
            AutosaveEntry entry;
            QString error;
            if (readEntryFile(dir.filePath(file), limits.maxEntryBytes, entry, error))
                session.m_entries.append(entry);
            else
                session.m_problems.append(error);
        }
        if (session.m_entries.isEmpty() && session.m_problems.isEmpty()) {
            session.discard(); // a session that ended with nothing unsaved
            continue;
        }
        std::sort(
            session.m_entries.begin(), session.m_entries.end(),
            [](const AutosaveEntry &a, const AutosaveEntry &b) { return a.savedAt < b.savedAt; });
        sessions.push_back(std::move(session));
    }
    return sessions;
}

QString defaultAutosaveRoot()
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return folder.isEmpty() ? QString() : folder + QStringLiteral("/autosave");
}

} // namespace cuwb
