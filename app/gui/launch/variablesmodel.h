// VariablesModel: the launch's variables (`N = 1 << 24`), in order, each usable by the ones
// after it and by every other expression. Name and expression are editable; the third column
// shows each value or its error.
#pragma once

#include "launch/expression.h"

#include <QAbstractTableModel>

#include <string>
#include <utility>
#include <vector>

namespace cuwb {

class VariablesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, ExpressionColumn, ValueColumn, ColumnCount };
    enum Role { ErrorRole = Qt::UserRole + 1 }; // the row's error text, empty when fine

    using Definitions = std::vector<std::pair<std::string, std::string>>;

    explicit VariablesModel(QObject *parent = nullptr);

    void setDefinitions(const Definitions &definitions);
    [[nodiscard]] const Definitions &definitions() const { return m_definitions; }
    // The values of every row that evaluated, in order.
    [[nodiscard]] const Variables &values() const { return m_values; }
    // Names the rows may use besides each other (the launch's other names: block, grid,
    // defines), so that a row shows the value the launch will give it.
    void setContext(const Variables &context);

    // Appends a row ("M", "1024") and returns its row; a fresh name when the given one is taken.
    int addVariable(const QString &name = {}, const QString &expression = QStringLiteral("1"));
    void removeVariable(int row);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // The user changed, added or removed a variable.
    void definitionsEdited();

private:
    void evaluate();

    Definitions m_definitions;
    std::vector<ExpressionValue> m_results;
    std::vector<QString> m_nameErrors;
    Variables m_values;
    Variables m_context;
};

} // namespace cuwb
