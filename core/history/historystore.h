// HistoryStore: every measurement and sweep the user ran, kept in a SQLite database (by default
// history.sqlite in the user's data folder, which the GUI chooses: the core takes paths only).
// An entry is a small record to list (kind, when, project, kernel, device, source hash, a
// one-line summary, a note) and the full JSON document of the result with its provenance. The
// store keeps the document as text, so it does not depend on the types that wrote it; reopening
// or comparing parses it again.
//
// The schema is versioned with PRAGMA user_version and upgraded on open by numbered migrations,
// each in one transaction. A database this version cannot read (a newer workbench's, a damaged
// file, another program's SQLite file) is refused with a HistoryError naming the file, and left
// exactly as it was. WAL mode and a busy timeout let two workbench windows share one file.
//
// A HistoryStore is used by one thread at a time; open one per thread to work in parallel.
#pragma once

#include "history/sqlite.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct Measurement;

// The schema this code writes; databases of lower versions are upgraded on open.
// 1: entries and documents. 2: a note on each entry, an index by project and kernel.
inline constexpr int kHistorySchemaVersion = 2;

enum class HistoryKind { Measurement, Sweep };
const char *historyKindName(HistoryKind kind); // "measurement", "sweep"
std::optional<HistoryKind> historyKindFromName(std::string_view name);

// One row of the list: everything but the document.
struct HistoryItem
{
    std::int64_t id = 0; // assigned by add(); never reused, even after a remove
    HistoryKind kind = HistoryKind::Measurement;
    std::string createdAt; // UTC, ISO 8601: "2025-03-14T09:26:53Z"; add() fills it when empty
    std::string projectName;
    std::string projectPath;
    std::string kernel;
    std::string deviceName;
    std::string sourceHash;      // as in Provenance: "fnv1a64:..."
    std::string summary;         // one line: "median 199.3 µs, 2694 GB/s"
    std::string note;            // the user's, may be empty or several lines
    std::uint64_t jsonBytes = 0; // size of the document; add() sets it
    bool operator==(const HistoryItem &) const = default;
};

// A whole entry: the list's record and the JSON document of the measurement or sweep.
struct HistoryEntry : HistoryItem
{
    std::string json;
    bool operator==(const HistoryEntry &) const = default;
};

struct HistoryFilter
{
    std::optional<HistoryKind> kind; // absent: both
    std::string projectName;         // exact; empty: any
    std::string kernel;              // exact; empty: any
    // Case-insensitive (ASCII) substring of the project name, kernel, device, summary or note;
    // empty: any.
    std::string text;
    int limit = 500; // at most this many, newest first; <= 0: no limit
    int offset = 0;
};

// Why the store failed, for callers that react differently (the message says it all to a user).
enum class HistoryErrorKind {
    CannotOpen,   // the file or its folder cannot be created or opened
    NotHistory,   // damaged, not a SQLite file, or another program's database
    NewerVersion, // written by a newer CUDA Workbench
    ReadOnly,     // the file or its folder cannot be written
    Busy,         // another window held the lock for longer than the busy timeout
    Failed,       // anything else: disk full, I/O error, a failed upgrade
};

class HistoryError : public std::runtime_error
{
public:
    HistoryError(HistoryErrorKind kind, std::string path, const std::string &message)
        : std::runtime_error(message)
        , m_kind(kind)
        , m_path(std::move(path))
    {}

    [[nodiscard]] HistoryErrorKind kind() const { return m_kind; }
    [[nodiscard]] const std::string &path() const { return m_path; }

private:
    HistoryErrorKind m_kind;
    std::string m_path;
};

class HistoryStore
{
public:
    // Opens the database at `path`, creating it and its folders when missing, and upgrades an
    // older schema. Throws HistoryError with a sentence that names the file.
    static HistoryStore open(const std::string &path);

    HistoryStore(HistoryStore &&) noexcept = default;
    HistoryStore &operator=(HistoryStore &&) noexcept = default;

    [[nodiscard]] const std::string &path() const { return m_db.path(); }
    // The schema version the file had before open() upgraded it; 0 for a new file.
    [[nodiscard]] int openedSchemaVersion() const { return m_openedVersion; }

    // Stores the entry (id and jsonBytes are ignored) and returns its id. createdAt, when given,
    // must be UTC ISO 8601 ("2025-03-14T09:26:53Z", fractions of seconds allowed); otherwise
    // std::invalid_argument.
    std::int64_t add(const HistoryEntry &entry);
    // The measurement as an entry of kind "measurement" (see measurementEntry below).
    std::int64_t addMeasurement(const Measurement &measurement, const std::string &projectName,
                                const std::string &projectPath);
    // Newest first (by createdAt, then by id), without the documents.
    [[nodiscard]] std::vector<HistoryItem> list(const HistoryFilter &filter = {});
    // How many entries match, ignoring limit and offset.
    [[nodiscard]] std::int64_t count(const HistoryFilter &filter = {});
    // The whole entry with its document; nullopt when there is no such id (any more).
    [[nodiscard]] std::optional<HistoryEntry> load(std::int64_t id);
    // False when there is no such id.
    bool setNote(std::int64_t id, const std::string &note);
    bool remove(std::int64_t id);

private:
    explicit HistoryStore(SqliteDatabase db);
    void migrate();
    [[noreturn]] void fail(const SqliteError &error, const char *doing) const;

    SqliteDatabase m_db;
    int m_openedVersion = 0;
};

// The current time as the store writes it: "2025-03-14T09:26:53Z".
std::string currentUtcIso8601();

// "median 199.3 µs, 2694 GB/s", "median 12.5 ms, 1.2 GB/s, 820 GFLOP/s"; a measurement that a
// fault ended says so: "fault after 4 samples: median 3.1 µs".
std::string measurementSummary(const Measurement &measurement);
// A "measurement" entry: kernel, device and source hash from the provenance, the summary above
// and the measurement's JSON (measurejson.h) as the document.
HistoryEntry measurementEntry(const Measurement &measurement, const std::string &projectName,
                              const std::string &projectPath);

} // namespace cuwb
