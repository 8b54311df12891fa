#include "gui/run/mismatchesmodel.h"

#include "gui/run/buffersummarymodel.h"

namespace cuwb {

MismatchesModel::MismatchesModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void MismatchesModel::setMismatches(const std::vector<Mismatch> &mismatches)
{
    beginResetModel();
    m_mismatches = mismatches;
    endResetModel();
}

void MismatchesModel::clear()
{
    setMismatches({});
}

int MismatchesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_mismatches.size());
}

int MismatchesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MismatchesModel::formatCoordinates(const std::uint64_t (&xyz)[3])
{
    if (xyz[1] == 0 && xyz[2] == 0)
        return QString::number(xyz[0]);
    return QStringLiteral("(%1, %2, %3)").arg(xyz[0]).arg(xyz[1]).arg(xyz[2]);
}

QVariant MismatchesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("Index");
    case BlockColumn:
        return tr("Block");
    case ThreadColumn:
        return tr("Thread");
    case ActualColumn:
        return tr("Actual");
    case ExpectedColumn:
        return tr("Expected");
    case ErrorColumn:
        return tr("Error");
    default:
        return {};
    }
}

QVariant MismatchesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Mismatch &mismatch = m_mismatches[std::size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case IndexColumn:
        return QString::number(mismatch.index);
    case BlockColumn:
        return formatCoordinates(mismatch.block);
    case ThreadColumn:
        return formatCoordinates(mismatch.thread);
    case ActualColumn:
        return BufferSummaryModel::formatNumber(mismatch.actual);
    case ExpectedColumn:
        return BufferSummaryModel::formatNumber(mismatch.expected);
    case ErrorColumn:
        return BufferSummaryModel::formatNumber(mismatch.error);
    default:
        return {};
    }
}

} // namespace cuwb
