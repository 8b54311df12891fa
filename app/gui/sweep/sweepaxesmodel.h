// SweepAxesModel: the axes of a sweep as an editable table, one row per SweepAxis: its target
// (block.x, a variable, -DNAME, <NAME>, -maxrregcount, --use_fast_math), its kind (list,
// range, powers of two), the values of a list (comma-separated; a range's or powers' values are
// shown, not edited), and from / to / step. Cells that do not apply to the row's kind are
// disabled. A row whose values cannot be used (an empty list, a zero step, no power of two in
// its bounds) says why in the Values cell's tooltip and is drawn red.
#pragma once

#include "sweep/sweep.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace cuwb {

class SweepAxesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TargetColumn,
        KindColumn,
        ValuesColumn,
        FromColumn,
        ToColumn,
        StepColumn,
        GroupColumn, // axes of one group are zipped; groups combine as a product
        ColumnCount
    };
    enum Role {
        ChoicesRole = Qt::UserRole + 1, // QStringList: the kinds (Kind column), for ChoiceDelegate
        ChoiceRole,                     // int: the kind's index
        ErrorRole,                      // QString: why the row's values cannot be used
    };

    explicit SweepAxesModel(QObject *parent = nullptr);

    void setAxes(std::vector<SweepAxis> axes);
    [[nodiscard]] const std::vector<SweepAxis> &axes() const { return m_axes; }
    // Appends an axis (block.x from 32 to 1024 step 32 for the first, else an empty list of
    // the next block dimension or variable) and returns its row.
    int addAxis();
    void addAxis(const SweepAxis &axis);
    bool removeAxis(int row);

    // The kinds in the order of the Kind column's choices: list, range, powers of two.
    static QString kindText(AxisValues kind);
    // "8, 16, 32", with the values of a list split at top-level commas (an expression such as
    // min(N, 64) stays whole).
    static QStringList splitValues(const QString &text);
    // The values of a range or powers of two as shown: "32, 64, 96, …, 1024 (32 values)".
    static QString valuesPreview(const SweepAxis &axis);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // Any change of the axes: edited, added, removed or replaced.
    void axesChanged();

private:
    [[nodiscard]] bool applies(int row, int column) const;

    std::vector<SweepAxis> m_axes;
};

} // namespace cuwb
