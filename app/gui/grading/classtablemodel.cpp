#include "gui/grading/classtablemodel.h"

#include "gui/common/qtconvert.h"
#include "gui/common/severityicons.h"
#include "util/format.h"

namespace cuwb {

void ClassTableModel::setEntries(std::vector<ClassEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

int ClassTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ClassTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClassTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ClassEntry &entry = m_entries[std::size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank:
            if (entry.rank == 0)
                return QString();
            return (entry.tiedWith.empty() ? QString() : QStringLiteral("=")) +
                   QString::number(entry.rank);
        case Student:
            return toQString(entry.student);
        case Verdict:
            return !entry.passed ? tr("FAILED") : entry.flag.empty() ? tr("passed") : tr("FLAGGED");
        case Median:
            return entry.timing ? toQString(formatMicroseconds(entry.timing->medianNs)) : QString();
        case Noise:
            return entry.timing
                       ? QStringLiteral("%1 %").arg(entry.timing->relativeNoise * 100.0, 0, 'f', 2)
                       : QString();
        case Reason:
            return toQString(entry.flag.empty() ? entry.reason : entry.flag);
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == Rank && !entry.tiedWith.empty()) {
            QStringList names;
            for (const std::string &name : entry.tiedWith)
                names << toQString(name);
            return tr("Tied with %1: no difference beyond the noise").arg(names.join(tr(", ")));
        }
        if (index.column() == Reason || index.column() == Student)
            return toQString(entry.project + (entry.reason.empty() ? "" : "\n" + entry.reason) +
                             (entry.flag.empty() ? "" : "\n" + entry.flag));
    }
    if (role == Qt::DecorationRole && index.column() == Verdict) {
        if (!entry.passed)
            return SeverityIcons::icon(Severity::Error);
        if (!entry.flag.empty())
            return SeverityIcons::icon(Severity::Warning);
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == Rank || index.column() == Median || index.column() == Noise))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ClassTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank:
        return tr("Rank");
    case Student:
        return tr("Student");
    case Verdict:
        return tr("Verdict");
    case Median:
        return tr("Median");
    case Noise:
        return tr("Noise");
    case Reason:
        return tr("Reason");
    }
    return {};
}

} // namespace cuwb
