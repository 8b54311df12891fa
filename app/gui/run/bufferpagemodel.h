// BufferPageModel: the values of one buffer kept by the worker, as a two-column table (index,
// value) whose row count is the buffer's element count — up to 2^30 and more. Values are never
// copied whole: data() for a row whose page is not cached shows "…" and asks for that page
// (pageRequested, batched to the next event-loop turn); pages arrive through addPage() and a
// bounded cache keeps the most recently used ones. Pages for another buffer (an older run) or
// no longer wanted are dropped.
#pragma once

#include "worker/protocol.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace cuwb {

class BufferPageModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { IndexColumn, ValueColumn, ColumnCount };
    enum Role {
        LoadedRole = Qt::UserRole + 1, // bool: the value is known
    };

    static constexpr quint32 DefaultPageSize = 512;
    static constexpr int kDefaultCachePages = 256;

    explicit BufferPageModel(QObject *parent = nullptr);

    // A new buffer: forgets every cached page and pending request.
    void setBuffer(const QString &handle, quint64 elementCount, const QString &typeName = {});
    void clear();
    [[nodiscard]] QString handle() const { return m_handle; }
    [[nodiscard]] quint64 elementCount() const { return m_count; }

    void setPageSize(quint32 elements);
    [[nodiscard]] quint32 pageSize() const { return m_pageSize; }
    void setCachePages(int pages);
    [[nodiscard]] int cachedPageCount() const { return int(m_pages.size()); }
    [[nodiscard]] bool isPageCached(quint64 pageIndex) const { return m_pages.contains(pageIndex); }
    [[nodiscard]] bool isPagePending(quint64 pageIndex) const
    {
        return m_requested.contains(pageIndex);
    }

    // A page from the worker. Returns false (and changes nothing) when it is stale: another
    // buffer's, or one that was not asked for.
    bool addPage(const Page &page);
    // The request for this page was dropped unanswered (superseded by newer ones).
    void requestDropped(const QString &handle, quint64 first);
    // The worker could not serve a page: shows the message in its rows.
    void pageFailed(const QString &handle, quint64 first, const QString &message);
    // Sends the requests data() collected now instead of on the next event-loop turn.
    void flushRequests();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void pageRequested(const cuwb::PageRequest &request);
    // A page of the shown buffer could not be served; `message` says why (its rows show
    // "(unavailable)" with the message as their tooltip).
    void pageUnavailable(const QString &message);

private:
    void want(quint64 pageIndex) const;
    void touch(quint64 pageIndex) const;
    void evict();

    QString m_handle;
    QString m_typeName;
    quint64 m_count = 0;
    quint32 m_pageSize = DefaultPageSize;
    int m_cachePages = kDefaultCachePages;
    QHash<quint64, QStringList> m_pages;
    QHash<quint64, QString> m_failed;
    // mutable: data() is const but records what the view needs.
    mutable QList<quint64> m_recent;   // most recently used last
    mutable QSet<quint64> m_requested; // sent or about to be sent
    mutable QList<quint64> m_toSend;
    mutable bool m_flushScheduled = false;
};

} // namespace cuwb

Q_DECLARE_METATYPE(cuwb::PageRequest)
