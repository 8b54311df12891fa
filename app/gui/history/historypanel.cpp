#include "gui/history/historypanel.h"

#include "gui/common/qtconvert.h"
#include "gui/common/theme.h"
#include "gui/history/historymodel.h"

#include <QAction>
#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <stdexcept>

namespace cuwb {

QString defaultHistoryPath()
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return folder.isEmpty() ? QString() : folder + QStringLiteral("/history.sqlite");
}

// Lives on the database thread: created empty on the GUI thread, filled by the open job, and
// then only touched by jobs, which the single-thread pool runs one after the other.
struct HistoryPanel::Connection
{
    std::string path;
    std::optional<HistoryStore> store;

    HistoryStore &open()
    {
        if (!store)
            throw std::runtime_error("The history database " + path + " is not open.");
        return *store;
    }
};

template <typename T> struct HistoryPanel::Outcome
{
    std::optional<T> value; // absent: the job threw, and error says why
    QString error;
};

namespace {

struct ListResult
{
    std::vector<HistoryItem> items;
    std::int64_t total = 0;
};

struct LoadResult
{
    bool found = false;
    QString json; // converted on the database thread: a sweep's document can be megabytes
    QString kind;
};

} // namespace

// Runs job(Connection&) -> T on the database thread and done(Outcome<T>) back on the GUI
// thread, unless the panel has moved to another database meanwhile. No exception leaves the
// job: it becomes the outcome's error.
template <typename T, typename Job, typename Done> void HistoryPanel::submit(Job job, Done done)
{
    auto *watcher = new QFutureWatcher<Outcome<T>>(this);
    const quint64 generation = m_generation;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, done] {
        watcher->deleteLater();
        if (generation == m_generation)
            done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [connection = m_connection, job] {
        Outcome<T> outcome;
        try {
            if (!connection)
                throw std::runtime_error("No history database is open.");
            outcome.value = job(*connection);
        } catch (const std::exception &e) {
            outcome.error = QString::fromStdString(e.what());
        }
        return outcome;
    }));
}

HistoryPanel::HistoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new HistoryModel(this))
    , m_kindFilter(new QComboBox(this))
    , m_textFilter(new QLineEdit(this))
    , m_filterDelay(new QTimer(this))
    , m_refreshButton(new QToolButton(this))
    , m_pages(new QStackedWidget(this))
    , m_view(new QTableView(this))
    , m_message(new QLabel(this))
    , m_retryButton(new QPushButton(tr("Try again"), this))
    , m_messagePage(new QWidget(this))
    , m_status(new QLabel(this))
{
    // One thread: the jobs of one store run in the order they were asked for, never at once.
    m_pool.setMaxThreadCount(1);

    createActions();
    createFilters();
    createView();
    createLayout();
    connectActions();
    updatePage();
    updateActions();
}

void HistoryPanel::createActions()
{
    m_openAction = new QAction(tr("Open"), this);
    m_openAction->setToolTip(tr("Reopen the selected entry into the chart"));
    m_compareAction = new QAction(tr("Compare as baseline"), this);
    m_compareAction->setToolTip(
        tr("Overlay the selected entry as the baseline to compare the current code with"));
    m_compareCurrentAction = new QAction(tr("Compare with current"), this);
    m_compareCurrentAction->setToolTip(tr("Show the selected measurement beside a fresh "
                                          "measurement of the current kernel (Compare dock)"));
    m_editNoteAction = new QAction(tr("Edit note\u2026"), this);
    m_deleteAction = new QAction(tr("Delete\u2026"), this);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    m_deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_refreshAction = new QAction(tr("Refresh"), this);
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    m_refreshAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_refreshAction->setToolTip(tr("List the history again (another window may have added to it)"));
    addAction(m_deleteAction);
    addAction(m_refreshAction);
}

void HistoryPanel::createFilters()
{
    m_kindFilter->addItem(tr("All kinds"), QString());
    m_kindFilter->addItem(tr("Measurements"),
                          QString::fromLatin1(historyKindName(HistoryKind::Measurement)));
    m_kindFilter->addItem(tr("Sweeps"), QString::fromLatin1(historyKindName(HistoryKind::Sweep)));
    m_textFilter->setPlaceholderText(tr("Filter by project, kernel, device, summary or note"));
    m_textFilter->setClearButtonEnabled(true);
    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(250);
    m_refreshButton->setDefaultAction(m_refreshAction);
}

void HistoryPanel::createView()
{
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    // The store's order (newest first) is the only order: sorting the few hundred rows shown
    // would hide that older entries exist beyond them.
    m_view->setSortingEnabled(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    QHeaderView *header = m_view->horizontalHeader();
    header->setStretchLastSection(true);
    header->setHighlightSections(false);
    header->resizeSection(HistoryModel::WhenColumn, 120);
    header->resizeSection(HistoryModel::KindColumn, 90);
    header->resizeSection(HistoryModel::ProjectColumn, 110);
    header->resizeSection(HistoryModel::KernelColumn, 110);
    header->resizeSection(HistoryModel::DeviceColumn, 110);
    header->resizeSection(HistoryModel::SummaryColumn, 260);
}

void HistoryPanel::createLayout()
{
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *messageLayout = new QVBoxLayout(m_messagePage);
    messageLayout->addStretch(1);
    messageLayout->addWidget(m_message);
    messageLayout->addWidget(m_retryButton, 0, Qt::AlignHCenter);
    messageLayout->addStretch(1);
    m_pages->addWidget(m_view);
    m_pages->addWidget(m_messagePage);

    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_kindFilter);
    filterRow->addWidget(m_textFilter, 1);
    filterRow->addWidget(m_refreshButton);

    auto *buttonRow = new QHBoxLayout;
    for (QAction *action : {m_openAction, m_compareAction, m_editNoteAction, m_deleteAction}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        buttonRow->addWidget(button);
    }
    buttonRow->addWidget(m_status, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(filterRow);
    layout->addWidget(m_pages, 1);
    layout->addLayout(buttonRow);
}

void HistoryPanel::connectActions()
{
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, &HistoryPanel::refresh);
    connect(m_textFilter, &QLineEdit::textChanged, m_filterDelay, qOverload<>(&QTimer::start));
    connect(m_filterDelay, &QTimer::timeout, this, &HistoryPanel::refresh);
    connect(m_refreshAction, &QAction::triggered, this, &HistoryPanel::refresh);
    connect(m_retryButton, &QPushButton::clicked, this, [this] { setDatabasePath(m_path); });
    connect(m_openAction, &QAction::triggered, this, [this] {
        if (const std::optional<qint64> id = selectedId())
            openEntry(*id);
    });
    connect(m_compareAction, &QAction::triggered, this, [this] {
        if (const std::optional<qint64> id = selectedId())
            compareEntry(*id);
    });
    connect(m_compareCurrentAction, &QAction::triggered, this, [this] {
        if (const std::optional<qint64> id = selectedId())
            compareWithCurrent(*id);
    });
    connect(m_editNoteAction, &QAction::triggered, this, &HistoryPanel::editNoteOfSelection);
    connect(m_deleteAction, &QAction::triggered, this, &HistoryPanel::confirmAndDeleteSelection);
    connect(m_view, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        openEntry(index.data(HistoryModel::IdRole).toLongLong());
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, &HistoryPanel::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &HistoryPanel::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &HistoryPanel::updateActions);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &HistoryPanel::updateActions);
}

HistoryPanel::~HistoryPanel()
{
    // A save asked for just before closing still happens; the watchers, deleted after this,
    // deliver nothing.
    m_pool.waitForDone();
}

void HistoryPanel::setDatabasePath(const QString &path)
{
    m_path = path;
    ++m_generation;
    m_connection.reset();
    m_openError.clear();
    m_totalCount = 0;
    m_model->clear();
    setStatus({});
    if (path.isEmpty()) {
        m_state = State::Closed;
        updatePage();
        return;
    }
    m_state = State::Opening;
    m_connection = std::make_shared<Connection>();
    m_connection->path = toStdString(path);
    updatePage();
    setStatus(tr("Opening the history\u2026"));
    submit<bool>(
        [](Connection &connection) {
            connection.store.emplace(HistoryStore::open(connection.path));
            return true;
        },
        [this](const Outcome<bool> &outcome) {
            if (!outcome.value) {
                showOpenError(outcome.error);
                return;
            }
            m_state = State::Open;
            setStatus({});
            updatePage();
            refresh();
        });
}

HistoryFilter HistoryPanel::currentFilter() const
{
    HistoryFilter filter;
    filter.kind = historyKindFromName(toStdString(m_kindFilter->currentData().toString()));
    filter.text = toStdString(m_textFilter->text().trimmed());
    return filter;
}

void HistoryPanel::refresh()
{
    m_filterDelay->stop();
    if (m_state != State::Open)
        return;
    const quint64 job = ++m_listJob;
    const HistoryFilter filter = currentFilter();
    submit<ListResult>(
        [filter](Connection &connection) {
            HistoryStore &store = connection.open();
            ListResult result;
            result.items = store.list(filter);
            result.total = store.count(filter);
            return result;
        },
        [this, job](const Outcome<ListResult> &outcome) {
            if (job != m_listJob)
                return; // a newer list is on its way
            if (!outcome.value) {
                showFailure(outcome.error);
                return;
            }
            const std::optional<qint64> selected = selectedId();
            m_model->setItems(outcome.value->items);
            m_totalCount = outcome.value->total;
            if (selected)
                selectId(*selected);
            setStatus({});
            updatePage();
            Q_EMIT listUpdated();
        });
}

void HistoryPanel::addEntry(const HistoryEntry &entry)
{
    if (m_state == State::Closed || m_state == State::Failed) {
        showFailure(
            tr("Not kept in the history: %1")
                .arg(m_openError.isEmpty() ? tr("no history database is open.") : m_openError));
        return;
    }
    submit<std::int64_t>([entry](Connection &connection) { return connection.open().add(entry); },
                         [this](const Outcome<std::int64_t> &outcome) {
                             if (!outcome.value) {
                                 showFailure(outcome.error);
                                 return;
                             }
                             Q_EMIT entryAdded(*outcome.value);
                             refresh();
                         });
}

void HistoryPanel::openEntry(qint64 id)
{
    load(id, LoadFor::Open);
}

void HistoryPanel::compareEntry(qint64 id)
{
    load(id, LoadFor::Baseline);
}

void HistoryPanel::compareWithCurrent(qint64 id)
{
    load(id, LoadFor::Compare);
}

void HistoryPanel::load(qint64 id, LoadFor purpose)
{
    if (m_state != State::Open)
        return;
    const quint64 job = ++m_loadJob;
    setStatus(tr("Loading\u2026"));
    submit<LoadResult>(
        [id](Connection &connection) {
            LoadResult result;
            const std::optional<HistoryEntry> entry = connection.open().load(id);
            if (entry) {
                result.found = true;
                result.json = QString::fromStdString(entry->json);
                result.kind = QString::fromLatin1(historyKindName(entry->kind));
            }
            return result;
        },
        [this, id, job, purpose](const Outcome<LoadResult> &outcome) {
            if (job != m_loadJob)
                return; // the user asked for another entry since
            if (!outcome.value) {
                showFailure(outcome.error);
                return;
            }
            if (!outcome.value->found) {
                showFailure(tr("This entry is no longer in the history (deleted in another "
                               "window?)."));
                refresh();
                return;
            }
            setStatus({});
            if (purpose == LoadFor::Baseline)
                Q_EMIT baselineRequested(id, outcome.value->json, outcome.value->kind);
            else if (purpose == LoadFor::Compare)
                Q_EMIT compareWithCurrentRequested(id, outcome.value->json, outcome.value->kind);
            else
                Q_EMIT openRequested(id, outcome.value->json, outcome.value->kind);
        });
}

void HistoryPanel::setNote(qint64 id, const QString &note)
{
    if (m_state != State::Open)
        return;
    const std::string text = toStdString(note);
    submit<bool>([id, text](Connection &connection) { return connection.open().setNote(id, text); },
                 [this, id, text](const Outcome<bool> &outcome) {
                     if (!outcome.value) {
                         showFailure(outcome.error);
                     } else if (!*outcome.value) {
                         showFailure(tr("This entry is no longer in the history."));
                         refresh();
                     } else {
                         m_model->setNote(id, text);
                         setStatus({});
                     }
                 });
}

void HistoryPanel::removeEntry(qint64 id)
{
    if (m_state != State::Open)
        return;
    submit<bool>([id](Connection &connection) { return connection.open().remove(id); },
                 [this, id](const Outcome<bool> &outcome) {
                     if (!outcome.value) {
                         showFailure(outcome.error);
                         return;
                     }
                     if (m_model->removeId(id) && *outcome.value)
                         m_totalCount = std::max<qint64>(m_totalCount - 1, 0);
                     setStatus({});
                     updatePage();
                     Q_EMIT entryRemoved(id);
                 });
}

std::optional<qint64> HistoryPanel::selectedId() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    return rows.first().data(HistoryModel::IdRole).toLongLong();
}

void HistoryPanel::selectId(qint64 id)
{
    const int row = m_model->rowOfId(id);
    if (row < 0)
        return;
    m_view->selectionModel()->setCurrentIndex(
        m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString HistoryPanel::statusText() const
{
    return m_status->text();
}

void HistoryPanel::setStatus(const QString &text, bool isError)
{
    QString shown = text;
    if (shown.isEmpty() && m_state == State::Open) {
        const qint64 rows = m_model->rowCount();
        if (rows == 0 && m_totalCount == 0)
            shown.clear(); // the page in place of the list says it
        else if (rows < m_totalCount)
            shown = tr("The newest %1 of %2 entries").arg(rows).arg(m_totalCount);
        else
            shown = rows == 1 ? tr("1 entry") : tr("%1 entries").arg(rows);
    }
    m_status->setText(shown);
    QPalette palette = this->palette();
    if (isError)
        palette.setColor(QPalette::WindowText, Theme::error);
    m_status->setPalette(palette);
    m_status->setToolTip(isError ? text : QString());
}

void HistoryPanel::showOpenError(const QString &message)
{
    m_state = State::Failed;
    m_openError = message;
    m_model->clear();
    setStatus({});
    updatePage();
    Q_EMIT databaseErrorOccurred(message);
}

void HistoryPanel::showFailure(const QString &message)
{
    setStatus(message, true);
    Q_EMIT databaseErrorOccurred(message);
}

void HistoryPanel::updatePage()
{
    QString message;
    bool retry = false;
    switch (m_state) {
    case State::Closed:
        message = tr("No history database is open.");
        break;
    case State::Opening:
        break;
    case State::Failed:
        message = tr("The history cannot be shown.\n\n%1").arg(m_openError);
        retry = true;
        break;
    case State::Open:
        if (m_model->rowCount() > 0)
            break;
        if (m_kindFilter->currentIndex() > 0 || !m_textFilter->text().trimmed().isEmpty())
            message = tr("No entries match the filter.");
        else
            message = tr("No measurements or sweeps yet.\nEach one you run is kept here, to "
                         "reopen it later or to compare the current code with it.");
        break;
    }
    m_message->setText(message);
    QPalette palette = this->palette();
    if (m_state == State::Failed)
        palette.setColor(QPalette::WindowText, Theme::error);
    m_message->setPalette(palette);
    m_retryButton->setVisible(retry);
    m_pages->setCurrentWidget(message.isEmpty() ? static_cast<QWidget *>(m_view) : m_messagePage);
    m_kindFilter->setEnabled(m_state == State::Open);
    m_textFilter->setEnabled(m_state == State::Open);
    m_refreshAction->setEnabled(m_state == State::Open);
}

void HistoryPanel::updateActions()
{
    const bool selected = m_state == State::Open && selectedId().has_value();
    for (QAction *action : {m_openAction, m_compareAction, m_editNoteAction, m_deleteAction})
        action->setEnabled(selected);
    // Only a measurement is one variant; a sweep is many.
    const std::optional<HistoryItem> item = selected ? m_model->item(*selectedId()) : std::nullopt;
    m_compareCurrentAction->setEnabled(item && item->kind == HistoryKind::Measurement);
}

void HistoryPanel::editNoteOfSelection()
{
    const std::optional<qint64> id = selectedId();
    if (!id)
        return;
    const std::optional<HistoryItem> item = m_model->item(*id);
    if (!item)
        return;
    bool ok = false;
    const QString current = toQString(item->note);
    const QString note = QInputDialog::getMultiLineText(
        this, tr("Edit note"),
        tr("Note on the %1 of %2, %3:")
            .arg(HistoryModel::kindText(item->kind).toLower(), toQString(item->kernel),
                 m_model->index(m_model->rowOfId(*id), HistoryModel::WhenColumn).data().toString()),
        current, &ok);
    if (ok && note != current)
        setNote(*id, note);
}

void HistoryPanel::confirmAndDeleteSelection()
{
    const std::optional<qint64> id = selectedId();
    if (!id)
        return;
    const std::optional<HistoryItem> item = m_model->item(*id);
    if (!item)
        return;
    const QString when =
        m_model->index(m_model->rowOfId(*id), HistoryModel::WhenColumn).data().toString();
    const QMessageBox::StandardButton answer =
        QMessageBox::question(this, tr("Delete from history"),
                              tr("Delete the %1 of %2 from %3 (%4)? This cannot be undone.")
                                  .arg(HistoryModel::kindText(item->kind).toLower(),
                                       toQString(item->kernel), when, toQString(item->summary)),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer == QMessageBox::Yes)
        removeEntry(*id);
}

void HistoryPanel::showContextMenu(const QPoint &position)
{
    const QModelIndex index = m_view->indexAt(position);
    if (index.isValid())
        selectId(index.data(HistoryModel::IdRole).toLongLong());
    QMenu menu(this);
    menu.addAction(m_openAction);
    menu.addAction(m_compareAction);
    menu.addAction(m_compareCurrentAction);
    menu.addSeparator();
    menu.addAction(m_editNoteAction);
    menu.addAction(m_deleteAction);
    menu.addSeparator();
    menu.addAction(m_refreshAction);
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace cuwb
