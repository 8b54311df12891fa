#include "gui/compare/comparemodel.h"

#include "gui/common/format.h"
#include "gui/common/theme.h"

#include <QFont>
#include <QLocale>

#include <cmath>

namespace cuwb {

QString compareNumber(double value)
{
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QLocale(QLocale::English).toString(qlonglong(value));
    if (value != 0.0 && std::abs(value) < 0.01)
        return QString::number(value, 'g', 3);
    return QString::number(value, 'f', 2);
}

CompareModel::CompareModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

QString CompareModel::sectionName(Section section)
{
    switch (section) {
    case Section::Time:
        return tr("time");
    case Section::SpeedOfLight:
        return tr("speed of light");
    case Section::Metrics:
        return tr("metric");
    case Section::Counters:
        return tr("inspection");
    case Section::Mix:
        return tr("SASS mix");
    }
    return {};
}

void CompareModel::setData(const CompareData &data)
{
    beginResetModel();
    m_all.clear();
    if (data.comparison.time)
        m_all.push_back({Section::Time, *data.comparison.time});
    for (const Delta &d : data.speedOfLight)
        m_all.push_back({Section::SpeedOfLight, d});
    for (const Delta &d : data.comparison.metrics)
        m_all.push_back({Section::Metrics, d});
    for (const Delta &d : data.comparison.counters)
        m_all.push_back({Section::Counters, d});
    for (const Delta &d : data.mix)
        m_all.push_back({Section::Mix, d});
    rebuild();
    endResetModel();
}

void CompareModel::setShowOnlySignificant(bool only)
{
    if (only == m_onlySignificant)
        return;
    beginResetModel();
    m_onlySignificant = only;
    rebuild();
    endResetModel();
}

int CompareModel::significantCount() const
{
    int count = 0;
    for (const Row &row : m_all)
        count += row.delta.significant ? 1 : 0;
    return count;
}

void CompareModel::rebuild()
{
    m_rows.clear();
    for (const Row &row : m_all) {
        if (!m_onlySignificant || row.delta.significant)
            m_rows.push_back(&row);
    }
}

int CompareModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &row = *m_rows[std::size_t(index.row())];
    const Delta &d = row.delta;
    const bool time = row.section == Section::Time;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SectionColumn:
            return sectionName(row.section);
        case WhatColumn:
            return time ? tr("median time") : toQString(d.what);
        case AColumn:
            return time ? kernelTimeText(d.a * 1e-6) : compareNumber(d.a);
        case BColumn:
            return time ? kernelTimeText(d.b * 1e-6) : compareNumber(d.b);
        case RatioColumn:
            if (const std::optional<double> ratio = d.ratio())
                return tr("%1\u00d7").arg(QString::number(*ratio, 'f', *ratio < 10 ? 2 : 1));
            return QStringLiteral("\u2014");
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() >= AColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (d.significant && index.column() != SectionColumn) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (!d.significant || index.column() == SectionColumn)
            return {};
        // A shorter time is better; for the other figures the direction depends on the
        // figure, so they are marked without a judgement.
        if (time)
            return d.b < d.a ? Theme::string : Theme::error;
        return Theme::keyword;
    case Qt::BackgroundRole:
        return d.significant ? QVariant(Theme::remarkBackground) : QVariant();
    case Qt::ToolTipRole: {
        const QString verdict =
            d.significant ? tr("This difference counts: %1")
                                .arg(time ? tr("beyond three times the sample noise")
                                          : tr("a change of 10 % or more"))
                          : tr("Within the noise or under 10 %: not a difference that counts");
        // The column may show the name elided.
        return index.column() == WhatColumn && !time
                   ? toQString(d.what) + QLatin1Char('\n') + verdict
                   : verdict;
    }
    case SignificantRole:
        return d.significant;
    }
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SectionColumn:
        return tr("Kind");
    case WhatColumn:
        return tr("What");
    case AColumn:
        return tr("A");
    case BColumn:
        return tr("B");
    case RatioColumn:
        return tr("B/A");
    }
    return {};
}

} // namespace cuwb
