#include "history/sqlite.h"

#include <sqlite3.h>

#include <utility>

namespace cuwb {

namespace {

std::string errorText(sqlite3 *db, int rc)
{
    // A connection's message is more precise ("no such table: entries") than the code's
    // generic text, but only when it belongs to this error.
    if (db != nullptr && sqlite3_extended_errcode(db) == rc)
        return sqlite3_errmsg(db);
    return sqlite3_errstr(rc);
}

} // namespace

SqliteError::SqliteError(const std::string &context, std::string sqliteMessage, int extendedCode)
    : std::runtime_error(context + ": " + sqliteMessage)
    , m_sqliteMessage(std::move(sqliteMessage))
    , m_extendedCode(extendedCode)
{}

SqliteDatabase::SqliteDatabase(const std::string &path, Mode mode)
    : m_path(path)
{
    int flags = SQLITE_OPEN_READONLY;
    if (mode == Mode::ReadWrite)
        flags = SQLITE_OPEN_READWRITE;
    else if (mode == Mode::ReadWriteCreate)
        flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        // Even a failed open allocates a handle, which must be closed.
        std::string message = errorText(m_db, rc);
        close();
        throw SqliteError("open", std::move(message), rc);
    }
    sqlite3_extended_result_codes(m_db, 1);
}

SqliteDatabase::SqliteDatabase(SqliteDatabase &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
{}

SqliteDatabase &SqliteDatabase::operator=(SqliteDatabase &&other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

SqliteDatabase::~SqliteDatabase()
{
    close();
}

void SqliteDatabase::close() noexcept
{
    // _v2: statements that somehow outlive the connection keep it alive instead of leaking it.
    if (m_db != nullptr)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

void SqliteDatabase::fail(int rc, std::string_view context) const
{
    throw SqliteError(std::string(context), errorText(m_db, rc), rc);
}

void SqliteDatabase::exec(std::string_view sql)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(m_db, std::string(sql).c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string text = message != nullptr ? std::string(message) : errorText(m_db, rc);
        sqlite3_free(message);
        throw SqliteError(std::string(sql.substr(0, sql.find_first_of(";\n"))), std::move(text),
                          rc);
    }
}

void SqliteDatabase::setBusyTimeout(int milliseconds)
{
    const int rc = sqlite3_busy_timeout(m_db, milliseconds);
    if (rc != SQLITE_OK)
        fail(rc, "busy timeout");
}

bool SqliteDatabase::isReadOnly() const
{
    return sqlite3_db_readonly(m_db, "main") == 1;
}

std::int64_t SqliteDatabase::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t SqliteDatabase::changes() const
{
    return sqlite3_changes(m_db);
}

SqliteStatement::SqliteStatement(SqliteDatabase &db, std::string_view sql)
    : m_db(&db)
    , m_sql(sql)
{
    const int rc = sqlite3_prepare_v2(db.handle(), m_sql.data(), static_cast<int>(m_sql.size()),
                                      &m_statement, nullptr);
    if (rc != SQLITE_OK)
        db.fail(rc, m_sql);
}

SqliteStatement::SqliteStatement(SqliteStatement &&other) noexcept
    : m_db(other.m_db)
    , m_statement(std::exchange(other.m_statement, nullptr))
    , m_sql(std::move(other.m_sql))
{}

SqliteStatement &SqliteStatement::operator=(SqliteStatement &&other) noexcept
{
    if (this != &other) {
        finalize();
        m_db = other.m_db;
        m_statement = std::exchange(other.m_statement, nullptr);
        m_sql = std::move(other.m_sql);
    }
    return *this;
}

SqliteStatement::~SqliteStatement()
{
    finalize();
}

void SqliteStatement::finalize() noexcept
{
    if (m_statement != nullptr)
        sqlite3_finalize(m_statement);
    m_statement = nullptr;
}

void SqliteStatement::bind(int index, std::int64_t value)
{
    const int rc = sqlite3_bind_int64(m_statement, index, value);
    if (rc != SQLITE_OK)
        m_db->fail(rc, m_sql);
}

void SqliteStatement::bind(int index, std::string_view text)
{
    const int rc = sqlite3_bind_text64(m_statement, index, text.data(), text.size(),
                                       SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK)
        m_db->fail(rc, m_sql);
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(m_statement);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    // Reset so that the statement can run again and the connection's message stays the one
    // of this failure.
    const std::string message = errorText(m_db->handle(), rc);
    sqlite3_reset(m_statement);
    throw SqliteError(m_sql, message, rc);
}

void SqliteStatement::run()
{
    while (step()) {
    }
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_statement);
    sqlite3_clear_bindings(m_statement);
}

std::int64_t SqliteStatement::int64(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

std::string SqliteStatement::text(int column) const
{
    // column_text before column_bytes, so the byte count is of the UTF-8 form.
    const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    if (data == nullptr)
        return {};
    return std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)));
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

SqliteTransaction::SqliteTransaction(SqliteDatabase &db)
    : m_db(db)
{
    m_db.exec("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction()
{
    if (!m_open)
        return;
    // Errors are ignored: SQLite may already have rolled back (after SQLITE_FULL, say), and a
    // destructor must not throw.
    sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit()
{
    m_db.exec("COMMIT");
    m_open = false;
}

std::string sqliteLibraryVersion()
{
    return sqlite3_libversion();
}

} // namespace cuwb
