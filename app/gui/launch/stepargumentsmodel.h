// StepArgumentsModel: the arguments of one further kernel of a launch sequence, one row per
// parameter of its kernel. A pointer parameter gets one of the sequence's buffers by name, or a
// new buffer of its own (count and role); a scalar gets a value expression. Each expression's
// value (or error) is shown beside it. Edits KernelStep::arguments.
#pragma once

#include "kernel/kernelsignature.h"
#include "launch/launchspec.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace cuwb {

class StepArgumentsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        ParameterColumn,
        TypeColumn,
        BindingColumn, // pointers: a buffer's name or "new buffer"; scalars: the value expression
        CountColumn,   // a new buffer's element count
        RoleColumn,    // a new buffer's role
        ValueColumn,   // what the value or count evaluates to
        ColumnCount
    };
    enum Role {
        ChoicesRole = Qt::UserRole + 1, // QStringList offered by a combo box
        ChoiceRole,                     // int: the current choice's index; settable
        ErrorRole,                      // the row's expression error, empty when fine
    };

    explicit StepArgumentsModel(QObject *parent = nullptr);

    // The kernel's parameters, the step's arguments (matched by name; a missing one binds the
    // buffer of the same name or gets a new one) and the buffers it may bind.
    void setStep(const std::vector<KernelParameter> &parameters,
                 const std::vector<ArgumentSpec> &arguments, const QStringList &buffers);
    [[nodiscard]] const std::vector<ArgumentSpec> &arguments() const { return m_arguments; }
    void setVariables(const Variables &variables);

    // "new buffer" in a pointer's choices, after the sequence's buffers.
    static QString newBufferChoice();

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
    [[nodiscard]] bool isNewBuffer(int row) const;

    std::vector<KernelParameter> m_parameters;
    std::vector<ArgumentSpec> m_arguments; // one per parameter, same order
    std::vector<ExpressionValue> m_values;
    QStringList m_buffers;
    Variables m_variables;
};

} // namespace cuwb
