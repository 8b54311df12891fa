// HistoryPanel: the History dock's content — every stored measurement and sweep, newest first,
// filtered by kind and by text, with Open, Compare as baseline, Compare with current, Edit note
// and Delete on the selected entry (buttons, context menu, double-click opens).
//
// Every database call runs on one background thread of the panel's own, in the order asked,
// so the GUI thread never waits for the disk or for another window's lock; results come back
// through QFutureWatcher, and a list or a load that a newer one superseded is dropped. A
// database that cannot be opened replaces the list with the reason and a Try again button; a
// later failure (disk full, a lock held too long) is shown below the list, which stays usable.
#pragma once

#include "history/historystore.h"

#include <QString>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace cuwb {

class HistoryModel;

// Where the workbench keeps its history: history.sqlite in the user's data folder
// (QStandardPaths::AppDataLocation, ~/.local/share/CUDA Workbench/cuda-workbench on Linux).
// Empty when the system names no such folder.
QString defaultHistoryPath();

class HistoryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit HistoryPanel(QWidget *parent = nullptr);
    // Waits for database work already asked for (a save in flight is never lost).
    ~HistoryPanel() override;

    // Opens the database at `path` (creating it) and lists it. An empty path closes it.
    void setDatabasePath(const QString &path);
    [[nodiscard]] QString databasePath() const { return m_path; }
    [[nodiscard]] bool isDatabaseOpen() const { return m_state == State::Open; }
    // Why the database could not be opened; empty when it is open (or opening).
    [[nodiscard]] QString openErrorMessage() const { return m_openError; }
    // The line below the list: counts, progress, or the last failure.
    [[nodiscard]] QString statusText() const;

    // Stores a new entry and lists it; entryAdded follows. The lead's wiring calls this with
    // measurementEntry(...) when a measurement finishes, and with a sweep's entry.
    void addEntry(const HistoryEntry &entry);
    // Lists again with the current filter (other windows may have added entries).
    void refresh();

    // The entry actions, also reachable from the buttons and the context menu; Delete there
    // asks first, removeEntry() does not.
    void openEntry(qint64 id);
    void compareEntry(qint64 id);
    // A measurement entry against a fresh measurement of the current kernel, in the Compare
    // dock (compareWithCurrentRequested).
    void compareWithCurrent(qint64 id);
    void setNote(qint64 id, const QString &note);
    void removeEntry(qint64 id);

    // The selected entry's id, or nullopt.
    [[nodiscard]] std::optional<qint64> selectedId() const;
    void selectId(qint64 id);

    [[nodiscard]] HistoryModel *model() const { return m_model; }
    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] QComboBox *kindFilter() const { return m_kindFilter; }
    [[nodiscard]] QLineEdit *textFilter() const { return m_textFilter; }
    [[nodiscard]] QAction *openAction() const { return m_openAction; }
    [[nodiscard]] QAction *compareAction() const { return m_compareAction; }
    // "Compare with current": enabled on a measurement entry only.
    [[nodiscard]] QAction *compareWithCurrentAction() const { return m_compareCurrentAction; }
    [[nodiscard]] QAction *editNoteAction() const { return m_editNoteAction; }
    [[nodiscard]] QAction *deleteAction() const { return m_deleteAction; }

Q_SIGNALS:
    // The user asked to reopen an entry into the chart, or to overlay it as the baseline to
    // compare the current code with. jsonText is the stored document; kind is "measurement"
    // or "sweep".
    void openRequested(qint64 id, const QString &jsonText, const QString &kind);
    void baselineRequested(qint64 id, const QString &jsonText, const QString &kind);
    void compareWithCurrentRequested(qint64 id, const QString &jsonText, const QString &kind);
    void entryAdded(qint64 id);
    void entryRemoved(qint64 id);
    // A list arrived (after open, refresh, a filter change, add or delete).
    void listUpdated();
    // The database could not be opened (message shown in the panel), or an operation failed
    // (message shown below the list).
    void databaseErrorOccurred(const QString &message);

private:
    // The constructor's parts: the entry actions, the filters, the table, the layout (the
    // table or a message, the filter and button rows) and the connections.
    void createActions();
    void createFilters();
    void createView();
    void createLayout();
    void connectActions();
    enum class State { Closed, Opening, Open, Failed };
    struct Connection; // the store, living on the database thread
    template <typename T> struct Outcome;

    template <typename T, typename Job, typename Done> void submit(Job job, Done done);
    enum class LoadFor { Open, Baseline, Compare };
    void load(qint64 id, LoadFor purpose);
    HistoryFilter currentFilter() const;
    void showOpenError(const QString &message);
    void showFailure(const QString &message);
    void setStatus(const QString &text, bool isError = false);
    void updatePage();
    void updateActions();
    void editNoteOfSelection();
    void confirmAndDeleteSelection();
    void showContextMenu(const QPoint &position);

    QString m_path;
    State m_state = State::Closed;
    QString m_openError;
    std::shared_ptr<Connection> m_connection;
    quint64 m_generation = 0; // of the connection; results of an older one are dropped
    quint64 m_listJob = 0;
    quint64 m_loadJob = 0;
    qint64 m_totalCount = 0;

    HistoryModel *m_model = nullptr;
    QComboBox *m_kindFilter = nullptr;
    QLineEdit *m_textFilter = nullptr;
    QTimer *m_filterDelay = nullptr;
    QToolButton *m_refreshButton = nullptr;
    QStackedWidget *m_pages = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_retryButton = nullptr;
    QWidget *m_messagePage = nullptr;
    QLabel *m_status = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_compareCurrentAction = nullptr;
    QAction *m_editNoteAction = nullptr;
    QAction *m_deleteAction = nullptr;
    QAction *m_refreshAction = nullptr;
    // Last: destroyed first, after the destructor has waited for it.
    QThreadPool m_pool;
};

} // namespace cuwb
