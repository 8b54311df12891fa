// CompareLinesModel: the per-line differences of two kernels of one source file, a row per line
// that either executed: warp instructions, sectors per global request and shared wavefronts of
// A and of B, and the findings of each. A line whose counters differ by compareSides' rule is
// bold (showOnlySignificant keeps those and the lines with a finding); LineRole gives the 1-based
// line for moving the editor's cursor there.
#pragma once

#include "compare/comparedata.h"

#include <QAbstractTableModel>

#include <vector>

namespace cuwb {

class CompareLinesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        LineColumn,
        InstructionsAColumn,
        InstructionsBColumn,
        SectorsAColumn,
        SectorsBColumn,
        WavefrontsAColumn,
        WavefrontsBColumn,
        FindingsColumn,
        ColumnCount
    };
    enum Role { LineRole = Qt::UserRole + 1, SignificantRole };

    explicit CompareLinesModel(QObject *parent = nullptr);

    void setLines(const std::vector<LineDelta> &lines);
    // Only the lines whose counters differ, or that have a finding on one side only.
    void setShowOnlySignificant(bool only);
    // The lines shown, in the rows' order.
    [[nodiscard]] const std::vector<LineDelta> &lines() const { return m_lines; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    std::vector<LineDelta> m_all;
    std::vector<LineDelta> m_lines;
    bool m_onlySignificant = false;
};

} // namespace cuwb
