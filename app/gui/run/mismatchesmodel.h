// MismatchesModel: the first elements a verification found wrong, with the block and thread
// that own each one, the actual and expected values and the error in the tolerance's unit.
#pragma once

#include "run/verification.h"

#include <QAbstractTableModel>

#include <vector>

namespace cuwb {

class MismatchesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        IndexColumn,
        BlockColumn,
        ThreadColumn,
        ActualColumn,
        ExpectedColumn,
        ErrorColumn,
        ColumnCount
    };

    explicit MismatchesModel(QObject *parent = nullptr);

    void setMismatches(const std::vector<Mismatch> &mismatches);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "(3, 0, 0)", or "3" when y and z are 0.
    static QString formatCoordinates(const std::uint64_t (&xyz)[3]);

private:
    std::vector<Mismatch> m_mismatches;
};

} // namespace cuwb
