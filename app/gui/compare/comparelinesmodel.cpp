#include "gui/compare/comparelinesmodel.h"

#include "gui/common/qtconvert.h"
#include "gui/common/theme.h"
#include "gui/compare/comparemodel.h"

#include <QFont>
#include <QStringList>

namespace cuwb {

namespace {

QString perRequest(const CounterTotals &t, bool present)
{
    if (!present || t.globalRequests == 0)
        return QStringLiteral("\u2014");
    return QString::number(t.sectorsPerRequest(), 'f', 1);
}

QString count(std::uint64_t value, bool present)
{
    return present ? compareNumber(double(value)) : QStringLiteral("\u2014");
}

} // namespace

CompareLinesModel::CompareLinesModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void CompareLinesModel::setLines(const std::vector<LineDelta> &lines)
{
    beginResetModel();
    m_all = lines;
    rebuild();
    endResetModel();
}

void CompareLinesModel::setShowOnlySignificant(bool only)
{
    if (only == m_onlySignificant)
        return;
    beginResetModel();
    m_onlySignificant = only;
    rebuild();
    endResetModel();
}

void CompareLinesModel::rebuild()
{
    m_lines.clear();
    for (const LineDelta &l : m_all) {
        if (!m_onlySignificant || l.significant || !l.findingsA.empty() || !l.findingsB.empty())
            m_lines.push_back(l);
    }
}

int CompareLinesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int CompareLinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareLinesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_lines.size()))
        return {};
    const LineDelta &l = m_lines[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LineColumn:
            return l.line;
        case InstructionsAColumn:
            return count(l.a.instructions, l.inA);
        case InstructionsBColumn:
            return count(l.b.instructions, l.inB);
        case SectorsAColumn:
            return perRequest(l.a, l.inA);
        case SectorsBColumn:
            return perRequest(l.b, l.inB);
        case WavefrontsAColumn:
            return l.inA && l.a.sharedRequests ? compareNumber(double(l.a.sharedWavefronts))
                                               : QStringLiteral("\u2014");
        case WavefrontsBColumn:
            return l.inB && l.b.sharedRequests ? compareNumber(double(l.b.sharedWavefronts))
                                               : QStringLiteral("\u2014");
        case FindingsColumn: {
            QStringList parts;
            for (const std::string &f : l.findingsA)
                parts << tr("A: %1").arg(toQString(f));
            for (const std::string &f : l.findingsB)
                parts << tr("B: %1").arg(toQString(f));
            return parts.join(QStringLiteral("; "));
        }
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == FindingsColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (l.significant) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == FindingsColumn && (!l.findingsA.empty() || !l.findingsB.empty()))
            return Theme::warning;
        return l.significant && index.column() != LineColumn ? QVariant(Theme::keyword)
                                                             : QVariant();
    case Qt::ToolTipRole:
        return tr("Line %1: click to go there in the editor").arg(l.line);
    case LineRole:
        return l.line;
    case SignificantRole:
        return l.significant;
    }
    return {};
}

QVariant CompareLinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LineColumn:
        return tr("Line");
    case InstructionsAColumn:
        return tr("A warp instr.");
    case InstructionsBColumn:
        return tr("B warp instr.");
    case SectorsAColumn:
        return tr("A sectors/req");
    case SectorsBColumn:
        return tr("B sectors/req");
    case WavefrontsAColumn:
        return tr("A shared wavefr.");
    case WavefrontsBColumn:
        return tr("B shared wavefr.");
    case FindingsColumn:
        return tr("Findings");
    }
    return {};
}

} // namespace cuwb
