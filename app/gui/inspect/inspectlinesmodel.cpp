#include "gui/inspect/inspectlinesmodel.h"

#include "gui/common/qtconvert.h"
#include "gui/inspect/inspectoverlay.h"

#include <QBrush>
#include <QFileInfo>

#include <cmath>

namespace cuwb {

namespace {

QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(100.0 * fraction, 0, 'f', 1);
}

} // namespace

InspectLinesModel::InspectLinesModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void InspectLinesModel::setSummary(const InspectSummary &summary, const QStringList &source,
                                   const std::string &fileName)
{
    beginResetModel();
    m_rows.clear();
    m_samples = summary.stallSamples > 0;
    for (const LineCounters &line : summary.lines) {
        Row row;
        row.counters = line;
        row.main = isMainSourceLine(line, fileName);
        if (row.main && line.line <= source.size())
            row.text = source.at(line.line - 1).trimmed();
        else if (!row.main)
            row.text = QStringLiteral("(%1)").arg(QFileInfo(toQString(line.file)).fileName());
        m_rows.push_back(std::move(row));
    }
    endResetModel();
}

void InspectLinesModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_samples = false;
    endResetModel();
}

int InspectLinesModel::rowOfLine(int line) const
{
    for (std::size_t row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].main && m_rows[row].counters.line == line)
            return int(row);
    }
    return -1;
}

int InspectLinesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InspectLinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InspectLinesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const LineCounters &line = row.counters;
    const CounterTotals &t = line.totals;
    const bool global = t.globalRequests > 0;
    const bool shared = t.sharedRequests > 0 && t.sharedWavefrontsIdeal > 0;
    QStringList findings;
    for (const Finding &finding : line.findings)
        findings << toQString(finding.message);

    if (role == SourceLineRole)
        return row.main ? line.line : 0;
    if (role == SortRole) {
        switch (index.column()) {
        case LineColumn:
            return (row.main ? 0 : 1000000) + line.line;
        case SourceColumn:
            return row.text;
        case StallsColumn:
        case ReasonsColumn:
            return line.stallShare;
        case ExecutedColumn:
            return line.share;
        case SectorsColumn:
            return global ? t.sectorsPerRequest() : -1.0;
        case IdealSectorsColumn:
            return global ? t.idealSectorsPerRequest() : -1.0;
        case WavefrontsColumn:
            return shared ? t.bankConflictWays() : -1.0;
        case FindingsColumn:
            return int(line.findings.size());
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case LineColumn:
            return row.main ? QString::number(line.line)
                            : QStringLiteral("%1:%2")
                                  .arg(QFileInfo(toQString(line.file)).fileName())
                                  .arg(line.line);
        case SourceColumn:
            return row.text;
        case StallsColumn:
            return m_samples && line.stallSamples > 0 ? percent(line.stallShare) : QString();
        case ReasonsColumn:
            return toQString(topReasons(line.stallReasons, 2));
        case ExecutedColumn:
            return t.instructions > 0 ? percent(line.share) : QString();
        case SectorsColumn:
            return global ? QString::number(t.sectorsPerRequest(), 'f', 1) : QString();
        case IdealSectorsColumn:
            return global ? QString::number(t.idealSectorsPerRequest(), 'f', 1) : QString();
        case WavefrontsColumn:
            return shared ? tr("%1 / %2 (%3\u00d7)")
                                .arg(t.sharedWavefronts)
                                .arg(t.sharedWavefrontsIdeal)
                                .arg(std::round(t.bankConflictWays()), 0, 'f', 0)
                          : QString();
        case FindingsColumn:
            return findings.join(QStringLiteral("; "));
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case SourceColumn:
            return row.main ? row.text : toQString(line.file);
        case ReasonsColumn:
            return line.stallSamples > 0 ? tr("%1 PC samples: %2")
                                               .arg(line.stallSamples)
                                               .arg(toQString(topReasons(line.stallReasons, 8)))
                                         : QVariant();
        case ExecutedColumn:
            return tr("%1 warp instructions executed").arg(t.instructions);
        case SectorsColumn:
        case IdealSectorsColumn:
            return global ? tr("%1 global requests, %2 sectors (%3 ideal)")
                                .arg(t.globalRequests)
                                .arg(t.globalSectors)
                                .arg(t.globalSectorsIdeal)
                          : QVariant();
        case FindingsColumn:
            return findings.isEmpty() ? QVariant() : findings.join(QLatin1Char('\n'));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case SourceColumn:
        case ReasonsColumn:
        case FindingsColumn:
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        default:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    if (role == Qt::ForegroundRole && index.column() == FindingsColumn && !findings.isEmpty())
        return QBrush(QColor(0xb7, 0x1c, 0x1c));
    return {};
}

QVariant InspectLinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case LineColumn:
            return tr("Line");
        case SourceColumn:
            return tr("Source");
        case StallsColumn:
            return tr("Stalls");
        case ReasonsColumn:
            return tr("Where warps wait");
        case ExecutedColumn:
            return tr("Executed");
        case SectorsColumn:
            return tr("Sectors/req");
        case IdealSectorsColumn:
            return tr("Ideal");
        case WavefrontsColumn:
            return tr("Shared wavefronts");
        case FindingsColumn:
            return tr("Findings");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StallsColumn:
            return tr("The line's share of the PC samples: where the warps spent their time");
        case ReasonsColumn:
            return tr("Why the sampled warps could not issue, most frequent first");
        case ExecutedColumn:
            return tr("The line's share of the kernel's warp instructions executed");
        case SectorsColumn:
            return tr("32-byte global-memory sectors per warp-level request");
        case IdealSectorsColumn:
            return tr("The sectors per request the bytes asked for would need at best");
        case WavefrontsColumn:
            return tr("Shared-memory wavefronts against the ideal; n\u00d7 is an n-way bank "
                      "conflict");
        default:
            return {};
        }
    }
    return {};
}

} // namespace cuwb
