// BufferSummaryModel: one row per buffer of a RunResult: size, guard-band violations, outputs
// never written and statistics (min, max, mean, NaN and Inf counts); then one row per module
// variable the launch set, "name (global)", with its size and statistics.
#pragma once

#include "run/runresult.h"

#include <QAbstractTableModel>

#include <vector>

namespace cuwb {

class BufferSummaryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        BufferColumn,
        ElementsColumn,
        GuardColumn,
        UnwrittenColumn,
        MinColumn,
        MaxColumn,
        MeanColumn,
        NanColumn,
        InfColumn,
        ColumnCount
    };
    enum Role { ProblemRole = Qt::UserRole + 1 }; // bool: this cell reports a problem

    explicit BufferSummaryModel(QObject *parent = nullptr);

    void setBuffers(const std::vector<BufferReport> &buffers,
                    const std::vector<BufferReport> &globals = {});
    void clear();
    // The rows: the buffers, then the globals.
    [[nodiscard]] const std::vector<BufferReport> &buffers() const { return m_rows; }
    [[nodiscard]] bool isGlobal(int row) const { return row >= m_bufferRows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "1.5", "-3.25e+08": compact, and exact enough for a summary.
    static QString formatNumber(double value);

private:
    std::vector<BufferReport> m_rows;
    int m_bufferRows = 0;
};

} // namespace cuwb
