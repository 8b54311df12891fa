#include "gui/run/buffersummarymodel.h"

#include "gui/common/qtconvert.h"

#include <QColor>
#include <QLocale>

#include <cmath>

namespace cuwb {

namespace {

const QColor kProblemColour(0xc6, 0x28, 0x28);

} // namespace

BufferSummaryModel::BufferSummaryModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void BufferSummaryModel::setBuffers(const std::vector<BufferReport> &buffers,
                                    const std::vector<BufferReport> &globals)
{
    beginResetModel();
    m_rows = buffers;
    m_rows.insert(m_rows.end(), globals.begin(), globals.end());
    m_bufferRows = int(buffers.size());
    endResetModel();
}

void BufferSummaryModel::clear()
{
    setBuffers({});
}

int BufferSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int BufferSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString BufferSummaryModel::formatNumber(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', 7);
}

QVariant BufferSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BufferColumn:
        return tr("Buffer");
    case ElementsColumn:
        return tr("Elements");
    case GuardColumn:
        return tr("Guard bands");
    case UnwrittenColumn:
        return tr("Unwritten");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    case MeanColumn:
        return tr("Mean");
    case NanColumn:
        return tr("NaN");
    case InfColumn:
        return tr("Inf");
    default:
        return {};
    }
}

QVariant BufferSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const BufferReport &buffer = m_rows[std::size_t(index.row())];
    const bool global = isGlobal(index.row());
    const bool guardProblem = !buffer.guardViolations.empty();
    const bool problem = (index.column() == GuardColumn && guardProblem) ||
                         (index.column() == UnwrittenColumn && buffer.unwritten > 0) ||
                         (index.column() == NanColumn && buffer.stats.nanCount > 0) ||
                         (index.column() == InfColumn && buffer.stats.infCount > 0);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case BufferColumn:
            return global ? tr("%1 (global)").arg(toQString(buffer.parameter))
                          : toQString(buffer.parameter);
        case ElementsColumn:
            return QLocale().toString(qulonglong(buffer.count));
        case GuardColumn: {
            if (global)
                return QStringLiteral("\u2014"); // module variables have no guard bands
            if (!guardProblem)
                return tr("intact");
            std::uint64_t elements = 0;
            for (const GuardViolation &violation : buffer.guardViolations)
                elements += violation.elements;
            return tr("%n element(s) overwritten", nullptr,
                      int(std::min<std::uint64_t>(elements, 1u << 30)));
        }
        case UnwrittenColumn:
            return global ? QStringLiteral("\u2014")
                          : QLocale().toString(qulonglong(buffer.unwritten));
        case MinColumn:
            return buffer.stats.valid ? formatNumber(buffer.stats.min) : QStringLiteral("\u2014");
        case MaxColumn:
            return buffer.stats.valid ? formatNumber(buffer.stats.max) : QStringLiteral("\u2014");
        case MeanColumn:
            return buffer.stats.valid ? formatNumber(buffer.stats.mean) : QStringLiteral("\u2014");
        case NanColumn:
            return QLocale().toString(qulonglong(buffer.stats.nanCount));
        case InfColumn:
            return QLocale().toString(qulonglong(buffer.stats.infCount));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == GuardColumn && guardProblem) {
            QStringList messages;
            for (const GuardViolation &violation : buffer.guardViolations)
                messages << toQString(violation.message);
            return messages.join(QLatin1Char('\n'));
        }
        if (index.column() == UnwrittenColumn && buffer.unwritten > 0 && buffer.firstUnwritten >= 0)
            return tr("First unwritten element at index %1").arg(buffer.firstUnwritten);
        return {};
    case Qt::ForegroundRole:
        if (problem)
            return kProblemColour;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == BufferColumn || index.column() == GuardColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case ProblemRole:
        return problem;
    default:
        return {};
    }
}

} // namespace cuwb
