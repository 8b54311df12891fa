#include "gui/history/historymodel.h"

#include "gui/common/qtconvert.h"

#include <QDateTime>
#include <QLocale>

namespace cuwb {

namespace {

QDateTime utcTime(const std::string &iso)
{
    QDateTime time = QDateTime::fromString(toQString(iso), Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(toQString(iso), Qt::ISODate);
    return time.toUTC();
}

QString sizeText(std::uint64_t bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

} // namespace

HistoryModel::HistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

QString HistoryModel::kindText(HistoryKind kind)
{
    switch (kind) {
    case HistoryKind::Measurement:
        return tr("Measurement");
    case HistoryKind::Sweep:
        return tr("Sweep");
    }
    return {};
}

void HistoryModel::setItems(std::vector<HistoryItem> items)
{
    beginResetModel();
    m_items = std::move(items);
    endResetModel();
}

void HistoryModel::clear()
{
    setItems({});
}

std::optional<HistoryItem> HistoryModel::itemAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_items.size())
        return std::nullopt;
    return m_items[static_cast<std::size_t>(row)];
}

std::optional<HistoryItem> HistoryModel::item(qint64 id) const
{
    return itemAt(rowOfId(id));
}

int HistoryModel::rowOfId(qint64 id) const
{
    for (std::size_t row = 0; row < m_items.size(); ++row) {
        if (m_items[row].id == id)
            return static_cast<int>(row);
    }
    return -1;
}

bool HistoryModel::setNote(qint64 id, const std::string &note)
{
    const int row = rowOfId(id);
    if (row < 0)
        return false;
    m_items[static_cast<std::size_t>(row)].note = note;
    Q_EMIT dataChanged(index(row, NoteColumn), index(row, NoteColumn));
    return true;
}

bool HistoryModel::removeId(qint64 id)
{
    const int row = rowOfId(id);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_items.erase(m_items.begin() + row);
    endRemoveRows();
    return true;
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_items.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryItem &item = m_items[static_cast<std::size_t>(index.row())];

    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case WhenColumn: {
            const QDateTime time = utcTime(item.createdAt);
            // Local time, to the minute, in one unambiguous form whatever the locale.
            return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                  : toQString(item.createdAt);
        }
        case KindColumn:
            return kindText(item.kind);
        case ProjectColumn:
            return toQString(item.projectName);
        case KernelColumn:
            return toQString(item.kernel);
        case DeviceColumn:
            return toQString(item.deviceName);
        case SummaryColumn:
            return toQString(item.summary);
        case NoteColumn: {
            // The first line; the tooltip has the rest.
            const QString note = toQString(item.note);
            const qsizetype end = note.indexOf(QLatin1Char('\n'));
            return end < 0 ? note : note.left(end) + QStringLiteral(" \u2026");
        }
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case WhenColumn: {
            const QDateTime time = utcTime(item.createdAt);
            if (!time.isValid())
                return {};
            return tr("%1\n%2 UTC")
                .arg(QLocale().toString(time.toLocalTime(), QLocale::LongFormat),
                     time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        }
        case ProjectColumn:
            return toQString(item.projectPath);
        case SummaryColumn:
            return tr("%1\nSource %2\nStored document: %3")
                .arg(toQString(item.summary), toQString(item.sourceHash), sizeText(item.jsonBytes));
        case NoteColumn:
            return toQString(item.note);
        default:
            return {};
        }
    }
    if (role == IdRole)
        return QVariant::fromValue<qint64>(item.id);
    if (role == KindRole)
        return QString::fromLatin1(historyKindName(item.kind));
    if (role == CreatedAtRole)
        return utcTime(item.createdAt);
    if (role == JsonBytesRole)
        return QVariant::fromValue<qulonglong>(item.jsonBytes);
    if (role == NoteRole)
        return toQString(item.note);
    return {};
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhenColumn:
        return tr("When");
    case KindColumn:
        return tr("Kind");
    case ProjectColumn:
        return tr("Project");
    case KernelColumn:
        return tr("Kernel");
    case DeviceColumn:
        return tr("Device");
    case SummaryColumn:
        return tr("Summary");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}

} // namespace cuwb
