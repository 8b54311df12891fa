// ArgumentsModel: one row per kernel parameter. Buffers: element type, element-count
// expression, role (in/out/inout) and initial contents; scalars: a value expression. Each
// expression's value (or error) is shown beside it, evaluated with the launch's variables.
// Parameters the launch panel cannot drive are greyed out with the reason.
#pragma once

#include "kernel/kernelsignature.h"
#include "launch/launchspec.h"

#include <QAbstractTableModel>

#include <vector>

namespace cuwb {

class ArgumentsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        ParameterColumn,
        TypeColumn,
        ExpressionColumn, // element count (buffers) or value (scalars)
        ValueColumn,      // what it evaluates to
        RoleColumn,
        ContentsColumn, // initial contents of a buffer
        ColumnCount
    };
    enum Role {
        ChoicesRole = Qt::UserRole + 1, // QStringList offered by a combo box
        ChoiceRole,                     // int: the current choice's index; settable
        ErrorRole,                      // the row's expression error, empty when fine
        SupportedRole,                  // bool
        IsBufferRole,                   // bool
    };

    explicit ArgumentsModel(QObject *parent = nullptr);

    // The parameters and their arguments (matched by name; missing ones get defaults).
    void setArguments(const std::vector<KernelParameter> &parameters,
                      const std::vector<ArgumentSpec> &arguments);
    [[nodiscard]] const std::vector<ArgumentSpec> &arguments() const { return m_arguments; }
    [[nodiscard]] const std::vector<KernelParameter> &parameters() const { return m_parameters; }
    // Re-evaluates the expressions with new variable values.
    void setVariables(const Variables &variables);

    void setInit(int row, const BufferInit &init);
    // Names of the buffer parameters other than `row`'s (for "copy of").
    [[nodiscard]] QStringList otherBuffers(int row) const;

    static QStringList roleChoices();
    static QStringList initChoices();
    // "uniform [0, 1), seed 1"
    static QString initSummary(const BufferInit &init);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void argumentsEdited();

private:
    void evaluate();
    void changed(int row);

    std::vector<KernelParameter> m_parameters;
    std::vector<ArgumentSpec> m_arguments; // one per parameter, same order
    std::vector<ExpressionValue> m_values;
    Variables m_variables;
};

} // namespace cuwb
