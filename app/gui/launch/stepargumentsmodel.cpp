#include "gui/launch/stepargumentsmodel.h"
#include "gui/common/theme.h"

#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"
#include "gui/launch/argumentsmodel.h"

#include <QColor>

#include <algorithm>

namespace cuwb {

namespace {} // namespace

StepArgumentsModel::StepArgumentsModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

QString StepArgumentsModel::newBufferChoice()
{
    return tr("new buffer");
}

void StepArgumentsModel::setStep(const std::vector<KernelParameter> &parameters,
                                 const std::vector<ArgumentSpec> &arguments,
                                 const QStringList &buffers)
{
    beginResetModel();
    m_parameters = parameters;
    m_buffers = buffers;
    m_arguments.clear();
    for (const KernelParameter &parameter : parameters) {
        const auto found =
            std::find_if(arguments.begin(), arguments.end(), [&](const ArgumentSpec &argument) {
                return argument.parameter == parameter.name;
            });
        if (found != arguments.end()) {
            m_arguments.push_back(*found);
            continue;
        }
        ArgumentSpec argument;
        argument.parameter = parameter.name;
        argument.isBuffer = parameter.isPointer;
        argument.elementType = parameter.elementType;
        argument.role = parameter.isConst ? BufferRole::In : BufferRole::Out;
        if (parameter.isPointer && buffers.contains(toQString(parameter.name)))
            argument.buffer = parameter.name;
        m_arguments.push_back(std::move(argument));
    }
    evaluate();
    endResetModel();
}

void StepArgumentsModel::setVariables(const Variables &variables)
{
    m_variables = variables;
    evaluate();
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, ValueColumn), index(rowCount() - 1, ValueColumn));
}

void StepArgumentsModel::evaluate()
{
    m_values.clear();
    for (std::size_t row = 0; row < m_arguments.size(); ++row) {
        const ArgumentSpec &argument = m_arguments[row];
        if (argument.isBuffer && !argument.buffer.empty())
            m_values.push_back(ExpressionValue{}); // bound: nothing to evaluate
        else
            m_values.push_back(evaluateExpression(
                argument.isBuffer ? argument.count : argument.value, m_variables));
    }
}

bool StepArgumentsModel::isNewBuffer(int row) const
{
    const ArgumentSpec &argument = m_arguments[std::size_t(row)];
    return argument.isBuffer && argument.buffer.empty();
}

void StepArgumentsModel::changed(int row)
{
    evaluate();
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT argumentsEdited();
}

int StepArgumentsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_arguments.size());
}

int StepArgumentsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepArgumentsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const ArgumentSpec &argument = m_arguments[std::size_t(row)];
    const KernelParameter &parameter = m_parameters[std::size_t(row)];
    const ExpressionValue &value = m_values[std::size_t(row)];
    const bool newBuffer = isNewBuffer(row);
    QStringList choices;
    int choice = -1;
    if (index.column() == BindingColumn && argument.isBuffer) {
        choices = m_buffers;
        choices << newBufferChoice();
        choice = newBuffer ? int(choices.size()) - 1
                           : int(m_buffers.indexOf(toQString(argument.buffer)));
    } else if (index.column() == RoleColumn && newBuffer) {
        choices = ArgumentsModel::roleChoices();
        choice = int(argument.role);
    }
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case ParameterColumn:
            return toQString(parameter.name);
        case TypeColumn:
            return toQString(parameter.typeText);
        case BindingColumn:
            if (!argument.isBuffer)
                return toQString(argument.value);
            return newBuffer ? newBufferChoice() : toQString(argument.buffer);
        case CountColumn:
            return newBuffer ? toQString(argument.count) : QVariant();
        case RoleColumn:
            return newBuffer ? ArgumentsModel::roleChoices().value(int(argument.role)) : QVariant();
        case ValueColumn:
            if (argument.isBuffer && !newBuffer)
                return QVariant();
            return value.ok() ? ExpressionField::valueText(value.value)
                              : ExpressionField::errorText(*value.error);
        }
        break;
    case Qt::ForegroundRole:
        if (index.column() == ValueColumn && !value.ok())
            return Theme::invalidEntry;
        break;
    case Qt::ToolTipRole:
        if (index.column() == BindingColumn && argument.isBuffer)
            return tr("The buffer of the sequence this pointer gets, or a new buffer of its own");
        if (index.column() == ValueColumn && !value.ok())
            return ExpressionField::errorText(*value.error);
        break;
    case ChoicesRole:
        return choices.isEmpty() ? QVariant() : QVariant(choices);
    case ChoiceRole:
        return choice;
    case ErrorRole:
        return value.ok() ? QString() : ExpressionField::errorText(*value.error);
    }
    return {};
}

bool StepArgumentsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.row() >= rowCount())
        return false;
    const int row = index.row();
    ArgumentSpec &argument = m_arguments[std::size_t(row)];
    if (role == ChoiceRole) {
        const int choice = value.toInt();
        if (index.column() == BindingColumn && argument.isBuffer) {
            if (choice < 0 || choice > int(m_buffers.size()))
                return false;
            argument.buffer =
                choice == int(m_buffers.size()) ? std::string() : toStdString(m_buffers[choice]);
        } else if (index.column() == RoleColumn && isNewBuffer(row)) {
            if (choice < 0 || choice > 2)
                return false;
            argument.role = BufferRole(choice);
        } else {
            return false;
        }
        changed(row);
        return true;
    }
    if (role != Qt::EditRole)
        return false;
    const std::string text = toStdString(value.toString().trimmed());
    if (index.column() == BindingColumn && !argument.isBuffer) {
        argument.value = text;
    } else if (index.column() == CountColumn && isNewBuffer(row)) {
        argument.count = text;
    } else {
        return false;
    }
    changed(row);
    return true;
}

Qt::ItemFlags StepArgumentsModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const int row = index.row();
    const bool editable =
        index.column() == BindingColumn ||
        ((index.column() == CountColumn || index.column() == RoleColumn) && isNewBuffer(row));
    if (editable && m_parameters[std::size_t(row)].supported)
        flags |= Qt::ItemIsEditable;
    return flags;
}

QVariant StepArgumentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ParameterColumn:
        return tr("Parameter");
    case TypeColumn:
        return tr("Type");
    case BindingColumn:
        return tr("Buffer or value");
    case CountColumn:
        return tr("Count");
    case RoleColumn:
        return tr("Role");
    case ValueColumn:
        return tr("=");
    }
    return {};
}

} // namespace cuwb
