// SQLite wrappers: the only place with raw sqlite3_* calls. Move-only owners of a connection
// and of a prepared statement, and a write transaction that rolls back unless committed. Every
// failed call throws SqliteError with SQLite's own message and result code, so the caller can
// turn it into a sentence for the user; nothing here knows what the database is for.
// A connection is used by one thread at a time; open one per thread to work in parallel.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace cuwb {

class SqliteError : public std::runtime_error
{
public:
    // what(): "<context>: <SQLite's message>", e.g. "PRAGMA user_version: file is not a database".
    SqliteError(const std::string &context, std::string sqliteMessage, int extendedCode);

    [[nodiscard]] const std::string &sqliteMessage() const { return m_sqliteMessage; }
    [[nodiscard]] int extendedCode() const { return m_extendedCode; }
    // The primary result code (SQLITE_BUSY, SQLITE_NOTADB, ...), the low byte of the extended one.
    [[nodiscard]] int code() const { return m_extendedCode & 0xff; }

private:
    std::string m_sqliteMessage;
    int m_extendedCode;
};

class SqliteDatabase
{
public:
    enum class Mode { ReadWriteCreate, ReadWrite, ReadOnly };

    SqliteDatabase() = default;
    // Opens (and with ReadWriteCreate creates) the file. SQLite reads nothing yet: a file that
    // is not a database is only noticed by the first statement.
    explicit SqliteDatabase(const std::string &path, Mode mode = Mode::ReadWriteCreate);
    SqliteDatabase(SqliteDatabase &&other) noexcept;
    SqliteDatabase &operator=(SqliteDatabase &&other) noexcept;
    SqliteDatabase(const SqliteDatabase &) = delete;
    SqliteDatabase &operator=(const SqliteDatabase &) = delete;
    ~SqliteDatabase();

    [[nodiscard]] bool isOpen() const { return m_db != nullptr; }
    [[nodiscard]] const std::string &path() const { return m_path; }
    [[nodiscard]] sqlite3 *handle() const { return m_db; }

    // Runs one or more statements that return no rows.
    void exec(std::string_view sql);
    // Waits up to this long for another connection's lock instead of failing with SQLITE_BUSY.
    void setBusyTimeout(int milliseconds);
    // True when SQLite opened the file read-only (a read-only file opened for writing).
    [[nodiscard]] bool isReadOnly() const;
    [[nodiscard]] std::int64_t lastInsertRowId() const;
    [[nodiscard]] std::int64_t changes() const; // rows changed by the last statement

    // Throws SqliteError for result code `rc` with this connection's message.
    [[noreturn]] void fail(int rc, std::string_view context) const;

private:
    void close() noexcept;

    sqlite3 *m_db = nullptr;
    std::string m_path;
};

class SqliteStatement
{
public:
    SqliteStatement(SqliteDatabase &db, std::string_view sql);
    SqliteStatement(SqliteStatement &&other) noexcept;
    SqliteStatement &operator=(SqliteStatement &&other) noexcept;
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;
    ~SqliteStatement();

    // Parameters are 1-based, as in SQLite. Text is copied, so it need not outlive the call.
    void bind(int index, std::int64_t value);
    void bind(int index, std::string_view text);
    // True while there is a row to read; false when the statement is done.
    bool step();
    // Steps to the end, for statements that return no rows.
    void run();
    void reset();

    // Columns are 0-based. NULL reads as 0 or as empty text.
    [[nodiscard]] std::int64_t int64(int column) const;
    [[nodiscard]] std::string text(int column) const;
    [[nodiscard]] bool isNull(int column) const;

private:
    void finalize() noexcept;

    SqliteDatabase *m_db = nullptr;
    sqlite3_stmt *m_statement = nullptr;
    std::string m_sql; // for error messages
};

// BEGIN IMMEDIATE: takes the write lock at once, waiting through the busy timeout, so that
// two connections never both start a write and deadlock. Rolls back unless commit() ran.
class SqliteTransaction
{
public:
    explicit SqliteTransaction(SqliteDatabase &db);
    SqliteTransaction(const SqliteTransaction &) = delete;
    SqliteTransaction &operator=(const SqliteTransaction &) = delete;
    ~SqliteTransaction();

    void commit();

private:
    SqliteDatabase &m_db;
    bool m_open = true;
};

// The SQLite library's version, "3.40.1".
std::string sqliteLibraryVersion();

} // namespace cuwb
