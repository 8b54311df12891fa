#include "history/historystore.h"

#include "measure/measurejson.h"
#include "measure/measurement.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <system_error>
#include <utility>

namespace cuwb {

namespace {

// "CuWB": marks the file as ours, so another program's SQLite database is never upgraded.
constexpr int kApplicationId = 0x43755742;
// Long enough for another window to finish saving a sweep of several megabytes.
constexpr int kBusyTimeoutMs = 5000;

// Migration N upgrades a database of schema version N - 1 to version N. A new version appends
// one entry here and bumps kHistorySchemaVersion; a migration never changes once released,
// because databases written with it exist (tests/core/tst_historystore.cpp builds a version-1
// file by hand to check the path from there).
struct Migration
{
    int version;
    const char *sql;
};

constexpr std::array kMigrations{
    // The documents live in a table of their own: SQLite keeps a long value in a chain of
    // overflow pages, and a column after it in the same row could only be read by walking that
    // chain, so listing would read every document.
    Migration{1, R"sql(
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
    )sql"},
    // The History panel's notes, and the filter by project and kernel.
    Migration{2, R"sql(
        ALTER TABLE entries ADD COLUMN note TEXT NOT NULL DEFAULT '';
        CREATE INDEX entries_by_project ON entries (project_name, kernel, created_at);
    )sql"},
};
static_assert(kMigrations.size() == kHistorySchemaVersion,
              "kHistorySchemaVersion must be the number of the last migration");

constexpr const char *kItemColumns = "e.id, e.kind, e.created_at, e.project_name, e.project_path, "
                                     "e.kernel, e.device_name, e.source_hash, e.summary, e.note, "
                                     "e.document_bytes";

void readItem(const SqliteStatement &statement, HistoryItem &item)
{
    item.id = statement.int64(0);
    // The CHECK constraint allows nothing else.
    item.kind = historyKindFromName(statement.text(1)).value_or(HistoryKind::Measurement);
    item.createdAt = statement.text(2);
    item.projectName = statement.text(3);
    item.projectPath = statement.text(4);
    item.kernel = statement.text(5);
    item.deviceName = statement.text(6);
    item.sourceHash = statement.text(7);
    item.summary = statement.text(8);
    item.note = statement.text(9);
    item.jsonBytes = static_cast<std::uint64_t>(statement.int64(10));
}

// WHERE clause of a filter, with its parameters in order.
struct Where
{
    std::string sql;
    std::vector<std::string> texts; // bound as ?1, ?2, ...
};

std::string likePattern(std::string_view text)
{
    std::string pattern = "%";
    for (const char c : text) {
        if (c == '%' || c == '_' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    return pattern + "%";
}

Where whereClause(const HistoryFilter &filter)
{
    Where where;
    std::vector<std::string> conditions;
    const auto parameter = [&where](std::string value) {
        where.texts.push_back(std::move(value));
        return "?" + std::to_string(where.texts.size());
    };
    if (filter.kind)
        conditions.push_back("e.kind = " + parameter(historyKindName(*filter.kind)));
    if (!filter.projectName.empty())
        conditions.push_back("e.project_name = " + parameter(filter.projectName));
    if (!filter.kernel.empty())
        conditions.push_back("e.kernel = " + parameter(filter.kernel));
    if (!filter.text.empty()) {
        const std::string p = parameter(likePattern(filter.text));
        std::string any;
        for (const char *column :
             {"e.project_name", "e.kernel", "e.device_name", "e.summary", "e.note"}) {
            if (!any.empty())
                any += " OR ";
            any += std::string(column) + " LIKE " + p + " ESCAPE '\\'";
        }
        conditions.push_back("(" + any + ")");
    }
    for (const std::string &condition : conditions)
        where.sql += (where.sql.empty() ? " WHERE " : " AND ") + condition;
    return where;
}

bool isDigits(std::string_view text)
{
    if (text.empty())
        return false;
    for (const char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    }
    return true;
}

int number(std::string_view digits)
{
    int value = 0;
    for (const char c : digits)
        value = value * 10 + (c - '0');
    return value;
}

// "YYYY-MM-DDTHH:MM:SSZ" with an optional fraction of a second before the Z. Only this form,
// so that text order is time order.
bool isUtcIso8601(std::string_view text)
{
    if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
        text[13] != ':' || text[16] != ':' || text.back() != 'Z')
        return false;
    const std::array<std::string_view, 6> fields{text.substr(0, 4),  text.substr(5, 2),
                                                 text.substr(8, 2),  text.substr(11, 2),
                                                 text.substr(14, 2), text.substr(17, 2)};
    for (const std::string_view field : fields) {
        if (!isDigits(field))
            return false;
    }
    const int month = number(fields[1]);
    const int day = number(fields[2]);
    if (month < 1 || month > 12 || day < 1 || day > 31 || number(fields[3]) > 23 ||
        number(fields[4]) > 59 || number(fields[5]) > 60)
        return false;
    const std::string_view rest = text.substr(19, text.size() - 20);
    return rest.empty() || (rest.size() >= 2 && rest[0] == '.' && isDigits(rest.substr(1)));
}

std::string format(const char *pattern, double value)
{
    std::array<char, 64> text{};
    std::snprintf(text.data(), text.size(), pattern, value);
    return text.data();
}

std::string timeText(double ns)
{
    if (ns < 1e3)
        return format("%.0f ns", ns);
    if (ns < 1e4)
        return format("%.2f µs", ns * 1e-3);
    if (ns < 1e6)
        return format("%.1f µs", ns * 1e-3);
    if (ns < 1e7)
        return format("%.2f ms", ns * 1e-6);
    if (ns < 1e9)
        return format("%.1f ms", ns * 1e-6);
    return format("%.2f s", ns * 1e-9);
}

std::string rateText(double value, const char *unit)
{
    return format(value >= 100.0 ? "%.0f" : "%.1f", value) + " " + unit;
}

bool folderIsWritable(const std::filesystem::path &folder)
{
    return ::access(folder.empty() ? "." : folder.c_str(), W_OK) == 0;
}

} // namespace

const char *historyKindName(HistoryKind kind)
{
    switch (kind) {
    case HistoryKind::Measurement:
        return "measurement";
    case HistoryKind::Sweep:
        return "sweep";
    }
    return "measurement";
}

std::optional<HistoryKind> historyKindFromName(std::string_view name)
{
    if (name == "measurement")
        return HistoryKind::Measurement;
    if (name == "sweep")
        return HistoryKind::Sweep;
    return std::nullopt;
}

HistoryStore::HistoryStore(SqliteDatabase db)
    : m_db(std::move(db))
{}

HistoryStore HistoryStore::open(const std::string &path)
{
    if (path.empty())
        throw HistoryError(HistoryErrorKind::CannotOpen, path,
                           "No file was given for the history database.");
    const std::filesystem::path file(path);
    const std::filesystem::path folder = file.parent_path();
    std::error_code error;
    if (!folder.empty() && !std::filesystem::is_directory(folder, error)) {
        std::filesystem::create_directories(folder, error);
        if (error)
            throw HistoryError(HistoryErrorKind::CannotOpen, path,
                               "Cannot create the folder " + folder.string() +
                                   " for the history database " + path + ": " + error.message() +
                                   ".");
    }
    if (std::filesystem::is_directory(file, error))
        throw HistoryError(HistoryErrorKind::CannotOpen, path,
                           "Cannot open the history database " + path + ": it is a folder.");

    SqliteDatabase db;
    try {
        db = SqliteDatabase(path, SqliteDatabase::Mode::ReadWriteCreate);
        db.setBusyTimeout(kBusyTimeoutMs);
    } catch (const SqliteError &e) {
        std::string message =
            "Cannot open the history database " + path + ": " + e.sqliteMessage() + ".";
        if (!folderIsWritable(folder))
            message += " The folder " + (folder.empty() ? std::string(".") : folder.string()) +
                       " cannot be written.";
        throw HistoryError(HistoryErrorKind::CannotOpen, path, message);
    }
    HistoryStore store(std::move(db));
    store.migrate();
    return store;
}

void HistoryStore::fail(const SqliteError &error, const char *doing) const
{
    const std::string &file = path();
    switch (error.code()) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        throw HistoryError(HistoryErrorKind::Busy, file,
                           std::string("Could not ") + doing + " in the history database " + file +
                               ": another CUDA Workbench window kept it locked (" +
                               error.sqliteMessage() + "). Try again.");
    case SQLITE_READONLY:
        throw HistoryError(HistoryErrorKind::ReadOnly, file,
                           std::string("Could not ") + doing + " in the history database " + file +
                               ": the file or its folder cannot be written (" +
                               error.sqliteMessage() + ").");
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        throw HistoryError(HistoryErrorKind::NotHistory, file,
                           std::string("Could not ") + doing + " in the history database " + file +
                               ": the file is damaged (" + error.sqliteMessage() +
                               "). Move it away to start a new history.");
    case SQLITE_CANTOPEN:
        throw HistoryError(HistoryErrorKind::CannotOpen, file,
                           std::string("Could not ") + doing + " in the history database " + file +
                               ": " + error.sqliteMessage() + ".");
    default:
        throw HistoryError(HistoryErrorKind::Failed, file,
                           std::string("Could not ") + doing + " in the history database " + file +
                               ": " + error.sqliteMessage() + ".");
    }
}

void HistoryStore::migrate()
{
    const std::string &file = path();
    const auto readVersion = [this] {
        SqliteStatement statement(m_db, "PRAGMA user_version");
        statement.step();
        return static_cast<int>(statement.int64(0));
    };

    // Everything up to the version check only reads, so a file we refuse stays as it was. One
    // statement reads all three figures from one snapshot: read apart, another window's
    // upgrade committing in between would make a new file look like another program's.
    int version = 0;
    try {
        SqliteStatement header(m_db, "SELECT (SELECT user_version FROM pragma_user_version), "
                                     "(SELECT application_id FROM pragma_application_id), "
                                     "(SELECT count(*) FROM sqlite_master)");
        header.step();
        version = static_cast<int>(header.int64(0));
        const std::int64_t applicationId = header.int64(1);
        const std::int64_t objects = header.int64(2);
        header.reset();
        m_openedVersion = version;
        if (version > kHistorySchemaVersion)
            throw HistoryError(HistoryErrorKind::NewerVersion, file,
                               "The history database " + file +
                                   " was written by a newer CUDA Workbench " + "(schema version " +
                                   std::to_string(version) + "; this one reads up to " +
                                   std::to_string(kHistorySchemaVersion) +
                                   "). It was left unchanged; update CUDA Workbench to open it.");
        // Version 0 is ours only while empty: a new file.
        const bool ours = version == 0 ? objects == 0 : applicationId == kApplicationId;
        if (!ours)
            throw HistoryError(HistoryErrorKind::NotHistory, file,
                               "The file " + file +
                                   " is a SQLite database of another program, not a CUDA "
                                   "Workbench history. It was left unchanged.");
        if (m_db.isReadOnly())
            throw HistoryError(HistoryErrorKind::ReadOnly, file,
                               "The history database " + file +
                                   " cannot be written: the file is read-only.");
    } catch (const SqliteError &e) {
        if (e.code() == SQLITE_NOTADB || e.code() == SQLITE_CORRUPT)
            throw HistoryError(HistoryErrorKind::NotHistory, file,
                               "The history database " + file +
                                   " is damaged or is not a SQLite database (" + e.sqliteMessage() +
                                   "). It was left unchanged; move it away to start a new "
                                   "history.");
        fail(e, "read the schema version");
    }

    try {
        // WAL: readers never block the writer, so two windows can share the file. It cannot be
        // switched inside a transaction, and stays set in the file once set.
        SqliteStatement wal(m_db, "PRAGMA journal_mode = WAL");
        wal.run();
        // NORMAL is enough for what the user can do to the program: a commit has been written
        // to the WAL file when add() returns, so a crash or SIGKILL right after it loses
        // nothing (tests/core/tst_historycrash.cpp kills a writer at random moments). Only a
        // power cut may roll back the last commits, and never corrupts the file; FULL would pay
        // an fsync per measurement for that.
        m_db.exec("PRAGMA synchronous = NORMAL");
    } catch (const SqliteError &e) {
        fail(e, "switch to write-ahead logging");
    }
    if (version == kHistorySchemaVersion) {
        // SQLite opens a database in a read-only folder for reading; find out now rather than
        // at the first save. (An upgrade below takes the write lock anyway.)
        try {
            SqliteTransaction probe(m_db);
        } catch (const SqliteError &e) {
            if (e.code() == SQLITE_READONLY || e.code() == SQLITE_CANTOPEN)
                throw HistoryError(HistoryErrorKind::ReadOnly, file,
                                   "The history database " + file +
                                       " cannot be written: the file or its folder is "
                                       "read-only (" +
                                       e.sqliteMessage() + ").");
            fail(e, "open the history for writing");
        }
        return;
    }

    int from = version;
    try {
        SqliteTransaction transaction(m_db);
        // Another window may have upgraded the file while this one waited for the lock.
        from = readVersion();
        if (from > kHistorySchemaVersion)
            throw SqliteError("PRAGMA user_version", "a newer CUDA Workbench upgraded it meanwhile",
                              SQLITE_ERROR);
        for (const Migration &migration : kMigrations) {
            if (migration.version <= from)
                continue;
            m_db.exec(migration.sql);
        }
        if (from < kHistorySchemaVersion) {
            m_db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
            m_db.exec("PRAGMA user_version = " + std::to_string(kHistorySchemaVersion));
        }
        transaction.commit();
    } catch (const SqliteError &e) {
        throw HistoryError(HistoryErrorKind::Failed, file,
                           "Could not upgrade the history database " + file +
                               " from schema version " + std::to_string(from) + " to " +
                               std::to_string(kHistorySchemaVersion) + ": " + e.sqliteMessage() +
                               ". It was left at version " + std::to_string(from) + ".");
    }
}

std::int64_t HistoryStore::add(const HistoryEntry &entry)
{
    if (!entry.createdAt.empty() && !isUtcIso8601(entry.createdAt))
        throw std::invalid_argument("history entry time '" + entry.createdAt +
                                    "' is not UTC ISO 8601 (YYYY-MM-DDTHH:MM:SSZ)");
    try {
        SqliteTransaction transaction(m_db);
        SqliteStatement insert(m_db, "INSERT INTO entries (kind, created_at, project_name, "
                                     "project_path, kernel, device_name, source_hash, summary, "
                                     "note, document_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, historyKindName(entry.kind));
        insert.bind(2, entry.createdAt.empty() ? currentUtcIso8601() : entry.createdAt);
        insert.bind(3, entry.projectName);
        insert.bind(4, entry.projectPath);
        insert.bind(5, entry.kernel);
        insert.bind(6, entry.deviceName);
        insert.bind(7, entry.sourceHash);
        insert.bind(8, entry.summary);
        insert.bind(9, entry.note);
        insert.bind(10, static_cast<std::int64_t>(entry.json.size()));
        insert.run();
        const std::int64_t id = m_db.lastInsertRowId();
        SqliteStatement document(m_db, "INSERT INTO documents (entry_id, json) VALUES (?, ?)");
        document.bind(1, id);
        document.bind(2, entry.json);
        document.run();
        transaction.commit();
        return id;
    } catch (const SqliteError &e) {
        fail(e, "save the entry");
    }
}

std::int64_t HistoryStore::addMeasurement(const Measurement &measurement,
                                          const std::string &projectName,
                                          const std::string &projectPath)
{
    return add(measurementEntry(measurement, projectName, projectPath));
}

std::vector<HistoryItem> HistoryStore::list(const HistoryFilter &filter)
{
    const Where where = whereClause(filter);
    const std::string sql = std::string("SELECT ") + kItemColumns + " FROM entries AS e" +
                            where.sql + " ORDER BY e.created_at DESC, e.id DESC LIMIT ?" +
                            std::to_string(where.texts.size() + 1) + " OFFSET ?" +
                            std::to_string(where.texts.size() + 2);
    try {
        SqliteStatement statement(m_db, sql);
        int index = 1;
        for (const std::string &text : where.texts)
            statement.bind(index++, text);
        statement.bind(index++, static_cast<std::int64_t>(filter.limit > 0 ? filter.limit : -1));
        statement.bind(index, static_cast<std::int64_t>(std::max(filter.offset, 0)));
        std::vector<HistoryItem> items;
        while (statement.step()) {
            HistoryItem item;
            readItem(statement, item);
            items.push_back(std::move(item));
        }
        return items;
    } catch (const SqliteError &e) {
        fail(e, "list the entries");
    }
}

std::int64_t HistoryStore::count(const HistoryFilter &filter)
{
    const Where where = whereClause(filter);
    try {
        SqliteStatement statement(m_db, "SELECT count(*) FROM entries AS e" + where.sql);
        int index = 1;
        for (const std::string &text : where.texts)
            statement.bind(index++, text);
        statement.step();
        return statement.int64(0);
    } catch (const SqliteError &e) {
        fail(e, "count the entries");
    }
}

std::optional<HistoryEntry> HistoryStore::load(std::int64_t id)
{
    try {
        SqliteStatement statement(m_db, std::string("SELECT ") + kItemColumns +
                                            ", d.json FROM entries AS e LEFT JOIN documents AS d "
                                            "ON d.entry_id = e.id WHERE e.id = ?");
        statement.bind(1, id);
        if (!statement.step())
            return std::nullopt;
        HistoryEntry entry;
        readItem(statement, entry);
        entry.json = statement.text(11);
        return entry;
    } catch (const SqliteError &e) {
        fail(e, "read the entry");
    }
}

bool HistoryStore::setNote(std::int64_t id, const std::string &note)
{
    try {
        SqliteStatement statement(m_db, "UPDATE entries SET note = ? WHERE id = ?");
        statement.bind(1, note);
        statement.bind(2, id);
        statement.run();
        return m_db.changes() > 0;
    } catch (const SqliteError &e) {
        fail(e, "save the note");
    }
}

bool HistoryStore::remove(std::int64_t id)
{
    try {
        SqliteTransaction transaction(m_db);
        SqliteStatement document(m_db, "DELETE FROM documents WHERE entry_id = ?");
        document.bind(1, id);
        document.run();
        SqliteStatement entry(m_db, "DELETE FROM entries WHERE id = ?");
        entry.bind(1, id);
        entry.run();
        const bool removed = m_db.changes() > 0;
        transaction.commit();
        return removed;
    } catch (const SqliteError &e) {
        fail(e, "delete the entry");
    }
}

std::string currentUtcIso8601()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::array<char, 32> text{};
    std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text.data();
}

std::string measurementSummary(const Measurement &measurement)
{
    const SampleStatistics &s = measurement.statistics;
    std::string prefix;
    if (!measurement.faultStatus.empty())
        prefix = measurement.faultStatus + " after " + std::to_string(s.count) + " samples: ";
    else if (measurement.stop.reason == StopReason::Cancelled)
        prefix = "cancelled after " + std::to_string(s.count) + " samples: ";
    if (s.count == 0) {
        if (!measurement.faultStatus.empty())
            return measurement.faultStatus + " before the first sample";
        return "no samples";
    }
    std::string summary = prefix + "median " + timeText(s.medianNs);
    const Throughput &t = measurement.throughput;
    if (t.effectiveGBps)
        summary += ", " + rateText(*t.effectiveGBps, "GB/s");
    if (t.gflops)
        summary += ", " + rateText(*t.gflops, "GFLOP/s");
    return summary;
}

HistoryEntry measurementEntry(const Measurement &measurement, const std::string &projectName,
                              const std::string &projectPath)
{
    HistoryEntry entry;
    entry.kind = HistoryKind::Measurement;
    entry.projectName = projectName;
    entry.projectPath = projectPath;
    entry.kernel = measurement.provenance.kernel;
    entry.deviceName = measurement.provenance.deviceName;
    entry.sourceHash = measurement.provenance.sourceHash;
    entry.summary = measurementSummary(measurement);
    // A stray invalid UTF-8 byte (a device name, a compiler message) must not lose the entry.
    entry.json =
        nlohmann::json(measurement).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    entry.jsonBytes = entry.json.size();
    return entry;
}

} // namespace cuwb
