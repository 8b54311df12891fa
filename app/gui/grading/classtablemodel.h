// ClassTableModel: a graded class, one row per submission in the grading's order — rank (with
// "=" for a tie), student, verdict, measured median and noise, and the reason it failed
// (grading/classreport.h). Failed and flagged rows are marked; the full reason is the tooltip.
#pragma once

#include "grading/classreport.h"

#include <QAbstractTableModel>

#include <vector>

namespace cuwb {

class ClassTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Rank, Student, Verdict, Median, Noise, Reason, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setEntries(std::vector<ClassEntry> entries);
    [[nodiscard]] const std::vector<ClassEntry> &entries() const { return m_entries; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<ClassEntry> m_entries;
};

} // namespace cuwb
