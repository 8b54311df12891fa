// InspectLinesModel: the source lines of an inspection (core/inspect/linecounters.h) as a
// table, one row per line that executed instructions or was sampled: the line and its text,
// its share of the PC stall samples and their main reasons, its share of the executed
// instructions, global sectors per request against the ideal, shared-memory wavefronts against
// the ideal, and the findings in words. Sortable through SortRole (numbers as numbers).
#pragma once

#include "inspect/linecounters.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <string>
#include <vector>

namespace cuwb {

class InspectLinesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        LineColumn,
        SourceColumn,
        StallsColumn,
        ReasonsColumn,
        ExecutedColumn,
        SectorsColumn,
        IdealSectorsColumn,
        WavefrontsColumn,
        FindingsColumn,
        ColumnCount
    };
    enum Role {
        SourceLineRole = Qt::UserRole + 1, // 1-based line of the main source; 0 for a header's
        SortRole,
    };

    explicit InspectLinesModel(QObject *parent = nullptr);

    // `source`: the inspected text, by line; `fileName`: the name it was compiled under.
    void setSummary(const InspectSummary &summary, const QStringList &source,
                    const std::string &fileName);
    void clear();
    [[nodiscard]] bool hasSamples() const { return m_samples; }
    // The row of a 1-based line of the main source, or -1.
    [[nodiscard]] int rowOfLine(int line) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        LineCounters counters;
        bool main = false; // in the main source
        QString text;      // the line's source, trimmed; "(header.cuh)" for another file's
    };
    std::vector<Row> m_rows;
    bool m_samples = false;
};

} // namespace cuwb
