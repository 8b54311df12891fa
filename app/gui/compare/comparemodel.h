// CompareModel: the Compare view's main table, A beside B: the median time, speed of light, the
// metrics both passes collected, the inspection's counter totals and the instruction mix, with
// B/A. The differences that count (CompareData: compareSides' rule) are bold and coloured, and
// showOnlySignificant hides the rest. Thin: it formats CompareData and holds nothing else.
#pragma once

#include "compare/comparedata.h"

#include <QAbstractTableModel>

#include <vector>

namespace cuwb {

class CompareModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SectionColumn, WhatColumn, AColumn, BColumn, RatioColumn, ColumnCount };
    enum Role { SignificantRole = Qt::UserRole + 1 };
    enum class Section { Time, SpeedOfLight, Metrics, Counters, Mix };

    explicit CompareModel(QObject *parent = nullptr);

    void setData(const CompareData &data);
    void setShowOnlySignificant(bool only);
    [[nodiscard]] bool showsOnlySignificant() const { return m_onlySignificant; }
    // Every row, whether shown or not, and how many of them count.
    [[nodiscard]] int allRowCount() const { return int(m_all.size()); }
    [[nodiscard]] int significantCount() const;
    static QString sectionName(Section section);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        Section section;
        Delta delta;
    };
    void rebuild();

    std::vector<Row> m_all;
    std::vector<const Row *> m_rows; // the rows shown
    bool m_onlySignificant = false;
};

// "67,108,864", "2.00", "0.0041": a figure of the Compare view.
QString compareNumber(double value);

} // namespace cuwb
