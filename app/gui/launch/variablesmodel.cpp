#include "gui/launch/variablesmodel.h"

#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"

#include <QColor>
#include <QRegularExpression>

namespace cuwb {

namespace {

bool validName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return pattern.match(name).hasMatch();
}

} // namespace

VariablesModel::VariablesModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void VariablesModel::setDefinitions(const Definitions &definitions)
{
    beginResetModel();
    m_definitions = definitions;
    evaluate();
    endResetModel();
}

void VariablesModel::evaluate()
{
    m_results.assign(m_definitions.size(), ExpressionValue{});
    m_nameErrors.assign(m_definitions.size(), QString());
    m_values.clear();
    Variables scope = m_context;
    for (std::size_t i = 0; i < m_definitions.size(); ++i) {
        const auto &[name, expression] = m_definitions[i];
        const QString qname = toQString(name);
        if (!validName(qname)) {
            m_nameErrors[i] = tr("'%1' is not a valid name").arg(qname);
            continue;
        }
        if (m_values.count(name) > 0) {
            m_nameErrors[i] = tr("'%1' is defined twice").arg(qname);
            continue;
        }
        m_results[i] = evaluateExpression(expression, scope);
        if (m_results[i].ok())
            m_values[name] = scope[name] = m_results[i].value;
    }
}

void VariablesModel::setContext(const Variables &context)
{
    if (context == m_context)
        return;
    m_context = context;
    evaluate();
    if (!m_definitions.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_definitions.size()) - 1, ColumnCount - 1));
}

int VariablesModel::addVariable(const QString &name, const QString &expression)
{
    QString candidate = name;
    if (candidate.isEmpty() || m_values.count(toStdString(candidate)) > 0) {
        const QString base = name.isEmpty() ? QStringLiteral("V") : name;
        int n = 1;
        auto taken = [this](const QString &text) {
            for (const auto &definition : m_definitions)
                if (toQString(definition.first) == text)
                    return true;
            return false;
        };
        do
            candidate = base + QString::number(n++);
        while (taken(candidate));
    }
    const int row = int(m_definitions.size());
    beginInsertRows({}, row, row);
    m_definitions.emplace_back(toStdString(candidate), toStdString(expression));
    evaluate();
    endInsertRows();
    Q_EMIT dataChanged(index(0, ValueColumn), index(row, ValueColumn));
    Q_EMIT definitionsEdited();
    return row;
}

void VariablesModel::removeVariable(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_definitions.erase(m_definitions.begin() + row);
    evaluate();
    endRemoveRows();
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, ValueColumn), index(rowCount() - 1, ValueColumn));
    Q_EMIT definitionsEdited();
}

int VariablesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_definitions.size());
}

int VariablesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VariablesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case ExpressionColumn:
        return tr("Expression");
    case ValueColumn:
        return tr("Value");
    default:
        return {};
    }
}

Qt::ItemFlags VariablesModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags result = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() != ValueColumn)
        result |= Qt::ItemIsEditable;
    return result;
}

QVariant VariablesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const auto &[name, expression] = m_definitions[row];
    const ExpressionValue &result = m_results[row];
    QString error = m_nameErrors[row];
    if (error.isEmpty() && !result.ok())
        error = ExpressionField::errorText(*result.error);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case NameColumn:
            return toQString(name);
        case ExpressionColumn:
            return toQString(expression);
        case ValueColumn:
            if (role == Qt::EditRole)
                return {};
            return error.isEmpty() ? ExpressionField::valueText(result.value) : error;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return error.isEmpty() ? QVariant() : QVariant(error);
    case Qt::ForegroundRole:
        if (!error.isEmpty() && index.column() != NameColumn)
            return QColor(0xc6, 0x28, 0x28);
        if (index.column() == ValueColumn)
            return QColor(0x60, 0x60, 0x60);
        return {};
    case ErrorRole:
        return error;
    default:
        return {};
    }
}

bool VariablesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) ||
        index.column() == ValueColumn)
        return false;
    auto &definition = m_definitions[std::size_t(index.row())];
    const std::string text = toStdString(value.toString().trimmed());
    std::string &target = index.column() == NameColumn ? definition.first : definition.second;
    if (target == text)
        return false;
    target = text;
    evaluate();
    Q_EMIT dataChanged(this->index(index.row(), index.column()),
                       this->index(index.row(), index.column()));
    Q_EMIT dataChanged(this->index(0, ValueColumn), this->index(rowCount() - 1, ValueColumn));
    Q_EMIT definitionsEdited();
    return true;
}

} // namespace cuwb
