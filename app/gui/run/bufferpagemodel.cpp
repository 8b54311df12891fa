#include "gui/run/bufferpagemodel.h"

#include "gui/common/qtconvert.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace cuwb {

BufferPageModel::BufferPageModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void BufferPageModel::setBuffer(const QString &handle, quint64 elementCount,
                                const QString &typeName)
{
    beginResetModel();
    m_handle = handle;
    m_typeName = typeName;
    m_count = elementCount;
    m_pages.clear();
    m_failed.clear();
    m_recent.clear();
    m_requested.clear();
    m_toSend.clear();
    endResetModel();
}

void BufferPageModel::clear()
{
    setBuffer(QString(), 0);
}

void BufferPageModel::setPageSize(quint32 elements)
{
    beginResetModel();
    m_pageSize = std::max<quint32>(1, elements);
    m_pages.clear();
    m_failed.clear();
    m_recent.clear();
    m_requested.clear();
    m_toSend.clear();
    endResetModel();
}

void BufferPageModel::setCachePages(int pages)
{
    m_cachePages = std::max(1, pages);
    evict();
}

int BufferPageModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    // A QAbstractItemModel counts rows in int; beyond that the last elements are not shown.
    return int(std::min<quint64>(m_count, quint64(std::numeric_limits<int>::max())));
}

int BufferPageModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BufferPageModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("Index");
    case ValueColumn:
        return m_typeName.isEmpty() ? tr("Value") : tr("Value (%1)").arg(m_typeName);
    default:
        return {};
    }
}

QVariant BufferPageModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const quint64 element = quint64(index.row());
    const quint64 pageIndex = element / m_pageSize;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (index.column() == IndexColumn) {
        if (role == Qt::DisplayRole)
            return QString::number(element);
        if (role == Qt::ForegroundRole)
            return QPalette().color(QPalette::Disabled, QPalette::Text);
        return {};
    }
    const auto page = m_pages.constFind(pageIndex);
    const bool loaded =
        page != m_pages.constEnd() && qsizetype(element - pageIndex * m_pageSize) < page->size();
    if (role == LoadedRole)
        return loaded;
    if (role == Qt::DisplayRole) {
        if (loaded) {
            touch(pageIndex);
            return page->at(qsizetype(element - pageIndex * m_pageSize));
        }
        if (const auto failed = m_failed.constFind(pageIndex); failed != m_failed.constEnd())
            return tr("(unavailable)");
        want(pageIndex);
        return QStringLiteral("\u2026");
    }
    if (role == Qt::ToolTipRole) {
        if (const auto failed = m_failed.constFind(pageIndex); failed != m_failed.constEnd())
            return *failed;
        return {};
    }
    if (role == Qt::ForegroundRole && loaded) {
        const QString &text = page->at(qsizetype(element - pageIndex * m_pageSize));
        if (text.contains(QLatin1String("nan"), Qt::CaseInsensitive) ||
            text.contains(QLatin1String("inf"), Qt::CaseInsensitive))
            return QColor(0xc0, 0x39, 0x2b);
    }
    if (role == Qt::FontRole) {
        QFont font(QStringLiteral("monospace"));
        font.setStyleHint(QFont::Monospace);
        return font;
    }
    return {};
}

void BufferPageModel::want(quint64 pageIndex) const
{
    if (m_requested.contains(pageIndex) || m_handle.isEmpty())
        return;
    m_requested.insert(pageIndex);
    m_toSend.append(pageIndex);
    if (!m_flushScheduled) {
        m_flushScheduled = true;
        // Not from inside data(): a view may be painting.
        QTimer::singleShot(0, const_cast<BufferPageModel *>(this), &BufferPageModel::flushRequests);
    }
}

void BufferPageModel::flushRequests()
{
    m_flushScheduled = false;
    const QList<quint64> toSend = std::exchange(m_toSend, {});
    for (const quint64 pageIndex : toSend) {
        PageRequest request;
        request.handle = toStdString(m_handle);
        request.first = pageIndex * m_pageSize;
        request.count = quint32(std::min<quint64>(m_pageSize, m_count - request.first));
        Q_EMIT pageRequested(request);
    }
}

void BufferPageModel::touch(quint64 pageIndex) const
{
    if (!m_recent.isEmpty() && m_recent.constLast() == pageIndex)
        return;
    m_recent.removeOne(pageIndex);
    m_recent.append(pageIndex);
}

void BufferPageModel::evict()
{
    while (m_pages.size() > m_cachePages && !m_recent.isEmpty()) {
        const quint64 oldest = m_recent.takeFirst();
        m_pages.remove(oldest);
    }
}

bool BufferPageModel::addPage(const Page &page)
{
    if (toQString(page.handle) != m_handle || m_handle.isEmpty())
        return false;
    if (page.first % m_pageSize != 0)
        return false;
    const quint64 pageIndex = page.first / m_pageSize;
    if (!m_requested.remove(pageIndex))
        return false; // not asked for (or asked for before the buffer changed)
    QStringList values;
    values.reserve(qsizetype(page.values.size()));
    for (const std::string &value : page.values)
        values.append(toQString(value));
    m_pages.insert(pageIndex, values);
    m_failed.remove(pageIndex);
    touch(pageIndex);
    evict();
    const int lastRow = int(std::min<quint64>(page.first + m_pageSize, quint64(rowCount())) - 1);
    if (page.first < quint64(rowCount()))
        Q_EMIT dataChanged(index(int(page.first), ValueColumn), index(lastRow, ValueColumn));
    return true;
}

void BufferPageModel::requestDropped(const QString &handle, quint64 first)
{
    if (handle == m_handle && first % m_pageSize == 0)
        m_requested.remove(first / m_pageSize); // asked for again when it is next on screen
}

void BufferPageModel::pageFailed(const QString &handle, quint64 first, const QString &message)
{
    if (handle != m_handle || first % m_pageSize != 0)
        return;
    const quint64 pageIndex = first / m_pageSize;
    if (!m_requested.remove(pageIndex))
        return;
    m_failed.insert(pageIndex, message);
    const int lastRow = int(std::min<quint64>(first + m_pageSize, quint64(rowCount())) - 1);
    if (first < quint64(rowCount()))
        Q_EMIT dataChanged(index(int(first), ValueColumn), index(lastRow, ValueColumn));
    Q_EMIT pageUnavailable(message);
}

} // namespace cuwb
